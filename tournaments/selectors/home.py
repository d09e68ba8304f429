"""The home page: the running and upcoming tournaments, the user's own, their clubs, and
a player's "your match" card in each running tournament (``playing_now``), with the
links to their open live table or draft (asked of the gameplay app by a signal)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.dispatch import Signal
from django.utils.translation import gettext

from core.compiled import rows
from tournaments import formats
from tournaments.models import (
    Match,
    MatchSeat,
    MatchStatus,
    Membership,
    Registration,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import policies
from tournaments.selectors.matches import (
    entrants_of,
    match_to_play,
    matches_to_play,
    play_now,
)
from tournaments.selectors.names import round_title
from tournaments.selectors.timer import RoundClock, round_clock
from tournaments.selectors.tournaments import _visible_to_id, registered_count

if TYPE_CHECKING:
    from core.auth import AnyUser


# --- the player's home during an event ------------------------------------------------------


#: Asked for what a player's cards link to, as annotations of the cards' matches:
#: ``send(sender=Match, user_id=...)``; each receiver answers a dict of expressions on the
#: match's row, among :data:`CARD_LINKS`: ``live_table_id`` (the match's open live table)
#: and ``draft_pod_id`` (the user's open draft pod in the match's tournament). The gameplay
#: app answers it (``gameplay.selectors.home``), connected in its ``AppConfig.ready``: live
#: tables and drafts are its rows, and this app never imports it. Asked once a thread,
#: when the cards' read is built (``core.compiled``): the links cost no query of their own.
card_links = Signal()

#: The annotations a card reads, None when no receiver gives one.
CARD_LINKS = ("live_table_id", "draft_pod_id")

#: What a card reads of its match's entrants: names and the players' user ids.
CARD_ENTRANTS = ("a__player", "b__player", "a__partner", "b__partner")


#: The columns a card reads: the match's seat and status, its round's title and clock, the
#: stage's kind (a pod or not), the entrants' names and members.
CARD_COLUMNS = (
    "table",
    "status",
    "a",
    "b",
    *(
        f"round__{f}"
        for f in ("tournament", "stage", "number", "name", "status", "ends_at", "time_handled_at")
    ),
    *(f"round__stage__{f}" for f in formats.STAGE_COLUMNS),
    *(
        f"{side}__{f}"
        for side in ("a", "b")
        for f in ("team_name", "player", "partner", "partner_accepted_at")
    ),
    *(f"{who}__{f}" for who in CARD_ENTRANTS for f in ("display_name", "user")),
)


@dataclass(frozen=True)
class PlayingNow:
    """A player's "your match" card: "Round 3 · table 4 · vs Bruno", the round's clock,
    the report button (``report``: the result is not confirmed) and the links to their
    open live table or draft."""

    tournament: Tournament
    match: Match
    title: str  # "Round 3", "Quarterfinals"
    table: int
    #: Who they play: "Bruno", a team's name, a pod's other players ("Ann, Bo and Cy");
    #: empty for a bye.
    against: str
    bye: bool
    pod: bool
    clock: RoundClock | None
    report: bool
    live_table_id: int | None
    draft_pod_id: int | None


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _card(
    user_id: int, tournament: Tournament, match: Match, pod_seats: list[MatchSeat]
) -> PlayingNow:
    pod = bool(pod_seats)
    if pod:
        against = _names(
            [s.registration.name for s in pod_seats if not s.registration.has_member(user_id)]
        )
    elif match.b is None:
        against = ""
    else:
        mine_is_a = match.a is not None and match.a.has_member(user_id)
        other = match.b if mine_is_a else match.a
        against = other.name if other is not None else ""
    return PlayingNow(
        tournament=tournament,
        match=match,
        title=round_title(match.round),
        table=match.table,
        against=against,
        bye=match.is_bye and not pod,
        pod=pod,
        clock=round_clock(match.round),
        report=match.status != MatchStatus.CONFIRMED and (pod or not match.is_bye),
        live_table_id=getattr(match, "live_table_id", None),
        draft_pod_id=getattr(match, "draft_pod_id", None),
    )


def playing_now(
    user: AnyUser,
    tournaments: Iterable[Tournament],
    *,
    current: dict[int, int] | None = None,
) -> list[PlayingNow]:
    """The user's card in each of ``tournaments`` that is running and where they have a
    match to play now (``matches.play_now``: their unconfirmed match, else theirs in the
    latest round; ``current``: tournament id -> the match, when the caller found it, as
    :func:`home_page` does; else one query more). At most three queries whatever the
    number of tournaments: the matches to play (unless given), those matches with their
    entrants and links (:data:`card_links`), the seats of pods among them."""
    running = {t.pk: t for t in tournaments if policies.tournament_is_running(t)}
    if not user.is_authenticated or not running:
        return []
    if current is None:
        current = matches_to_play(user.pk, list(running))
    # The matches by their ids: read by index, nothing else of a big event is joined.
    wanted = sorted(match_id for tid, match_id in current.items() if tid in running)
    if not wanted:
        return []
    found = rows("home.cards", _card_matches, user.pk, wanted)
    chosen = {m.round.tournament_id: m for m in found}
    pods: dict[int, list[MatchSeat]] = {}
    pod_matches = [m.pk for m in chosen.values() if formats.format_of(m.round.stage).many_seats]
    if pod_matches:
        for seat in (
            MatchSeat.objects.filter(match_id__in=pod_matches, position__isnull=False)
            .select_related("registration__player", "registration__partner")
            .order_by("position")
        ):
            pods.setdefault(seat.match_id, []).append(seat)
    return [
        _card(user.pk, running[tid], match, pods.get(match.pk, []))
        for tid, match in sorted(chosen.items(), key=lambda kv: running[kv[0]].scheduled_start)
    ]


def _card_matches(user_id: int, match_ids: list[int]) -> QuerySet[Match]:
    """The cards' matches by their ids, with their entrants' players, not their accounts
    (``has_member`` reads the players' user ids), the links the :data:`card_links`
    receivers add, and no ordering: fewer joins, and a plan PostgreSQL makes in a fraction
    of the time (nine tables, not fourteen, at every player's home)."""
    links: dict[str, Any] = {}
    for _, reply in card_links.send(sender=Match, user_id=user_id):
        given: dict[str, Any] = reply if isinstance(reply, dict) else {}
        links.update({name: given[name] for name in CARD_LINKS if name in given})
    return (
        Match.objects.filter(pk__in=match_ids)
        .select_related("round__stage", *CARD_ENTRANTS)
        .annotate(**links)
        .only(*CARD_COLUMNS)
        .order_by()
    )


#: The columns the home's tournament lists show (``_tournament_table.html``), and what its
#: code reads of them (the status, the start): not the descriptions or settings.
LIST_COLUMNS = (
    "name",
    "game",
    "status",
    "capacity",
    "scheduled_start",
    "start_handled_at",
    "club__name",
)


def _open_or_running() -> QuerySet[Tournament]:
    """The running tournaments (under way: they started, maybe hours ago) and those open
    for registration (coming up), first ten by their start. Everyone sees them alike (no
    draft is open or running): no question of who may see what, no checked-in count."""
    return (
        Tournament.objects.select_related("club")
        .annotate(registered_count=registered_count())
        .filter(status__in=[TournamentStatus.REGISTRATION, TournamentStatus.RUNNING])
        .only(*LIST_COLUMNS)
        .order_by("scheduled_start")[:10]
    )


def _mine(user_id: int) -> QuerySet[Tournament]:
    """The user's unfinished tournaments that they may see, with how many play (not how
    many checked in: no list shows it), each one's latest round and the user's match to
    play now (their latest unconfirmed one, else their latest one if it is in the latest
    round), each found by index from the user's registrations (``entrants_of``): the
    cards then read just those matches."""
    entered = Registration.objects.filter(pk__in=entrants_of(user_id)).values("tournament_id")
    return (
        Tournament.objects.select_related("club")
        .annotate(registered_count=registered_count())
        .filter(_visible_to_id(user_id), pk__in=entered)
        .exclude(status=TournamentStatus.FINISHED)
        .annotate(**play_now(user_id))
        .only(*LIST_COLUMNS)
        .order_by("scheduled_start")
    )


def _listed_and_mine(user_id: int) -> QuerySet[Tournament]:
    """:func:`_open_or_running` and :func:`_mine` in one statement (``listed``: 1 for the
    first, 0 for the second; the caller sorts each by start): a tournament that is in
    both is counted once, in :func:`_mine` (its row in the list has no count), and the
    home asks one question fewer. The first ten are chosen in a subquery, so that neither
    side of the union is sorted or cut (SQLite, the embedded default, refuses both)."""
    first_ten = _open_or_running().values("pk")
    entered = Registration.objects.filter(pk__in=entrants_of(user_id)).values("tournament_id")
    nothing = Value(None, output_field=IntegerField())
    listed = (
        Tournament.objects.select_related("club")
        .filter(pk__in=first_ten)
        .annotate(
            registered_count=Case(When(pk__in=entered, then=nothing), default=registered_count()),
            latest_round=nothing,
            open_match=nothing,
            last_match=nothing,
            listed=Value(1),
        )
        .only(*LIST_COLUMNS)
        .order_by()
    )
    return listed.union(_mine(user_id).annotate(listed=Value(0)).order_by(), all=True)


def _by_start(tournaments: Iterable[Any]) -> list[Any]:
    return sorted(tournaments, key=lambda t: (t.scheduled_start, t.pk))


def _clubs(user_id: int) -> QuerySet[Membership]:
    return Membership.objects.filter(user_id=user_id).select_related("club").order_by("club__name")


def home_page(user: AnyUser) -> dict[str, Any]:
    """The home page's lists: running and upcoming tournaments and the user's unfinished
    ones (one query: :func:`_listed_and_mine`), their clubs (one more, whatever the number
    of rows), and ``playing``: a "your match" card for each running tournament where the
    user has a match now (``playing_now``: 2 queries more, 3 with a pod, whatever the
    number of tournaments). Each read is compiled once per thread (``core.compiled``): every player
    opens this page at a round's start."""
    mine: list[Any] = []  # Tournament rows with their annotations
    clubs: list[Membership] = []
    if user.is_authenticated:
        both = rows("home.listed_and_mine", _listed_and_mine, user.pk)
        mine = _by_start(t for t in both if not t.listed)
        open_or_running: list[Any] = _by_start(t for t in both if t.listed)
        counted = {t.pk: t.registered_count for t in mine}
        for row in open_or_running:
            if row.registered_count is None:  # the user's: counted in ``mine``
                row.registered_count = counted.get(row.pk)
        clubs = rows("home.clubs", _clubs, user.pk)
    else:
        open_or_running = rows("home.open_or_running", _open_or_running)
    current = {t.pk: match for t in mine if (match := match_to_play(t))}
    return {
        "running": [t for t in open_or_running if t.status == TournamentStatus.RUNNING],
        "upcoming": [t for t in open_or_running if t.status != TournamentStatus.RUNNING],
        "mine": mine,
        "my_clubs": clubs,
        "playing": playing_now(user, mine, current=current),
    }
