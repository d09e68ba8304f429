"""What a club's chat channel is told (Discord and Slack webhooks): the pairings when a round
is paired (table and players), the standings when a round is complete, the champion and
the podium when the tournament is over; any other event in one line.

:func:`digest` reads what the event is about (a fixed number of queries, whatever the
field size) into a :class:`Digest`: a title, a link and lines of text. The formatters turn
it into the target's own messages, split within its size limits:

- Discord (``execute webhook``): embeds, at most 10 a message, each description at most
  4,096 characters and all of a message's embeds at most 6,000; names are escaped for
  Discord's markdown and no message may mention anyone (``allowed_mentions``).
- Slack (incoming webhooks): a header block then section blocks (``mrkdwn``, at most 3,000
  characters each), at most 50 blocks a message, with a plain ``text`` fallback for
  notifications; ``&``, ``<`` and ``>`` escaped as Slack asks.

A digest too long for one message becomes several (``part 2 of 3`` in the title): each is
its own outbox row, so each is delivered, retried and logged on its own.

The words are made in the active language: ``outbox`` calls here in the club's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from core.events import EventKind
from core.models import Event
from tournaments import formats
from tournaments.models import MATCH_ENTRANTS, Match, Tournament
from tournaments.selectors.matches import pod_seats_prefetch
from tournaments.selectors.placements import champion, final_placements, ordinal
from tournaments.selectors.standings import tournament_standings

#: Lines of standings or placements a channel is shown (the rest is on the site).
TOP = 16
#: Tables listed at most (a large event's channel gets the first ones and the link).
MAX_TABLES = 256

DISCORD_DESCRIPTION = 4096
DISCORD_EMBEDS = 10
DISCORD_MESSAGE = 6000
DISCORD_TITLE = 256
SLACK_SECTION = 3000
SLACK_BLOCKS = 50
SLACK_HEADER = 150
#: The embeds' colour: the site's blue.
DISCORD_COLOUR = 0x1D4ED8


@dataclass(frozen=True)
class Digest:
    title: str
    url: str
    lines: list[str] = field(default_factory=list)


def digest(event: Event, tournament: Tournament, url: str) -> Digest:
    """The event as a channel reads it."""
    number = event.payload.get("round")
    if event.kind == EventKind.ROUND_PAIRED and isinstance(number, int):
        title = pgettext("round", "%(tournament)s: round %(round)d pairings") % {
            "tournament": tournament.name,
            "round": number,
        }
        return Digest(title, url, _pairings(tournament, number))
    if event.kind == EventKind.ROUND_COMPLETE and isinstance(number, int):
        lines = _standings(tournament)
        named = {"tournament": tournament.name, "round": number}
        if lines:
            title = pgettext("round", "%(tournament)s: round %(round)d is complete: standings")
        else:
            title = pgettext("round", "%(tournament)s: round %(round)d is complete")
        return Digest(title % named, url, lines)
    if event.kind == EventKind.TOURNAMENT_FINISHED:
        rows = final_placements(tournament)
        first = champion(rows)
        lines = [gettext("Champion: %(name)s") % {"name": first.name}] if first is not None else []
        lines += [
            f"{ordinal(r.place)}  {r.registration.name}  ({r.record})"
            if r.record
            else f"{ordinal(r.place)}  {r.registration.name}"
            for r in rows[:TOP]
        ]
        if len(rows) > TOP:
            lines.append(_more(len(rows) - TOP))
        title = gettext("%(tournament)s is over: final results") % {"tournament": tournament.name}
        return Digest(title, url, lines)
    return Digest(titled(tournament, event.message), url)


def titled(tournament: Tournament, message: str) -> str:
    """ "Draft Night: round 1 started", but never "Draft Night: Draft Night has started"."""
    if tournament.name in message:
        return message
    return gettext("%(tournament)s: %(said)s") % {"tournament": tournament.name, "said": message}


def _more(count: int) -> str:
    return ngettext(
        "… and %(count)d more on the site.", "… and %(count)d more on the site.", count
    ) % {"count": count}


def _pairings(tournament: Tournament, number: int) -> list[str]:
    matches = list(
        Match.objects.filter(round__tournament=tournament, round__number=number)
        .select_related(*MATCH_ENTRANTS)
        .prefetch_related(pod_seats_prefetch())
        .order_by("table", "pk")[: MAX_TABLES + 1]
    )
    lines = []
    for match in matches[:MAX_TABLES]:
        seats = getattr(match, "pod_seats", [])
        if seats:
            names = ", ".join(s.registration.name for s in seats)
            lines.append(
                gettext("Table %(table)s: %(players)s") % {"table": match.table, "players": names}
            )
        elif match.b is None:
            lines.append(gettext("Bye: %(name)s") % {"name": match.a.name})
        else:
            lines.append(
                gettext("Table %(table)s: %(a)s v %(b)s")
                % {"table": match.table, "a": match.a.name, "b": match.b.name}
            )
    if len(matches) > MAX_TABLES:
        lines.append(gettext("… more tables on the site."))
    return lines


def _standings(tournament: Tournament) -> list[str]:
    """The Swiss's or round robin's top rows (a bracket's or pods' round says no more)."""
    kinds = set(tournament.stages.values_list("kind", flat=True))
    if not kinds & set(formats.kinds(lambda f: f.standings == formats.Standings.TABLE)):
        return []
    table = tournament_standings(tournament)
    rows = table.rows()
    lines = [
        ngettext(
            "%(rank)s. %(name)s: %(points)d point (%(record)s)",
            "%(rank)s. %(name)s: %(points)d points (%(record)s)",
            row.points,
        )
        % {"rank": row.rank, "name": reg.name, "points": row.points, "record": row.record}
        for row, reg in rows[:TOP]
    ]
    if len(rows) > TOP:
        lines.append(_more(len(rows) - TOP))
    return lines


# --- splitting ----------------------------------------------------------------------------


def _chunks(lines: list[str], limit: int) -> list[str]:
    """Lines joined into texts of at most ``limit`` characters (a longer line is cut)."""
    out: list[str] = []
    current = ""
    for raw in lines:
        line = raw if len(raw) <= limit else raw[: limit - 1] + "…"
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current:
        out.append(current)
    return out


def _titled(title: str, index: int, total: int, limit: int) -> str:
    suffix = (
        gettext(" (part %(index)d of %(total)d)") % {"index": index, "total": total}
        if total > 1
        else ""
    )
    room = limit - len(suffix)
    head = title if len(title) <= room else title[: room - 1] + "…"
    return head + suffix


# --- Discord ------------------------------------------------------------------------------

_DISCORD_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()-])")


def discord_escape(text: str) -> str:
    """Names shown as typed: Discord's markdown characters escaped, mentions defused."""
    text = _DISCORD_MARKDOWN.sub(r"\\\1", text)
    return text.replace("@", "@\u200b")


def discord_messages(d: Digest) -> list[dict[str, Any]]:
    descriptions = _chunks([discord_escape(line) for line in d.lines], DISCORD_DESCRIPTION)
    if not descriptions:
        descriptions = [""]
    # Group embeds into messages: at most 10 each and 6,000 characters in all.
    groups: list[list[str]] = [[]]
    size = 0
    for text in descriptions:
        cost = len(text) + DISCORD_TITLE
        if groups[-1] and (len(groups[-1]) >= DISCORD_EMBEDS or size + cost > DISCORD_MESSAGE):
            groups.append([])
            size = 0
        groups[-1].append(text)
        size += cost
    messages = []
    for index, group in enumerate(groups, start=1):
        title = _titled(discord_escape(d.title), index, len(groups), DISCORD_TITLE)
        embeds = []
        for position, text in enumerate(group):
            embed: dict[str, Any] = {"color": DISCORD_COLOUR}
            if position == 0:
                embed.update(title=title, url=d.url)
            if text:
                embed["description"] = text
            embeds.append(embed)
        messages.append({"embeds": embeds, "allowed_mentions": {"parse": []}})
    return messages


# --- Slack --------------------------------------------------------------------------------


def slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack_messages(d: Digest) -> list[dict[str, Any]]:
    sections = _chunks([slack_escape(line) for line in d.lines], SLACK_SECTION)
    per_message = SLACK_BLOCKS - 2  # the header and the link
    groups = [sections[i : i + per_message] for i in range(0, len(sections), per_message)] or [[]]
    messages = []
    for index, group in enumerate(groups, start=1):
        title = _titled(d.title, index, len(groups), SLACK_HEADER)
        blocks: list[dict[str, Any]] = [
            {"type": "header", "text": {"type": "plain_text", "text": title}}
        ]
        blocks += [{"type": "section", "text": {"type": "mrkdwn", "text": t}} for t in group]
        blocks.append(
            {
                "type": "context",
                "elements": [
                    {
                        "type": "mrkdwn",
                        "text": f"<{d.url}|{slack_escape(gettext('Open on the site'))}>",
                    }
                ],
            }
        )
        messages.append({"text": slack_escape(title), "blocks": blocks})
    return messages
