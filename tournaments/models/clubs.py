"""Clubs and people: a user's player profile, clubs, members' roles, and invitations.

A *member* of a club has a role (owner, organiser, judge, member); a *player* is a user's
profile (display name), or a *guest*: a player an organiser added by name, with no account
(``user`` empty), belonging to the ``club`` that added them. A guest never acts themselves
(organisers register and check them in, judges enter their results); their ``claim_code``
lets the person behind them attach the guest's history to an account later
(``services.guests``), once (``claimed_at``). Who may do what with a role is
``selectors/policies.py``.
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

#: A claim code's characters: no 0/O, 1/I/L (read aloud, typed from paper). 31 symbols,
#: 10 of them: about 50 bits, drawn with ``secrets`` (``services.guests``).
CLAIM_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CLAIM_CODE_LENGTH = 10


class AccountName(models.Model):
    """An account's user name as it looks (``core.text.username_skeleton``), unique: two
    sign-ups of look-alike names at the same moment cannot both pass
    (``services.people.sign_up`` writes it with the account; accounts made elsewhere, by
    the admin or ``createsuperuser``, have none and are compared by their user name)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="account_name",
    )
    #: Never longer than the NFKC user name (150) case-folded (at most 3 characters each).
    skeleton = models.CharField(verbose_name=_("skeleton"), max_length=450, unique=True)

    class Meta:
        verbose_name = _("account name")
        verbose_name_plural = _("account names")

    def __str__(self) -> str:
        return self.skeleton


class Player(models.Model):
    """A person's public face in the tournaments: one per user account, or a guest (no
    account: ``user`` empty, a ``claim_code``, the ``club`` that added them)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="player",
        null=True,
        blank=True,
    )
    display_name = models.CharField(verbose_name=_("display name"), max_length=80)
    #: The club that added the guest (empty for players who signed up themselves).
    club = models.ForeignKey(
        "Club",
        verbose_name=_("club"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="guests",
    )
    #: A guest's code to claim their history with an account (kept once claimed, used up).
    claim_code = models.CharField(
        verbose_name=_("claim code"),
        max_length=CLAIM_CODE_LENGTH,
        null=True,
        blank=True,
        unique=True,
    )
    #: When an account claimed this guest (``user`` is then that account).
    claimed_at = models.DateTimeField(verbose_name=_("claimed at"), null=True, blank=True)
    #: The language the player reads the site in, on every device they sign in on (one of
    #: ``settings.LANGUAGES``; empty: their browser's). Set through
    #: ``services.people.set_language``.
    language = models.CharField(verbose_name=_("language"), max_length=12, blank=True, default="")
    #: The player keeps their life across events private (issue 26): their player page,
    #: history and ratings show nothing, through pages, the API and exports alike; in a
    #: club's cross-event lists (ratings, season leaderboards, results feed) their row stays,
    #: its name withheld. One tournament's own pages still show the names of its entrants.
    profile_hidden = models.BooleanField(verbose_name=_("hide my player page"), default=False)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name"]
        constraints = [
            # A guest can always be claimed: no account, then a code.
            models.CheckConstraint(
                condition=Q(user__isnull=False) | Q(claim_code__isnull=False),
                name="guest_has_claim_code",
            ),
            models.CheckConstraint(
                condition=Q(claimed_at__isnull=True) | Q(user__isnull=False),
                name="claimed_guest_has_user",
            ),
            # One unclaimed guest per name in a club: the same name pasted again is the
            # same guest (``services.guests``), even from two organisers at once.
            models.UniqueConstraint(
                Lower("display_name"),
                "club",
                condition=Q(user__isnull=True),
                name="one_guest_name_per_club",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_guest(self) -> bool:
        """A player with no account (never claimed)."""
        return self.user_id is None


def default_time_zone() -> str:
    """A new club's time zone: the site's (``settings.TIME_ZONE``)."""
    return str(settings.TIME_ZONE)


def validate_time_zone(value: str) -> None:
    """An IANA time zone name that ``zoneinfo`` knows ("Europe/Paris")."""
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, TypeError):
        raise ValidationError(
            gettext("%(value)s is not a time zone: use a name like Europe/Paris.")
            % {"value": repr(value)},
            code="time_zone",
        ) from None


class Club(models.Model):
    name = models.CharField(verbose_name=_("name"), max_length=120)
    slug = models.SlugField(verbose_name=_("slug"), max_length=60, unique=True)
    description = models.TextField(verbose_name=_("description"), blank=True)
    #: Where the club plays: its tournaments' pages show times in this zone (an IANA
    #: name). Set through ``services.clubs.set_time_zone`` (audited).
    time_zone = models.CharField(
        verbose_name=_("time zone"),
        max_length=64,
        default=default_time_zone,
        validators=[validate_time_zone],
    )
    #: The club's language (one of ``settings.LANGUAGES``): its pages' language for a
    #: reader whose own choices name none of the site's (``core.languages``). Set through
    #: ``services.clubs.set_language``.
    language = models.CharField(verbose_name=_("language"), max_length=12, default="en")
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    OWNER = "owner", pgettext_lazy("club role", "Owner")
    ORGANISER = "organiser", pgettext_lazy("club role", "Organiser")
    JUDGE = "judge", pgettext_lazy("club role", "Judge")
    MEMBER = "member", pgettext_lazy("club role", "Member")


def role_word(role: str) -> str:
    """A role in lower case, as a sentence says it ("You are judge here", "Ada is now
    organiser"), in the reader's language; a code no role has as it is."""
    words: dict[str, str] = {
        Role.OWNER: pgettext("club role, in a sentence", "owner"),
        Role.ORGANISER: pgettext("club role, in a sentence", "organiser"),
        Role.JUDGE: pgettext("club role, in a sentence", "judge"),
        Role.MEMBER: pgettext("club role, in a sentence", "member"),
    }
    return words.get(role, role)


#: Roles that may create and edit a club's tournaments.
MANAGING_ROLES = (Role.OWNER, Role.ORGANISER)
#: Roles that may enter and override results.
JUDGING_ROLES = (Role.OWNER, Role.ORGANISER, Role.JUDGE)


class Membership(models.Model):
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="memberships",
    )
    role = models.CharField(
        verbose_name=_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER
    )
    joined_at = models.DateTimeField(verbose_name=_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.club}"


class Invitation(models.Model):
    """An owner's invitation, by e-mail, to join a club with a role."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="invitations"
    )
    email = models.EmailField(verbose_name=_("email"))
    role = models.CharField(
        verbose_name=_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER
    )
    token = models.CharField(verbose_name=_("token"), max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invited by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    accepted_at = models.DateTimeField(verbose_name=_("accepted at"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("accepted by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.email} → {self.club} as {self.role}"
