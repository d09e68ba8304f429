"""Entrants: registration and check-in before the start; drops, re-adds and late entrants
while the tournament runs.

Where two people can race for the same thing (the last seat of a full tournament, a
double-clicked "register", the start clock and a check-in) the tournament row is locked
first (``services.locks``), so the check and the write see the same state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import record_audit, transition
from core.auth import AnyUser, require_user
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound
from core.locks import lock_all
from tournaments import selectors
from tournaments.models import (
    Player,
    Registration,
    RegistrationStatus,
    Round,
    Tournament,
)
from tournaments.selectors import policies
from tournaments.services import _entries as words
from tournaments.services import teams
from tournaments.services._entries import audit_entry, entrants_changed, registration_state
from tournaments.services.locks import lock_registration, lock_tournament
from tournaments.services.page_versions import pages_changed
from tournaments.services.people import ensure_player

User = get_user_model()


@dataclass(frozen=True)
class TeamEntry:
    """A team's registration details (``team_entry``): its name and teammate, if any."""

    name: str
    partner: Player | None


def team_entry(
    tournament: Tournament,
    player: Player,
    *,
    team_name: str,
    teammate: str,
    by_organiser: bool,
) -> TeamEntry | None:
    """The team to register (None in a single-player event, which refuses team input)."""
    if not teams.is_team_event(tournament):
        if team_name.strip() or teammate.strip():
            field = "team_name" if team_name.strip() else "teammate"
            raise InvalidInput(
                gettext("%(tournament)s is for single players: register without a team.")
                % {"tournament": tournament.name},
                code="not_a_team_event",
                field=field,
            )
        return None
    partner = teams.player_by_username(teammate) if teammate.strip() else None
    if team_name.strip() or not by_organiser:
        name = teams.clean_team_name(team_name)
    else:
        name = teams.default_team_name(player, partner)
    return TeamEntry(name=name, partner=partner)


def _take_seat(
    *,
    tournament: Tournament,
    player: Player,
    actor: AnyUser,
    by_organiser: bool,
    team: TeamEntry | None = None,
) -> Registration:
    """Register (or re-register) a player, or their team; the caller holds the
    tournament's row lock. An organiser's teammate joins at once, a player's is invited."""
    existing = Registration.objects.filter(tournament=tournament, player=player).first()
    if existing is not None and existing.status == RegistrationStatus.REGISTERED:
        raise Conflict(
            words.already_registered(tournament, player, yours=not by_organiser),
            code="already_registered",
        )
    if policies.tournament_is_full(tournament, selectors.active_registration_count(tournament)):
        raise Conflict(words.full(tournament, teams=team is not None), code="tournament_full")
    if team is not None:
        teams.require_free(tournament, player, you=not by_organiser)
        teams.require_unique_name(tournament, team.name)
    now = timezone.now()
    if existing is not None:
        before = registration_state(existing)
        existing.status = RegistrationStatus.REGISTERED
        existing.registered_at = now
        existing.checked_in_at = None
        existing.player_checked_in_at = None
        existing.team_name = team.name if team is not None else ""
        existing.save(
            update_fields=[
                "status",
                "registered_at",
                "checked_in_at",
                "player_checked_in_at",
                "team_name",
                "updated_at",
            ]
        )
        registration = existing
    else:
        before = None
        try:
            with transaction.atomic():
                registration = Registration.objects.create(
                    tournament=tournament,
                    player=player,
                    registered_at=now,
                    team_name=team.name if team is not None else "",
                )
        except IntegrityError:  # only reachable without the row lock (defence in depth)
            raise Conflict(
                gettext("You are already registered."), code="already_registered"
            ) from None
    if team is not None and team.partner is not None:
        teams.require_invitable(tournament, registration, team.partner)
        teams.set_partner(registration, team.partner, accepted=by_organiser)
    audit_entry(
        actor,
        registration,
        tournament,
        action="registration.added" if not by_organiser else "registration.added_by_organiser",
        params={"entrant": registration.name, "tournament": tournament.name},
        before=before,
    )
    pages_changed(tournament.pk)
    entrants_changed([registration])
    return registration


@transaction.atomic(durable=True)
def register(
    *, actor: AnyUser, tournament: Tournament, team_name: str = "", teammate: str = ""
) -> Registration:
    """A player registers themselves while registration is open and there is room; in a
    team event, their team (``team_name``), inviting ``teammate`` (a username) if given."""
    actor = require_user(actor)
    tournament = lock_tournament(tournament.pk)
    if not tournament.registration_is_open():
        raise Conflict(
            gettext("Registration for %(tournament)s is closed.") % {"tournament": tournament.name},
            code="registration_closed",
        )
    player = ensure_player(actor)
    team = team_entry(
        tournament, player, team_name=team_name, teammate=teammate, by_organiser=False
    )
    return _take_seat(
        tournament=tournament, player=player, actor=actor, by_organiser=False, team=team
    )


@transaction.atomic(durable=True)
def unregister(*, actor: AnyUser, registration: Registration) -> Registration:
    """A player withdraws their own registration before the tournament starts."""
    actor = require_user(actor)  # a guest's entry has no user: nobody anonymous is them
    tournament = lock_tournament(registration.tournament_id)
    registration = lock_registration(registration.pk)
    if registration.player.user_id != actor.pk:
        if registration.is_invited(actor.pk) or registration.has_member(actor.pk):
            raise NotAllowed(words.not_captain(registration), code="not_captain")
        raise NotAllowed(
            gettext("You can only change your own registration."), code="not_your_registration"
        )
    if not policies.may_start(tournament):  # still in registration
        raise Conflict(
            gettext("%(tournament)s has started: ask an organiser to drop you.")
            % {"tournament": tournament.name},
            code="registration_closed",
        )
    return _withdraw(actor=actor, registration=registration, tournament=tournament)


def _withdraw(
    *, actor: AnyUser, registration: Registration, tournament: Tournament
) -> Registration:
    if registration.status != RegistrationStatus.REGISTERED:
        return registration  # already withdrawn: sending it twice changes nothing
    before = registration_state(registration)
    registration.status = RegistrationStatus.WITHDRAWN
    registration.checked_in_at = None
    registration.player_checked_in_at = None
    registration.save(
        update_fields=["status", "checked_in_at", "player_checked_in_at", "updated_at"]
    )
    if registration.partner_id is not None:  # a withdrawn team frees its teammate
        teams.set_partner(registration, None, accepted=False)
    audit_entry(
        actor,
        registration,
        tournament,
        action="registration.withdrawn",
        params={"entrant": registration.name, "tournament": tournament.name},
        before=before,
    )
    pages_changed(tournament.pk)
    entrants_changed([registration])
    return registration


@transaction.atomic(durable=True)
def check_in(*, actor: AnyUser, registration: Registration) -> Registration:
    """A registered player checks in during the check-in window (a team's member checks
    themselves in: the team is checked in once both have)."""
    tournament = lock_tournament(registration.tournament_id)
    registration = lock_registration(registration.pk)
    if not registration.has_member(actor.pk):
        raise NotAllowed(gettext("You can only check yourself in."), code="not_your_registration")
    if registration.status != RegistrationStatus.REGISTERED:
        raise Conflict(
            gettext("You are not registered for this tournament."), code="not_registered"
        )
    if not tournament.check_in_is_open():
        raise Conflict(words.check_in_closed(tournament), code="check_in_closed")
    _require_team_complete(registration, yours=True)
    member = "partner" if registration.player.user_id != actor.pk else "player"
    pages_changed(tournament.pk)
    return _mark_checked_in(
        actor=actor, registration=registration, tournament=tournament, members=(member,)
    )


def _require_team_complete(registration: Registration, *, yours: bool) -> None:
    """A team of one never checks in, so it never plays."""
    if not registration.team_complete:
        raise Conflict(words.team_incomplete(registration, yours=yours), code="team_incomplete")


def _mark_checked_in(
    *,
    actor: AnyUser,
    registration: Registration,
    tournament: Tournament,
    members: tuple[str, ...] = ("player", "partner"),
) -> Registration:
    """Check in the entrant (a team: the ``members`` named, ``player`` or ``partner``; the
    team is checked in once both are)."""
    if registration.checked_in_at is not None:
        return registration  # checking in twice changes nothing
    before = registration_state(registration)
    now = timezone.now()
    fields = ["checked_in_at", "updated_at"]
    params = {"entrant": registration.name}
    if registration.is_team:
        for member in members:
            if getattr(registration, f"{member}_checked_in_at") is None:
                setattr(registration, f"{member}_checked_in_at", now)
                fields.append(f"{member}_checked_in_at")
        if registration.player_checked_in_at and registration.partner_checked_in_at:
            registration.checked_in_at = now
        else:
            who = registration.player if "player" in members else registration.partner
            params["member"] = str(who)
    else:
        registration.checked_in_at = now
    if len(fields) == 2 and registration.checked_in_at is None:
        return registration  # this member had checked in already
    registration.save(update_fields=fields)
    audit_entry(
        actor,
        registration,
        tournament,
        action="registration.checked_in",
        params=params,
        before=before,
    )
    return registration


@transaction.atomic(durable=True)
def add_player(
    *,
    actor: AnyUser,
    tournament: Tournament,
    username: str,
    team_name: str = "",
    teammate: str = "",
) -> Registration:
    """An organiser registers a player by hand (registration window does not apply); in a
    team event, their team, with ``teammate`` (a username) in it at once if given."""
    policies.require_manager(actor, tournament.club)
    tournament = lock_tournament(tournament.pk)
    if not policies.tournament_in_setup(tournament):
        raise Conflict(words.started(tournament), code="tournament_started")
    user = User.objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise NotFound(
            gettext("No user is called %(username)s.") % {"username": repr(username)},
            code="unknown_user",
            field="username",
        )
    player = ensure_player(user)
    team = team_entry(tournament, player, team_name=team_name, teammate=teammate, by_organiser=True)
    return _take_seat(
        tournament=tournament, player=player, actor=actor, by_organiser=True, team=team
    )


@transaction.atomic(durable=True)
def remove_player(*, actor: AnyUser, registration: Registration) -> Registration:
    """An organiser withdraws a player's registration."""
    policies.require_manager(actor, registration.tournament.club)
    tournament = lock_tournament(registration.tournament_id)
    registration = lock_registration(registration.pk)
    if not policies.tournament_in_setup(tournament):
        raise Conflict(words.started(tournament), code="tournament_started")
    return _withdraw(actor=actor, registration=registration, tournament=tournament)


@transaction.atomic(durable=True)
def check_in_player(*, actor: AnyUser, registration: Registration) -> Registration:
    """An organiser checks a player in by hand, at any time before the start."""
    policies.require_manager(actor, registration.tournament.club)
    tournament = lock_tournament(registration.tournament_id)
    registration = lock_registration(registration.pk)
    if not policies.tournament_in_setup(tournament):
        raise Conflict(words.started(tournament), code="tournament_started")
    if registration.status != RegistrationStatus.REGISTERED:
        raise Conflict(
            gettext("%(entrant)s is not registered.") % {"entrant": registration.name},
            code="not_registered",
        )
    _require_team_complete(registration, yours=False)
    pages_changed(tournament.pk)
    return _mark_checked_in(actor=actor, registration=registration, tournament=tournament)


def withdraw_entry(*, actor: AnyUser, registration: Registration) -> Registration:
    """The "withdraw" button: a player's own entry (``unregister``, in the window), a
    teammate's place in a team (``teams.remove_teammate``) or, for an organiser, anyone's
    (``remove_player``). Each is its own transaction."""
    if actor.pk is not None and registration.player.user_id == actor.pk:
        return unregister(actor=actor, registration=registration)
    if registration.has_member(actor.pk):
        return teams.remove_teammate(actor=actor, registration=registration)
    if policies.can_manage_club(actor, registration.tournament.club):
        return remove_player(actor=actor, registration=registration)
    raise NotAllowed(
        gettext("You can only change your own registration."), code="not_your_registration"
    )


def check_in_entry(*, actor: AnyUser, registration: Registration) -> Registration:
    """The "check in" button: yourself in the window (``check_in``) or, for an organiser,
    anyone before the start (``check_in_player``)."""
    if registration.has_member(actor.pk):
        return check_in(actor=actor, registration=registration)
    if policies.can_manage_club(actor, registration.tournament.club):
        return check_in_player(actor=actor, registration=registration)
    raise NotAllowed(gettext("You can only check yourself in."), code="not_your_registration")


def latest_round_number(tournament: Tournament) -> int:
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    return 0 if last is None else last.number


@transaction.atomic(durable=True)
def drop_player(*, actor: AnyUser, registration: Registration) -> Registration:
    """Drop an entrant: they are not paired again. Players drop themselves; organisers
    drop anyone. A match already paired stays (report it, or a judge decides it)."""
    tournament = lock_tournament(registration.tournament_id)
    reg = lock_registration(registration.pk)
    is_self = reg.has_member(actor.pk)
    if not is_self:
        policies.require_manager(actor, tournament.club)
    if not policies.tournament_is_running(tournament):
        raise Conflict(
            gettext("%(tournament)s is not running: withdraw instead.")
            % {"tournament": tournament.name},
            code="tournament_not_running",
        )
    if reg.status != RegistrationStatus.REGISTERED:
        raise Conflict(
            gettext("%(entrant)s is not playing.") % {"entrant": reg.name}, code="not_playing"
        )
    after_round = latest_round_number(tournament)
    transition(
        reg,
        RegistrationStatus.DROPPED,
        actor=actor,
        action="registration.dropped",
        params={"entrant": reg.name, "round": after_round},
        club=tournament.club,
        tournament=tournament,
        stamps={"dropped_after_round": after_round},
        after={"dropped_after_round": after_round},
    )
    pages_changed(tournament.pk)
    return reg


@transaction.atomic(durable=True)
def readd_player(*, actor: AnyUser, registration: Registration) -> Registration:
    """Undo a drop: the entrant is paired again from the next round."""
    tournament = lock_tournament(registration.tournament_id)
    policies.require_manager(actor, tournament.club)
    reg = lock_registration(registration.pk)
    if reg.status != RegistrationStatus.DROPPED:
        raise Conflict(
            gettext("%(entrant)s has not dropped.") % {"entrant": reg.name}, code="not_dropped"
        )
    if not policies.tournament_is_running(tournament):
        raise Conflict(
            gettext("%(tournament)s is not running.") % {"tournament": tournament.name},
            code="tournament_not_running",
        )
    transition(
        reg,
        RegistrationStatus.REGISTERED,
        actor=actor,
        action="registration.readded",
        params={"entrant": reg.name},
        club=tournament.club,
        tournament=tournament,
        stamps={"dropped_after_round": None},
    )
    pages_changed(tournament.pk)
    return reg


@transaction.atomic(durable=True)
def add_late_entrant(
    *,
    actor: AnyUser,
    tournament: Tournament,
    username: str,
    team_name: str = "",
    teammate: str = "",
) -> Registration:
    """Add a player (in a team event, a team of two: ``teammate`` is required) to a
    running tournament: paired from the next round on."""
    tournament = lock_tournament(tournament.pk)
    policies.require_manager(actor, tournament.club)
    if not policies.tournament_is_running(tournament):
        raise Conflict(
            gettext("%(tournament)s is not running: register players normally.")
            % {"tournament": tournament.name},
            code="tournament_not_running",
        )
    user = User.objects.filter(username=username.strip()).first()
    if user is None:
        raise InvalidInput(
            gettext("No user called %(username)s.") % {"username": repr(username)},
            code="unknown_user",
            field="username",
        )
    player = ensure_player(user)
    team = team_entry(tournament, player, team_name=team_name, teammate=teammate, by_organiser=True)
    if team is not None and team.partner is None:
        raise InvalidInput(
            gettext("A team joins with two players: name the teammate too."),
            code="team_incomplete",
            field="teammate",
        )
    # The current pairings stand (re-pair an unstarted round to include them now).
    joins = latest_round_number(tournament) + 1
    reg = Registration.objects.filter(tournament=tournament, player=player).first()
    if reg is not None and reg.status in (
        RegistrationStatus.REGISTERED,
        RegistrationStatus.DROPPED,
    ):
        raise Conflict(
            gettext("%(player)s is already in %(tournament)s.")
            % {"player": player.display_name, "tournament": tournament.name},
            code="already_registered",
        )
    if team is not None:
        teams.require_free(tournament, player, you=False)
        teams.require_unique_name(tournament, team.name)
    now = timezone.now()
    if reg is None:
        reg = Registration(tournament=tournament, player=player)
    reg.status = RegistrationStatus.REGISTERED
    reg.registered_at = now
    reg.joined_round = joins
    if team is not None and team.partner is not None:
        teams.require_invitable(tournament, reg, team.partner)
        reg.team_name = team.name
        reg.partner = team.partner
        reg.partner_accepted_at = now
        reg.player_checked_in_at = now
        reg.partner_checked_in_at = now
    reg.checked_in_at = now
    reg.save()
    record_audit(
        actor=actor,
        action="registration.late_entry",
        params={"entrant": reg.name, "round": joins},
        obj=reg,
        club=tournament.club,
        tournament=tournament,
        after={"status": reg.status, "joined_round": joins},
    )
    pages_changed(tournament.pk)
    entrants_changed([reg])
    return reg


# --- many at once (the organiser's "check in the selected" and "check in everyone") ------

#: The most registrations one "check in the selected" names (a tournament's capacity is
#: bounded by its players in practice; the API refuses longer lists before this).
CHECK_IN_MAX = 1024


@dataclass(frozen=True)
class CheckedIn:
    """What a check-in of many did: who is checked in now, who already was, and the teams
    of one skipped (they cannot check in until their second player joins)."""

    checked_in: list[Registration]
    already: list[Registration]
    skipped: list[Registration]


@transaction.atomic(durable=True)
def check_in_many(
    *,
    actor: AnyUser,
    tournament: Tournament,
    registration_ids: Sequence[int] = (),
    everyone: bool = False,
) -> CheckedIn:
    """An organiser checks in the registrations named (or, ``everyone``, every registered
    entrant) in one transaction, before the start: a team of one is skipped and named, an
    entrant checked in already stays so; a registration not registered in this tournament
    is refused by its id, and then nobody is checked in."""
    policies.require_manager(actor, tournament.club)
    ids = sorted(set(registration_ids))
    if not everyone and not ids:
        raise InvalidInput(
            gettext("Choose the players to check in."),
            code="nothing_selected",
            field="registrations",
        )
    if len(ids) > CHECK_IN_MAX:
        raise InvalidInput(
            gettext("At most %(most)d registrations at a time.") % {"most": CHECK_IN_MAX},
            code="too_many",
            field="registrations",
        )
    tournament = lock_tournament(tournament.pk)
    if not policies.tournament_in_setup(tournament):
        raise Conflict(words.started(tournament), code="tournament_started")
    filters: dict[str, Any] = {"tournament": tournament}
    if everyone:
        filters["status"] = RegistrationStatus.REGISTERED
    else:
        filters["pk__in"] = ids
    # Registrations after the tournament, in id order (``core.locks``).
    regs = lock_all(Registration, related=("player", "partner"), **filters)
    if not everyone:
        missing = sorted(set(ids) - {r.pk for r in regs})
        if missing:
            raise NotFound(
                gettext("No registration %(ids)s in %(tournament)s.")
                % {"ids": ", ".join(map(str, missing[:10])), "tournament": tournament.name},
                code="unknown_registration",
                field="registrations",
            )
        inactive = [r.name for r in regs if r.status != RegistrationStatus.REGISTERED]
        if inactive:
            raise Conflict(
                gettext("Not registered: %(entrants)s. Nobody was checked in.")
                % {"entrants": ", ".join(sorted(inactive)[:10])},
                code="not_registered",
                field="registrations",
            )
    done: list[Registration] = []
    already: list[Registration] = []
    skipped: list[Registration] = []
    for reg in regs:
        if reg.checked_in_at is not None:
            already.append(reg)
        elif not reg.team_complete:
            skipped.append(reg)
        else:
            done.append(_mark_checked_in(actor=actor, registration=reg, tournament=tournament))
    if done:
        pages_changed(tournament.pk)
    return CheckedIn(checked_in=done, already=already, skipped=skipped)
