"""The seasons app's words for its audit codes and feed kinds (``core.presenters``): made
at display, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext_noop as _
from django.utils.translation import ngettext

from core.presenters import Present, said

AUDIT: dict[str, Present] = {
    "season.created": said(_("Season %(season)s created")),
    "season.updated": said(_("Season %(season)s edited")),
    "season.deleted": said(_("Season %(season)s deleted")),
    "season.event_left_out": said(_("%(tournament)s left out of season %(season)s")),
    "season.event_counted": said(_("%(tournament)s counts again in season %(season)s")),
    "season.finals_created": said(
        _("Finals %(tournament)s created from season %(season)s with %(players)d players")
    ),
}

EVENT: dict[str, Present] = {
    "ratings.changed": lambda p: (
        ngettext(
            "%(tournament)s: the club's ratings are updated (%(count)d player)",
            "%(tournament)s: the club's ratings are updated (%(count)d players)",
            p["players"],
        )
        % {"tournament": p["tournament"], "count": p["players"]}
    ),
    "season.standings": said(_("Season standings of %(season)s after %(tournament)s")),
}
