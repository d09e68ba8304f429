"""The public final results of a finished tournament: every entrant's place, the champion
and each record, on a page that prints on one sheet, and an image card (SVG, 1200 x 630,
the size chat apps unfurl) that the page names in its Open Graph tags, so a shared link
shows the podium."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control

from tournaments.models import EntrantType
from tournaments.selectors import placements as placement_selectors
from tournaments.web.common import tournament_context, tournament_for

#: The card's size: what Open Graph readers expect of a "large image".
CARD_WIDTH, CARD_HEIGHT = 1200, 630
#: Characters of a name on the card before it is cut with an ellipsis.
CARD_NAME_CHARS = 34


def final_results(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for(request, pk, room=True)
    context = tournament_context(request, tournament)
    rows = placement_selectors.final_placements(tournament) if context["final"] else []
    context.update(
        {
            "placements": rows,
            "champion": placement_selectors.champion(rows),
            "team_event": tournament.entrant_type == EntrantType.TEAM,
            "card_url": request.build_absolute_uri(reverse("final-results-card", args=[pk])),
            "page_url": request.build_absolute_uri(reverse("final-results", args=[pk])),
        }
    )
    return render(request, "tournaments/final_results.html", context)


def _cut(text: str, limit: int = CARD_NAME_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@cache_control(public=True, max_age=300)
def final_results_card(request: HttpRequest, pk: int) -> HttpResponse:
    """The podium as an SVG image: the tournament, its champion, the next three places."""
    tournament = tournament_for(request, pk, room=True)
    rows = placement_selectors.final_placements(tournament)
    champion = placement_selectors.champion(rows)
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CARD_WIDTH}" height="{CARD_HEIGHT}" '
        f'viewBox="0 0 {CARD_WIDTH} {CARD_HEIGHT}" role="img" '
        'aria-label="'
        + escape(gettext("Final results of %(tournament)s") % {"tournament": tournament.name})
        + '">',
        f'<rect width="{CARD_WIDTH}" height="{CARD_HEIGHT}" fill="#14213d"/>',
        '<g font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" fill="#fff">',
        '<text x="60" y="95" font-size="44" font-weight="700">'
        f"{escape(_cut(tournament.name, 44))}</text>",
        '<text x="60" y="140" font-size="26" fill="#b8c4de">'
        + escape(
            gettext("%(club)s · %(game)s · final results")
            % {"club": tournament.club.name, "game": tournament.get_game_display()}
        )
        + "</text>",
    ]
    if champion is not None:
        lines += [
            '<text x="60" y="240" font-size="30" fill="#fca311">'
            + escape(gettext("Champion"))
            + "</text>",
            f'<text x="60" y="305" font-size="64" font-weight="700">'
            f"{escape(_cut(champion.name))}</text>",
        ]
    elif not rows:
        lines.append(
            '<text x="60" y="280" font-size="40">' + escape(gettext("Not finished yet")) + "</text>"
        )
    y = 400
    for row in [r for r in rows if r.registration is not champion][:4]:
        lines.append(
            f'<text x="60" y="{y}" font-size="34"><tspan fill="#fca311" font-weight="700">'
            f"{escape(placement_selectors.ordinal(row.place))}</tspan>  "
            f"{escape(_cut(row.registration.name))}</text>"
        )
        y += 52
    lines += ["</g>", "</svg>"]
    return HttpResponse("\n".join(lines), content_type="image/svg+xml")
