"""Call a judge (issue 22): a player calls from their match page, their live table or the
API; the match is flagged on the judges' grid and the control page, the club's judges are
told by push as they chose; a judge takes it ("on my way", which the players see) and
closes it. A double tap makes one call; only the match's players call, only judges take."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from core.errors import Conflict, NotAllowed
from core.models import Event
from notifications.models import Channel, Notification, PushSubscription, Topic
from notifications.services import outbox
from tests.factories import member, running_tournament
from tournaments.models import JudgeCall, Match, Role
from tournaments.services import judge_calls, swiss

pytestmark = pytest.mark.django_db


def _match() -> tuple[Any, Any, Match, Any, Any]:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    match = Match.objects.filter(round=rnd, b__isnull=False).select_related(
        "a__player__user", "b__player__user"
    )[0]
    judge = member(tournament.club, Role.JUDGE)
    return tournament, organiser, match, match.a.player.user, judge


def test_a_player_calls_the_judges_grid_flags_it_and_a_judge_takes_and_closes_it(client) -> None:
    tournament, _, match, player, judge = _match()
    client.force_login(player)
    page = client.get(reverse("match", args=[tournament.pk, match.pk])).content.decode()
    assert f'id="call-judge-{match.pk}"' in page
    done = client.post(
        reverse("judge-call", args=[tournament.pk, match.pk]), {"action": "call"}, follow=True
    )
    assert "A judge is called" in done.content.decode()
    client.post(reverse("judge-call", args=[tournament.pk, match.pk]), {"action": "call"})
    call = JudgeCall.objects.get(match=match)  # the double tap found the open call
    assert Event.objects.filter(tournament=tournament, kind="judge.called").count() == 1

    client.force_login(judge)
    grid = client.get(reverse("judge", args=[tournament.pk])).content.decode()
    row = grid[grid.index(f'id="judge-row-{match.pk}"') :].split("</tr>", 1)[0]
    assert "judge-called" in row and "A judge is called" in row and "On my way" in row
    control = client.get(reverse("control", args=[tournament.pk]), {"part": "body"})
    assert f"Table {match.table}: {player.player.display_name} called a judge" in (
        control.content.decode()
    )
    client.post(
        reverse("judge-call", args=[tournament.pk, match.pk]),
        {"action": "answer", "call": call.pk},
    )
    client.force_login(player)
    page = client.get(reverse("match", args=[tournament.pk, match.pk])).content.decode()
    judge_name = judge.player.display_name
    assert f"{judge_name} is on the way." in page

    client.force_login(judge)
    client.post(
        reverse("judge-call", args=[tournament.pk, match.pk]),
        {"action": "close", "call": call.pk},
    )
    call.refresh_from_db()
    assert call.closed_at is not None and call.answered_by == judge


def test_only_the_players_call_and_only_judges_take(client) -> None:
    tournament, _, match, player, judge = _match()
    stranger = member(tournament.club, Role.MEMBER)
    with pytest.raises(NotAllowed):
        judge_calls.call_judge(actor=stranger, match=match)
    call = judge_calls.call_judge(actor=player, match=match)
    with pytest.raises(NotAllowed):
        judge_calls.answer_call(actor=player, call=call)
    judge_calls.answer_call(actor=judge, call=call)
    other = member(tournament.club, Role.JUDGE)
    with pytest.raises(Conflict) as taken:
        judge_calls.answer_call(actor=other, call=call)
    assert taken.value.code == "call_taken"


def test_the_clubs_judges_are_told_by_push(api_as) -> None:
    tournament, _, match, player, judge = _match()
    PushSubscription.objects.create(
        user=judge, endpoint="https://push.example/abc", p256dh="x", auth="y"
    )
    response = api_as(player).post(f"/api/v1/matches/{match.pk}/call-judge/")
    assert response.status_code == 201, response.content
    assert response.json()["answered"] is False
    event = Event.objects.get(tournament=tournament, kind="judge.called")
    outbox.fan_out(event)
    rows = Notification.objects.filter(event=event, topic=Topic.JUDGE_CALLED)
    pushed = {r.user_id for r in rows if r.channel == Channel.PUSH}
    assert judge.pk in pushed and player.pk not in pushed
    message = rows.filter(user=judge).first()
    assert message is not None and f"table {match.table}" in message.message["subject"]
    call_id = response.json()["id"]
    answered = api_as(judge).post(f"/api/v1/judge-calls/{call_id}/answer/")
    assert answered.status_code == 200 and answered.json()["answered"] is True
    refused = api_as(player).post(f"/api/v1/judge-calls/{call_id}/answer/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_judge"
