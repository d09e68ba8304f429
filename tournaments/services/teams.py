"""Teams of two (2 vs 2 events): forming a team, its teammate and its name.

A team is a registration with a team name (``Registration``): the player who registered
it and a *partner*, first invited (by username), then a member once they accept; or
assigned at once by an organiser. A player plays for at most one team of a tournament: as
the one who registered it or as an accepted teammate. The database keeps a player the
partner of one team at most (``one_team_per_partner``); that nobody registers a team while
they play for another is checked here, under the tournament's row lock, which every team
change takes first (``services.locks``), so two teams racing for one player see each other.

Decisions where the issue is silent:
- A team needs a name (60 characters at most), unique in its tournament (case aside); an
  organiser who adds a team without one gets "Ada & Bruno".
- One invitation per player per tournament at a time: a player invited by one team must
  decline before another can invite them ("already invited by ...").
- Teams form, change and leave before the start only; afterwards only the name changes.
- The teammate leaving (or being removed) undoes the team's check-in: the new pair checks
  in again. Withdrawing a team frees its teammate.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from core.auth import AnyUser, require_user
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound
from core.text import clean_name
from tournaments.models import (
    EntrantType,
    Player,
    Registration,
    RegistrationStatus,
    Tournament,
)
from tournaments.selectors import policies
from tournaments.services._entries import audit_entry, entrants_changed, registration_state
from tournaments.services.locks import lock_registration, lock_tournament
from tournaments.services.page_versions import pages_changed
from tournaments.services.people import ensure_player

User = get_user_model()

TEAM_NAME_MAX = 60

#: Entries whose members are taken: playing, or registered to play.
_TAKEN = (RegistrationStatus.REGISTERED, RegistrationStatus.DROPPED)


def is_team_event(tournament: Tournament) -> bool:
    return tournament.entrant_type == EntrantType.TEAM


def clean_team_name(raw: str, *, field: str = "team_name") -> str:
    name = clean_name(raw or "", what=gettext("the team's name"), field=field)
    if not name:
        raise InvalidInput(
            gettext("Give your team a name."), code="team_name_required", field=field
        )
    if len(name) > TEAM_NAME_MAX:
        raise InvalidInput(
            ngettext(
                "A team's name has at most %(most)d character.",
                "A team's name has at most %(most)d characters.",
                TEAM_NAME_MAX,
            )
            % {"most": TEAM_NAME_MAX},
            code="team_name_too_long",
            field=field,
        )
    return name


def default_team_name(player: Player, partner: Player | None) -> str:
    if partner is None:  # named in the language of whoever makes it (stored as typed)
        return (gettext("%(player)s's team") % {"player": player.display_name})[:TEAM_NAME_MAX]
    return f"{player.display_name} & {partner.display_name}"[:TEAM_NAME_MAX]


def player_by_username(username: str, *, field: str = "teammate") -> Player:
    """The player of the account called ``username`` (made on first use)."""
    user = User.objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise NotFound(
            gettext("No user is called %(username)s.") % {"username": repr(username.strip())},
            code="unknown_user",
            field=field,
        )
    return ensure_player(user)


def entry_of(
    tournament: Tournament, player: Player, *, exclude: int | None = None
) -> Registration | None:
    """The entry ``player`` plays for in the tournament (as its player or accepted
    teammate), if any."""
    qs = Registration.objects.select_related("player", "partner").filter(
        Q(player=player) | Q(partner=player, partner_accepted_at__isnull=False),
        tournament=tournament,
        status__in=_TAKEN,
    )
    if exclude is not None:
        qs = qs.exclude(pk=exclude)
    return qs.first()


def require_free(
    tournament: Tournament, player: Player, *, you: bool, exclude: int | None = None
) -> None:
    """Refuse a player who already plays for an entry of the tournament."""
    taken = entry_of(tournament, player, exclude=exclude)
    if taken is None:
        return
    words = (
        gettext("You already play for %(team)s in %(tournament)s.")
        if you
        else gettext("%(player)s already plays for %(team)s in %(tournament)s.")
    )
    said = {"player": player.display_name, "team": taken.name, "tournament": tournament.name}
    raise Conflict(words % said, code="already_in_a_team")


def require_unique_name(tournament: Tournament, name: str, *, exclude: int | None = None) -> None:
    clash = Registration.objects.annotate(lower_name=Lower("team_name")).filter(
        tournament=tournament, status__in=_TAKEN, lower_name=name.lower()
    )
    if exclude is not None:
        clash = clash.exclude(pk=exclude)
    if clash.exists():
        raise Conflict(
            gettext("A team called %(name)s is already registered.") % {"name": repr(name)},
            code="team_name_taken",
            field="team_name",
        )


def require_invitable(tournament: Tournament, registration: Registration, partner: Player) -> None:
    """The checks before ``partner`` becomes (or is invited to be) the team's teammate."""
    if partner.pk == registration.player_id:
        raise InvalidInput(
            gettext("A team is two different players: choose someone else."),
            code="teammate_is_self",
            field="teammate",
        )
    require_free(tournament, partner, you=False, exclude=registration.pk)
    invited = (
        Registration.objects.filter(tournament=tournament, partner=partner)
        .exclude(pk=registration.pk)
        .first()
    )
    if invited is not None:
        raise Conflict(
            gettext(
                "%(player)s is already invited by %(team)s: they must decline that "
                "invitation first."
            )
            % {"player": partner.display_name, "team": invited.name},
            code="already_invited",
            field="teammate",
        )


def set_partner(registration: Registration, partner: Player | None, *, accepted: bool) -> None:
    """The team's teammate changes: check-ins start again (the caller saves nothing else)."""
    registration.partner = partner
    registration.partner_accepted_at = timezone.now() if partner and accepted else None
    registration.partner_checked_in_at = None
    registration.checked_in_at = None
    try:
        with transaction.atomic():
            registration.save(
                update_fields=[
                    "partner",
                    "partner_accepted_at",
                    "partner_checked_in_at",
                    "checked_in_at",
                    "updated_at",
                ]
            )
    except IntegrityError:  # only reachable without the tournament's lock (defence in depth)
        raise Conflict(
            gettext("That player was invited by another team a moment ago."),
            code="already_invited",
        ) from None


def _locked_team(registration: Registration) -> tuple[Tournament, Registration]:
    tournament = lock_tournament(registration.tournament_id)
    registration = lock_registration(registration.pk)
    if not registration.is_team:
        raise Conflict(
            gettext("%(tournament)s is for single players.") % {"tournament": tournament.name},
            code="not_a_team",
        )
    return tournament, registration


def _require_setup(tournament: Tournament) -> None:
    if not policies.tournament_in_setup(tournament):
        raise Conflict(
            gettext("%(tournament)s has started: teams no longer change.")
            % {"tournament": tournament.name},
            code="tournament_started",
        )


def _require_active(registration: Registration) -> None:
    if registration.status != RegistrationStatus.REGISTERED:
        raise Conflict(
            gettext("%(entrant)s is not registered.") % {"entrant": registration.name},
            code="not_registered",
        )


@transaction.atomic(durable=True)
def invite_teammate(*, actor: AnyUser, registration: Registration, username: str) -> Registration:
    """The player who registered a team invites a teammate by username (replacing an
    invitation not yet answered). The invited player accepts or declines."""
    actor = require_user(actor)
    tournament, registration = _locked_team(registration)
    if registration.player.user_id != actor.pk:
        raise NotAllowed(
            gettext("Only the player who registered the team invites its teammate."),
            code="not_captain",
        )
    _require_setup(tournament)
    _require_active(registration)
    if registration.partner_accepted_at is not None:
        raise Conflict(
            gettext("%(player)s is already your teammate: remove them first.")
            % {"player": registration.partner.display_name},  # type: ignore[union-attr]
            code="team_full",
        )
    partner = player_by_username(username, field="username")
    require_invitable(tournament, registration, partner)
    before = registration_state(registration)
    set_partner(registration, partner, accepted=False)
    audit_entry(
        actor,
        registration,
        tournament,
        action="team.invited",
        params={"team": registration.name, "player": partner.display_name},
        before=before,
    )
    pages_changed(registration.tournament_id)
    return registration


@transaction.atomic(durable=True)
def answer_invitation(*, actor: AnyUser, registration: Registration, accept: bool) -> Registration:
    """The invited player joins the team, or declines (the team may invite someone else)."""
    actor = require_user(actor)
    tournament, registration = _locked_team(registration)
    if not registration.is_invited(actor.pk):
        raise NotFound(gettext("You have no invitation to this team."), code="no_invitation")
    partner = registration.partner
    assert partner is not None  # is_invited
    before = registration_state(registration)
    if accept:
        _require_setup(tournament)
        _require_active(registration)
        require_free(tournament, partner, you=True, exclude=registration.pk)
        set_partner(registration, partner, accepted=True)
        action = "team.joined"
    else:
        set_partner(registration, None, accepted=False)
        action = "team.declined"
    audit_entry(
        actor,
        registration,
        tournament,
        action=action,
        params={"player": partner.display_name, "team": registration.name},
        before=before,
    )
    pages_changed(registration.tournament_id)
    entrants_changed([registration])
    return registration


@transaction.atomic(durable=True)
def remove_teammate(*, actor: AnyUser, registration: Registration) -> Registration:
    """Before the start: the teammate leaves, the team's player cancels the invitation or
    removes the teammate, or an organiser does. The team stays registered, one short."""
    actor = require_user(actor)
    tournament, registration = _locked_team(registration)
    partner = registration.partner
    if partner is None:
        raise Conflict(
            gettext("%(team)s has no teammate.") % {"team": registration.name},
            code="no_teammate",
        )
    allowed = (
        registration.player.user_id == actor.pk
        or partner.user_id == actor.pk
        or policies.can_manage_club(actor, tournament.club)
    )
    if not allowed:
        raise NotAllowed(gettext("You can only change your own team."), code="not_your_team")
    _require_setup(tournament)
    before = registration_state(registration)
    set_partner(registration, None, accepted=False)
    leaving = partner.user_id == actor.pk
    audit_entry(
        actor,
        registration,
        tournament,
        action="team.left" if leaving else "team.teammate_removed",
        params={"player": partner.display_name, "team": registration.name},
        before=before,
    )
    pages_changed(registration.tournament_id)
    return registration


@transaction.atomic(durable=True)
def assign_teammate(*, actor: AnyUser, registration: Registration, username: str) -> Registration:
    """An organiser makes a player the team's teammate at once (no invitation)."""
    tournament, registration = _locked_team(registration)
    policies.require_manager(actor, tournament.club)
    _require_setup(tournament)
    _require_active(registration)
    partner = player_by_username(username, field="username")
    require_invitable(tournament, registration, partner)
    before = registration_state(registration)
    set_partner(registration, partner, accepted=True)
    audit_entry(
        actor,
        registration,
        tournament,
        action="team.assigned",
        params={"player": partner.display_name, "team": registration.name},
        before=before,
    )
    pages_changed(registration.tournament_id)
    entrants_changed([registration])
    return registration


@transaction.atomic(durable=True)
def rename_team(*, actor: AnyUser, registration: Registration, team_name: str) -> Registration:
    """Either member, or an organiser, renames the team (until the tournament is over)."""
    actor = require_user(actor)
    tournament, registration = _locked_team(registration)
    if not (registration.has_member(actor.pk) or policies.can_manage_club(actor, tournament.club)):
        raise NotAllowed(gettext("You can only rename your own team."), code="not_your_team")
    if policies.tournament_is_finished(tournament):
        raise Conflict(
            gettext("%(tournament)s is over.") % {"tournament": tournament.name},
            code="tournament_finished",
        )
    name = clean_team_name(team_name)
    if name == registration.team_name:
        return registration
    require_unique_name(tournament, name, exclude=registration.pk)
    before = registration_state(registration)
    old = registration.team_name
    registration.team_name = name
    registration.save(update_fields=["team_name", "updated_at"])
    audit_entry(
        actor,
        registration,
        tournament,
        action="team.renamed",
        params={"old": old, "new": name},
        before=before,
    )
    pages_changed(registration.tournament_id)
    return registration
