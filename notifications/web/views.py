"""Pages: a player's notification settings (topics by channel, push on this device), a
club's webhooks with their delivery log, and the service worker web push needs."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST

from core.auth import require_user
from core.web import run_action
from notifications import selectors
from notifications.models import PLAYER_TOPICS, WEBHOOK_TOPIC_LABELS, Topic, Webhook, WebhookFormat
from notifications.services import preferences, push, webhooks
from tournaments.models import Club
from tournaments.selectors import policies

_WORKER = Path(settings.BASE_DIR) / "static" / "notifications" / "service-worker.js"


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        run_action(
            request,
            lambda: preferences.choose(
                actor=request.user,
                email_topics=request.POST.getlist("email")[:20],
                push_topics=request.POST.getlist("push")[:20],
            ),
            gettext("Your notification settings are saved."),
        )
        return redirect("notification-settings")
    user = require_user(request.user)  # login_required: always an account here
    email, push_topics = preferences.current(user)
    rows = [(Topic(t), t in email, t in push_topics) for t in PLAYER_TOPICS]
    return render(
        request,
        "notifications/settings.html",
        {
            "rows": rows,
            "has_email": bool(user.email),
            "devices": selectors.subscriptions_of(user.pk).count(),
            "vapid_public_key": push.vapid_keys()[1],
        },
    )


@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """At the site's root, so it may show notifications for every page."""
    response = HttpResponse(_WORKER.read_text(), content_type="application/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


def _club_for_manager(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not policies.can_manage_club(request.user, club):  # the page is theirs alone
        raise PermissionDenied
    return club


@login_required
def club_webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_for_manager(request, slug)
    if request.method == "POST":
        hook = run_action(
            request,
            lambda: webhooks.add_webhook(
                actor=request.user,
                club=club,
                url=request.POST.get("url", "")[:600],
                format=request.POST.get("format", WebhookFormat.JSON)[:10],
                topics=request.POST.getlist("topics")[:20],
            ),
            gettext("Webhook added: every event of the club's tournaments goes to it."),
        )
        if hook is not None:
            return redirect("club-webhooks", slug=club.slug)
    return render(
        request,
        "notifications/webhooks.html",
        {
            "club": club,
            "webhooks": [
                (hook, [WEBHOOK_TOPIC_LABELS.get(Topic(t), t) for t in hook.topics if t in Topic])
                for hook in selectors.club_webhooks(club)
            ],
            "log": selectors.club_log(club),
            "formats": WebhookFormat.choices,
            "topics": list(WEBHOOK_TOPIC_LABELS.items()),
        },
    )


@login_required
@require_POST
def webhook_action(request: HttpRequest, slug: str, pk: int, action: str) -> HttpResponse:
    club = _club_for_manager(request, slug)
    hook = get_object_or_404(Webhook, club=club, pk=pk)
    if action == "remove":
        run_action(
            request,
            lambda: webhooks.remove_webhook(actor=request.user, webhook=hook),
            gettext("Removed."),
        )
    elif action in ("pause", "resume"):
        run_action(
            request,
            lambda: webhooks.change_webhook(
                actor=request.user, webhook=hook, active=action == "resume"
            ),
            gettext("Paused.") if action == "pause" else gettext("Sending again."),
        )
    elif action == "secret":
        run_action(
            request,
            lambda: webhooks.change_webhook(actor=request.user, webhook=hook, new_secret=True),
            gettext("A new secret is made: give it to the receiver."),
        )
    else:
        messages.error(request, gettext("Unknown action."))
    return redirect("club-webhooks", slug=club.slug)
