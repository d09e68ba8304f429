"""The live draft's pods: seating players in pods, and the organiser's controls (start,
pause, resume, seat on auto-pick, end).

A player's picks and the pick timer are ``picks``; both modules write through the shared
machinery of ``_pods`` (the pod's row lock, its engine state, the seats' deadlines and
timer tasks), each public function one ``atomic(durable=True)`` block. Every change is
announced after commit through :data:`pod_changed`, which ``gameplay.realtime.broadcast``
pushes to the pod's pages (the services know nothing of websockets).

Decisions where the issue is silent:
- Seats come from the tournament's checked-in players, shuffled with a recorded seed, in
  pods as equal as possible (sizes differ by at most one) of at most the chosen size
  (``engine.seat_pods``).
- In a team event (issue 13) every player drafts: both members of each complete team get
  a seat, pack and pool of their own (``DraftSeat.player``; the seat's ``registration`` is
  the team it drafts for). A team is never split between pods, so a pod holds at most
  ``pod_size // 2`` teams and an even number of seats; teammates sit side by side or
  across the pod (``DraftSettings.team_seating``), and that choice is in the audit entry.
- Each pod's own seed deals its packs: it is kept on the pod and shown only once the draft
  is over (``selectors.drafts.public_seed``), never in the audit log.
- The shrinking timer gives 5 s per card in the pack, at least 10 s and at most the
  pod's time per pick (``_pods``).
- "End" completes the draft: the server picks every remaining pick (highlight, then the
  engine's heuristic), so every pool still ends with exactly the pack size.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, pgettext

from core.audit import record_audit, record_event
from core.auth import Actor, AnyUser
from core.errors import Conflict, InvalidInput
from core.events import EventKind
from gameplay.models import (
    DraftPack,
    DraftPod,
    DraftSeat,
    DraftSettings,
    DraftTiming,
    PickSource,
    PodStatus,
    TeamSeating,
)
from gameplay.services._pods import (
    _after_commit_broadcast,
    _after_commit_timer,
    _lock_pod,
    _lock_seats,
    _refresh_deadlines,
    _require_running,
    _run_auto_seats,
    _server_pick,
    _state,
)
from gameplay.services._pods import pod_changed as pod_changed  # its public name
from rules import draft as engine
from rules.games import rules_for
from tournaments import selectors as tournament_selectors
from tournaments.models import (
    EntrantType,
    Player,
    Registration,
    RegistrationStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import policies
from tournaments.services.locks import lock_tournament
from tournaments.services.page_versions import pages_changed


def _require_manager(actor: AnyUser, tournament: Tournament) -> None:
    policies.require_manager(actor, tournament.club, doing="run its drafts")


# --- pods -------------------------------------------------------------------------------------


@transaction.atomic(durable=True)
def create_pods(
    *,
    actor: AnyUser,
    tournament: Tournament,
    pod_size: int | None = None,
    seconds_per_pick: int | None = None,
    shrinking_timer: bool | None = None,
    direction: str | None = None,
    pack_size: int | None = None,
    timing: str | None = None,
    team_seating: str | None = None,
) -> list[DraftPod]:
    """Seat the tournament's checked-in players in pods for the next round's draft.

    With the timing "once, before round 1" (the default) that is only possible before
    round 1 is paired, once; with "before every round", before each round. In a team event
    both players of every complete team draft, each at a seat of their own, the team whole
    in one pod, teammates side by side or across the pod (``team_seating``).
    """
    tournament = lock_tournament(tournament.pk)
    _require_manager(actor, tournament)
    if not policies.may_seat_drafts(tournament):
        raise Conflict(
            gettext("%(tournament)s is not running.") % {"tournament": tournament.name},
            code="tournament_not_running",
        )
    if team_seating is not None and team_seating not in TeamSeating.values:
        raise InvalidInput(
            gettext(
                "Teammates sit next to each other (adjacent) or opposite each other (opposite)."
            ),
            code="invalid_team_seating",
            field="team_seating",
        )
    settings, _ = DraftSettings.objects.get_or_create(tournament=tournament)
    changes = {
        "pod_size": pod_size,
        "seconds_per_pick": seconds_per_pick,
        "shrinking_timer": shrinking_timer,
        "direction": direction,
        "pack_size": pack_size,
        "timing": timing,
        "team_seating": team_seating,
    }
    for name, value in changes.items():
        if value is not None:
            setattr(settings, name, value)
    if settings.pod_size < 2 or settings.pod_size > 16:
        raise InvalidInput(
            gettext("A pod has 2 to 16 seats."), code="invalid_pod_size", field="pod_size"
        )
    if settings.seconds_per_pick > 600:
        raise InvalidInput(
            gettext("At most 600 seconds per pick."), code="invalid_timer", field="seconds_per_pick"
        )
    settings.save()
    if settings.timing not in DraftTiming.values:
        raise InvalidInput(
            pgettext("round", "Draft once or before every round."), code="invalid_timing"
        )
    before_round = tournament.rounds.count() + 1
    if DraftPod.objects.filter(tournament=tournament, before_round=before_round).exists():
        raise Conflict(
            pgettext("round", "The pods for round %(round)d are already seated.")
            % {"round": before_round},
            code="pods_exist",
        )
    if settings.timing == DraftTiming.BEFORE_FIRST_ROUND and (
        before_round > 1 or DraftPod.objects.filter(tournament=tournament).exists()
    ):
        raise Conflict(
            pgettext(
                "round",
                '%(tournament)s drafts once, before round 1: choose "before every round" to '
                "draft again.",
            )
            % {"tournament": tournament.name},
            code="draft_once",
        )
    teams = tournament.entrant_type == EntrantType.TEAM
    entrants = _entrants(tournament, teams=teams)
    if sum(len(members) for members in entrants) < 2:
        raise Conflict(
            gettext("At least two checked-in players are needed for a draft."), code="too_few"
        )
    seed = secrets.randbelow(2**31)
    seating = engine.seat_pods(
        entrants,
        pod_size=settings.pod_size,
        seed=seed,
        team_seating=settings.team_seating,
    )
    game = rules_for(tournament.game)
    stage = tournament_selectors.current_stage(tournament)
    if stage is None:
        raise Conflict(
            gettext("%(tournament)s has no stage to draft for.") % {"tournament": tournament.name},
            code="no_stage",
        )
    pods: list[DraftPod] = []
    for number, members in enumerate(seating, start=1):
        size = len(members)
        pod_seed = secrets.randbelow(2**31)
        state = engine.new_draft(
            size,
            pack_size=settings.pack_size or game.pack_size,
            deck_type=game.deck_type,
            seed=pod_seed,
            direction=settings.direction,
        )
        pod = DraftPod.objects.create(
            tournament=tournament,
            stage=stage,
            before_round=before_round,
            number=number,
            pack_size=state.pack_size,
            first_pick_keeps=state.schedule[0],
            direction=settings.direction,
            deck_type=game.deck_type.value,
            seed=pod_seed,
            seconds_per_pick=settings.seconds_per_pick,
            shrinking_timer=settings.shrinking_timer,
            state=state.to_dict(),
        )
        DraftSeat.objects.bulk_create(
            DraftSeat(pod=pod, position=i, registration=reg, player=player)
            for i, (reg, player) in enumerate(members)
        )
        DraftPack.objects.bulk_create(
            DraftPack(pod=pod, number=i, opened_by=i, cards=[str(c) for c in cards])
            for i, cards in enumerate(state.opening_packs)
        )
        after: dict[str, Any] = {
            "seats": [
                f"{player.display_name} ({reg.team_name})" if teams else player.display_name
                for reg, player in members
            ],
            "seating_seed": seed,
        }
        if teams:
            after["team_seating"] = settings.team_seating
        record_audit(
            actor=actor,
            action="draft.pod_created",
            params={"tournament": tournament.name, "pod": number, "players": size},
            obj=pod,
            club=tournament.club,
            tournament=tournament,
            # Not the pod's seed: it deals every pack, and the audit log is read during the
            # draft (by organisers who may play). It stays on the pod, public once it ends.
            after=after,
        )
        pods.append(pod)
    pages_changed(tournament.pk)  # the next round now waits for these drafts
    return pods


def _entrants(tournament: Tournament, *, teams: bool) -> list[list[tuple[Registration, Player]]]:
    """Who drafts, by entrant (in registration order: the seating seed does the shuffling):
    each entrant's (registration, player) pairs. In a team event only complete teams draft
    (a team without its second player can neither check in nor play), each member at a
    seat of their own."""
    registrations = Registration.objects.select_related("player", "partner").filter(
        tournament=tournament, status=RegistrationStatus.REGISTERED
    )
    if tournament.status == TournamentStatus.REGISTRATION:
        registrations = registrations.filter(checked_in_at__isnull=False)
    if teams:
        registrations = registrations.filter(
            partner__isnull=False, partner_accepted_at__isnull=False
        )
    return [
        [(registration, player) for player in registration.members]
        for registration in sorted(registrations, key=lambda r: r.pk)
    ]


@transaction.atomic(durable=True)
def start_pod(*, actor: AnyUser, pod: DraftPod | int) -> DraftPod:
    pod = _lock_pod(pod)
    _require_manager(actor, pod.tournament)
    if pod.status != PodStatus.READY:
        raise Conflict(gettext("This draft has already started."), code="pod_started")
    now = timezone.now()
    _move(pod, PodStatus.RUNNING, started_at=now)
    seats = _lock_seats(pod)
    _refresh_deadlines(pod, seats, None, _state(pod), now)
    _run_auto_seats(pod, seats, now)
    _audit(pod, actor, "draft.started")
    # In the feed: club bots, and each drafter's "your first pack is waiting" (notifications).
    record_event(
        tournament=pod.tournament,
        kind=EventKind.DRAFT_STARTED,
        payload={"pod": pod.pk, "number": pod.number, "players": [s.player_id for s in seats]},
        params={"tournament": pod.tournament.name, "pod": pod.number},
    )
    _after_commit_broadcast(pod, seats)
    return pod


def _move(pod: DraftPod, status: str, **stamps: datetime | None) -> None:
    """Save the pod's new status (and when it happened) as a new version."""
    pod.status = status
    for name, value in stamps.items():
        setattr(pod, name, value)
    pod.version += 1
    pod.save(update_fields=["status", "version", *stamps])


def _audit(
    pod: DraftPod, actor: Actor, action: str, params: dict[str, Any] | None = None, **after: Any
) -> None:
    record_audit(
        actor=actor,
        action=action,
        params={"tournament": pod.tournament.name, "pod": pod.number, **(params or {})},
        obj=pod,
        club=pod.tournament.club,
        tournament=pod.tournament,
        after=after or None,
    )


# --- the organiser's controls -----------------------------------------------------------------


@transaction.atomic(durable=True)
def pause_pod(*, actor: AnyUser, pod: DraftPod | int) -> DraftPod:
    pod = _lock_pod(pod)
    _require_manager(actor, pod.tournament)
    _require_running(pod)
    now = timezone.now()
    seats = _lock_seats(pod)
    for seat in seats:
        if seat.deadline is not None:
            seat.paused_remaining = max(seat.deadline - now, timedelta(0))
            seat.deadline = None
            seat.timer_token += 1
            seat.save(update_fields=["paused_remaining", "deadline", "timer_token"])
    _move(pod, PodStatus.PAUSED, paused_at=now)
    _audit(pod, actor, "draft.paused")
    _after_commit_broadcast(pod, seats)
    return pod


@transaction.atomic(durable=True)
def resume_pod(*, actor: AnyUser, pod: DraftPod | int) -> DraftPod:
    pod = _lock_pod(pod)
    _require_manager(actor, pod.tournament)
    if pod.status != PodStatus.PAUSED:
        raise Conflict(gettext("The draft is not paused."), code="pod_not_paused")
    now = timezone.now()
    _move(pod, PodStatus.RUNNING, paused_at=None)
    seats = _lock_seats(pod)
    for seat in seats:
        if seat.paused_remaining is not None:
            seat.deadline = now + seat.paused_remaining
            seat.paused_remaining = None
            seat.timer_token += 1
            seat.save(update_fields=["paused_remaining", "deadline", "timer_token"])
            _after_commit_timer(seat)
    _audit(pod, actor, "draft.resumed")
    _after_commit_broadcast(pod, seats)
    return pod


@transaction.atomic(durable=True)
def set_auto_pick(*, actor: AnyUser, pod: DraftPod | int, position: int, auto: bool) -> DraftSeat:
    """Replace a seat's player with auto-pick (``auto``), or give the seat back."""
    pod = _lock_pod(pod)
    _require_manager(actor, pod.tournament)
    if pod.status == PodStatus.FINISHED:
        raise Conflict(gettext("The draft is over."), code="pod_finished")
    seats = _lock_seats(pod)
    if not 0 <= position < len(seats):
        raise InvalidInput(
            gettext("This pod has no seat %(seat)d.") % {"seat": position + 1}, code="unknown_seat"
        )
    seat = seats[position]
    if seat.auto_pick == auto:
        return seat
    seat.auto_pick = auto
    seat.save(update_fields=["auto_pick"])
    pod.version += 1
    pod.save(update_fields=["version"])
    name = seat.label
    _audit(
        pod,
        actor,
        "draft.seat_auto" if auto else "draft.seat_returned",
        {"seat": position + 1, "name": name},
    )
    _run_auto_seats(pod, seats, timezone.now())
    _after_commit_broadcast(pod, seats)
    return seat


@transaction.atomic(durable=True)
def end_pod(*, actor: AnyUser, pod: DraftPod | int) -> DraftPod:
    """End the draft now: the server makes every remaining pick, so pools are complete."""
    pod = _lock_pod(pod)
    _require_manager(actor, pod.tournament)
    if pod.status == PodStatus.FINISHED:
        raise Conflict(gettext("The draft is over."), code="pod_finished")
    now = timezone.now()
    pod.status = PodStatus.RUNNING  # the picks below run; the last one finishes the pod
    seats = _lock_seats(pod)
    state = _state(pod)
    while not engine.is_finished(state):
        seat = next(s for s in seats if engine.expected_pick(state, s.position) is not None)
        state = _server_pick(pod, seats, seat, PickSource.ORGANISER, now)
    for seat in seats:
        seat.deadline = None
        seat.paused_remaining = None
        seat.timer_token += 1
        seat.save(update_fields=["deadline", "paused_remaining", "timer_token"])
    _audit(pod, actor, "draft.ended")
    _after_commit_broadcast(pod, seats)
    return pod
