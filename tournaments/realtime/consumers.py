"""The tournaments app's live pages (``core.live.NoticeConsumer``): each says
``{"type": "hello"}`` on connect and ``{"type": "changed"}`` after every change, on which
the page fetches its content again (and on every hello: after a reconnect it may have
missed one). An object the user may not see closes the socket (4404; 4403 once their role
or session no longer lets them). Anything the page sends is ignored but
``{"type": "ping"}``, answered ``{"type": "pong"}``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from core import live
from tournaments import selectors
from tournaments.realtime import broadcast
from tournaments.selectors.projector import tournament_visible_to


class StageConsumer(live.NoticeConsumer):
    """A bracket's or round robin's page (``/ws/stages/<stage>/``)."""

    kind = broadcast.STAGE
    url_kwarg = "stage_id"
    lost_detail = gettext_lazy(
        "You may no longer see this stage: your role or your session changed."
    )

    def reread(self) -> bool:
        return selectors.stage_visible_to(self.user, self.object_id)


class ProjectorConsumer(live.NoticeConsumer):
    """A tournament's projector screen (``/ws/tournaments/<tournament>/projector/``), also
    followed by the organiser's control page and the results grid (``static/js/live.js``):
    changed after every entry of the tournament's event feed and every announcement."""

    kind = broadcast.TOURNAMENT
    url_kwarg = "tournament_id"
    lost_detail = gettext_lazy(
        "You may no longer see this tournament: your role or your session changed."
    )

    def reread(self) -> bool:
        return tournament_visible_to(self.user, self.object_id)
