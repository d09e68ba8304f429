"""What a player chooses to receive, by channel."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext

from core.auth import AnyUser, require_user
from core.errors import InvalidInput
from notifications.models import (
    DEFAULT_EMAIL_TOPICS,
    DEFAULT_PUSH_TOPICS,
    PLAYER_TOPICS,
    Preference,
)


def current(user: AnyUser) -> tuple[list[str], list[str]]:
    """(e-mail topics, push topics): the user's choice, else the defaults."""
    if not user.is_authenticated:
        return list(DEFAULT_EMAIL_TOPICS), list(DEFAULT_PUSH_TOPICS)
    pref = Preference.objects.filter(user=user).first()
    if pref is None:
        return list(DEFAULT_EMAIL_TOPICS), list(DEFAULT_PUSH_TOPICS)
    return list(pref.email_topics), list(pref.push_topics)


def _topics(values: Iterable[object], field: str) -> list[str]:
    chosen = [str(v) for v in values]
    unknown = [v for v in chosen if v not in PLAYER_TOPICS]
    if unknown:
        raise InvalidInput(
            gettext("Unknown topic %(topic)s: choose among %(topics)s.")
            % {"topic": repr(unknown[0][:40]), "topics": ", ".join(PLAYER_TOPICS)},
            code="unknown_topic",
            field=field,
        )
    return [t for t in PLAYER_TOPICS if t in chosen]  # known order, no repeats


@transaction.atomic(durable=True)
def choose(
    *, actor: AnyUser, email_topics: Iterable[object], push_topics: Iterable[object]
) -> Preference:
    user = require_user(actor)
    pref, _ = Preference.objects.update_or_create(
        user=user,
        defaults={
            "email_topics": _topics(email_topics, "email_topics"),
            "push_topics": _topics(push_topics, "push_topics"),
        },
    )
    return pref
