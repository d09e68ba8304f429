"""Swiss stages: pairing (automatic and by hand), re-pairing and swaps, and the Swiss
settings (the round clock of every format is ``round_clock``).

Terms (docs/architecture.md): a *round* holds *matches* (tables), each two entrants or one
entrant with the *bye*. A round is *paired* (matches made, results may be reported), *in
progress* (its clock runs) and *complete* (every match confirmed: ``stages``). "Pending" is
a round not paired yet: it has no row.

Exactly once. Pairing runs under the tournament's row lock, checks that the previous
round is complete and that the round it was asked for is the next one, and relies on the
``(tournament, number)`` unique constraint as the last word; so two confirmations at the
same instant, a task run twice and an organiser clicking "pair" at the same moment make one
round.

Where the rules are silent, this module decides:
- The number of rounds is fixed when round 1 is paired (MTR table on the entrants then
  playing, unless the organiser set it); late entrants do not change it; the organiser
  can still change it in the settings.
- A late entrant joins from the next round to be paired; with the "losses" setting each
  missed round counts as a match loss in the standings.
- A round is neither paired nor started while something it waits for is unfinished (the
  ``policies.round_may_begin`` hook: a draft seated before it). The organiser is told
  why; automatic pairing waits, logs it, and the sweeper pairs the round once it may.
- "Pair again" draws round 1 anew when it is random (a fresh seed, recorded in the audit
  log, so the draw can be replayed); any other round is the engine's pairing of the
  standings, so pairing it again gives the same one unless something it reads changed.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from core.audit import record_audit, record_event
from core.auth import Actor, AnyUser
from core.errors import Conflict, InvalidInput, RuleViolation, as_invalid_input
from core.events import EventKind
from core.locks import lock_all, lock_one
from core.queue import enqueue_on_commit
from rules.outcome import bye_outcome
from tournaments import formats, selectors
from tournaments.models import (
    Match,
    MatchSeat,
    MatchStatus,
    Registration,
    ResultReport,
    Round,
    RoundStatus,
    Stage,
    SwissSettings,
    Tournament,
    TournamentStatus,
)
from tournaments.pairing import standings
from tournaments.pairing import swiss as pairing
from tournaments.pairing.tables import assign_tables
from tournaments.selectors import policies
from tournaments.selectors.names import round_title
from tournaments.services import stages
from tournaments.services.entrants import latest_round_number
from tournaments.services.locks import lock_round, lock_tournament
from tournaments.services.outcomes import apply_outcome, seat_rows
from tournaments.services.page_versions import pages_changed

logger = logging.getLogger(__name__)


def _require_manager(actor: Actor, tournament: Tournament) -> None:
    if actor is not None:  # None: the system (a clock task) acts
        policies.require_manager(actor, tournament.club, doing="run its rounds")


def _stage_of(rnd: Round) -> Stage:
    """The round's stage, with every format's settings (asking its format costs no query)."""
    return Stage.objects.select_related(*formats.SETTINGS_RELATIONS).get(pk=rnd.stage_id)


# --- the Swiss format's steps (``tournaments.formats.swiss``) ---------------------------


def begin(stage: Stage, *, tournament: Tournament, actor: Actor) -> None:
    """The stage runs; with automatic pairing its first round is paired on commit."""
    stages.mark_running(stage, tournament=tournament, actor=actor)
    if stage.swiss.auto_pair:
        enqueue_on_commit(stages.PAIR_NEXT_ROUND, tournament.pk, 1)


def after_round(stage: Stage, *, tournament: Tournament, completed: Round) -> int:
    """After a complete round: the stage completes after its last round; else, with
    automatic pairing, the next round is paired on commit. Pairs nothing itself."""
    settings = stage.swiss
    played = Round.objects.filter(stage=stage).count()
    if settings.rounds and played >= settings.rounds:
        stages.complete_stage(stage, tournament=tournament, actor=None)
    elif settings.auto_pair:
        enqueue_on_commit(stages.PAIR_NEXT_ROUND, tournament.pk, completed.number + 1)
    return 0


@transaction.atomic(durable=True)
def pair_next_round(
    *,
    actor: Actor,
    tournament: Tournament | int,
    expected_number: int | None = None,
) -> Round | None:
    """Pair the tournament's next round (in its running Swiss stage).

    ``actor`` None is the system (the automatic pairing task); it passes the round number
    it means to pair as ``expected_number`` and gets None back, with nothing changed, when
    that round is no longer the next one (it was paired already, or the state moved on),
    or may not be paired yet (a draft before it is still running: it logs why and waits).
    """
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    locked = lock_tournament(tournament_id)
    _require_manager(actor, locked)
    paired = _pair_next(locked, actor=actor, expected_number=expected_number)
    return None if paired is None else paired.round


#: How many fresh seeds "pair again" tries on round 1 for a pairing unlike the one it
#: replaces (with four players a draw repeats the old pairing one time in three).
REDRAWS = 20


@dataclass(frozen=True)
class _Paired:
    round: Round
    seed: int  # the seed the engine paired with
    redrawn: bool  # a fresh seed (round 1 paired again), not the stage's


def _pair_next(
    tournament: Tournament,
    *,
    actor: Actor,
    expected_number: int | None,
    replacing: frozenset[frozenset[int | None]] | None = None,
) -> _Paired | None:
    """Pair the next round; the caller holds the tournament's lock.

    ``replacing``: the opponents of the pairing this one replaces ("pair again"): a random
    round 1 is then drawn with fresh seeds until it differs (``REDRAWS`` tries)."""
    if tournament.status != TournamentStatus.RUNNING:
        if actor is None:
            return None
        raise Conflict(
            gettext("%(tournament)s is not running: rounds are paired once it has started.")
            % {"tournament": tournament.name},
            code="tournament_not_running",
        )
    stage = stages.running_stage(tournament)
    if stage is None:
        if actor is None:
            return None
        raise Conflict(
            gettext("%(tournament)s has no stage running.") % {"tournament": tournament.name},
            code="no_stage_running",
        )
    if not formats.format_of(stage).paired_by_hand:
        if actor is None:
            return None
        raise Conflict(
            gettext("%(stage)s follows its schedule: its matches are made as results arrive.")
            % {"stage": stage.label},
            code="bracket_stage",
        )
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    number = 1 if last is None else last.number + 1
    if expected_number is not None and expected_number != number:
        return None
    if last is not None and last.status != RoundStatus.COMPLETE:
        if actor is None:
            return None
        raise Conflict(
            gettext(
                "Round %(round)d is still open: every result must be confirmed before round "
                "%(next)d is paired."
            )
            % {"round": last.number, "next": number},
            code="previous_round_open",
        )
    blockers = policies.round_blockers(tournament, number)
    if blockers:
        if actor is None:
            # Automatic pairing waits: the sweeper asks again on its next pass.
            logger.info(
                "tournament %s: round %s waits: %s", tournament.pk, number, blockers[0].detail
            )
            return None
        raise Conflict(blockers[0].detail, code=blockers[0].code)
    settings = stage.swiss
    in_stage = Round.objects.filter(stage=stage).count() + 1
    field = selectors.swiss_field(tournament, settings=settings, round_number=number)
    if in_stage == 1:
        if len(field) < 2:
            raise Conflict(
                gettext("At least two checked-in players are needed to pair a round."),
                code="too_few_players",
            )
        if not settings.rounds:
            settings.rounds = pairing.default_round_count(len(field))
            settings.save(update_fields=["rounds"])
    if in_stage > (settings.rounds or 0):
        if actor is None:
            return None
        raise Conflict(
            ngettext(
                "The only round of %(name)s has been played.",
                "All %(count)d rounds of %(name)s have been played.",
                settings.rounds or 0,
            )
            % {"count": settings.rounds or 0, "name": tournament.name},
            code="no_more_rounds",
        )
    if len([e for e in field if not e.dropped]) < 2:
        raise Conflict(gettext("Fewer than two players are still in."), code="too_few_players")
    first_round = pairing.first_round_method(settings.first_round)
    redraw = replacing is not None and policies.pair_again_draws_anew(
        number=number, first_round=settings.first_round
    )
    seeds = [secrets.randbelow(2**31) for _ in range(REDRAWS)] if redraw else [settings.seed]
    for seed in seeds:
        made = pairing.pair_round(field, round_number=number, seed=seed, first_round=first_round)
        if not redraw or _opponents((p.a, p.b) for p in made.pairings) != replacing:
            break
    try:
        with transaction.atomic():
            rnd = Round.objects.create(
                tournament=tournament, stage=stage, number=number, pairing_stats=made.stats()
            )
    except IntegrityError:  # only without the lock (defence in depth): already paired
        return None
    _save_matches(rnd, made.pairings)
    said = {"round": number, "stats": made.stats()}
    record_audit(
        actor=actor,
        action="round.paired",
        params={**said, "tournament": tournament.name},
        obj=rnd,
        club=tournament.club,
        tournament=tournament,
        after={"number": number, "stats": made.stats(), "seed": seed},
    )
    record_event(
        tournament=tournament,
        kind=EventKind.ROUND_PAIRED,
        payload={"round": number, **made.stats()},
        params=said,
    )
    logger.info("tournament %s: round %s paired: %s", tournament.pk, number, made.stats())
    return _Paired(round=rnd, seed=seed, redrawn=redraw)


def pair_round_again_after_correction(*, round_id: int) -> bool:
    """A judge changed a result of the round before this one, whose standings paired it:
    pair it again (the task queued by ``results``; the round must still be paired, not
    started, and without results, as for the organiser's "pair again")."""
    rnd = Round.objects.filter(pk=round_id).first()
    if rnd is None:
        return False
    pair_round_again(actor=None, round=rnd)
    return True


def _opponents(pairs: Iterable[tuple[int, int | None]]) -> frozenset[frozenset[int | None]]:
    """Who meets whom (tables and seat order aside); the bye is a meeting with None."""
    return frozenset(frozenset(pair) for pair in pairs)


def _save_matches(rnd: Round, pairings: Sequence[pairing.Pairing]) -> None:
    now = timezone.now()
    registrations = Registration.objects.in_bulk(
        [p.a for p in pairings] + [p.b for p in pairings if p.b is not None]
    )
    # Entrants with a fixed table sit at it where they can; the others around them.
    fixed = {pk: r.fixed_table for pk, r in registrations.items() if r.fixed_table}
    seating = assign_tables([(p.a, p.b) for p in pairings], fixed)
    matches: list[Match] = []
    for p, seat in zip(pairings, seating, strict=True):
        match = Match(
            round=rnd,
            table=seat.table,
            a=registrations[p.a],
            b=registrations[p.b] if p.b is not None else None,
            notes=[*p.reasons, *seat.notes],
        )
        if p.b is None:
            # A bye is a match win (``outcome.bye_outcome``), confirmed as soon as it is made.
            apply_outcome(match, None, bye_outcome())
            match.status = MatchStatus.CONFIRMED
            match.confirmed_at = now
        matches.append(match)
    Match.objects.bulk_create(matches)
    MatchSeat.objects.bulk_create(seat for m in matches for seat in seat_rows(m))


@dataclass(frozen=True)
class PairedAgain:
    """What "pair again" did: the new round, whether it was drawn anew with a fresh
    ``seed`` (a random round 1) or recomputed by the engine, and whether the opponents are
    the ``same`` as before."""

    round: Round
    redrawn: bool
    seed: int
    same: bool


@transaction.atomic(durable=True)
def pair_round_again(*, actor: Actor, round: Round) -> PairedAgain:
    """Throw away a round's pairings and pair it again (before it starts, no results);
    ``actor`` None: the system, after a judge corrected a result of the round before.

    Round 1 paired at random is drawn anew with a fresh seed (recorded in the audit log),
    different from the pairing it replaces whenever another exists; any other round is the
    engine's pairing recomputed (``policies.pair_again_draws_anew``)."""
    tournament = lock_tournament(round.tournament_id)  # the lock order: tournament first
    rnd = lock_round(round.pk)
    _require_manager(actor, tournament)
    _require_unplayed(rnd, _REPAIRED)
    number = rnd.number
    before = {"number": number, "stats": rnd.pairing_stats}
    old = _opponents(Match.objects.filter(round=rnd).values_list("a_id", "b_id"))
    MatchSeat.objects.filter(round=rnd).delete()
    Match.objects.filter(round=rnd).delete()
    rnd.delete()
    paired = _pair_next(tournament, actor=actor, expected_number=number, replacing=old)
    if paired is None:  # pragma: no cover - the lock makes this impossible
        raise Conflict(gettext("The round could not be paired again."), code="repair_failed")
    new = paired.round
    same = _opponents(Match.objects.filter(round=new).values_list("a_id", "b_id")) == old
    record_audit(
        actor=actor,
        action="round.repaired",
        params={
            "tournament": tournament.name,
            "round": number,
            "redrawn": paired.redrawn,
            "seed": paired.seed,
            "same": same,
        },
        obj=new,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after={
            "number": number,
            "stats": new.pairing_stats,
            "seed": paired.seed,
            "redrawn": paired.redrawn,
            "same": same,
        },
    )
    pages_changed(tournament.pk)
    return PairedAgain(round=new, redrawn=paired.redrawn, seed=paired.seed, same=same)


def repair_round(*, actor: AnyUser, round: Round) -> Round:
    """``pair_round_again``, answering the new round only (the API's)."""
    return pair_round_again(actor=actor, round=round).round


#: What :func:`_require_unplayed` refuses: a round paired again, or changed (a swap).
_REPAIRED, _CHANGED = "re-paired", "changed"


def _require_unplayed(rnd: Round, what: str) -> None:
    if not formats.format_of(_stage_of(rnd)).paired_by_hand:
        raise Conflict(
            gettext(
                "%(round)s follows its stage's schedule: its matches cannot be changed by hand."
            )
            % {"round": round_title(rnd)},
            code="bracket_round",
        )
    said = {"round": rnd.number}
    if not policies.may_change_pairings(rnd):
        raise Conflict(
            (
                gettext("Round %(round)d has started: it can no longer be re-paired.")
                if what == _REPAIRED
                else gettext("Round %(round)d has started: it can no longer be changed.")
            )
            % said,
            code="round_started",
        )
    has_results = (
        ResultReport.objects.filter(match__round=rnd).exists()
        or Match.objects.filter(round=rnd, b__isnull=False)
        .exclude(status=MatchStatus.PENDING)
        .exists()
    )
    if has_results:
        raise Conflict(
            (
                gettext("Round %(round)d already has results: it can no longer be re-paired.")
                if what == _REPAIRED
                else gettext("Round %(round)d already has results: it can no longer be changed.")
            )
            % said,
            code="round_has_results",
        )


@transaction.atomic(durable=True)
def swap_players(
    *, actor: AnyUser, round: Round, first: Registration, second: Registration
) -> Round:
    """Swap two entrants between their tables (before the round starts, no results)."""
    rnd = lock_round(round.pk)
    tournament = rnd.tournament
    _require_manager(actor, tournament)
    _require_unplayed(rnd, _CHANGED)
    if first.pk == second.pk:
        raise InvalidInput(gettext("Choose two different players to swap."), code="same_player")
    seats = {
        s.registration_id: s
        for s in lock_all(
            MatchSeat, related=("match",), round=rnd, registration_id__in=[first.pk, second.pk]
        )
    }
    missing = [r for r in (first, second) if r.pk not in seats]
    if missing:
        raise InvalidInput(
            gettext("%(entrant)s is not paired in round %(round)d.")
            % {"entrant": missing[0].name, "round": rnd.number},
            code="not_paired",
        )
    m1, m2 = seats[first.pk].match, seats[second.pk].match
    if m1.pk == m2.pk:
        raise InvalidInput(gettext("These two players already meet each other."), code="same_match")
    if m1.is_bye or m2.is_bye:
        # The bye is confirmed as a win for its holder: moving it moves the win too.
        bye, other = (m1, m2) if m1.is_bye else (m2, m1)
        holder = bye.a_id
        mover = first.pk if holder == second.pk else second.pk
        _replace_in_match(other, mover, holder)
        bye.a_id = mover
        bye.save(update_fields=["a"])
    else:
        _replace_in_match(m1, first.pk, second.pk)
        _replace_in_match(m2, second.pk, first.pk)
    seats[first.pk].match, seats[second.pk].match = m2, m1
    # Two-step update: the (round, registration) constraint never sees a duplicate.
    MatchSeat.objects.filter(pk__in=[s.pk for s in seats.values()]).delete()
    # Each takes the other's seat, with its outcome (a bye's win).
    MatchSeat.objects.bulk_create(
        MatchSeat(
            match=match,
            round=rnd,
            registration_id=entrant,
            position=seat.position,
            place=seat.place,
            score=seat.score,
            round_wins=seat.round_wins,
        )
        for match, seat, entrant in (
            (m2, seats[second.pk], first.pk),
            (m1, seats[first.pk], second.pk),
        )
    )
    record_audit(
        actor=actor,
        action="round.swapped",
        params={
            "tournament": tournament.name,
            "round": rnd.number,
            "a": first.name,
            "b": second.name,
        },
        obj=rnd,
        club=tournament.club,
        tournament=tournament,
        before={"tables": {first.pk: m1.table, second.pk: m2.table}},
        after={"tables": {first.pk: m2.table, second.pk: m1.table}},
    )
    pages_changed(tournament.pk)
    return rnd


def _replace_in_match(match: Match, old: int, new: int) -> None:
    if match.a_id == old:
        match.a_id = new
    else:
        match.b_id = new
    match.notes = [*match.notes, pairing.note(pairing.Flag.SWAPPED)]
    match.save(update_fields=["a", "b", "notes"])


def _check_limits(settings: SwissSettings, *, changed: Iterable[str]) -> None:
    """The changed settings against their fields' limits and choices (the model's validators:
    the page and the API show the same limits, and no caller gets past them)."""
    changed = set(changed)
    fields = {f.name: f for f in SwissSettings._meta.fields}
    others = [name for name in fields if name not in changed]
    try:
        settings.clean_fields(exclude=others)
    except ValidationError as error:
        name, problems = next(iter(error.message_dict.items()))
        words = str(fields[name].verbose_name)
        label = words[:1].upper() + words[1:]  # not capitalize(): it lowers the others
        raise InvalidInput(
            gettext("%(setting)s: %(problem)s") % {"setting": label, "problem": problems[0]},
            code="invalid_setting",
            field=name,
        ) from None


#: The settings fixed once round 1 is paired, and the words that refuse changing each.
_FROZEN = {
    "first_round": gettext_lazy("first round cannot change once round 1 is paired."),
    "seed": gettext_lazy("seed cannot change once round 1 is paired."),
    "late_entry": gettext_lazy("late entry cannot change once round 1 is paired."),
    "rounds_to_win": gettext_lazy("rounds to win cannot change once round 1 is paired."),
    "kontsina_rounds": gettext_lazy("kontsina rounds cannot change once round 1 is paired."),
}


@transaction.atomic(durable=True)
def update_swiss_settings(
    *, actor: AnyUser, tournament: Tournament, changes: dict[str, Any]
) -> SwissSettings:
    """Change how the tournament's Swiss stage runs (round count, clock, policy,
    tiebreakers)."""
    tournament = lock_tournament(tournament.pk)
    _require_manager(actor, tournament)
    stage = selectors.swiss_stage(tournament)
    settings = lock_one(SwissSettings, pk=stage.pk)
    assert settings is not None
    started = Round.objects.filter(stage=stage).exists()
    before = {name: getattr(settings, name) for name in changes}
    for name, value in changes.items():
        if started and name in _FROZEN and value != getattr(settings, name):
            raise Conflict(
                str(_FROZEN[name]),
                code="settings_frozen",
                field=name,
            )
        if name == "tiebreakers":
            try:
                value = [str(t) for t in standings.parse_tiebreakers(value)]
            except RuleViolation as error:
                raise as_invalid_input(error, field="tiebreakers") from None
        if name == "rounds" and value is not None:
            played = latest_round_number(tournament)
            if value < max(1, played):
                raise InvalidInput(
                    ngettext(
                        "Round %(round)d was already paired: at least %(count)d round.",
                        "Round %(round)d was already paired: at least %(count)d rounds.",
                        max(1, played),
                    )
                    % {"round": played, "count": max(1, played)},
                    code="invalid_rounds",
                    field="rounds",
                )
        setattr(settings, name, value)
    _check_limits(settings, changed=changes)
    settings.save()
    record_audit(
        actor=actor,
        action="swiss.settings_changed",
        params={"tournament": tournament.name, "settings": list(changes)},
        obj=settings,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after={name: getattr(settings, name) for name in changes},
    )
    pages_changed(tournament.pk)
    return settings
