"""Every write: clubs and roles, tournaments, registration and check-in, the start clock.

Each service takes keyword-only arguments, checks permission and state, writes inside one
``transaction.atomic`` block and records an ``AuditEntry``. Where two people can race for
the same thing (the last seat of a full tournament, a double-clicked "register") the
tournament row is locked with ``select_for_update`` first, so the check and the write see
the same state. Background work is queued with ``transaction.on_commit``: a task never
sees a row its transaction has not committed.

Errors are ``tournaments.errors`` exceptions with a stable code and a detail written for
the person acting; nothing is half-saved because the whole service is one transaction.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from tournaments import selectors
from tournaments.errors import Conflict, InvalidInput, NotAllowed, NotFound
from tournaments.models import (
    DEFAULT_TIEBREAKERS,
    AuditEntry,
    Club,
    EntrantType,
    Event,
    Game,
    Invitation,
    Membership,
    Player,
    Registration,
    RegistrationStatus,
    Role,
    SwissSettings,
    Tournament,
    TournamentStatus,
)

logger = logging.getLogger(__name__)
User = get_user_model()

#: When no window is given, check-in opens this long before the scheduled start.
DEFAULT_CHECK_IN_BEFORE = timedelta(hours=1)


# --- audit -------------------------------------------------------------------------------


def record_audit(
    *,
    actor: AbstractBaseUser | None,
    action: str,
    summary: str,
    obj: Any,
    club: Club | None = None,
    tournament: Tournament | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        summary=summary[:255],
        club=club,
        tournament=tournament,
        object_type=type(obj).__name__,
        object_id=str(obj.pk),
        before=before,
        after=after,
    )


def record_event(
    *, tournament: Tournament, kind: str, message: str, payload: dict[str, Any] | None = None
) -> Event:
    """Append to the tournament's public event feed (pages, bots, webhooks)."""
    return Event.objects.create(
        tournament=tournament, kind=kind, message=message[:255], payload=payload or {}
    )


def _registration_state(reg: Registration) -> dict[str, Any]:
    return {
        "player": reg.player.display_name,
        "status": reg.status,
        "checked_in_at": reg.checked_in_at.isoformat() if reg.checked_in_at else None,
    }


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
    ]
    state: dict[str, Any] = {}
    for name in fields:
        value = getattr(t, name)
        state[name] = value.isoformat() if isinstance(value, datetime) else value
    return state


# --- people ------------------------------------------------------------------------------


def ensure_player(user: AbstractBaseUser) -> Player:
    """The user's player profile, created with their username as display name if missing."""
    player = Player.objects.filter(user=user).first()
    if player is None:
        player, _ = Player.objects.get_or_create(
            user=user, defaults={"display_name": user.get_username()}
        )
    return player


@transaction.atomic
def sign_up(*, username: str, email: str, password: str, display_name: str = "") -> Player:
    """Create an account and its player profile."""
    username = username.strip()
    if not username:
        raise InvalidInput("Choose a user name.", code="username_required", field="username")
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict("That user name is taken.", code="username_taken", field="username")
    user = User.objects.create_user(username=username, email=email, password=password)
    player = Player.objects.create(user=user, display_name=display_name.strip() or username)
    return player


@transaction.atomic
def update_profile(*, user: AbstractBaseUser, display_name: str) -> Player:
    display_name = display_name.strip()
    if not display_name:
        raise InvalidInput("A display name cannot be empty.", field="display_name")
    player = ensure_player(user)
    before = {"display_name": player.display_name}
    player.display_name = display_name[:80]
    player.save(update_fields=["display_name"])
    record_audit(
        actor=user,
        action="player.renamed",
        summary=f"{before['display_name']} is now {player.display_name}",
        obj=player,
        before=before,
        after={"display_name": player.display_name},
    )
    return player


# --- clubs and roles -----------------------------------------------------------------------


def _unique_slug(name: str) -> str:
    base = slugify(name)[:50] or "club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


@transaction.atomic
def create_club(*, actor: AbstractBaseUser, name: str, description: str = "") -> Club:
    """Create a club; whoever creates it is its owner."""
    name = name.strip()
    if not name:
        raise InvalidInput("A club needs a name.", code="name_required", field="name")
    club = Club.objects.create(name=name[:120], slug=_unique_slug(name), description=description)
    membership = Membership.objects.create(club=club, user=actor, role=Role.OWNER)
    record_audit(
        actor=actor,
        action="club.created",
        summary=f"{club.name} created",
        obj=club,
        club=club,
        after={"name": club.name, "owner": actor.get_username()},
    )
    record_audit(
        actor=actor,
        action="membership.role_set",
        summary=f"{actor.get_username()} is owner",
        obj=membership,
        club=club,
        after={"role": Role.OWNER},
    )
    return club


def _require_owner(actor: AbstractBaseUser, club: Club) -> None:
    if not selectors.is_club_owner(actor, club):
        raise NotAllowed(f"Only an owner of {club.name} can change its members.", code="not_owner")


def _check_role(role: str) -> None:
    if role not in Role.values:
        raise InvalidInput(
            f"Unknown role {role!r}: choose one of {', '.join(Role.values)}.",
            code="unknown_role",
            field="role",
        )


@transaction.atomic
def add_member(
    *, actor: AbstractBaseUser, club: Club, username: str, role: str = Role.MEMBER
) -> Membership:
    """An owner adds an existing user to the club with a role."""
    _require_owner(actor, club)
    _check_role(role)
    user = User.objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise NotFound(f"No user is called {username!r}.", code="unknown_user", field="username")
    if Membership.objects.filter(club=club, user=user).exists():
        raise Conflict(
            f"{user.get_username()} is already a member of {club.name}.",
            code="already_member",
            field="username",
        )
    ensure_player(user)
    membership = Membership.objects.create(club=club, user=user, role=role)
    record_audit(
        actor=actor,
        action="membership.added",
        summary=f"{user.get_username()} added to {club.name} as {role}",
        obj=membership,
        club=club,
        after={"user": user.get_username(), "role": role},
    )
    return membership


@transaction.atomic
def set_role(*, actor: AbstractBaseUser, membership: Membership, role: str) -> Membership:
    """An owner changes a member's role; a club always keeps at least one owner."""
    club = membership.club
    _require_owner(actor, club)
    _check_role(role)
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == role:
        return membership
    if membership.role == Role.OWNER and role != Role.OWNER:
        # Lock every owner row so two owners demoting each other cannot leave none.
        owners = list(
            Membership.objects.select_for_update().filter(club=club, role=Role.OWNER).order_by("pk")
        )
        if len(owners) <= 1:
            raise Conflict(
                f"{club.name} needs at least one owner: make someone else owner first.",
                code="last_owner",
                field="role",
            )
    before = {"role": membership.role}
    membership.role = role
    membership.save(update_fields=["role"])
    record_audit(
        actor=actor,
        action="membership.role_set",
        summary=f"{membership.user.get_username()} is now {role} in {club.name}",
        obj=membership,
        club=club,
        before=before,
        after={"role": role},
    )
    return membership


@transaction.atomic
def remove_member(*, actor: AbstractBaseUser, membership: Membership) -> None:
    club = membership.club
    is_self = membership.user_id == actor.pk
    if not is_self:
        _require_owner(actor, club)
    if membership.role == Role.OWNER:
        owners = Membership.objects.select_for_update().filter(club=club, role=Role.OWNER)
        if owners.count() <= 1:
            raise Conflict(
                f"{club.name} needs at least one owner: make someone else owner first.",
                code="last_owner",
            )
    record_audit(
        actor=actor,
        action="membership.removed",
        summary=f"{membership.user.get_username()} left {club.name}",
        obj=membership,
        club=club,
        before={"user": membership.user.get_username(), "role": membership.role},
    )
    membership.delete()


@transaction.atomic
def invite_member(
    *, actor: AbstractBaseUser, club: Club, email: str, role: str = Role.MEMBER
) -> Invitation:
    """An owner invites someone by e-mail; the link adds them with the role once accepted."""
    _require_owner(actor, club)
    _check_role(role)
    email = email.strip().lower()
    if "@" not in email:
        raise InvalidInput("Enter a valid e-mail address.", code="invalid_email", field="email")
    invitation = Invitation.objects.create(
        club=club, email=email, role=role, token=secrets.token_urlsafe(32), invited_by=actor
    )
    record_audit(
        actor=actor,
        action="invitation.sent",
        summary=f"{email} invited to {club.name} as {role}",
        obj=invitation,
        club=club,
        after={"email": email, "role": role},
    )
    link = f"{settings.SITE_URL.rstrip('/')}/invitations/{invitation.token}/"
    transaction.on_commit(
        lambda: send_mail(
            subject=f"You are invited to {club.name}",
            message=(
                f"{actor.get_username()} invites you to join {club.name} as {role}.\n\n"
                f"Accept the invitation here: {link}\n"
            ),
            from_email=None,
            recipient_list=[email],
            fail_silently=True,
        )
    )
    return invitation


@transaction.atomic
def accept_invitation(*, user: AbstractBaseUser, token: str) -> Membership:
    invitation = (
        Invitation.objects.select_for_update().select_related("club").filter(token=token).first()
    )
    if invitation is None:
        raise NotFound("This invitation link is not valid.", code="unknown_invitation")
    if invitation.accepted_at is not None:
        raise Conflict("This invitation was already used.", code="invitation_used")
    membership = Membership.objects.filter(club=invitation.club, user=user).first()
    if membership is None:
        ensure_player(user)
        membership = Membership.objects.create(
            club=invitation.club, user=user, role=invitation.role
        )
        record_audit(
            actor=user,
            action="membership.added",
            summary=f"{user.get_username()} joined {invitation.club.name} as {invitation.role}",
            obj=membership,
            club=invitation.club,
            after={"role": invitation.role},
        )
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership


# --- tournaments ------------------------------------------------------------------------------

TOURNAMENT_FIELDS = (
    "name",
    "description",
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


def _require_manager(actor: AbstractBaseUser, club: Club) -> None:
    if not selectors.can_manage_club(actor, club):
        raise NotAllowed(
            f"Only the owners and organisers of {club.name} can manage its tournaments.",
            code="not_organiser",
        )


def _validate_tournament(t: Tournament, *, now: datetime, start_changed: bool) -> None:
    """The checks a tournament's settings must pass, each naming the field at fault."""
    if not t.name.strip():
        raise InvalidInput("A tournament needs a name.", code="name_required", field="name")
    if t.game not in Game.values:
        raise InvalidInput(
            f"Unknown game {t.game!r}: choose one of {', '.join(Game.values)}.",
            code="unknown_game",
            field="game",
        )
    if t.entrant_type not in EntrantType.values:
        raise InvalidInput(
            f"Unknown entrant type {t.entrant_type!r}.",
            code="unknown_entrant_type",
            field="entrant_type",
        )
    if t.entrant_type == EntrantType.TEAM:
        raise InvalidInput(
            "Team tournaments are not available yet: choose single players.",
            code="teams_not_available",
            field="entrant_type",
        )
    if t.best_of not in (1, 3, 5):
        raise InvalidInput(
            "A match is best of 1, 3 or 5 games.", code="invalid_best_of", field="best_of"
        )
    if t.capacity is None or t.capacity < 2:
        raise InvalidInput(
            "Capacity must be at least 2 players.", code="capacity_too_small", field="capacity"
        )
    if start_changed and t.scheduled_start <= now:
        raise InvalidInput(
            "The scheduled start must be in the future.",
            code="start_in_past",
            field="scheduled_start",
        )
    start = t.scheduled_start
    if t.registration_opens_at and t.registration_opens_at >= t.registration_closes:
        raise InvalidInput(
            "Registration must open before it closes.",
            code="registration_window",
            field="registration_opens_at",
        )
    if t.registration_closes_at and t.registration_closes_at > start:
        raise InvalidInput(
            "Registration must close at or before the scheduled start.",
            code="registration_window",
            field="registration_closes_at",
        )
    if (t.check_in_opens_at is None) != (t.check_in_closes_at is None):
        raise InvalidInput(
            "Give both ends of the check-in window, or neither.",
            code="check_in_window",
            field="check_in_closes_at",
        )
    if t.check_in_opens_at and t.check_in_closes_at:
        if t.check_in_opens_at >= t.check_in_closes_at:
            raise InvalidInput(
                "Check-in must open before it closes.",
                code="check_in_window",
                field="check_in_opens_at",
            )
        if t.check_in_closes_at > start:
            raise InvalidInput(
                "Check-in must close at or before the scheduled start.",
                code="check_in_window",
                field="check_in_closes_at",
            )


def _schedule_start_job(tournament: Tournament) -> None:
    """Queue the start clock job for the start time (``sweep_deadlines`` is the net)."""
    from tournaments import tasks
    from tournaments.services.queue import enqueue_on_commit

    enqueue_on_commit(tasks.handle_tournament_start, tournament.pk, eta=tournament.scheduled_start)


@transaction.atomic
def create_tournament(
    *,
    actor: AbstractBaseUser,
    club: Club,
    name: str,
    game: str,
    capacity: int,
    scheduled_start: datetime,
    best_of: int = 1,
    entrant_type: str = EntrantType.PLAYER,
    description: str = "",
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
    _require_manager(actor, club)
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
        created_by=actor,
    )
    _validate_tournament(tournament, now=now, start_changed=True)
    tournament.save()
    SwissSettings.objects.create(
        tournament=tournament, seed=secrets.randbelow(2**31), tiebreakers=DEFAULT_TIEBREAKERS
    )
    record_audit(
        actor=actor,
        action="tournament.created",
        summary=f"{tournament.name} created",
        obj=tournament,
        club=club,
        tournament=tournament,
        after=_tournament_state(tournament),
    )
    _schedule_start_job(tournament)
    return tournament


@transaction.atomic
def update_tournament(
    *, actor: AbstractBaseUser, tournament: Tournament, changes: dict[str, Any]
) -> Tournament:
    """Change a tournament's settings (only before it starts, except name and description)."""
    _require_manager(actor, tournament.club)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    unknown = set(changes) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise InvalidInput(
            f"These fields cannot be changed: {', '.join(sorted(unknown))}.",
            code="unknown_field",
            field=sorted(unknown)[0],
        )
    locked = {k for k, v in changes.items() if getattr(tournament, k) != v} - {
        "name",
        "description",
    }
    if locked and tournament.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
        raise Conflict(
            f"{tournament.name} has started: only its name and description can change.",
            code="tournament_started",
            field=sorted(locked)[0],
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
                f"{active} players are registered: capacity cannot go below that.",
                code="capacity_below_registered",
                field="capacity",
            )
    tournament.save()
    record_audit(
        actor=actor,
        action="tournament.updated",
        summary=f"{tournament.name} edited",
        obj=tournament,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after=_tournament_state(tournament),
    )
    if start_changed:
        _schedule_start_job(tournament)
    return tournament


@transaction.atomic
def publish_tournament(*, actor: AbstractBaseUser, tournament: Tournament) -> Tournament:
    """Draft → registration: the tournament appears publicly and players can register."""
    _require_manager(actor, tournament.club)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != TournamentStatus.DRAFT:
        raise Conflict(f"{tournament.name} is already published.", code="already_published")
    if tournament.scheduled_start <= timezone.now():
        raise Conflict(
            "The scheduled start has passed: move it to the future before publishing.",
            code="start_in_past",
            field="scheduled_start",
        )
    tournament.status = TournamentStatus.REGISTRATION
    tournament.save(update_fields=["status", "updated_at"])
    record_audit(
        actor=actor,
        action="tournament.published",
        summary=f"{tournament.name} opened",
        obj=tournament,
        club=tournament.club,
        tournament=tournament,
        before={"status": TournamentStatus.DRAFT},
        after={"status": tournament.status},
    )
    return tournament


# --- registration and check-in --------------------------------------------------------------


def _lock_tournament(tournament: Tournament) -> Tournament:
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=tournament.pk)
    )


def _take_seat(
    *, tournament: Tournament, player: Player, actor: AbstractBaseUser, by_organiser: bool
) -> Registration:
    """Register (or re-register) a player; the caller holds the tournament's row lock."""
    existing = Registration.objects.filter(tournament=tournament, player=player).first()
    if existing is not None and existing.status == RegistrationStatus.REGISTERED:
        who = "You are" if not by_organiser else f"{player.display_name} is"
        raise Conflict(
            f"{who} already registered for {tournament.name}.", code="already_registered"
        )
    if selectors.active_registration_count(tournament) >= tournament.capacity:
        raise Conflict(
            f"{tournament.name} is full ({tournament.capacity} players).", code="tournament_full"
        )
    now = timezone.now()
    if existing is not None:
        before = _registration_state(existing)
        existing.status = RegistrationStatus.REGISTERED
        existing.registered_at = now
        existing.checked_in_at = None
        existing.save(update_fields=["status", "registered_at", "checked_in_at", "updated_at"])
        registration = existing
    else:
        before = None
        try:
            with transaction.atomic():
                registration = Registration.objects.create(
                    tournament=tournament, player=player, registered_at=now
                )
        except IntegrityError:  # only reachable without the row lock (defence in depth)
            raise Conflict("You are already registered.", code="already_registered") from None
    record_audit(
        actor=actor,
        action="registration.added" if not by_organiser else "registration.added_by_organiser",
        summary=f"{player.display_name} registered for {tournament.name}",
        obj=registration,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after=_registration_state(registration),
    )
    return registration


@transaction.atomic
def register(*, actor: AbstractBaseUser, tournament: Tournament) -> Registration:
    """A player registers themselves while registration is open and there is room."""
    tournament = _lock_tournament(tournament)
    if not tournament.registration_is_open():
        raise Conflict(f"Registration for {tournament.name} is closed.", code="registration_closed")
    return _take_seat(
        tournament=tournament, player=ensure_player(actor), actor=actor, by_organiser=False
    )


def _get_registration_for_update(registration: Registration) -> Registration:
    return (
        Registration.objects.select_for_update()
        .select_related("player", "tournament")
        .get(pk=registration.pk)
    )


@transaction.atomic
def unregister(*, actor: AbstractBaseUser, registration: Registration) -> Registration:
    """A player withdraws their own registration before the tournament starts."""
    tournament = _lock_tournament(registration.tournament)
    registration = _get_registration_for_update(registration)
    if registration.player.user_id != actor.pk:
        raise NotAllowed("You can only change your own registration.", code="not_your_registration")
    if tournament.status != TournamentStatus.REGISTRATION:
        raise Conflict(
            f"{tournament.name} has started: ask an organiser to drop you.",
            code="registration_closed",
        )
    return _withdraw(actor=actor, registration=registration, tournament=tournament)


def _withdraw(
    *, actor: AbstractBaseUser, registration: Registration, tournament: Tournament
) -> Registration:
    if registration.status != RegistrationStatus.REGISTERED:
        return registration  # already withdrawn: sending it twice changes nothing
    before = _registration_state(registration)
    registration.status = RegistrationStatus.WITHDRAWN
    registration.checked_in_at = None
    registration.save(update_fields=["status", "checked_in_at", "updated_at"])
    record_audit(
        actor=actor,
        action="registration.withdrawn",
        summary=f"{registration.player.display_name} withdrew from {tournament.name}",
        obj=registration,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after=_registration_state(registration),
    )
    return registration


@transaction.atomic
def check_in(*, actor: AbstractBaseUser, registration: Registration) -> Registration:
    """A registered player checks in during the check-in window."""
    tournament = _lock_tournament(registration.tournament)
    registration = _get_registration_for_update(registration)
    if registration.player.user_id != actor.pk:
        raise NotAllowed("You can only check yourself in.", code="not_your_registration")
    if registration.status != RegistrationStatus.REGISTERED:
        raise Conflict("You are not registered for this tournament.", code="not_registered")
    if not tournament.check_in_is_open():
        raise Conflict(_check_in_closed_message(tournament), code="check_in_closed")
    return _mark_checked_in(actor=actor, registration=registration, tournament=tournament)


def _check_in_closed_message(tournament: Tournament) -> str:
    opens, closes = tournament.check_in_opens_at, tournament.check_in_closes_at
    if opens and closes and timezone.now() < opens:
        return f"Check-in opens at {timezone.localtime(opens):%H:%M on %d %b}."
    return f"Check-in for {tournament.name} is closed."


def _mark_checked_in(
    *, actor: AbstractBaseUser, registration: Registration, tournament: Tournament
) -> Registration:
    if registration.checked_in_at is not None:
        return registration  # checking in twice changes nothing
    before = _registration_state(registration)
    registration.checked_in_at = timezone.now()
    registration.save(update_fields=["checked_in_at", "updated_at"])
    record_audit(
        actor=actor,
        action="registration.checked_in",
        summary=f"{registration.player.display_name} checked in",
        obj=registration,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after=_registration_state(registration),
    )
    return registration


@transaction.atomic
def add_player(*, actor: AbstractBaseUser, tournament: Tournament, username: str) -> Registration:
    """An organiser registers a player by hand (registration window does not apply)."""
    _require_manager(actor, tournament.club)
    tournament = _lock_tournament(tournament)
    if tournament.status not in (TournamentStatus.DRAFT, TournamentStatus.REGISTRATION):
        raise Conflict(f"{tournament.name} has started.", code="tournament_started")
    user = User.objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise NotFound(f"No user is called {username!r}.", code="unknown_user", field="username")
    return _take_seat(
        tournament=tournament, player=ensure_player(user), actor=actor, by_organiser=True
    )


@transaction.atomic
def remove_player(*, actor: AbstractBaseUser, registration: Registration) -> Registration:
    """An organiser withdraws a player's registration."""
    _require_manager(actor, registration.tournament.club)
    tournament = _lock_tournament(registration.tournament)
    registration = _get_registration_for_update(registration)
    if tournament.status not in (TournamentStatus.DRAFT, TournamentStatus.REGISTRATION):
        raise Conflict(f"{tournament.name} has started.", code="tournament_started")
    return _withdraw(actor=actor, registration=registration, tournament=tournament)


@transaction.atomic
def check_in_player(*, actor: AbstractBaseUser, registration: Registration) -> Registration:
    """An organiser checks a player in by hand, at any time before the start."""
    _require_manager(actor, registration.tournament.club)
    tournament = _lock_tournament(registration.tournament)
    registration = _get_registration_for_update(registration)
    if tournament.status not in (TournamentStatus.DRAFT, TournamentStatus.REGISTRATION):
        raise Conflict(f"{tournament.name} has started.", code="tournament_started")
    if registration.status != RegistrationStatus.REGISTERED:
        raise Conflict(
            f"{registration.player.display_name} is not registered.", code="not_registered"
        )
    return _mark_checked_in(actor=actor, registration=registration, tournament=tournament)


# --- the start clock ---------------------------------------------------------------------------


@transaction.atomic
def handle_tournament_start(*, tournament_id: int, now: datetime | None = None) -> bool:
    """At the scheduled start: registration closes, no-shows are marked not playing.

    Idempotent: re-reads the tournament under a row lock and does nothing unless it is
    still in registration, its start has passed and no earlier run handled it. Returns
    whether it acted. The tournament becomes *running* (rounds are paired from there).
    """
    now = now or timezone.now()
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk=tournament_id)
        .first()
    )
    if (
        tournament is None
        or tournament.start_handled_at is not None
        or tournament.status != TournamentStatus.REGISTRATION
        or tournament.scheduled_start > now
    ):
        return False
    start_tournament(tournament=tournament, actor=None, now=now)
    return True


def start_tournament(
    *, tournament: Tournament, actor: AbstractBaseUser | None, now: datetime
) -> None:
    """Close registration, mark no-shows not playing, and set the tournament running.

    The caller holds the tournament's row lock and checked that it is in registration.
    """
    from tournaments.services.rounds import after_start

    no_shows = list(
        Registration.objects.select_for_update()
        .select_related("player")
        .filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED, checked_in_at__isnull=True
        )
        .order_by("pk")
    )
    for registration in no_shows:
        before = _registration_state(registration)
        registration.status = RegistrationStatus.NOT_PLAYING
        registration.save(update_fields=["status", "updated_at"])
        record_audit(
            actor=None,
            action="registration.not_playing",
            summary=f"{registration.player.display_name} did not check in",
            obj=registration,
            club=tournament.club,
            tournament=tournament,
            before=before,
            after=_registration_state(registration),
        )
    tournament.status = TournamentStatus.RUNNING
    tournament.start_handled_at = now
    tournament.save(update_fields=["status", "start_handled_at", "updated_at"])
    record_audit(
        actor=actor,
        action="tournament.started",
        summary=f"{tournament.name} started: registration closed, {len(no_shows)} no-show(s)",
        obj=tournament,
        club=tournament.club,
        tournament=tournament,
        before={"status": TournamentStatus.REGISTRATION},
        after={
            "status": tournament.status,
            "not_playing": [r.player.display_name for r in no_shows],
        },
    )
    record_event(
        tournament=tournament,
        kind="tournament.started",
        message=f"{tournament.name} has started",
        payload={"not_playing": len(no_shows)},
    )
    logger.info("tournament %s started; %d no-shows", tournament.pk, len(no_shows))
    after_start(tournament)
