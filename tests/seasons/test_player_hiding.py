"""Hiding a player page (``services.people.set_profile_hidden``, issue 26): audited once
per change, the same choice again a no-op; anonymous users refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from core.errors import DomainError
from core.models import AuditEntry
from tests.factories import PlayerFactory
from tournaments.services import people

pytestmark = pytest.mark.django_db


def test_hiding_and_showing_are_audited_once_each() -> None:
    player = PlayerFactory()
    assert people.set_profile_hidden(user=player.user, hidden=True).profile_hidden
    people.set_profile_hidden(user=player.user, hidden=True)  # the same again: nothing
    assert not people.set_profile_hidden(user=player.user, hidden=False).profile_hidden
    entries = list(AuditEntry.objects.order_by("pk").values_list("action", "after"))
    assert entries == [
        ("player.profile_hidden", {"profile_hidden": True}),
        ("player.profile_shown", {"profile_hidden": False}),
    ]


def test_an_anonymous_user_cannot_hide_anything() -> None:
    with pytest.raises(DomainError):
        people.set_profile_hidden(user=AnonymousUser(), hidden=True)


def test_the_profile_save_sets_the_name_and_the_hiding_together() -> None:
    player = PlayerFactory()
    people.update_profile(user=player.user, display_name="Ada L.", profile_hidden=True)
    player.refresh_from_db()
    assert player.display_name == "Ada L." and player.profile_hidden
