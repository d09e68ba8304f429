"""The signed-in account kept in the cache (core/kept_accounts.py): read once, then served
without a query; forgotten whenever the account or its player changes, at once and
after the writer's commit, so a renamed player, a changed password, an account made
inactive or deleted is seen by the next request."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core import kept_accounts
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

ACCOUNT_READ = 'FROM "auth_user"'


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _account_reads(client: Client, path: str = "/clubs/") -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        body = client.get(path).content.decode()
    return sum(ACCOUNT_READ in q["sql"] for q in queries.captured_queries), body


def test_the_account_is_read_once_then_kept() -> None:
    user: Any = PlayerFactory(display_name="Nina").user
    client = _signed_in(user)
    first, body = _account_reads(client)
    assert first == 1 and ">Nina</a>" in body
    again, body = _account_reads(client)
    assert again == 0 and ">Nina</a>" in body
    assert kept_accounts.read(user.pk).player.display_name == "Nina"


def test_a_renamed_player_is_shown_at_the_next_request() -> None:
    player = PlayerFactory(display_name="Nina")
    client = _signed_in(player.user)
    _account_reads(client)
    player.display_name = "Nina K."
    player.save()
    reads, body = _account_reads(client)
    assert reads == 1 and ">Nina K.</a>" in body


def test_a_changed_password_signs_the_other_sessions_out() -> None:
    user: Any = PlayerFactory().user
    client = _signed_in(user)
    _account_reads(client)
    user.set_password("another-pass-word-456")
    user.save()
    _, body = _account_reads(client)
    assert "Log out" not in body and "Log in" in body


def test_an_inactive_or_deleted_account_is_signed_out() -> None:
    first: Any = PlayerFactory().user
    second: Any = PlayerFactory().user
    one, two = _signed_in(first), _signed_in(second)
    _account_reads(one)
    _account_reads(two)
    first.is_active = False
    first.save()
    second.delete()
    for client in (one, two):
        _, body = _account_reads(client)
        assert "Log in" in body


def test_a_copy_kept_before_the_writer_commits_is_forgotten_after(
    django_capture_on_commit_callbacks: Any,
) -> None:
    player = PlayerFactory(display_name="Old")
    user: Any = player.user
    old = get_user_model().objects.select_related("player").get(pk=user.pk)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        player.display_name = "New"
        player.save()
        kept_accounts.keep(old)  # a request that read the row before the commit
        assert kept_accounts.read(user.pk) is not None
    assert kept_accounts.read(user.pk) is None


def test_a_cache_that_fails_is_a_miss(monkeypatch: pytest.MonkeyPatch) -> None:
    user: Any = PlayerFactory(display_name="Nina").user
    client = _signed_in(user)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(kept_accounts.cache, "get", broken)
    monkeypatch.setattr(kept_accounts.cache, "set", broken)
    for _ in range(2):
        reads, body = _account_reads(client)
        assert reads == 1 and ">Nina</a>" in body


def test_the_keys_follow_the_accounts_columns() -> None:
    key = kept_accounts._key(7)
    assert key.startswith(f"{kept_accounts.KEY_PREFIX}:") and key.endswith(":7")
    assert kept_accounts._related_models() == [
        (get_user_model()._meta.get_field("player").related_model, "user_id")
    ]
