"""The projector screen's one write: the organisers' announcement.

An *announcement* is a short note shown on the tournament's projector ("Lunch at 13:00",
"Round 4 starts after the break"): at most :data:`ANNOUNCEMENT_MAX_LENGTH` characters of
free text (``core.text.clean_text``: line breaks kept, control and bidirectional
characters refused), empty for none. Setting it is audited; on commit
:data:`projector_changed` tells the live projector pages (``tournaments.realtime`` listens:
services know nothing of websockets).
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext, ngettext

from core.audit import record_audit
from core.auth import AnyUser
from core.errors import InvalidInput
from core.text import clean_text
from tournaments.models import Tournament
from tournaments.selectors import policies
from tournaments.services.locks import lock_tournament

#: The most characters an announcement has: what a projector shows in large type.
ANNOUNCEMENT_MAX_LENGTH = 280

#: Sent after the commit of a change the projector shows that records no event in the
#: tournament's feed (the announcement), with ``tournament_id``.
projector_changed = Signal()


@transaction.atomic(durable=True)
def set_announcement(*, actor: AnyUser, tournament: Tournament | int, text: str) -> Tournament:
    """Set (or, with an empty ``text``, clear) the tournament's announcement (organisers).

    Refuses text longer than :data:`ANNOUNCEMENT_MAX_LENGTH` (``announcement_too_long``)
    and invisible or control characters (``invalid_characters``), both naming the field
    ``announcement``. The same text again changes nothing and records nothing."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    locked = lock_tournament(tournament_id)
    policies.require_manager(actor, locked.club, doing="set the projector's announcement")
    if not isinstance(text, str):
        raise InvalidInput(
            gettext("The announcement is text."),
            code="invalid_announcement",
            field="announcement",
        )
    cleaned = clean_text(text, what=gettext("the announcement"), field="announcement")
    if len(cleaned) > ANNOUNCEMENT_MAX_LENGTH:
        raise InvalidInput(
            ngettext(
                "An announcement has at most %(most)d character (this one has %(count)d).",
                "An announcement has at most %(most)d characters (this one has %(count)d).",
                ANNOUNCEMENT_MAX_LENGTH,
            )
            % {"most": ANNOUNCEMENT_MAX_LENGTH, "count": len(cleaned)},
            code="announcement_too_long",
            field="announcement",
        )
    before = locked.announcement
    if cleaned == before:
        return locked
    locked.announcement = cleaned
    locked.save(update_fields=["announcement", "updated_at"])
    record_audit(
        actor=actor,
        action="tournament.announcement",
        params={"tournament": locked.name, "announcement": cleaned},
        obj=locked,
        club=locked.club,
        tournament=locked,
        before={"announcement": before},
        after={"announcement": cleaned},
    )
    transaction.on_commit(
        lambda: projector_changed.send(sender=Tournament, tournament_id=tournament_id),
        robust=True,
    )
    return locked
