"""The event feed's kinds and their payloads: one enum, one typed payload per kind.

An event is a code (:class:`EventKind`), a payload of plain values that pages, club bots
(``/api/v1/tournaments/{id}/events/``), notifications and webhooks read (its shape per kind:
the ``TypedDict`` in :data:`PAYLOADS`), and the parameters its words are made from at
display (``core.presenters``). Core knows no app: the kinds are codes, the payloads numbers
and strings; the apps write them through ``core.audit.record_event``, which refuses a kind
not listed here or a payload of another shape (:func:`check_payload`), so a typo is a
failing test, never a silent row no receiver understands.

Adding a kind: a member here, its payload ``TypedDict`` in :data:`PAYLOADS`, its words in
an app's ``presenters`` module (``EVENT``), then its receivers (``notifications``).
"""

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, NotRequired, TypedDict, get_type_hints


class EventKind(StrEnum):
    STAGE_STARTED = "stage.started"
    ROUND_PAIRED = "round.paired"
    ROUND_STARTED = "round.started"
    ROUND_EXTENDED = "round.extended"
    ROUND_TIME_WARNING = "round.time_warning"
    ROUND_TIME = "round.time"
    ROUND_COMPLETE = "round.complete"
    BRACKET_MATCH_READY = "bracket.match_ready"
    RESULT_REPORTED = "result.reported"
    RESULT_DISPUTED = "result.disputed"
    RESULT_CONFIRMED = "result.confirmed"
    JUDGE_CALLED = "judge.called"
    JUDGE_ON_THE_WAY = "judge.on_the_way"
    JUDGE_CALL_CLOSED = "judge.call_closed"
    DRAFT_STARTED = "draft.started"
    TOURNAMENT_STARTED = "tournament.started"
    TOURNAMENT_FINISHED = "tournament.finished"
    RATINGS_CHANGED = "ratings.changed"
    SEASON_STANDINGS = "season.standings"


class StageStarted(TypedDict):
    stage: int
    players: int


class RoundPaired(TypedDict):
    """A Swiss round adds its pairing figures (``matches``, ``rematches``...); a pods' or
    a round robin's round its stage (and a pods' its repeats)."""

    round: int
    stage: NotRequired[int]
    repeats: NotRequired[int]
    matches: NotRequired[int]
    rematches: NotRequired[int]
    pair_downs: NotRequired[int]
    point_difference: NotRequired[int]
    repeat_byes: NotRequired[int]


class RoundClock(TypedDict):
    """A round's clock started, extended or warning: when it ends."""

    round: int
    ends_at: str


class RoundTime(TypedDict):
    round: int
    overdue: int
    decided: int
    policy: str


class RoundComplete(TypedDict):
    round: int


class BracketMatchReady(TypedDict):
    stage: int
    slot: str
    round: int
    match: int


class Result(TypedDict):
    """A result reported or disputed (older rows of a pod's have no status or winner)."""

    match: int
    round: int
    table: int
    status: NotRequired[str]
    winner: NotRequired[str]
    was: NotRequired[str]


class ResultConfirmed(Result):
    """A result confirmed, for any number of seats: ``winner`` the winning seat's letter
    (``a``, ``b``, ``c``, ``d``) or ``draw``; by seat (``position`` order) the entrants
    (registration ids), their places (1 best, ties share) and scores; ``was`` what the
    match was before (a dispute a judge resolved reads as such). Older rows (and a pod's
    before seats said it) lack the seats."""

    seats: NotRequired[list[int]]
    places: NotRequired[list[int]]
    scores: NotRequired[list[int]]
    #: The match's stage, and its slot in a bracket, round robin or pod stage (none in a
    #: Swiss): a slotted match's confirmation sets its stage advancing (``stages``).
    stage: NotRequired[int]
    slot: NotRequired[str]


class JudgeCalled(TypedDict):
    match: int
    round: int
    table: int


class JudgeCall(TypedDict):
    match: int
    call: int


class DraftStarted(TypedDict):
    pod: int
    number: int
    players: list[int]


class TournamentStarted(TypedDict):
    not_playing: int


class TournamentFinished(TypedDict):
    pass


class RatingsChanged(TypedDict):
    """A finished tournament's players' ratings in its club's game (issue 26), parallel
    lists: each player's rating (the conservative ordinal, 2 decimals) before the
    tournament's first rated match and after its last, and their rated matches after it."""

    game: str
    players: list[int]
    before: list[float]
    after: list[float]
    matches: list[int]


class SeasonStandings(TypedDict):
    """A season's standings after one of its events (issue 26), for that event's players,
    parallel lists: each player's place in the season and points."""

    season: int
    name: str
    players: list[int]
    places: list[int]
    points: list[int]


#: Each kind's payload.
PAYLOADS: dict[EventKind, type] = {
    EventKind.STAGE_STARTED: StageStarted,
    EventKind.ROUND_PAIRED: RoundPaired,
    EventKind.ROUND_STARTED: RoundClock,
    EventKind.ROUND_EXTENDED: RoundClock,
    EventKind.ROUND_TIME_WARNING: RoundClock,
    EventKind.ROUND_TIME: RoundTime,
    EventKind.ROUND_COMPLETE: RoundComplete,
    EventKind.BRACKET_MATCH_READY: BracketMatchReady,
    EventKind.RESULT_REPORTED: Result,
    EventKind.RESULT_DISPUTED: Result,
    EventKind.RESULT_CONFIRMED: ResultConfirmed,
    EventKind.JUDGE_CALLED: JudgeCalled,
    EventKind.JUDGE_ON_THE_WAY: JudgeCall,
    EventKind.JUDGE_CALL_CLOSED: JudgeCall,
    EventKind.DRAFT_STARTED: DraftStarted,
    EventKind.TOURNAMENT_STARTED: TournamentStarted,
    EventKind.TOURNAMENT_FINISHED: TournamentFinished,
    EventKind.RATINGS_CHANGED: RatingsChanged,
    EventKind.SEASON_STANDINGS: SeasonStandings,
}


class BadEvent(ValueError):
    """An event of a kind not listed, or a payload of another shape: a bug in the writer."""


def _fits(value: Any, hint: Any) -> bool:
    origin = getattr(hint, "__origin__", None)
    if origin is list:
        (item,) = hint.__args__
        return isinstance(value, list) and all(_fits(v, item) for v in value)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def check_payload(kind: str, payload: Mapping[str, Any]) -> EventKind:
    """The kind as an :class:`EventKind`, once ``payload`` has its shape: every required key,
    no other key, each value of its type. Raises :class:`BadEvent`."""
    try:
        known = EventKind(kind)
    except ValueError:
        raise BadEvent(f"unknown event kind {kind!r}: add it to core.events.EventKind") from None
    shape = PAYLOADS[known]
    hints = get_type_hints(shape)
    missing = shape.__required_keys__ - payload.keys()  # type: ignore[attr-defined]
    if missing:
        raise BadEvent(f"{kind}: payload lacks {', '.join(sorted(missing))}")
    for key, value in payload.items():
        if key not in hints:
            raise BadEvent(f"{kind}: payload has no field {key!r} ({shape.__name__})")
        if not _fits(value, hints[key]):
            raise BadEvent(
                f"{kind}: payload field {key!r} is {type(value).__name__}, not {hints[key]}"
            )
    return known
