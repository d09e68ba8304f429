"""A player's life across events (issue 26): every event they played in any club of the
site, their ratings per club and game with their history, their head-to-head against each
opponent; and the club-wide lists that name players (the ratings board, the results feed).

Terms:
- *Played*: a registration of the player (as its player, or as a team's accepted
  partner) in a published tournament with at least one seat in a match.
- *Record*: wins, losses and draws over the entrant's confirmed matches: a drawn match
  (``Match.winner`` draw) a draw, first place (a bye, a two-seat match won, a pod won) a
  win, any other place a loss.
- *Head-to-head*: over confirmed matches where the two sat at different seats, the
  better place wins (a two-seat match: the winner; a pod: who finished higher), an equal
  place is a draw.
- *Hidden*: ``Player.profile_hidden``. Their own page and API answer "private" to anyone
  but themselves; in a club-wide list (ratings board, head-to-head lists, the results
  feed) their row stays with the name withheld and no id (:class:`PersonRef`).

Every read here is a fixed number of statements, whatever the number of events, matches
or opponents (the tests count them).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, F, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext, pgettext

from core.auth import AnyUser
from seasons.models import Rating, RatingChange
from seasons.rating import PROVISIONAL_MATCHES
from tournaments.models import (
    Club,
    Game,
    Match,
    MatchSeat,
    MatchStatus,
    Player,
    Registration,
    Stage,
    TournamentStatus,
    Winner,
)
from tournaments.selectors.names import round_name
from tournaments.selectors.paging import Page, Paging, page_of, page_read

#: Events a page of the player's history shows.
EVENTS_PAGE = 20
#: Opponents a page of the head-to-head list shows.
OPPONENTS_PAGE = 20
#: The rating changes listed as text under each chart (the chart draws them all).
HISTORY_TEXT = 10


def private_name() -> str:
    """What a hidden player is called in a club-wide list, in the reader's language."""
    return pgettext("a player who hides their player page", "Private player")


@dataclass(frozen=True)
class PersonRef:
    """A player as a cross-event list names them: ``id`` and ``name``, both None and
    the private name when they hide their page."""

    id: int | None
    name: str
    hidden: bool

    @classmethod
    def of(cls, pk: int, name: str, hidden: bool) -> PersonRef:
        if hidden:
            return cls(None, private_name(), True)
        return cls(pk, name, False)


# --- who may see a player's page --------------------------------------------------------


def player_by_id(pk: int) -> Player | None:
    """Player ``pk`` (the fields a page and its privacy check read), or None."""
    return (
        Player.objects.filter(pk=pk)
        .only("pk", "display_name", "profile_hidden", "user_id", "club_id", "created_at")
        .first()
    )


def is_own(viewer: AnyUser, player: Player) -> bool:
    """Whether ``viewer`` is the account behind ``player``."""
    return bool(viewer.is_authenticated and player.user_id == viewer.pk)


def may_see(viewer: AnyUser, player: Player) -> bool:
    """A player's life is public unless they hide it; they always see their own."""
    return not player.profile_hidden or is_own(viewer, player)


def member_of(player_id: int, prefix: str = "") -> Q:
    """The registrations ``player_id`` plays for (``prefix``: through a relation)."""
    return Q(**{f"{prefix}player_id": player_id}) | Q(
        **{f"{prefix}partner_id": player_id, f"{prefix}partner_accepted_at__isnull": False}
    )


def _registrations_of(player_id: int) -> QuerySet[Registration]:
    return Registration.objects.filter(member_of(player_id)).exclude(
        tournament__status=TournamentStatus.DRAFT
    )


# --- the events they played ------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def matches(self) -> int:
        return self.wins + self.losses + self.draws

    def __str__(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"


@dataclass(frozen=True)
class EventRow:
    """One event the player played, as their history lists it."""

    registration_id: int
    tournament_id: int
    tournament_name: str
    club_slug: str
    club_name: str
    date: datetime
    game: str
    game_label: str
    finished: bool
    #: The stages' kinds in order (codes) and their words ("Swiss, Single elimination").
    formats: tuple[str, ...]
    format_label: str
    team_name: str
    #: A team's other member (None: a single player's entry).
    teammate: PersonRef | None
    final_place: int | None
    #: Entrants who played in the event (the "24" of "3rd of 24").
    field_size: int
    record: Record


def _played() -> Exists:
    return Exists(MatchSeat.objects.filter(registration=OuterRef("pk")))


def _event_rows(player_id: int) -> QuerySet[Registration]:
    field_size = (
        Registration.objects.filter(tournament=OuterRef("tournament"))
        .filter(Exists(MatchSeat.objects.filter(registration=OuterRef("pk"))))
        .order_by()
        .values("tournament")
        .annotate(n=Count("*"))
        .values("n")
    )
    return (
        _registrations_of(player_id)
        .filter(_played())
        .select_related("tournament__club", "player", "partner")
        .annotate(field_size=Coalesce(Subquery(field_size, output_field=IntegerField()), 0))
        .order_by("-tournament__scheduled_start", "-tournament_id")
    )


def records_of(registration_ids: Iterable[int]) -> dict[int, Record]:
    """Each registration's record over its confirmed matches (one statement)."""
    confirmed = Q(match__status=MatchStatus.CONFIRMED)
    drawn = confirmed & Q(match__winner=Winner.DRAW)
    won = confirmed & Q(place=1) & ~Q(match__winner=Winner.DRAW)
    lost = confirmed & Q(place__gt=1) & ~Q(match__winner=Winner.DRAW)
    rows = (
        MatchSeat.objects.filter(registration_id__in=list(registration_ids))
        .order_by()
        .values("registration_id")
        .annotate(
            w=Count("pk", filter=won), lost=Count("pk", filter=lost), d=Count("pk", filter=drawn)
        )
    )
    return {r["registration_id"]: Record(r["w"], r["lost"], r["d"]) for r in rows}


def _formats_of(tournament_ids: Iterable[int]) -> dict[int, tuple[tuple[str, str], ...]]:
    """Each tournament's stages in order: (kind, kind's words) (one statement)."""
    found: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for stage in Stage.objects.filter(tournament_id__in=list(tournament_ids)).order_by(
        "tournament_id", "number"
    ):
        found[stage.tournament_id].append((stage.kind, str(stage.get_kind_display())))
    return {pk: tuple(kinds) for pk, kinds in found.items()}


def _teammate(registration: Registration, player_id: int) -> PersonRef | None:
    if not registration.team_name or registration.partner_accepted_at is None:
        return None
    other = registration.partner if registration.player_id == player_id else registration.player
    if other is None:
        return None
    return PersonRef.of(other.pk, other.display_name, other.profile_hidden)


def _event_row(
    registration: Registration,
    player_id: int,
    records: dict[int, Record],
    formats: dict[int, tuple[tuple[str, str], ...]],
) -> EventRow:
    tournament = registration.tournament
    kinds = formats.get(tournament.pk, ())
    return EventRow(
        registration_id=registration.pk,
        tournament_id=tournament.pk,
        tournament_name=tournament.name,
        club_slug=tournament.club.slug,
        club_name=tournament.club.name,
        date=tournament.scheduled_start,
        game=tournament.game,
        game_label=str(tournament.get_game_display()),
        finished=tournament.status == TournamentStatus.FINISHED,
        formats=tuple(kind for kind, _ in kinds),
        format_label=pgettext("between a tournament's stages", ", ").join(w for _, w in kinds),
        team_name=registration.team_name,
        teammate=_teammate(registration, player_id),
        final_place=registration.final_place,
        field_size=registration.field_size,  # type: ignore[attr-defined]
        record=records.get(registration.pk, Record()),
    )


def events_page(player_id: int, paging: Paging, *, size: int = EVENTS_PAGE) -> Page[EventRow]:
    """The events ``player_id`` played, newest first, a page at a time: four statements
    (the count, the page, the records, the stages), whatever the page's events."""
    rows = _event_rows(player_id)
    total = _registrations_of(player_id).filter(_played()).count()

    def read(start: int, stop: int | None) -> list[EventRow]:
        registrations = list(rows[start:stop])
        if not registrations:
            return []
        records = records_of(r.pk for r in registrations)
        formats = _formats_of({r.tournament_id for r in registrations})
        return [_event_row(r, player_id, records, formats) for r in registrations]

    return page_read(total, paging, read, size=size)


# --- ratings ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingPoint:
    """The player's rating after one rated match."""

    position: int
    rating: float
    mu: float
    sigma: float
    matches: int
    match_id: int
    tournament_id: int
    tournament_name: str
    date: datetime


@dataclass(frozen=True)
class PlayerRating:
    """The player's rating in one club's game, with its history (oldest first)."""

    club_id: int
    club_slug: str
    club_name: str
    game: str
    game_label: str
    rating: float
    mu: float
    sigma: float
    matches: int
    history: list[RatingPoint] = field(default_factory=list)

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES

    @property
    def recent(self) -> list[RatingPoint]:
        """The last changes, newest first: the chart's figures as text."""
        return self.history[-HISTORY_TEXT:][::-1]


def ratings_of(player_id: int, *, history: bool = True) -> list[PlayerRating]:
    """The player's ratings by club and game, each with its history (two statements)."""
    ratings = list(
        Rating.objects.filter(player_id=player_id)
        .select_related("club")
        .only("club__slug", "club__name", "game", "mu", "sigma", "ordinal", "matches")
        .order_by("club__name", "club_id", "game")
    )
    points: dict[tuple[int, str], list[RatingPoint]] = defaultdict(list)
    if history and ratings:
        changes = (
            RatingChange.objects.filter(player_id=player_id)
            .order_by("club_id", "game", "position")
            .values_list(
                "club_id",
                "game",
                "position",
                "mu_after",
                "sigma_after",
                "match_id",
                "match__round__tournament_id",
                "match__round__tournament__name",
                "match__round__tournament__scheduled_start",
            )
        )
        for club_id, game, position, mu, sigma, match_id, t_id, t_name, t_date in changes:
            kept = points[(club_id, game)]
            kept.append(
                RatingPoint(
                    position,
                    mu - 3 * sigma,
                    mu,
                    sigma,
                    len(kept) + 1,
                    match_id,
                    t_id,
                    t_name,
                    t_date,
                )
            )
    return [
        PlayerRating(
            club_id=r.club_id,
            club_slug=r.club.slug,
            club_name=r.club.name,
            game=r.game,
            game_label=str(r.get_game_display()),
            rating=r.ordinal,
            mu=r.mu,
            sigma=r.sigma,
            matches=r.matches,
            history=points.get((r.club_id, r.game), []),
        )
        for r in ratings
    ]


# --- head-to-head ----------------------------------------------------------------------


@dataclass
class Opponent:
    """One opponent and the player's record against them."""

    who: PersonRef
    #: The opponent's id, kept for sorting and grouping only (never shown when hidden).
    key: int
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def matches(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def record(self) -> Record:
        return Record(self.wins, self.losses, self.draws)


def _tally(row: Opponent, mine: int, theirs: Any, drawn: bool) -> None:
    if drawn or mine == theirs:
        row.draws += 1
    elif mine < theirs:
        row.wins += 1
    else:
        row.losses += 1


def opponents_of(player_id: int) -> list[Opponent]:
    """Everyone the player met in a confirmed match (a team's both members), with the
    player's record against each, most met first (two statements)."""
    mine: dict[int, Any] = dict(
        MatchSeat.objects.filter(
            registration__in=_registrations_of(player_id).values("pk"),
            match__status=MatchStatus.CONFIRMED,
            place__isnull=False,
        ).values_list("match_id", "place")
    )
    if not mine:
        return []
    others = (
        MatchSeat.objects.filter(match_id__in=list(mine), place__isnull=False)
        .exclude(registration__in=_registrations_of(player_id).values("pk"))
        .values_list(
            "match_id",
            "place",
            "match__winner",
            "registration__player_id",
            "registration__player__display_name",
            "registration__player__profile_hidden",
            "registration__partner_id",
            "registration__partner__display_name",
            "registration__partner__profile_hidden",
            "registration__partner_accepted_at",
        )
    )
    found: dict[int, Opponent] = {}
    row: tuple[Any, ...]
    for row in others:
        match_id, place, winner, p_id, p_name, p_hidden, q_id, q_name, q_hidden, accepted = row
        members = [(p_id, p_name, p_hidden)]
        if q_id is not None and accepted is not None:
            members.append((q_id, q_name, q_hidden))
        for pk, name, hidden in members:
            if pk == player_id:
                continue
            met = found.get(pk)
            if met is None:
                met = found[pk] = Opponent(PersonRef.of(pk, name, hidden), pk)
            _tally(met, mine[match_id], place, winner == Winner.DRAW)
    return sorted(found.values(), key=lambda o: (-o.matches, o.who.hidden, o.who.name, o.key))


def opponents_page(player_id: int, paging: Paging) -> Page[Opponent]:
    return page_of(opponents_of(player_id), paging, size=OPPONENTS_PAGE)


@dataclass(frozen=True)
class Meeting:
    """One confirmed match between the two players."""

    match_id: int
    tournament_id: int
    tournament_name: str
    club_name: str
    date: datetime
    round_title: str
    table: int
    #: "win", "loss" or "draw", from the first player's side.
    outcome: str
    place: int
    their_place: int
    seats: int


def _round_title(code: str, number: int) -> str:
    if not code:
        return gettext("Round %(round)d") % {"round": number}
    return round_name(code)


def meetings(player_id: int, other_id: int) -> list[Meeting]:
    """Every confirmed match where the two sat at different seats, newest first (one
    statement)."""
    theirs = _registrations_of(other_id).values("pk")
    mine = _registrations_of(player_id).values("pk")

    def place_of(registrations: QuerySet[Any]) -> Subquery:
        seat = MatchSeat.objects.filter(match=OuterRef("pk"), registration__in=registrations)
        return Subquery(seat.values("place")[:1], output_field=IntegerField())

    def seat_of(registrations: QuerySet[Any]) -> Subquery:
        seat = MatchSeat.objects.filter(match=OuterRef("pk"), registration__in=registrations)
        return Subquery(seat.values("registration_id")[:1], output_field=IntegerField())

    matches = (
        Match.objects.filter(status=MatchStatus.CONFIRMED)
        .filter(Exists(MatchSeat.objects.filter(match=OuterRef("pk"), registration__in=mine)))
        .filter(Exists(MatchSeat.objects.filter(match=OuterRef("pk"), registration__in=theirs)))
        .annotate(
            my_place=place_of(mine),
            their_place=place_of(theirs),
            my_seat=seat_of(mine),
            their_seat=seat_of(theirs),
        )
        .exclude(my_seat=F("their_seat"))  # teammates in that event
        .exclude(my_place__isnull=True)
        .exclude(their_place__isnull=True)
        .select_related("round__tournament__club")
        .order_by(
            "-round__tournament__scheduled_start",
            "-round__tournament_id",
            "-round__number",
            "-table",
        )
    )
    found = []
    for match in matches:
        mine_at, theirs_at = match.my_place, match.their_place
        if match.winner == Winner.DRAW or mine_at == theirs_at:
            outcome = "draw"
        else:
            outcome = "win" if mine_at < theirs_at else "loss"
        tournament = match.round.tournament
        found.append(
            Meeting(
                match_id=match.pk,
                tournament_id=tournament.pk,
                tournament_name=tournament.name,
                club_name=tournament.club.name,
                date=tournament.scheduled_start,
                round_title=_round_title(match.round.name, match.round.number),
                table=match.table,
                outcome=outcome,
                place=mine_at,
                their_place=theirs_at,
                seats=match.seat_count,
            )
        )
    return found


def record_of(found: Sequence[Meeting]) -> Record:
    """The first player's record over the meetings."""
    outcomes = [m.outcome for m in found]
    return Record(outcomes.count("win"), outcomes.count("loss"), outcomes.count("draw"))


# --- a club's ratings board --------------------------------------------------------------


@dataclass(frozen=True)
class BoardRow:
    place: int
    who: PersonRef
    rating: float
    matches: int

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


def rated_games(club_id: int) -> list[str]:
    """The games a club has ratings of (codes, in the games' order; one statement)."""
    found = set(
        Rating.objects.filter(club_id=club_id).order_by().values_list("game", flat=True).distinct()
    )
    return [code for code in Game.values if code in found]


def board_page(club_id: int, game: str, paging: Paging) -> Page[BoardRow]:
    """A club's ratings of a game, best first, a page at a time (two statements);
    hidden players keep their place with the name withheld."""
    board = (
        Rating.objects.filter(club_id=club_id, game=game)
        .order_by("-ordinal", "player_id")
        .values_list(
            "player_id", "player__display_name", "player__profile_hidden", "ordinal", "matches"
        )
    )
    total = Rating.objects.filter(club_id=club_id, game=game).count()

    def read(start: int, stop: int | None) -> list[BoardRow]:
        return [
            BoardRow(start + i + 1, PersonRef.of(pk, name, hidden), ordinal, matches)
            for i, (pk, name, hidden, ordinal, matches) in enumerate(board[start:stop])
        ]

    return page_read(total, paging, read)


def club_by_slug(slug: str) -> Club | None:
    return Club.objects.filter(slug=slug).only("pk", "slug", "name", "language").first()
