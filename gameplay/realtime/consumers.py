"""The gameplay app's live pages, on ``core.live.ActionConsumer``: the live table's socket
(:class:`TableConsumer`, below) and the draft pod's (``/ws/drafts/<pod>/``,
:class:`DraftConsumer`): one per page, player, organiser or spectator alike.

On connect the page gets the full snapshot for its viewer, with its ``version``; after
that, every change arrives as a new snapshot (sent by the services after commit). The page
sends actions as JSON with an ``id`` and gets ``{"type": "ack", "id", "version"}`` or
``{"type": "error", "id", "code", "detail"}`` back, never a dropped connection:

- ``{"type": "pick", "pack": 3, "pick": 2, "positions": [4]}`` (players): keep the cards
  at these places of the pack in front (as the snapshot's ``you.pack.cards`` lists them, 0
  is the first), so a pack holding two ``7H`` lets the player keep one or both
- ``{"type": "highlight", "pack": 3, "pick": 2, "positions": [4]}`` (players: the
  auto-pick takes these; the snapshot's ``you.highlighted`` lists the positions back; with
  ``pack`` and ``pick``, a highlight for a pack that has moved on is refused)
- (older clients may still name ``"cards": ["7H"]`` instead of ``positions`` in a pick or a
  highlight: the first copy of each card)
- ``{"type": "start"}``, ``{"type": "pause"}``, ``{"type": "resume"}``, ``{"type": "end"}``,
  ``{"type": "auto", "seat": 2, "on": true}`` (organisers)
- ``{"type": "snapshot"}``: send me the current snapshot again.

The services do all the checking; this edge only parses and translates errors. What a
viewer sees of a snapshot (``selectors.view_for``) is decided on connect: nobody sees a
card before the start, a player sees their own pack and pool only; and decided again
whenever the viewer's roles or session change (``core.access``, ``core.live.LiveConsumer``):
an organiser made a member stops seeing every seat's pack at once, a phone logged out
stops acting.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from core import clock, live
from core.auth import AnyUser
from core.errors import DomainError
from gameplay import selectors
from gameplay.realtime import broadcast
from gameplay.selectors import tables as table_selectors
from gameplay.services import drafts as services
from gameplay.services import picks, tables


def _run_action(pod_id: int, user: AnyUser, message: dict[str, Any]) -> int:
    """Do one action; returns the pod's version after it."""
    kind = message.get("type")
    if kind == "pick":
        pack, pick = message.get("pack"), message.get("pick")
        if not isinstance(pack, int) or not isinstance(pick, int):
            raise DomainError(
                gettext("A pick names its pack and pick number."), code="invalid_pick"
            )
        result = picks.make_pick(
            actor=user,
            pod=pod_id,
            pack=pack,
            pick_number=pick,
            positions=message.get("positions"),
            cards=message.get("cards"),
        )
        return result.pod.version
    if kind == "highlight":
        pack, pick = message.get("pack"), message.get("pick")
        if not isinstance(pack, int | None) or not isinstance(pick, int | None):
            raise DomainError(
                gettext("A highlight names its pack and pick number."), code="invalid_pick"
            )
        picks.highlight(
            actor=user,
            pod=pod_id,
            positions=message.get("positions"),
            cards=message.get("cards"),
            pack=pack,
            pick_number=pick,
        )
    elif kind == "start":
        services.start_pod(actor=user, pod=pod_id)
    elif kind == "pause":
        services.pause_pod(actor=user, pod=pod_id)
    elif kind == "resume":
        services.resume_pod(actor=user, pod=pod_id)
    elif kind == "end":
        services.end_pod(actor=user, pod=pod_id)
    elif kind == "auto":
        seat = message.get("seat")
        if not isinstance(seat, int):
            raise DomainError(gettext("Say which seat (0 is the first)."), code="invalid_seat")
        services.set_auto_pick(actor=user, pod=pod_id, position=seat, auto=bool(message.get("on")))
    else:
        raise DomainError(
            gettext("Unknown action %(action)s.") % {"action": repr(str(kind)[:30])},
            code="unknown_action",
        )
    return selectors.pod_version(pod_id)


class DraftConsumer(live.ActionConsumer):
    kind = broadcast.DRAFT
    url_kwarg = "pod_id"
    login_detail = gettext_lazy("Log in to draft.")
    session_ended_detail = gettext_lazy(
        "Your session has ended (you logged out, or your password changed): log in again to draft."
    )
    lost_detail = gettext_lazy(
        "You may no longer see this draft: your role or your session changed."
    )

    user_id: int | None = None
    manager: bool = False
    plays: bool = False

    async def greet(self) -> None:
        await self.send_snapshot()
        clock.start_in_event_loop()  # the embedded default has no beat to fire pick timers

    def reread(self) -> bool:
        pod = selectors.pod_for_viewer(self.object_id, self.user)
        if pod is None:  # nothing of the pod for them, even before the socket closes
            self.user_id, self.manager, self.plays = None, False, False
            return False
        who = selectors.viewer(pod, self.user)
        self.user_id, self.manager, self.plays = who.user_id, who.manager, who.plays
        return True

    def full_snapshot(self) -> dict[str, Any] | None:
        return selectors.full_snapshot(self.object_id)

    def view(self, full: dict[str, Any]) -> dict[str, Any]:
        return selectors.view_for(
            full, user_id=self.user_id, manager=self.manager, plays=self.plays
        )

    def act(self, user: AnyUser, message: dict[str, Any]) -> dict[str, Any]:
        return {"version": _run_action(self.object_id, user, message)}

    async def live_snapshot(self, event: dict[str, Any]) -> None:
        # An organiser's view (one who does not play) is the one that shows every seat's
        # cards: before sending it, make sure it is still theirs (one cache read), in case
        # the group message that would have told this socket was lost. Players' views
        # show only their own.
        if self.closing:
            return
        referee = self.manager and not self.plays
        if referee and await live.in_pool(self.follow)() and not self.visible:
            await self.after_follow()
            return
        await self.send_snapshot(event["snapshot"])


# --- live tables -----------------------------------------------------------------------------


def _table_action(table_id: int, user: AnyUser, message: dict[str, Any]) -> None:
    kind = message.get("type")
    if kind == "turn":
        tables.take_turn(
            actor=user,
            table=table_id,
            number=message.get("number"),
            kind=message.get("kind"),
            player=message.get("player"),
            card=message.get("card") or "",
            row=message.get("row") or "",
        )
    elif kind == "undo":
        tables.undo_turn(actor=user, table=table_id, number=message.get("number"))
    elif kind == "first":
        tables.choose_first(actor=user, table=table_id, player=message.get("player"))
    elif kind == "scores":
        tables.enter_scores(
            actor=user,
            table=table_id,
            game_round=message.get("game_round"),
            scores=message.get("scores"),
        )
    elif kind == "confirm":
        tables.confirm_result(actor=user, table=table_id)
    else:
        raise DomainError(
            gettext("Unknown action %(action)s.") % {"action": repr(str(kind)[:30])},
            code="unknown_action",
        )


class TableConsumer(live.ActionConsumer):
    """A live table's page (``/ws/tables/<table>/``), each player's phone, a shared
    tablet or a judge's screen.

    On connect (and on ``{"type": "snapshot"}``) the page gets the table's full snapshot
    for its viewer (``selectors.tables.view_for``); after every change, the new one. The
    page sends actions with an ``id`` and gets ``{"type": "ack", "id"}`` or
    ``{"type": "error", "id", "code", "detail"}`` followed by the current snapshot, so a
    phone whose tap lost a race sees at once what won:

    - ``{"type": "turn", "number": 7, "kind": "play"|"extra"|"pass", "player": 0, "card": "7H",
      "row": "spades"}`` (``number``: the turn number the phone had; ``player`` only at a
      shared phone or for a judge; ``card`` only with the score helper; ``row`` where the
      game asks, a Vanilla Gwent heart)
    - ``{"type": "undo", "number": 7}``, ``{"type": "first", "player": 1}``
    - ``{"type": "scores", "game_round": 2, "scores": [31, 27]}``, ``{"type": "confirm"}``
    """

    kind = broadcast.TABLE
    url_kwarg = "table_id"
    login_detail = gettext_lazy("Log in to play at this table.")
    session_ended_detail = gettext_lazy(
        "Your session has ended (you logged out, or your password changed): log in again "
        "to play at this table."
    )
    snapshot_after_refusal = True
    answers_ping = True
    lost_detail = gettext_lazy(
        "You may no longer see this table: your role or your session changed."
    )

    who: Any

    def reread(self) -> bool:
        table = table_selectors.table_for_viewer(self.object_id, self.user)
        if table is None:  # no powers at all, even before the socket closes
            self.who = table_selectors.Viewer(user_id=None, seat=None, judge=False)
            return False
        self.who = table_selectors.viewer(table, self.user)
        return True

    def full_snapshot(self) -> dict[str, Any] | None:
        return table_selectors.full_snapshot(self.object_id)

    def view(self, full: dict[str, Any]) -> dict[str, Any]:
        return table_selectors.view_for(full, self.who)

    def act(self, user: AnyUser, message: dict[str, Any]) -> dict[str, Any]:
        _table_action(self.object_id, user, message)
        return {}

    async def live_snapshot(self, event: dict[str, Any]) -> None:
        """A snapshot broadcast after a commit. Its words (headline, seats, log) are in the
        language of whoever acted: a socket whose reader speaks another reads the table
        again, in its own (3 queries; the same language: none)."""
        if self.closing:
            return
        full = event["snapshot"]
        same = full.get("language") == translation.get_language()
        await self.send_snapshot(full if same else None)
