"""The club's life across events in the outbox (issue 26): "your rating changed" and
"your season standings" are opt-in per channel; each player is told their own figures in
their own language, once; the club's webhooks that chose the topic get everyone's
figures but a hidden profile's; the preferences page offers both topics."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.audit import record_event
from core.events import EventKind
from notifications.models import Channel, Notification, Preference, Topic
from notifications.services import outbox, push, webhooks
from tests.factories import running_tournament
from tests.notifications.receivers import Browser
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def _ratings_event(tournament, regs, *, game: str = "gesoseka"):
    players = sorted(r.player_id for r in regs)
    return record_event(
        tournament=tournament,
        kind=EventKind.RATINGS_CHANGED,
        payload={
            "game": game,
            "players": players,
            "before": [26.11 + i for i in range(len(players))],
            "after": [27.31 + i for i in range(len(players))],
            "matches": [4] * len(players),
        },
        params={"tournament": tournament.name, "players": len(players)},
    )


def _standings_event(tournament, regs):
    players = sorted(r.player_id for r in regs)
    return record_event(
        tournament=tournament,
        kind=EventKind.SEASON_STANDINGS,
        payload={
            "season": 7,
            "name": "Autumn league",
            "players": players,
            "places": [i + 1 for i in range(len(players))],
            "points": [24 - 3 * i for i in range(len(players))],
        },
        params={"season": "Autumn league", "tournament": tournament.name},
    )


def _opt_in(player: Player, email=(), push_topics=()) -> None:
    Preference.objects.create(
        user=player.user, email_topics=list(email), push_topics=list(push_topics)
    )


def _rows(event, **filters):
    return Notification.objects.filter(event=event, **filters)


def test_nobody_hears_of_ratings_or_standings_without_opting_in() -> None:
    tournament, _, regs = running_tournament(3)
    for event in (_ratings_event(tournament, regs), _standings_event(tournament, regs)):
        assert outbox.fan_out(event) == 0
    assert not Notification.objects.exists()


def test_each_player_is_told_their_own_rating_on_the_channels_they_chose() -> None:
    tournament, _, regs = running_tournament(3)
    regs.sort(key=lambda r: r.player_id)
    by_mail, by_push, standings_only = (r.player for r in regs)
    _opt_in(by_mail, email=[Topic.RATING_CHANGED])
    _opt_in(by_push, push_topics=[Topic.RATING_CHANGED])
    _opt_in(standings_only, email=[Topic.SEASON_STANDINGS], push_topics=[Topic.SEASON_STANDINGS])
    push.subscribe(actor=by_push.user, endpoint="https://8.8.8.8/push/1", **Browser().keys())
    event = _ratings_event(tournament, regs)
    outbox.fan_out(event)
    rows = _rows(event).exclude(channel=Channel.WEBHOOK)
    assert {(r.user_id, r.channel) for r in rows} == {
        (by_mail.user_id, Channel.EMAIL),
        (by_push.user_id, Channel.PUSH),
    }
    mine = rows.get(user=by_mail.user)
    club = tournament.club.name
    assert mine.topic == Topic.RATING_CHANGED
    assert mine.message["subject"] == f"Your Gesoseka rating at {club}"
    assert mine.message["body"] == (
        f"Your Gesoseka rating at {club}: 27.31 (+1.20) after {tournament.name}."
    )
    # Never another player's figures.
    assert "28.31" not in json.dumps(mine.message) and "29.31" not in json.dumps(mine.message)
    assert "28.31" in rows.get(user=by_push.user).message["body"]
    # Fanned out again (a retried dispatch): nothing twice.
    outbox.fan_out(event)
    assert _rows(event).exclude(channel=Channel.WEBHOOK).count() == 2


def test_season_standings_say_the_place_and_points_to_who_opted_in() -> None:
    tournament, _, regs = running_tournament(3)
    regs.sort(key=lambda r: r.player_id)
    for reg in regs:
        _opt_in(reg.player, email=[Topic.SEASON_STANDINGS])
    Preference.objects.filter(user=regs[0].player.user).update(email_topics=[])
    event = _standings_event(tournament, regs)
    outbox.fan_out(event)
    rows = _rows(event, channel=Channel.EMAIL)
    assert set(rows.values_list("user_id", flat=True)) == {
        regs[1].player.user_id,
        regs[2].player.user_id,
    }
    third = rows.get(user=regs[2].player.user)
    assert third.topic == Topic.SEASON_STANDINGS
    assert third.message["body"] == (
        f"Autumn league: you are 3rd with 18 points after {tournament.name}."
    )
    assert event.message == f"Season standings of Autumn league after {tournament.name}"


def test_each_player_reads_their_figures_in_their_own_language() -> None:
    tournament, _, regs = running_tournament(2)
    regs.sort(key=lambda r: r.player_id)
    french, english = regs[0].player, regs[1].player
    Player.objects.filter(pk=french.pk).update(language="fr")
    for player in (french, english):
        _opt_in(player, email=[Topic.RATING_CHANGED])
    event = _ratings_event(tournament, regs)
    outbox.fan_out(event)
    assert "27,31" in _rows(event, user=french.user).get().message["body"]
    assert "28.31" in _rows(event, user=english.user).get().message["body"]


def test_webhooks_that_chose_the_topic_get_the_figures_but_a_hidden_profiles(settings) -> None:
    settings.NOTIFICATIONS_ALLOW_LOOPBACK = True
    tournament, organiser, regs = running_tournament(3)
    regs.sort(key=lambda r: r.player_id)
    hidden = regs[1].player
    Player.objects.filter(pk=hidden.pk).update(profile_hidden=True, display_name="Secret Sam")
    _opt_in(hidden, email=[Topic.RATING_CHANGED])  # their own figures, to themselves
    chosen = webhooks.add_webhook(
        actor=organiser,
        club=tournament.club,
        url="https://1.1.1.1/ratings",
        topics=[Topic.RATING_CHANGED],
    )
    webhooks.add_webhook(
        actor=organiser,
        club=tournament.club,
        url="https://1.1.1.1/rounds",
        topics=[Topic.ROUND_PAIRED],
    )
    event = _ratings_event(tournament, regs)
    outbox.fan_out(event)
    (row,) = _rows(event, channel=Channel.WEBHOOK)
    assert row.webhook == chosen and row.topic == Topic.RATING_CHANGED
    said = row.message
    assert [r["player"] for r in said["ratings"]] == [regs[0].player_id, regs[2].player_id]
    assert said["withheld"] == 1 and said["game"] == "gesoseka"
    assert said["ratings"][0]["after"] == 27.31 and said["ratings"][0]["before"] == 26.11
    assert "Secret Sam" not in json.dumps(said) and "28.31" not in json.dumps(said)
    assert said["body"] == f"{tournament.name}: the club's ratings are updated (3 players)"
    assert "28.31" in _rows(event, user=hidden.user).get().message["body"]


def test_the_fan_out_costs_the_same_queries_for_3_or_24_players() -> None:
    counts = []
    for players in (3, 24):
        tournament, _, regs = running_tournament(players)
        for reg in regs:
            _opt_in(reg.player, email=[Topic.RATING_CHANGED, Topic.SEASON_STANDINGS])
        for make in (_ratings_event, _standings_event):
            event = make(tournament, regs)
            with CaptureQueriesContext(connection) as seen:
                assert outbox.fan_out(event) == players
            counts.append(len(seen))
    assert counts[:2] == counts[2:]


def test_the_preferences_page_offers_both_topics(client) -> None:
    _, _, regs = running_tournament(1)
    client.force_login(regs[0].player.user)
    page = client.get("/account/notifications/").content.decode()
    assert "Your rating changed after a tournament" in page
    assert "Your season standings after an event" in page
    assert f'value="{Topic.RATING_CHANGED}"' in page
