"""The projector screen: one public page per tournament, full screen and readable across a
room (the round clock, the tables, the bracket of an elimination stage, the organisers'
announcement, a QR code to "my match"), kept live by ``static/js/projector.js``.

The page is the frame (the QR code, the connection's state, the organisers' controls);
its content is a partial (``/projector/content/``) that the page fetches again whenever
the projector's websocket says "changed", after every (re)connect, and every 30 s while
the socket is down (docs/architecture.md, "Live pages"). A big round's content is a page
of its tables (``?page=N``), and the screen turns its pages by itself
(``selectors.projector``). Also here: ``my-match``, where
the QR code leads: the player's current match, else the tournament's page.
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.errors import InvalidInput
from core.web import parse_int, run_action
from tournaments import selectors
from tournaments.models import MatchStatus, Tournament
from tournaments.selectors import policies
from tournaments.selectors.matches import current_match_id_of
from tournaments.selectors.projector import PAGE_SECONDS, ProjectorView, projector_view
from tournaments.services import projector as projector_service
from tournaments.web.bracket_svg import bracket_svg
from tournaments.web.common import tournament_for


def _millis(moment: Any) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def _drawing(view: ProjectorView) -> SafeString | None:
    """The elimination stage's bracket as the bracket page draws it, without links."""
    bracket = view.bracket
    if bracket is None or bracket.bracket is None or bracket.state is None:
        return None
    drawing = bracket_svg(
        bracket.bracket,
        bracket.state,
        bracket.names(),
        seeds=bracket.seeds,
        scores={
            key: (str(m.games_a), str(m.games_b))
            for key, m in bracket.matches.items()
            if m.status == MatchStatus.CONFIRMED
        },
        title=f"{view.tournament.name}: {bracket.stage.label}",
    )
    # Centred in the screen's box rather than at its top left (the page's own drawing
    # scrolls sideways instead; here it is scaled to fit).
    return mark_safe(  # the drawing is safe (bracket_svg); the attribute is ours
        drawing.replace(
            'preserveAspectRatio="xMinYMin meet"', 'preserveAspectRatio="xMidYMid meet"', 1
        )
    )


def clock_text(seconds: float) -> str:
    """Time left as the projector's clock shows it: "9:05", "1:02:00"."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _page_asked(request: HttpRequest) -> int:
    """A big round's page of tables the screen asks for (``?page=N``; else the first)."""
    try:
        return parse_int(request.GET.get("page"), field="page") or 1
    except InvalidInput:
        return 1


def _content_context(tournament: Tournament, page: int = 1) -> dict[str, Any]:
    view = projector_view(tournament, page=page)
    clock = view.clock
    now = timezone.now()
    ends_at = clock.ends_at if clock is not None and clock.running else None
    return {
        "tournament": tournament,
        "view": view,
        "page_seconds": PAGE_SECONDS,
        "clock": clock,
        "drawing": _drawing(view),
        "final": policies.tournament_is_finished(tournament),
        # The clock counts down in the browser from the server's time, not the projector
        # laptop's (its clock may be minutes off): the page keeps the difference.
        "server_now_ms": _millis(now),
        "ends_at_ms": _millis(ends_at),
        "clock_text": clock_text((ends_at - now).total_seconds()) if ends_at else "",
        "time_past": ends_at is not None and ends_at <= now,
        "low": ends_at is not None
        and (ends_at - now).total_seconds() <= selectors.WARNING_MINUTES * 60,
    }


def qr_svg(url: str) -> SafeString:
    """``url`` as a QR code, an inline ``<svg>`` that scales with its box. Safe as it is:
    segno writes only the modules' paths and the fixed title, never the URL's text."""
    code = segno.make(url, error="m", micro=False)
    return mark_safe(
        code.svg_inline(
            scale=1,
            border=2,
            dark="#000",
            light="#fff",
            omitsize=True,
            svgclass="pj-qr-code",
            title=gettext("QR code: your match on your phone"),
        )
    )


def projector(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector page (public: anyone who may see the tournament), in the event's
    language."""
    tournament = tournament_for(request, pk, room=True)
    my_match_url = request.build_absolute_uri(reverse("my-match", args=[tournament.pk]))
    context = _content_context(tournament, _page_asked(request))
    context.update(
        {
            "qr": qr_svg(my_match_url),
            "my_match_url": my_match_url,
            "can_manage": policies.can_manage_club(request.user, tournament.club),
            "max_announcement": projector_service.ANNOUNCEMENT_MAX_LENGTH,
        }
    )
    return render(request, "tournaments/projector.html", context)


def projector_content(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector's content: what the page fetches again after every change."""
    tournament = tournament_for(request, pk, room=True)
    response = render(
        request,
        "tournaments/_projector_content.html",
        _content_context(tournament, _page_asked(request)),
    )
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def projector_announcement(request: HttpRequest, pk: int) -> HttpResponse:
    """The organisers' form on the projector: set or clear the announcement."""
    tournament = tournament_for(request, pk)
    text = request.POST.get("announcement", "")
    done = run_action(
        request,
        lambda: projector_service.set_announcement(
            actor=request.user, tournament=tournament, text=text
        ),
    )
    if done is not None:
        messages.success(
            request,
            gettext("Announcement shown.")
            if done.announcement
            else gettext("Announcement cleared."),
        )
    return redirect("projector", pk=tournament.pk)


def my_match(request: HttpRequest, pk: int) -> HttpResponse:
    """Where the projector's QR code leads: the player's current match (theirs or their
    team's), else the tournament's page; a visitor logs in first and comes back here.

    Every player opens it at the start of a round: a redirect needs no more than whether
    the tournament may be seen (its status, one small query) and the match's id (one
    query); not the tournament's row with its counts, nor its club's time zone."""
    if not selectors.tournament_is_visible(request.user, pk):
        raise Http404("No such tournament.")
    if not request.user.is_authenticated:
        login = reverse("login")
        return redirect(f"{login}?next={reverse('my-match', args=[pk])}")
    match_id = current_match_id_of(request.user, pk)
    if match_id is None:
        return redirect("tournament-detail", pk=pk)
    return redirect("match", pk=pk, match_pk=match_id)
