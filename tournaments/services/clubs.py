"""Clubs, their members and roles, and invitations by e-mail.

Owners add members, set roles and invite; anyone may leave. A club always keeps an owner:
every change that could remove the last one locks all the club's owner rows (in id order,
``core.locks``) before counting them, so two owners leaving or demoting each other at the
same instant cannot both succeed.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy

from core import access
from core.audit import record_audit
from core.auth import AnyUser, require_user
from core.errors import Conflict, InvalidInput, NotFound
from core.languages import require_language
from core.locks import lock_all, lock_one
from tournaments.models import Club, Invitation, Membership, Role
from tournaments.models.clubs import validate_time_zone
from tournaments.selectors import policies
from tournaments.services.page_versions import club_pages_changed
from tournaments.services.people import ensure_player

User = get_user_model()

#: The invitation e-mail's first line by the role offered (a whole sentence each: a role
#: reads differently in each language), made in the club's language.
_INVITES_YOU = {
    Role.OWNER: gettext_lazy("%(inviter)s invites you to join %(club)s as owner."),
    Role.ORGANISER: gettext_lazy("%(inviter)s invites you to join %(club)s as organiser."),
    Role.JUDGE: gettext_lazy("%(inviter)s invites you to join %(club)s as judge."),
    Role.MEMBER: gettext_lazy("%(inviter)s invites you to join %(club)s as member."),
}


def _unique_slug(name: str) -> str:
    base = slugify(name)[:50] or "club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


@transaction.atomic(durable=True)
def create_club(*, actor: AnyUser, name: str, description: str = "") -> Club:
    """Create a club; whoever creates it is its owner."""
    actor = require_user(actor)
    name = name.strip()
    if not name:
        raise InvalidInput(gettext("A club needs a name."), code="name_required", field="name")
    club = Club.objects.create(name=name[:120], slug=_unique_slug(name), description=description)
    membership = Membership.objects.create(club=club, user=actor, role=Role.OWNER)
    record_audit(
        actor=actor,
        action="club.created",
        params={"club": club.name},
        obj=club,
        club=club,
        after={"name": club.name, "owner": actor.get_username()},
    )
    record_audit(
        actor=actor,
        action="membership.role_set",
        params={"user": actor.get_username()},
        obj=membership,
        club=club,
        after={"role": Role.OWNER},
    )
    return club


@transaction.atomic(durable=True)
def set_time_zone(*, actor: AnyUser, club: Club, time_zone: str) -> Club:
    """An owner sets the club's time zone (an IANA name, "Europe/Paris"): its tournaments'
    pages show times in it. Refuses a name ``zoneinfo`` does not know."""
    time_zone = (time_zone or "").strip()
    try:
        validate_time_zone(time_zone)
    except ValidationError:
        raise InvalidInput(
            gettext("%(time_zone)s is not a time zone: use a name like Europe/Paris.")
            % {"time_zone": repr(time_zone)},
            code="unknown_time_zone",
            field="time_zone",
        ) from None
    return _set_setting(actor, club, "time_zone", time_zone, action="club.time_zone_set")


@transaction.atomic(durable=True)
def set_language(*, actor: AnyUser, club: Club, language: str) -> Club:
    """An owner sets the club's language: its pages' for a reader whose own choices name
    none of the site's (``core.languages``)."""
    language = require_language(language)
    return _set_setting(actor, club, "language", language, action="club.language_set")


def _set_setting(actor: AnyUser, club: Club, field: str, value: str, *, action: str) -> Club:
    """One of the club's settings, by an owner, under the club's lock; audited as
    ``action`` when it changes, and the club's pages told."""
    locked = lock_one(Club, pk=club.pk)
    if locked is None:
        raise NotFound(gettext("No such club."))
    policies.require_owner(actor, locked)
    before = getattr(locked, field)
    if before == value:
        return locked
    setattr(locked, field, value)
    locked.save(update_fields=[field])
    record_audit(
        actor=actor,
        action=action,
        params={"club": locked.name, field: value},
        obj=locked,
        club=locked,
        before={field: before},
        after={field: value},
    )
    club_pages_changed(locked.pk)
    return locked


def _check_role(role: str) -> None:
    if role not in Role.values:
        raise InvalidInput(
            gettext("Unknown role %(role)s: choose one of %(roles)s.")
            % {"role": repr(role), "roles": ", ".join(Role.values)},
            code="unknown_role",
            field="role",
        )


@transaction.atomic(durable=True)
def add_member(*, actor: AnyUser, club: Club, username: str, role: str = Role.MEMBER) -> Membership:
    """An owner adds an existing user to the club with a role."""
    policies.require_owner(actor, club)
    _check_role(role)
    user = User.objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise NotFound(
            gettext("No user is called %(username)s.") % {"username": repr(username)},
            code="unknown_user",
            field="username",
        )
    if Membership.objects.filter(club=club, user=user).exists():
        raise Conflict(
            gettext("%(user)s is already a member of %(club)s.")
            % {"user": user.get_username(), "club": club.name},
            code="already_member",
            field="username",
        )
    ensure_player(user)
    membership = Membership.objects.create(club=club, user=user, role=role)
    access.changed([user.pk])  # their open sockets read the new role (core.access)
    record_audit(
        actor=actor,
        action="membership.added",
        params={"user": user.get_username(), "club": club.name, "role": role},
        obj=membership,
        club=club,
        after={"user": user.get_username(), "role": role},
    )
    club_pages_changed(club.pk)
    return membership


def _lock_owners_and(membership: Membership) -> tuple[Membership, list[Membership]]:
    """Lock the club's owner rows and ``membership``'s, in id order (one lock order for
    every role change and removal); returns the member as it is now and the owners.
    A member removed meanwhile is refused by name, not a crash."""
    rows = lock_all(
        Membership.objects.filter(
            Q(role=Role.OWNER) | Q(pk=membership.pk), club_id=membership.club_id
        ),
        related=("user",),
    )
    current = next((m for m in rows if m.pk == membership.pk), None)
    if current is None:
        raise NotFound(
            gettext("%(user)s is no longer a member of %(club)s.")
            % {"user": membership.user.get_username(), "club": membership.club.name},
            code="not_member",
        )
    return current, [m for m in rows if m.role == Role.OWNER]


def _require_another_owner(club: Club, owners: list[Membership], field: str | None) -> None:
    if len(owners) <= 1:
        raise Conflict(
            gettext("%(club)s needs at least one owner: make someone else owner first.")
            % {"club": club.name},
            code="last_owner",
            field=field,
        )


@transaction.atomic(durable=True)
def set_role(*, actor: AnyUser, membership: Membership, role: str) -> Membership:
    """An owner changes a member's role; a club always keeps at least one owner."""
    club = membership.club
    policies.require_owner(actor, club)
    _check_role(role)
    membership, owners = _lock_owners_and(membership)
    if membership.role == role:
        return membership
    if membership.role == Role.OWNER:
        _require_another_owner(club, owners, "role")
    before = {"role": membership.role}
    membership.role = role
    membership.save(update_fields=["role"])
    # Their open sockets read the new role at once: a judge made a member stops tapping.
    access.changed([membership.user_id])
    record_audit(
        actor=actor,
        action="membership.role_set",
        params={"user": membership.user.get_username(), "role": role, "club": club.name},
        obj=membership,
        club=club,
        before=before,
        after={"role": role},
    )
    club_pages_changed(club.pk)
    return membership


@transaction.atomic(durable=True)
def remove_member(*, actor: AnyUser, membership: Membership) -> None:
    """An owner removes a member, or a member leaves; the last owner cannot go."""
    club = membership.club
    if membership.user_id != actor.pk:
        policies.require_owner(actor, club)
    membership, owners = _lock_owners_and(membership)
    if membership.role == Role.OWNER:
        _require_another_owner(club, owners, None)
    record_audit(
        actor=actor,
        action="membership.removed",
        params={"user": membership.user.get_username(), "club": club.name},
        obj=membership,
        club=club,
        before={"user": membership.user.get_username(), "role": membership.role},
    )
    club_pages_changed(club.pk)
    membership.delete()
    # Their open sockets lose the role at once: a removed judge stops tapping (core.access).
    access.changed([membership.user_id])


@transaction.atomic(durable=True)
def invite_member(*, actor: AnyUser, club: Club, email: str, role: str = Role.MEMBER) -> Invitation:
    """An owner invites someone by e-mail; the link adds them with the role once accepted."""
    actor = require_user(actor)
    policies.require_owner(actor, club)
    _check_role(role)
    email = email.strip().lower()
    if "@" not in email:
        raise InvalidInput(
            gettext("Enter a valid e-mail address."), code="invalid_email", field="email"
        )
    invitation = Invitation.objects.create(
        club=club, email=email, role=role, token=secrets.token_urlsafe(32), invited_by=actor
    )
    record_audit(
        actor=actor,
        action="invitation.sent",
        params={"email": email, "club": club.name, "role": role},
        obj=invitation,
        club=club,
        after={"email": email, "role": role},
    )
    link = f"{settings.SITE_URL.rstrip('/')}/invitations/{invitation.token}/"
    # Whoever is invited has no language known here: the club's.
    with translation.override(club.language or settings.LANGUAGE_CODE):
        subject = gettext("You are invited to %(club)s") % {"club": club.name}
        invites = _INVITES_YOU[Role(role)] % {"inviter": actor.get_username(), "club": club.name}
        accept = gettext("Accept the invitation here: %(link)s") % {"link": link}
    body = f"{invites}\n\n{accept}\n"
    transaction.on_commit(
        lambda: send_mail(
            subject=subject,
            message=body,
            from_email=None,
            recipient_list=[email],
            fail_silently=True,
        )
    )
    return invitation


@transaction.atomic(durable=True)
def accept_invitation(*, user: AnyUser, token: str) -> Membership:
    user = require_user(user)
    invitation = lock_one(Invitation, related=("club",), token=token)
    if invitation is None:
        raise NotFound(gettext("This invitation link is not valid."), code="unknown_invitation")
    if invitation.accepted_at is not None:
        raise Conflict(gettext("This invitation was already used."), code="invitation_used")
    membership = Membership.objects.filter(club=invitation.club, user=user).first()
    if membership is None:
        ensure_player(user)
        membership = Membership.objects.create(
            club=invitation.club, user=user, role=invitation.role
        )
        access.changed([user.pk])
        record_audit(
            actor=user,
            action="membership.added",
            params={
                "user": user.get_username(),
                "club": invitation.club.name,
                "role": invitation.role,
                "joined": True,
            },
            obj=membership,
            club=invitation.club,
            after={"role": invitation.role},
        )
        club_pages_changed(invitation.club_id)
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership
