"""Elimination stages: a bracket as the whole event, or a cut after a Swiss (a top 8); and
where every stage played from a fixed schedule is added (``add_stage``) and seeded
(``seed``); a round robin's own steps are ``round_robins``. The elimination formats
(``tournaments.formats.elimination``) name :func:`begin` and :func:`advance_bracket` as
their steps; ``stages.begin_stage`` and ``stages.advance`` call them.

Terms (``tournaments.pairing.elimination``): a *bracket* is every match an elimination
stage can have, laid out when it begins from its *seeds* (``BracketSettings.seeded``,
registration ids, best first); each match is a *slot* with a key (``W1-1``, ``L2-3``,
``GF``). A slot is *ready* when both its entrants are known: only then does it become a
``Match`` (its ``slot`` the key), in a round named after the bracket's round
("Quarterfinals", "Losers round 2"), numbered on through the tournament. A *cut* takes the
best ``cut_top`` of the previous stage's standings (and only those on at least
``cut_min_points``), seeded in standings order.

Flow:

- ``add_stage``: the organiser adds a cut after the last stage (before the
  start, or while the Swiss runs), or, before the start, makes the bracket the whole event.
- When the stage before it completes, ``stages.complete_stage`` queues ``begin_stage`` on
  commit; its ``begin`` fixes the seeds and readies the first matches (a bracket as the
  whole event begins when the tournament starts).
- Results use the same reports, confirmations, disputes and judges as Swiss; a drawn result
  is refused (``results``). A confirmation queues ``advance`` on commit (its
  :func:`advance_bracket`): it reads every
  confirmed result of the stage, resolves the bracket again and readies what became ready;
  when the bracket is decided, the stage completes (and the tournament with its last).
  It runs under the tournament's lock and only creates what is missing, so two
  confirmations racing, or the task running twice, ready each match once.
- Corrections: a judge changing a bracket result is refused while a later match that depends
  on it has a result or a report (``selectors.results.correction_impact``, which the judge
  sees first on the match page); otherwise ``advance`` moves the
  entrants of the later, unplayed matches.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable

from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

from core.audit import record_audit, record_event
from core.auth import Actor, AnyUser
from core.errors import Conflict, InvalidInput, RuleViolation, as_invalid_input
from core.events import EventKind
from tournaments import formats, selectors
from tournaments.models import (
    BracketSettings,
    GrandFinal,
    Match,
    MatchSeat,
    MatchStatus,
    Registration,
    RegistrationStatus,
    ResultReport,
    Round,
    RoundStatus,
    Stage,
    StageStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.pairing import elimination, round_robin
from tournaments.selectors import policies
from tournaments.selectors.brackets import (
    bracket_of,
    bracket_results,
    cut_params,
)
from tournaments.selectors.names import stage_params
from tournaments.selectors.round_robins import groups_of
from tournaments.services import stages
from tournaments.services.locks import lock_tournament
from tournaments.services.outcomes import seat_rows
from tournaments.services.page_versions import pages_changed

__all__ = ["AFTER", "ONLY", "add_stage", "advance_bracket", "begin", "seed"]

#: Where the stage goes: after the last one (a cut), or as the whole event.
AFTER = "after"
ONLY = "only"


@transaction.atomic(durable=True)
def add_stage(
    *,
    actor: AnyUser,
    tournament: Tournament,
    kind: str,
    position: str = AFTER,
    cut_top: int | None = None,
    cut_min_points: int | None = None,
    third_place: bool = False,
    grand_final: str = GrandFinal.RESET,
    round_minutes: int = 50,
    cycles: int = 1,
    groups: int = 1,
    cut_per_group: int | None = None,
) -> Stage:
    """Add a single or double elimination or a round-robin stage (``position``: ``"after"``
    the last stage, as a cut; ``"only"``: the whole event, replacing the stages of a
    tournament that has not started)."""
    tournament = lock_tournament(tournament.pk)
    policies.require_manager(actor, tournament.club, doing="change its stages")
    fmt = formats.find(kind)
    if fmt is None or fmt.options is None:
        raise InvalidInput(
            gettext("Choose single or double elimination, or a round robin."),
            code="invalid_choice",
            field="kind",
        )
    if cycles not in (1, 2):
        raise InvalidInput(
            gettext("A round robin is played once or twice through."),
            code="invalid_cycles",
            field="cycles",
        )
    if groups != 1 and ("groups" not in fmt.options or position != ONLY):
        raise InvalidInput(
            gettext("Groups are for a round robin that starts the event (a group stage)."),
            code="groups_not_here",
            field="groups",
        )
    if not 1 <= groups <= 64:
        raise InvalidInput(
            gettext("Between 1 and 64 groups."), code="invalid_groups", field="groups"
        )
    if grand_final not in GrandFinal.values:
        raise InvalidInput(
            gettext("The grand final is reset, single or none."),
            code="invalid_choice",
            field="grand_final",
        )
    if not 1 <= round_minutes <= 600:
        raise InvalidInput(
            gettext("A round lasts between 1 and 600 minutes."),
            code="invalid_minutes",
            field="round_minutes",
        )
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict(
            gettext("%(tournament)s is over.") % {"tournament": tournament.name},
            code="tournament_over",
        )
    existing = list(Stage.objects.filter(tournament=tournament).order_by("number"))
    started = tournament.status == TournamentStatus.RUNNING
    if position == ONLY:
        if started:
            raise Conflict(
                gettext("%(tournament)s has started: its format can no longer change.")
                % {"tournament": tournament.name},
                code="tournament_started",
            )
        if cut_top is not None or cut_min_points is not None or cut_per_group is not None:
            raise InvalidInput(
                gettext("A stage that starts the event takes every player: no cut."),
                code="no_cut",
                field="cut_top",
            )
        Stage.objects.filter(tournament=tournament).delete()
        number = 1
    elif position == AFTER:
        if not existing:
            raise Conflict(
                gettext("%(tournament)s has no stage to cut from.")
                % {"tournament": tournament.name},
                code="no_stage",
            )
        last = existing[-1]
        refusal = formats.format_of(last).last_stage
        if refusal is not None:
            # The format's words (lazy, when marked): made in the reader's language here.
            raise Conflict(str(refusal.words).format(stage=last.label), code=refusal.code)
        if last.status == StageStatus.COMPLETE:
            raise Conflict(
                gettext("%(stage)s is complete: the cut comes too late.") % {"stage": last.label},
                code="stage_complete",
            )
        _check_cut_size(tournament, cut_top, started=started)
        _check_group_cut(last, fmt, cut_per_group, cut_top)
        number = last.number + 1
    else:
        raise InvalidInput(
            gettext("Add the stage after the last one, or as the only one."),
            code="invalid_choice",
            field="position",
        )
    stage = Stage.objects.create(tournament=tournament, number=number, kind=kind)
    BracketSettings.objects.create(
        stage=stage,
        cut_top=cut_top,
        cut_min_points=cut_min_points,
        third_place=third_place and "third_place" in fmt.options,
        grand_final=grand_final,
        round_minutes=round_minutes,
        cycles=cycles if "cycles" in fmt.options else 1,
        groups=groups,
        cut_per_group=cut_per_group,
    )
    record_audit(
        actor=actor,
        action="stage.added",
        params={"tournament": tournament.name, **stage_params(stage), **cut_params(stage)},
        obj=stage,
        club=tournament.club,
        tournament=tournament,
        after={
            "kind": kind,
            "number": number,
            "cut_top": cut_top,
            "cut_min_points": cut_min_points,
            "third_place": stage.bracket.third_place,
            "grand_final": grand_final,
            "cycles": stage.bracket.cycles,
            "groups": groups,
            "cut_per_group": cut_per_group,
        },
    )
    pages_changed(tournament.pk)
    return stage


def _check_group_cut(
    before: Stage, fmt: formats.Format, cut_per_group: int | None, cut_top: int | None
) -> None:
    """A cut by group only after a group stage, into a bracket, and not with a top N."""
    if cut_per_group is None:
        return
    groups = formats.format_of(before).groups(before)
    if groups < 2 or not fmt.takes_group_cut:
        raise InvalidInput(
            gettext("The best of each group go through only from a group stage into a bracket."),
            code="no_groups_before",
            field="cut_per_group",
        )
    if cut_top is not None:
        raise InvalidInput(
            gettext("Cut by group or by a top N, not both."), code="two_cuts", field="cut_top"
        )
    if cut_per_group * groups < 2:
        raise InvalidInput(
            gettext("At least two players must go through."),
            code="invalid_cut",
            field="cut_per_group",
        )


def _check_cut_size(tournament: Tournament, cut_top: int | None, *, started: bool) -> None:
    if cut_top is None:
        return
    if not 2 <= cut_top <= elimination.MAX_ENTRANTS:
        raise InvalidInput(
            gettext("A cut takes between 2 and %(most)s players.")
            % {"most": number_format(elimination.MAX_ENTRANTS, force_grouping=True)},
            code="invalid_cut",
            field="cut_top",
        )
    if started:
        playing = selectors.active_registration_count(tournament)
        if cut_top > playing:
            raise InvalidInput(
                ngettext(
                    "A top %(top)d needs %(top)d players: only %(playing)d is playing.",
                    "A top %(top)d needs %(top)d players: only %(playing)d are playing.",
                    playing,
                )
                % {"top": cut_top, "playing": playing},
                code="cut_too_large",
                field="cut_top",
            )


# --- beginning a stage ------------------------------------------------------------------


def begin(stage: Stage, *, tournament: Tournament, actor: Actor) -> None:
    """The elimination's ``begin`` step: fix the seeds, mark the stage running and ready
    its first matches (the caller holds the tournament's lock)."""
    seed(stage, tournament=tournament, actor=actor)
    _ready(stage, tournament=tournament)
    stages.announce(stage)


def seed(
    stage: Stage,
    *,
    tournament: Tournament,
    actor: Actor,
    check: Callable[[int], None] | None = None,
) -> list[int]:
    """Fix the seeds of a stage played from a schedule (a bracket, a round robin: its
    ``BracketSettings``) and mark it running; ``check`` refuses a field the format cannot
    take, before anything is written. Returns the seeds."""
    settings = stage.bracket
    seeded = _seeds(stage, tournament)
    if len(seeded) < 2:
        words = (
            gettext("%(stage)s needs at least two players: only one made the cut.")
            if seeded
            else gettext("%(stage)s needs at least two players: nobody made the cut.")
        )
        raise Conflict(words % {"stage": stage.label}, code="cut_too_small")
    if check is not None:
        check(len(seeded))
    settings.seeded = seeded
    settings.save(update_fields=["seeded"])
    stages.mark_running(stage, tournament=tournament, actor=actor, players=seeded)
    return seeded


def _seeds(stage: Stage, tournament: Tournament) -> list[int]:
    """The stage's seeds, best first: the cut from the standings of the stage before (active
    players only), or, for a bracket that is the whole event, every active player by rating
    (highest first) and otherwise in a random draw."""
    settings = stage.bracket
    active = Registration.objects.filter(
        tournament=tournament, status=RegistrationStatus.REGISTERED
    )
    if stage.number == 1:
        players = list(active.values_list("pk", "rating"))
        draw = random.Random(secrets.randbits(64))
        draw.shuffle(players)
        players.sort(key=lambda p: (p[1] is None, -(p[1] or 0)))
        return [pk for pk, _ in players]
    in_play = set(active.values_list("pk", flat=True))
    table = selectors.tournament_standings(tournament)
    if settings.cut_per_group is not None:
        before = Stage.objects.select_related("bracket").get(
            tournament=tournament, number=stage.number - 1
        )
        order = [row.entrant for row in table.table.rows if row.entrant in in_play]
        rankings = [sorted(set(group) & in_play, key=order.index) for group in groups_of(before)]
        try:
            return round_robin.cross_seed(rankings, settings.cut_per_group)
        except RuleViolation as error:  # more going through than a group has
            raise as_invalid_input(error) from None
    seeds = [
        row.entrant
        for row in table.table.rows
        if row.entrant in in_play
        and (settings.cut_min_points is None or row.points >= settings.cut_min_points)
    ]
    return seeds[: settings.cut_top] if settings.cut_top else seeds


# --- advancing --------------------------------------------------------------------------


def advance_bracket(stage: Stage, *, tournament: Tournament) -> int:
    """The elimination's ``advance`` step (``stages.advance``, after a confirmation, the
    tournament's lock held): ready every bracket match that became ready, move the
    entrants of unplayed ones a correction changed, complete the rounds whose slots are
    settled and, when the bracket is decided, the stage. Returns how many matches it
    created or changed."""
    return _ready(stage, tournament=tournament)


def _ready(stage: Stage, *, tournament: Tournament) -> int:
    bracket = bracket_of(stage)
    state = elimination.resolve(bracket, bracket_results(stage))
    matches = {m.slot: m for m in Match.objects.filter(round__stage=stage).select_related("round")}
    rounds = {r.name: r for r in Round.objects.filter(stage=stage)}
    numbers = elimination.tables(bracket)
    tables: dict[int, set[int]] = {}  # round id -> the tables its matches have
    for m in matches.values():
        tables.setdefault(m.round_id, set()).add(m.table)
    changed = 0
    for slot_state in state.slots():
        key = slot_state.key
        match = matches.get(key)
        if match is not None:
            if match.status == MatchStatus.CONFIRMED:
                continue
            if slot_state.status != elimination.Status.READY:
                match.delete()  # a correction took an entrant away
                tables.get(match.round_id, set()).discard(match.table)
                changed += 1
            elif (match.a_id, match.b_id) != (slot_state.a, slot_state.b):
                _move(match, slot_state)
                changed += 1
            continue
        if slot_state.status != elimination.Status.READY:
            continue
        assert slot_state.a is not None and slot_state.b is not None
        rnd = rounds.get(_round_name(bracket, key))
        if rnd is None:
            rnd = _new_round(stage, tournament, _round_name(bracket, key))
            rounds[rnd.name] = rnd
        # The slot's own table (what the drawing calls it), unless a match of an older
        # numbering has it: then the next free one.
        table = numbers.get(key, 0)
        taken = tables.setdefault(rnd.pk, set())
        if not table or table in taken:
            table = max(taken, default=0) + 1
        taken.add(table)
        match = Match.objects.create(
            round=rnd, table=table, slot=key, a_id=slot_state.a, b_id=slot_state.b
        )
        MatchSeat.objects.bulk_create(seat_rows(match))
        record_event(
            tournament=tournament,
            kind=EventKind.BRACKET_MATCH_READY,
            payload={"stage": stage.number, "slot": key, "round": rnd.number, "match": match.pk},
            params={"name": rnd.name, "table": match.table},
        )
        changed += 1
    _complete_rounds(bracket, state, rounds.values(), stage=stage, tournament=tournament)
    if state.finished:
        stages.complete_stage(stage, tournament=tournament, actor=None)
    return changed


#: Slot states after which a slot needs nothing more.
_SETTLED = (elimination.Status.DONE, elimination.Status.BYE, elimination.Status.VOID)


def _complete_rounds(
    bracket: elimination.Bracket,
    state: elimination.BracketState,
    rounds: Iterable[Round],
    *,
    stage: Stage,
    tournament: Tournament,
) -> None:
    """A bracket round is complete when every slot of it is settled (played, a bye or
    void): its matches arrive one by one, so "every match confirmed" is not enough.
    Then it completes as every round does (``stages.complete_round``)."""
    by_name = {r.code: r.keys for r in bracket.rounds}
    for rnd in rounds:
        keys = by_name.get(rnd.name, ())
        if rnd.status == RoundStatus.COMPLETE or not keys:
            continue
        if all(state.status(key) in _SETTLED for key in keys):
            stages.complete_round(rnd, stage=stage, tournament=tournament)


def _round_name(bracket: elimination.Bracket, key: str) -> str:
    slot = bracket.slot(key)
    for rnd in bracket.rounds:
        if key in rnd.keys:
            return rnd.code
    return slot.round_code


def _new_round(stage: Stage, tournament: Tournament, name: str) -> Round:
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    return Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=(last.number if last else 0) + 1,
        name=name,
    )


def _move(match: Match, slot_state: elimination.SlotState) -> None:
    """A correction changed who plays this unplayed match."""
    MatchSeat.objects.filter(match=match).delete()
    ResultReport.objects.filter(match=match).delete()
    assert slot_state.a is not None and slot_state.b is not None  # the slot is ready
    match.a_id, match.b_id = slot_state.a, slot_state.b
    match.status = MatchStatus.PENDING
    match.save(update_fields=["a", "b", "status"])
    MatchSeat.objects.bulk_create(seat_rows(match))
