"""Notifications in their reader's language (issue 25): each player is told in their own
language (their profile's), else the club's, else the site's; a club's webhooks and chat
posts speak the club's language. The words are made at fan-out, the event's own words
(``event.message``) included, with no more queries for more languages."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from core.models import Event
from notifications.models import Channel, Notification, Topic
from notifications.services import chat, outbox, push, senders, webhooks
from tests.factories import member, running_tournament
from tests.notifications.receivers import Browser
from tournaments.models import Match, Player, Role
from tournaments.services import judge_calls, swiss

pytestmark = pytest.mark.django_db

NNBSP = "\u202f"  # French: a narrow no-break space before the colon


@pytest.fixture
def loopback(settings):
    settings.NOTIFICATIONS_ALLOW_LOOPBACK = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def said_in(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    """The language active when each entrant's line is made: (entrant, language)."""
    made: list[tuple[str, str | None]] = []
    line = outbox._line

    def recorded(match, reg, number, topic):
        made.append((reg.name, translation.get_language()))
        return line(match, reg, number, topic)

    monkeypatch.setattr(outbox, "_line", recorded)
    return made


def test_a_french_players_round_is_told_in_french_by_email_and_push(loopback, said_in) -> None:
    tournament, organiser, regs = running_tournament(4)
    french, english = regs[0], regs[1]
    Player.objects.filter(pk=french.player_id).update(language="fr")
    push.subscribe(actor=french.player.user, endpoint="https://8.8.8.8/push/fr", **Browser().keys())
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    outbox.dispatch_pending()

    rows = Notification.objects.filter(topic=Topic.ROUND_PAIRED, user=french.player.user)
    assert {r.channel for r in rows} == {Channel.EMAIL, Channel.PUSH}
    for row in rows:
        assert row.message["subject"] == f"{tournament.name}{NNBSP}: ronde 1"
    mine = Notification.objects.get(channel=Channel.EMAIL, user=english.player.user)
    assert mine.message["subject"] == f"{tournament.name}: round 1"
    assert mine.message["body"].startswith("Round 1: table ")
    # Each line is made in its reader's language (the club speaks English).
    languages = dict(said_in)
    assert languages[french.name] == "fr"
    assert {lang for name, lang in said_in if name != french.name} == {"en"}
    # Nothing is left active afterwards.
    assert translation.get_language() == "en"


def test_a_player_with_no_language_of_their_own_is_told_in_the_clubs(loopback, said_in) -> None:
    tournament, organiser, regs = running_tournament(4)
    tournament.club.language = "el"
    tournament.club.save(update_fields=["language"])
    Player.objects.filter(pk=regs[0].player_id).update(language="fr")
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    outbox.dispatch_pending()
    subjects = dict(
        Notification.objects.filter(channel=Channel.EMAIL).values_list("user", "message")
    )
    assert subjects[regs[0].player.user_id]["subject"] == f"{tournament.name}{NNBSP}: ronde 1"
    for reg in regs[1:]:
        assert subjects[reg.player.user_id]["subject"] == f"{tournament.name}: γύρος 1"
    assert sorted(lang for _, lang in said_in) == ["el", "el", "el", "fr"]


def test_a_greek_clubs_webhooks_and_chat_posts_are_in_greek(
    loopback, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, organiser, _regs = running_tournament(4)
    tournament.club.language = "el"
    tournament.club.save(update_fields=["language"])
    hook = webhooks.add_webhook(actor=organiser, club=tournament.club, url="https://1.1.1.1/h")
    discord = webhooks.add_webhook(
        actor=organiser, club=tournament.club, url="https://1.1.1.2/d", format="discord"
    )
    digested = []
    digest = chat.digest

    def recorded(*args, **kwargs):
        digested.append(translation.get_language())
        return digest(*args, **kwargs)

    monkeypatch.setattr(chat, "digest", recorded)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    outbox.dispatch_pending()

    row = Notification.objects.select_related("event", "webhook").get(webhook=hook)
    # The event's words (core.presenters) made in the club's language, not the reader's.
    assert row.message["body"].startswith("Ζευγαρώματα γύρου 1")
    body = json.loads(json.dumps(senders.webhook_body(row)))
    assert body["message"] == row.message["body"] and body["event"] == "round.paired"
    assert digested == ["el"]  # the Discord post's digest
    assert Notification.objects.filter(webhook=discord).exists()
    # The event itself still reads in its reader's language.
    assert row.event.message.startswith("Round 1 paired")


def test_a_french_judge_is_called_in_french_with_the_events_words(loopback) -> None:
    tournament, organiser, _regs = running_tournament(2)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    judge = member(tournament.club, Role.JUDGE)
    Player.objects.filter(user=judge).update(language="fr")
    push.subscribe(actor=judge, endpoint="https://8.8.8.8/push/judge", **Browser().keys())
    match = Match.objects.select_related("a__player__user").get(round__tournament=tournament)
    judge_calls.call_judge(actor=match.a.player.user, match=match)
    outbox.dispatch_pending()
    told = Notification.objects.get(topic=Topic.JUDGE_CALLED, user=judge, channel=Channel.PUSH)
    # The event's words, from the presenters' French catalogue.
    assert told.message["body"].startswith(f"Table {match.table}{NNBSP}: appel à un arbitre")


def test_languages_cost_no_query(loopback) -> None:
    """The players' languages come with their accounts: the same queries whoever speaks what."""
    counts = []
    for languages in (["", "", "", ""], ["fr", "el", "", "fr"]):
        tournament, organiser, regs = running_tournament(4)
        for reg, code in zip(regs, languages, strict=True):
            Player.objects.filter(pk=reg.player_id).update(language=code)
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        event = Event.objects.get(tournament_id=tournament.pk, kind="round.paired")
        Notification.objects.filter(event=event).delete()
        with CaptureQueriesContext(connection) as queries:
            assert outbox.fan_out(event) == 4
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
