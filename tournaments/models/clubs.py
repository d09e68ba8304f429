"""Clubs and people: a user's player profile, clubs, members' roles, and invitations.

A *member* of a club has a role (owner, organiser, judge, member); a *player* is a user's
profile (display name). Who may do what with a role is ``selectors/policies.py``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Player(models.Model):
    """A person's public face in the tournaments: one per user account."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]

    def __str__(self) -> str:
        return self.display_name


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    ORGANISER = "organiser", "Organiser"
    JUDGE = "judge", "Judge"
    MEMBER = "member", "Member"


#: Roles that may create and edit a club's tournaments.
MANAGING_ROLES = (Role.OWNER, Role.ORGANISER)
#: Roles that may enter and override results.
JUDGING_ROLES = (Role.OWNER, Role.ORGANISER, Role.JUDGE)


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.club}"


class Invitation(models.Model):
    """An owner's invitation, by e-mail, to join a club with a role."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    token = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.email} → {self.club} as {self.role}"
