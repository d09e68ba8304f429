"""A tournament's life: created (a draft or open for registration), edited, published,
started (by the start clock or the organiser), and ended by the organiser.

The start clock (DESIGN.md, "Clocks"): ``Tournament.scheduled_start`` is the deadline; the
task queued for it on commit is an optimisation, and the beat sweeper
(``tournaments.tasks.sweep_deadlines``) handles any start that passed unhandled. Both call
:func:`handle_tournament_start`, which re-reads the tournament under its row lock and acts
once (``start_handled_at``). Starting closes registration, marks players who did not
check in *not playing*, and begins stage 1 (``stages.begin_first_stage``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from core.audit import record_audit, transition
from core.auth import Actor, AnyUser, user_or_none
from core.errors import Conflict, InvalidInput
from core.events import EventKind
from core.languages import require_language
from core.locks import lock_all, lock_one
from core.queue import enqueue_on_commit
from tournaments import selectors
from tournaments.models import (
    Club,
    EntrantType,
    Game,
    Registration,
    RegistrationStatus,
    Round,
    RoundStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import policies
from tournaments.services import stages
from tournaments.services._entries import registration_state
from tournaments.services.locks import lock_tournament

logger = logging.getLogger(__name__)


#: When no window is given, check-in opens this long before the scheduled start.
DEFAULT_CHECK_IN_BEFORE = timedelta(hours=1)

#: Why a tournament cannot start now, by its status (only one in registration can).
_CANNOT_START = {
    TournamentStatus.DRAFT: gettext_lazy("%(tournament)s cannot start: it is draft."),
    TournamentStatus.RUNNING: gettext_lazy("%(tournament)s cannot start: it is running."),
    TournamentStatus.FINISHED: gettext_lazy("%(tournament)s cannot start: it is finished."),
}

TOURNAMENT_FIELDS = (
    "name",
    "description",
    "language",
    "game",
    "entrant_type",
    "best_of",
    "capacity",
    "scheduled_start",
    "registration_opens_at",
    "registration_closes_at",
    "check_in_opens_at",
    "check_in_closes_at",
)


def _tournament_state(t: Tournament) -> dict[str, Any]:
    fields = [
        "name",
        "game",
        "entrant_type",
        "best_of",
        "capacity",
        "status",
        "scheduled_start",
        "registration_opens_at",
        "registration_closes_at",
        "check_in_opens_at",
        "check_in_closes_at",
        "description",
        "language",
    ]
    state: dict[str, Any] = {}
    for name in fields:
        value = getattr(t, name)
        state[name] = value.isoformat() if isinstance(value, datetime) else value
    return state


def _validate_tournament(t: Tournament, *, now: datetime, start_changed: bool) -> None:
    """The checks a tournament's settings must pass, each naming the field at fault."""
    if not t.name.strip():
        raise InvalidInput(
            gettext("A tournament needs a name."), code="name_required", field="name"
        )
    if t.game not in Game.values:
        raise InvalidInput(
            gettext("Unknown game %(game)s: choose one of %(games)s.")
            % {"game": repr(t.game), "games": ", ".join(Game.values)},
            code="unknown_game",
            field="game",
        )
    if t.entrant_type not in EntrantType.values:
        raise InvalidInput(
            gettext("Unknown entrant type %(type)s.") % {"type": repr(t.entrant_type)},
            code="unknown_entrant_type",
            field="entrant_type",
        )
    if t.best_of not in (1, 3, 5):
        raise InvalidInput(
            gettext("A match is best of 1, 3 or 5 games."),
            code="invalid_best_of",
            field="best_of",
        )
    if t.capacity is None or t.capacity < 2:
        raise InvalidInput(
            gettext("Capacity must be at least 2 players."),
            code="capacity_too_small",
            field="capacity",
        )
    if start_changed and t.scheduled_start <= now:
        raise InvalidInput(
            gettext("The scheduled start must be in the future."),
            code="start_in_past",
            field="scheduled_start",
        )
    t.language = require_language(t.language, blank=True)
    start = t.scheduled_start
    if t.registration_opens_at and t.registration_opens_at >= t.registration_closes:
        raise InvalidInput(
            gettext("Registration must open before it closes."),
            code="registration_window",
            field="registration_opens_at",
        )
    if t.registration_closes_at and t.registration_closes_at > start:
        raise InvalidInput(
            gettext("Registration must close at or before the scheduled start."),
            code="registration_window",
            field="registration_closes_at",
        )
    if (t.check_in_opens_at is None) != (t.check_in_closes_at is None):
        raise InvalidInput(
            gettext("Give both ends of the check-in window, or neither."),
            code="check_in_window",
            field="check_in_closes_at",
        )
    if t.check_in_opens_at and t.check_in_closes_at:
        if t.check_in_opens_at >= t.check_in_closes_at:
            raise InvalidInput(
                gettext("Check-in must open before it closes."),
                code="check_in_window",
                field="check_in_opens_at",
            )
        if t.check_in_closes_at > start:
            raise InvalidInput(
                gettext("Check-in must close at or before the scheduled start."),
                code="check_in_window",
                field="check_in_closes_at",
            )


def _schedule_start_job(tournament: Tournament) -> None:
    """Queue the start clock job for the start time (``sweep_deadlines`` is the net)."""
    enqueue_on_commit(
        "tournaments.tasks.handle_tournament_start", tournament.pk, eta=tournament.scheduled_start
    )


@transaction.atomic(durable=True)
def create_tournament(
    *,
    actor: AnyUser,
    club: Club,
    name: str,
    game: str,
    capacity: int,
    scheduled_start: datetime,
    best_of: int = 1,
    entrant_type: str = EntrantType.PLAYER,
    description: str = "",
    language: str = "",
    registration_opens_at: datetime | None = None,
    registration_closes_at: datetime | None = None,
    check_in_opens_at: datetime | None = None,
    check_in_closes_at: datetime | None = None,
    publish: bool = False,
) -> Tournament:
    """An organiser creates a tournament (a draft, or published with registration open).

    Without a check-in window, check-in opens an hour before the start (or when the
    registration opens, if later) and closes at the start.
    """
    policies.require_manager(actor, club)
    now = timezone.now()
    if check_in_opens_at is None and check_in_closes_at is None and scheduled_start:
        check_in_closes_at = scheduled_start
        check_in_opens_at = max(scheduled_start - DEFAULT_CHECK_IN_BEFORE, now)
        if check_in_opens_at >= check_in_closes_at:
            check_in_opens_at = None
            check_in_closes_at = None
    tournament = Tournament(
        club=club,
        name=name.strip()[:120],
        description=description,
        language=language,
        game=game,
        entrant_type=entrant_type,
        best_of=best_of,
        capacity=capacity,
        scheduled_start=scheduled_start,
        registration_opens_at=registration_opens_at,
        registration_closes_at=registration_closes_at,
        check_in_opens_at=check_in_opens_at,
        check_in_closes_at=check_in_closes_at,
        status=TournamentStatus.REGISTRATION if publish else TournamentStatus.DRAFT,
        created_by=user_or_none(actor),
    )
    _validate_tournament(tournament, now=now, start_changed=True)
    tournament.save()
    stages.add_swiss_stage(tournament=tournament)
    record_audit(
        actor=actor,
        action="tournament.created",
        params={"tournament": tournament.name},
        obj=tournament,
        club=club,
        tournament=tournament,
        after=_tournament_state(tournament),
    )
    _schedule_start_job(tournament)
    return tournament


@transaction.atomic(durable=True)
def update_tournament(
    *, actor: AnyUser, tournament: Tournament, changes: dict[str, Any]
) -> Tournament:
    """Change a tournament's settings (only before it starts, except its name, description
    and language)."""
    policies.require_manager(actor, tournament.club)
    tournament = lock_tournament(tournament.pk)
    unknown = set(changes) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise InvalidInput(
            gettext("These fields cannot be changed: %(fields)s.")
            % {"fields": ", ".join(sorted(unknown))},
            code="unknown_field",
            field=sorted(unknown)[0],
        )
    locked = {k for k, v in changes.items() if getattr(tournament, k) != v} - {
        "name",
        "description",
        "language",
    }
    if locked and tournament.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
        raise Conflict(
            gettext("%(tournament)s has started: only its name and description can change.")
            % {"tournament": tournament.name},
            code="tournament_started",
            field=sorted(locked)[0],
        )
    if "entrant_type" in locked and tournament.registrations.exists():
        raise Conflict(
            gettext("Players have registered: single players or teams can no longer change."),
            code="entrants_registered",
            field="entrant_type",
        )
    before = _tournament_state(tournament)
    for key, value in changes.items():
        setattr(tournament, key, value)
    start_changed = "scheduled_start" in locked
    _validate_tournament(tournament, now=timezone.now(), start_changed=start_changed)
    if "capacity" in changes:
        active = selectors.active_registration_count(tournament)
        if tournament.capacity < active:
            raise Conflict(
                ngettext(
                    "%(count)d player is registered: capacity cannot go below that.",
                    "%(count)d players are registered: capacity cannot go below that.",
                    active,
                )
                % {"count": active},
                code="capacity_below_registered",
                field="capacity",
            )
    tournament.save()
    record_audit(
        actor=actor,
        action="tournament.updated",
        params={"tournament": tournament.name},
        obj=tournament,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after=_tournament_state(tournament),
    )
    if start_changed:
        _schedule_start_job(tournament)
    return tournament


@transaction.atomic(durable=True)
def publish_tournament(*, actor: AnyUser, tournament: Tournament) -> Tournament:
    """Draft → registration: the tournament appears publicly and players can register."""
    policies.require_manager(actor, tournament.club)
    tournament = lock_tournament(tournament.pk)
    if not policies.may_publish(tournament):
        raise Conflict(
            gettext("%(tournament)s is already published.") % {"tournament": tournament.name},
            code="already_published",
        )
    if tournament.scheduled_start <= timezone.now():
        raise Conflict(
            gettext("The scheduled start has passed: move it to the future before publishing."),
            code="start_in_past",
            field="scheduled_start",
        )
    transition(
        tournament,
        TournamentStatus.REGISTRATION,
        actor=actor,
        action="tournament.published",
        params={"tournament": tournament.name},
        club=tournament.club,
        tournament=tournament,
    )
    return tournament


@transaction.atomic(durable=True)
def handle_tournament_start(*, tournament_id: int, now: datetime | None = None) -> bool:
    """At the scheduled start: registration closes, no-shows are marked not playing.

    Idempotent: re-reads the tournament under a row lock and does nothing unless it is
    still in registration, its start has passed and no earlier run handled it. Returns
    whether it acted. The tournament becomes *running* (rounds are paired from there).
    """
    now = now or timezone.now()
    tournament = lock_one(Tournament, related=("club",), pk=tournament_id)
    if (
        tournament is None
        or tournament.start_handled_at is not None
        or tournament.status != TournamentStatus.REGISTRATION
        or tournament.scheduled_start > now
    ):
        return False
    start_tournament(tournament=tournament, actor=None, now=now)
    return True


def start_tournament(*, tournament: Tournament, actor: Actor, now: datetime) -> None:
    """Close registration, mark no-shows not playing, and set the tournament running.

    The caller holds the tournament's row lock and checked that it is in registration.
    """
    no_shows = lock_all(
        Registration,
        related=("player",),
        tournament=tournament,
        status=RegistrationStatus.REGISTERED,
        checked_in_at__isnull=True,
    )
    for registration in no_shows:
        before = registration_state(registration)
        registration.status = RegistrationStatus.NOT_PLAYING
        registration.save(update_fields=["status", "updated_at"])
        record_audit(
            actor=None,
            action="registration.not_playing",
            params={"entrant": registration.name},
            obj=registration,
            club=tournament.club,
            tournament=tournament,
            before=before,
            after=registration_state(registration),
        )
    transition(
        tournament,
        TournamentStatus.RUNNING,
        actor=actor,
        action="tournament.started",
        params={"tournament": tournament.name, "no_shows": len(no_shows)},
        club=tournament.club,
        tournament=tournament,
        stamps={"start_handled_at": now},
        after={"not_playing": [r.name for r in no_shows]},
        event=(
            EventKind.TOURNAMENT_STARTED,
            {"not_playing": len(no_shows)},
            {"tournament": tournament.name},
        ),
    )
    logger.info("tournament %s started; %d no-shows", tournament.pk, len(no_shows))
    stages.begin_first_stage(tournament, actor=actor)


@transaction.atomic(durable=True)
def start_tournament_now(*, actor: AnyUser, tournament: Tournament) -> Tournament:
    """The organiser starts before the scheduled time (everyone is here): the same as the
    start clock (no-shows marked not playing), then round 1 is paired if automatic."""
    tournament = lock_tournament(tournament.pk)
    policies.require_manager(actor, tournament.club)
    if not policies.may_start(tournament):
        raise Conflict(
            str(_CANNOT_START[TournamentStatus(tournament.status)])
            % {"tournament": tournament.name},
            code="cannot_start",
        )
    start_tournament(tournament=tournament, actor=actor, now=timezone.now())
    return tournament


@transaction.atomic(durable=True)
def finish_tournament(*, actor: AnyUser, tournament: Tournament) -> Tournament:
    """End the tournament early (after a complete round)."""
    tournament = lock_tournament(tournament.pk)
    policies.require_manager(actor, tournament.club)
    if not policies.tournament_is_running(tournament):
        raise Conflict(
            gettext("%(tournament)s is not running.") % {"tournament": tournament.name},
            code="tournament_not_running",
        )
    if Round.objects.filter(tournament=tournament).exclude(status=RoundStatus.COMPLETE).exists():
        raise Conflict(
            gettext("A round is still open: confirm its results first."),
            code="previous_round_open",
        )
    stages.finish(tournament, actor=actor)
    return tournament
