"""What a club's Discord or Slack channel is told (issue 22, defect 15): the pairings, the
standings at the end of a round and the champion, in the target's own format, split
within its size limits, with names that cannot format or mention."""

from __future__ import annotations

import json

import pytest

from core.models import Event
from notifications.services import chat
from tests.factories import running_tournament
from tournaments.services import swiss


def _long(count: int) -> chat.Digest:
    return chat.Digest(
        "Thursday Swiss: round 1 pairings",
        "https://club.example/t/1/",
        [f"Table {n}: Player number {n} v Player number {n + 1000}" for n in range(count)],
    )


def test_discord_messages_stay_within_its_limits_and_keep_every_line() -> None:
    digest = _long(1024)
    messages = chat.discord_messages(digest)
    assert len(messages) > 1
    seen = []
    for index, message in enumerate(messages, start=1):
        embeds = message["embeds"]
        assert 1 <= len(embeds) <= chat.DISCORD_EMBEDS
        assert sum(len(e.get("description", "")) + len(e.get("title", "")) for e in embeds) <= (
            chat.DISCORD_MESSAGE
        )
        assert all(len(e.get("description", "")) <= chat.DISCORD_DESCRIPTION for e in embeds)
        assert embeds[0]["title"].endswith(f"(part {index} of {len(messages)})")
        assert message["allowed_mentions"] == {"parse": []}
        for embed in embeds:
            seen += embed.get("description", "").split("\n")
    assert seen == [chat.discord_escape(line) for line in digest.lines]


def test_slack_messages_stay_within_its_limits_and_keep_every_line() -> None:
    digest = _long(2048)
    messages = chat.slack_messages(digest)
    seen = []
    for message in messages:
        blocks = message["blocks"]
        assert len(blocks) <= chat.SLACK_BLOCKS
        assert blocks[0]["type"] == "header" and len(blocks[0]["text"]["text"]) <= chat.SLACK_HEADER
        sections = [b for b in blocks if b["type"] == "section"]
        assert all(len(b["text"]["text"]) <= chat.SLACK_SECTION for b in sections)
        assert message["text"]  # the notification's fallback
        for block in sections:
            seen += block["text"]["text"].split("\n")
    assert seen == digest.lines


def test_names_cannot_format_or_mention() -> None:
    digest = chat.Digest("T", "https://x.example/", ["Table 1: @everyone v **Bold** <b>"])
    discord = json.dumps(chat.discord_messages(digest))
    assert "@everyone" not in discord and "\\\\*\\\\*Bold" in discord
    slack = json.dumps(chat.slack_messages(digest))
    assert "<b>" not in slack and "&lt;b&gt;" in slack


@pytest.mark.django_db
def test_a_paired_round_lists_every_table_with_its_players() -> None:
    tournament, organiser, regs = running_tournament(5)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    event = Event.objects.filter(tournament=tournament, kind="round.paired").latest("id")
    digest = chat.digest(event, tournament, "https://x.example/")
    assert digest.title == f"{tournament.name}: round 1 pairings"
    names = {r.name for r in regs}
    assert len(digest.lines) == 3  # two tables and a bye
    assert any(line.startswith("Bye: ") for line in digest.lines)
    mentioned = {n for n in names if any(n in line for line in digest.lines)}
    assert mentioned == names
