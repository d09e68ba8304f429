"""Reads about tournaments: what a user may see, registrations, stages, the audit log
and the event feed."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.db.models import Count, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery, Window
from django.db.models.functions import Coalesce
from django.utils.translation import gettext

from core.compiled import rows
from core.errors import NotFound
from core.events import EventKind
from core.models import AuditEntry, Event
from rules.outcome import GameOptions
from tournaments import formats
from tournaments.models import (
    MANAGING_ROLES,
    Club,
    Match,
    Membership,
    Player,
    Registration,
    RegistrationStatus,
    Round,
    Stage,
    StageStatus,
    SwissSettings,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors.paging import Page, Paging, page_read

if TYPE_CHECKING:
    from core.auth import AnyUser


def visible_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    """Published tournaments for everyone; drafts only for their club's managers."""
    return _with_counts().filter(_visible_to(user))


def _with_counts() -> QuerySet[Tournament]:
    return Tournament.objects.select_related("club").annotate(
        registered_count=registered_count(),
        checked_in_count=registered_count(checked_in_at__isnull=False),
    )


def visible_tournament(user: AnyUser, pk: int, *, counted: bool = False) -> Tournament | None:
    """Tournament ``pk`` with its club, if ``user`` may see it; ``counted``: with the counts
    :func:`visible_tournaments` adds (each a count of the entrants: a page that shows none
    leaves them out). Compiled once a thread (``core.compiled``): every tournament page
    reads it."""
    build = _visible_counted if counted else _visible_by_key
    if user.is_authenticated:
        found = rows(f"tournaments.visible.user.{counted}", build, pk, user.pk)
    else:
        found = rows(f"tournaments.visible.anonymous.{counted}", build, pk)
    return found[0] if found else None


def _visible_by_key(pk: int, user_id: int | None = None) -> QuerySet[Tournament]:
    visible = Tournament.objects.select_related("club")
    return visible.filter(_visible_to_id(user_id), pk=pk).order_by()


def _visible_counted(pk: int, user_id: int | None = None) -> QuerySet[Tournament]:
    return _with_counts().filter(_visible_to_id(user_id), pk=pk).order_by()


def registered_count(**more: Any) -> Coalesce:
    """A tournament's entrants playing (registered; ``more``: and these lookups), as an
    annotation: a count by the registrations' tournament index for each tournament, not a
    join of every registration grouped by the tournament's whole row (at 2,048 entrants,
    a sort of 2,048 wide rows on every tournament page). It counts rows, not ids: the
    index on (tournament, status) answers ``count(*)`` alone (an index-only scan), where
    ``count(id)`` reads every row of the table (0.7 against 0.4 ms at 2,048)."""
    counted = (
        Registration.objects.filter(
            tournament=OuterRef("pk"), status=RegistrationStatus.REGISTERED, **more
        )
        .order_by()
        .values("tournament")
        .annotate(n=Count("*"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def _visible_to(user: AnyUser) -> Q:
    """Which tournaments ``user`` may see: published ones, and their clubs' drafts."""
    return _visible_to_id(user.pk if user.is_authenticated else None)


def _visible_to_id(user_id: int | None) -> Q:
    """:func:`_visible_to` by the user's id (None: anonymous)."""
    published = ~Q(status=TournamentStatus.DRAFT)
    if user_id is None:
        return published
    managed_clubs = Membership.objects.filter(user_id=user_id, role__in=MANAGING_ROLES)
    return published | Q(club__in=managed_clubs.values("club"))


def tournament_is_visible(user: AnyUser, pk: int) -> bool:
    """Whether tournament ``pk`` exists and ``user`` may see it (as
    :func:`visible_tournaments` decides): its status alone, one small query; a draft's
    managers, one more. For a page that needs nothing else of the tournament."""
    status = Tournament.objects.filter(pk=pk).values_list("status", flat=True).first()
    if status is None:
        return False
    if status != TournamentStatus.DRAFT:
        return True
    return Tournament.objects.filter(_visible_to(user), pk=pk).exists()


def visible_tournament_ids(user: AnyUser) -> QuerySet[Tournament, Any]:
    """The ids of the tournaments ``user`` may see, as a subquery for other apps' reads."""
    return Tournament.objects.filter(_visible_to(user)).values("pk")


def match_visible_to(user: AnyUser, match_id: int) -> bool:
    """Whether the match exists in a tournament ``user`` may see: one small query (what
    the result posts check before the service locks and reads the match itself)."""
    visible = Tournament.objects.filter(_visible_to(user)).values("pk")
    return Match.objects.filter(pk=match_id, round__tournament__in=visible).exists()


def stage_visible_to(user: AnyUser, stage_id: int) -> bool:
    """Whether the stage exists in a tournament ``user`` may see (one query)."""
    visible = Tournament.objects.filter(_visible_to(user)).values("pk")
    return Stage.objects.filter(pk=stage_id, tournament__in=visible).exists()


def member_of_entrant(user_id: int, prefix: str = "") -> Q:
    """Rows whose registration (at ``prefix``, e.g. ``"registration__"``) the user plays
    for: the player, or a team's accepted teammate (``Registration.has_member``)."""
    return Q(**{f"{prefix}player__user_id": user_id}) | Q(
        **{f"{prefix}partner__user_id": user_id, f"{prefix}partner_accepted_at__isnull": False}
    )


def tournament_registrations(
    tournament: Tournament, *, accounts: bool = True
) -> QuerySet[Registration]:
    """The tournament's registrations in the players list's order, with their players
    and partners (and their accounts, unless ``accounts`` is False: the tournament page
    needs none, and at 2,048 entrants they are two fifths of the rows read)."""
    if accounts:
        related = ["player", "player__user", "partner", "partner__user"]
        return tournament.registrations.select_related(*related).order_by(*_LIST_ORDER)
    # Times no page shows stay in the database: each costs a parse per row.
    return (
        tournament.registrations.select_related("player", "partner")
        .defer(*UNSHOWN_TIMES)
        .order_by(*_LIST_ORDER)
    )


_LIST_ORDER = ("status", "registered_at", "id")

#: A registration's times no page shows (read on access: a template never asks for them).
UNSHOWN_TIMES = (
    "registered_at",
    "updated_at",
    "player__created_at",
    "player__claimed_at",
    "partner__created_at",
    "partner__claimed_at",
)


#: The longest search the players list and the API take (a name is at most 80 characters).
SEARCH_MAX = 80


def search_registrations(
    registrations: QuerySet[Registration], query: str
) -> QuerySet[Registration]:
    """``registrations`` whose player, teammate, team or account name contains ``query``
    (case aside; blank: all). The caller bounds the query (:data:`SEARCH_MAX`)."""
    query = " ".join(query.split())[:SEARCH_MAX]
    if not query:
        return registrations
    return registrations.filter(
        Q(player__display_name__icontains=query)
        | Q(player__user__username__icontains=query)
        | Q(partner__display_name__icontains=query)
        | Q(partner__user__username__icontains=query)
        | Q(team_name__icontains=query)
    )


def registrations_by_id(tournament: Tournament, ids: list[int]) -> dict[int, Registration]:
    """The tournament's registrations among ``ids``, by id, with their players (1 query)."""
    return {
        r.pk: r
        for r in Registration.objects.select_related("player", "partner").filter(
            tournament=tournament, pk__in=ids
        )
    }


def active_registration_count(tournament: Tournament) -> int:
    return tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()


#: The names "Not playing" lists at most; the rest are counted ("and 40 more").
NOT_PLAYING_SHOWN = 20


@dataclass(frozen=True)
class RegistrationsPanel:
    """What the tournament page shows of its registrations (:func:`registrations_panel`)."""

    #: Entrants playing (registered), before any search: "Players (2048 / 4096)".
    registered: int
    #: The shown page of those playing (of what the search found, with a search).
    page: Page[Registration]
    #: The first :data:`NOT_PLAYING_SHOWN` not playing (withdrawn, dropped, ...) and how
    #: many more there are.
    not_playing: list[Registration]
    not_playing_more: int
    #: The reader's own registration (an active one first) and the teams inviting them.
    mine: Registration | None
    invitations: list[Registration]


def registrations_panel(
    tournament: Tournament, user: AnyUser, paging: Paging
) -> RegistrationsPanel:
    """The tournament page's registrations without reading them all: the page of the
    players list asked for (``paging.query``: a search, :func:`search_registrations`),
    the first few not playing, and the reader's own registration and invitations. At most
    four queries whatever the number of entrants: the page's rows, a count of what a
    search found (with a search only), the not playing (with their count, one query), and
    the reader's own rows (signed in only). The count of entrants playing is the
    tournament's ``registered_count`` (``visible_tournaments``), else one query more."""
    registered = getattr(tournament, "registered_count", None)
    if registered is None:
        registered = active_registration_count(tournament)
    rows = tournament.registrations.select_related("player", "partner").defer(*UNSHOWN_TIMES)
    playing = rows.filter(status=RegistrationStatus.REGISTERED)
    gone = rows.exclude(status=RegistrationStatus.REGISTERED)
    total = registered
    if paging.query:
        playing = search_registrations(playing, paging.query)
        gone = search_registrations(gone, paging.query)
        total = playing.count()
    ordered = playing.order_by(*_LIST_ORDER)

    def read(start: int, stop: int | None) -> list[Registration]:
        return list(ordered[start:stop])

    page: Page[Registration] = page_read(
        total, replace(paging, query=""), read, unfiltered=registered
    )
    # The first few, each with the count of all (a window: one query).
    not_playing: list[Registration] = list(
        gone.annotate(listed=Window(Count("pk"))).order_by(*_LIST_ORDER)[:NOT_PLAYING_SHOWN]
    )
    listed = int(getattr(not_playing[0], "listed", 0)) if not_playing else 0
    mine: Registration | None = None
    invitations: list[Registration] = []
    if user.is_authenticated:
        own = list(
            rows.filter(Q(player__user_id=user.pk) | Q(partner__user_id=user.pk)).order_by(
                *_LIST_ORDER
            )
        )
        members = [r for r in own if r.has_member(user.pk)]
        mine = next((r for r in members if r.is_active), members[0] if members else None)
        invitations = [r for r in own if r.is_active and r.is_invited(user.pk)]
    return RegistrationsPanel(
        registered=registered,
        page=page,
        not_playing=not_playing,
        not_playing_more=listed - len(not_playing),
        mine=mine,
        invitations=invitations,
    )


def final_placements(tournament: Tournament, most: int) -> list[Registration]:
    """The first ``most`` entrants by final place (stored at the finish), and one more if
    there are more (the caller says "All final results"): one query."""
    return list(
        tournament.registrations.filter(final_place__isnull=False)
        .select_related("player", "partner")
        .defer(*UNSHOWN_TIMES)
        .order_by("final_place", "pk")[: most + 1]
    )


def audit_log(
    *, club: Club | None = None, tournament: Tournament | None = None
) -> QuerySet[AuditEntry]:
    qs = AuditEntry.objects.select_related("actor")
    if club is not None:
        qs = qs.filter(club=club)
    if tournament is not None:
        qs = qs.filter(tournament=tournament)
    return qs


def tournament_by_pk(pk: int) -> Tournament:
    """A fresh copy of the row (a form's ``instance`` was changed by validation)."""
    return Tournament.objects.select_related("club").get(pk=pk)


def tournament_events(tournament: Tournament, *, after: int | None = None) -> QuerySet[Event]:
    qs = tournament.events.all()
    if after is not None:
        qs = qs.filter(pk__gt=after)
    return qs.order_by("-pk")


#: Feed kinds whose payload holds players' figures across events (issue 26): a hidden
#: profile's are withheld from the public feed (``Player.profile_hidden``).
_PER_PLAYER_KINDS = {EventKind.RATINGS_CHANGED, EventKind.SEASON_STANDINGS}


def feed_events(
    tournament: Tournament, *, after: int | None = None, most: int = 200
) -> list[Event]:
    """The feed's latest events, newest first, with a hidden profile's figures left out of
    the per-player kinds' payloads (their entries removed from every parallel list,
    counted in ``withheld``): 2 queries, whatever the number of events."""
    events = list(tournament_events(tournament, after=after)[:most])
    per_player = [e for e in events if e.kind in _PER_PLAYER_KINDS]
    ids = {p for e in per_player for p in e.payload.get("players", []) if isinstance(p, int)}
    hidden = (
        set(Player.objects.filter(pk__in=ids, profile_hidden=True).values_list("pk", flat=True))
        if ids
        else set()
    )
    for event in per_player:
        event.payload = withhold(event.payload, hidden)
    return events


def withhold(payload: dict[str, Any], hidden: set[int]) -> dict[str, Any]:
    """The payload without the hidden players' entries in its lists parallel to
    ``players``, and how many were left out (``withheld``)."""
    players = payload.get("players", [])
    keep = [i for i, p in enumerate(players) if p not in hidden]
    out = {
        key: [value[i] for i in keep]
        if isinstance(value, list) and len(value) == len(players)
        else value
        for key, value in payload.items()
    }
    out["withheld"] = len(players) - len(keep)
    return out


def tournament_stages(tournament: Tournament) -> list[Stage]:
    """The tournament's stages in order (1 query)."""
    return list(Stage.objects.filter(tournament=tournament).order_by("number"))


def stages_with_rounds(tournament: Tournament) -> QuerySet[Stage]:
    """The tournament's stages in order, each with its rounds' numbers in order
    (``stage.rounds.all()``): 2 queries however many stages and rounds."""
    rounds = Round.objects.only("pk", "stage_id", "number").order_by("number")
    return (
        Stage.objects.filter(tournament=tournament)
        .select_related("bracket")
        .order_by("number")
        .prefetch_related(Prefetch("rounds", queryset=rounds))
    )


def _swiss_kinds() -> tuple[str, ...]:
    """The kinds whose settings are ``SwissSettings`` (the Swiss)."""
    return formats.kinds(lambda f: f.settings_relation == "swiss")


def swiss_stage(tournament: Tournament) -> Stage:
    """The tournament's (first) Swiss stage, with its settings (a 404 when it has none)."""
    stage = (
        Stage.objects.select_related("swiss")
        .filter(tournament=tournament, kind__in=_swiss_kinds())
        .order_by("number")
        .first()
    )
    if stage is None:
        raise NotFound(
            gettext("%(tournament)s has no Swiss stage.") % {"tournament": tournament.name},
            code="no_swiss_stage",
        )
    return stage


def swiss_settings_of(tournament: Tournament) -> SwissSettings:
    """How the tournament's Swiss stage runs (read only: no row is created here)."""
    return swiss_stage(tournament).swiss


def swiss_settings_or_defaults(tournament: Tournament) -> SwissSettings:
    """The Swiss stage's settings, or the defaults (unsaved) for a tournament without one:
    what standings and result checks read (one query)."""
    return (
        SwissSettings.objects.filter(stage__tournament=tournament, stage__kind__in=_swiss_kinds())
        .order_by("stage__number")
        .first()
    ) or SwissSettings()


def current_stage(tournament: Tournament) -> Stage | None:
    """The running stage; else the last complete one; else the first (1 query)."""
    stages = tournament_stages(tournament)
    running = [s for s in stages if s.status == StageStatus.RUNNING]
    if running:
        return running[0]
    complete = [s for s in stages if s.status == StageStatus.COMPLETE]
    return complete[-1] if complete else (stages[0] if stages else None)


def game_options(tournament: Tournament) -> GameOptions:
    """The game options of the tournament's Swiss stage (game rounds to win, Kontsina's
    game rounds); one query."""
    settings = swiss_settings_or_defaults(tournament)
    return GameOptions(
        rounds_to_win=settings.rounds_to_win, kontsina_rounds=settings.kontsina_rounds
    )


def round_game_options(rnd: Round) -> GameOptions:
    """The game options a round's matches are played under: its stage's Swiss settings when
    it is a Swiss stage read with them (``select_related("stage__swiss")``: no query), else
    the tournament's (:func:`game_options`)."""
    stage = rnd.stage
    if formats.format_of(stage).settings_relation == "swiss":
        try:
            settings = stage.swiss
        except SwissSettings.DoesNotExist:
            settings = SwissSettings()
        return GameOptions(
            rounds_to_win=settings.rounds_to_win, kontsina_rounds=settings.kontsina_rounds
        )
    return game_options(rnd.tournament)


def tournament_search(
    user: AnyUser, *, status: str | None = None, game: str | None = None, query: str = ""
) -> QuerySet[Tournament]:
    """Visible tournaments filtered as the list page asks (unknown statuses are ignored),
    newest first, at most 200."""
    tournaments = visible_tournaments(user)
    if status in TournamentStatus.values:
        tournaments = tournaments.filter(status=status)
    if game:
        tournaments = tournaments.filter(game=game)
    query = query.strip()
    if query:
        tournaments = tournaments.filter(Q(name__icontains=query) | Q(club__name__icontains=query))
    return tournaments.order_by("-scheduled_start")[:200]


def registrations_of(player: Player) -> QuerySet[Registration]:
    """A player's entries, newest tournament first (the profile page)."""
    return (
        Registration.objects.filter(player=player)
        .select_related("tournament", "tournament__club")
        .order_by("-tournament__scheduled_start")
    )
