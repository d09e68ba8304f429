"""The draft pod's websocket (``/ws/drafts/<pod>/``): one per page, player, organiser or
spectator alike.

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
whenever the viewer's roles or session change (``core.access``, :class:`_FollowsAccess`):
an organiser made a member stops seeing every seat's pack at once, a phone logged out
stops acting.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth.models import AnonymousUser, User

from core import access, clock
from core.auth import AnyUser
from core.errors import DomainError, NotAllowed, RuleViolation
from core.parsers import BadJSON
from core.parsers import loads as parse_json
from core.words import problem as problem_of
from gameplay import selectors
from gameplay.realtime import broadcast as live
from gameplay.selectors import tables as table_selectors
from gameplay.services import drafts as services
from gameplay.services import picks, tables
from tournaments import selectors as tournament_selectors
from tournaments.selectors.projector import tournament_visible_to


def _in_pool(func: Any) -> Any:
    """Run ORM work in the thread pool, not Channels' single thread-sensitive thread: picks
    in different pods then wait on the database side by side (each thread has its own
    connection); picks in one pod are serialised by the pod's row lock anyway."""
    return database_sync_to_async(func, thread_sensitive=False)


def _user_of(scope_user: object) -> AnyUser:
    """The connection's user: Channels' ``AuthMiddlewareStack`` puts a lazy proxy of the
    account or of ``AnonymousUser`` in the scope (``isinstance`` sees through the proxy);
    a connection without one is anonymous."""
    return scope_user if isinstance(scope_user, User | AnonymousUser) else AnonymousUser()


def _run_action(pod_id: int, user: AnyUser, message: dict[str, Any]) -> int:
    """Do one action; returns the pod's version after it."""
    kind = message.get("type")
    if kind == "pick":
        pack, pick = message.get("pack"), message.get("pick")
        if not isinstance(pack, int) or not isinstance(pick, int):
            raise DomainError("A pick names its pack and pick number.", code="invalid_pick")
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
            raise DomainError("A highlight names its pack and pick number.", code="invalid_pick")
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
            raise DomainError("Say which seat (0 is the first).", code="invalid_seat")
        services.set_auto_pick(actor=user, pod=pod_id, position=seat, auto=bool(message.get("on")))
    else:
        raise DomainError(f"Unknown action {str(kind)[:30]!r}.", code="unknown_action")
    return selectors.pod_version(pod_id)


def _act(
    pod_id: int, user: AnyUser, message: dict[str, Any]
) -> tuple[int, list[tuple[int, dict[str, Any]]]]:
    """:func:`_run_action`, with the snapshots it would broadcast handed back instead."""
    with live.deferred() as pending:
        version = _run_action(pod_id, user, message)
    return version, pending


#: One asyncio lock per pod and event loop. Actions on one pod are serialised by the pod's
#: row lock anyway; queueing them here first keeps a burst of picks in one pod from filling
#: the thread pool with threads that only wait on that row lock while other pods' picks
#: wait for a thread. The row lock still does the real work (other processes, the timers).
_pod_locks: weakref.WeakValueDictionary[tuple[asyncio.AbstractEventLoop, int], asyncio.Lock] = (
    weakref.WeakValueDictionary()
)


def _pod_lock(pod_id: int) -> asyncio.Lock:
    key = (asyncio.get_running_loop(), pod_id)
    lock = _pod_locks.get(key)
    if lock is None:
        lock = _pod_locks[key] = asyncio.Lock()
    return lock


class _FollowsAccess(AsyncJsonWebsocketConsumer):
    """A live page's socket that follows its user's roles and session (``core.access``):
    a judge removed from the club, an organiser made a member, a phone logged out (or
    whose password changed) lose their powers and what they may see on the socket they
    already hold.

    On connect (:meth:`begin`, before the permissions are read) the socket notes its
    account, session and access token, and joins the account's group. Before each action
    :meth:`follow` compares the token (one cache read, no query) and only when it moved
    reads the session and the viewer's permissions again (:meth:`reread`); the group's
    ``access.changed``, sent after every such change commits, makes it do so at once. A
    socket whose user may no longer see its page is told so in words and closed (4403).
    """

    user: AnyUser
    account_id: int | None = None
    session_key: str | None = None
    #: The access token when the permissions were last read.
    seen: str | None = None
    #: Whether the page may still be seen (set by :meth:`reread`).
    visible: bool = True
    in_access_group: bool = False
    closing: bool = False
    #: What a socket that may no longer see its page is told before it closes.
    lost_detail = "You may no longer see this page: your role or your session changed."

    def begin(self) -> None:
        """Who the socket is for (in the pool, on connect, before :meth:`reread`)."""
        self.user = _user_of(self.scope.get("user"))
        self.account_id = self.user.pk if self.user.is_authenticated else None
        session = self.scope.get("session")
        self.session_key = None if session is None else session.session_key
        if self.account_id is not None:
            self.seen = access.token(self.account_id)

    def reread(self) -> bool:
        """Read what ``self.user`` may see and do here (in the pool); False when they may
        no longer see the page. Each socket reads its own viewer."""
        return True

    def follow(self, *, told: bool = False) -> bool:
        """Read the session and permissions again if the account's access token moved
        (``told``: the account's group said it did); whether they were read (in the
        pool). The token is read first: a change committed meanwhile moves it again."""
        if self.account_id is None or not (told or access.moved(self.account_id, self.seen)):
            return False
        self.seen = access.token(self.account_id)
        self.user = access.session_user(self.session_key, self.account_id)
        self.visible = self.reread()
        return True

    async def join_access_group(self) -> None:
        if self.account_id is not None:
            await self.channel_layer.group_add(access.group(self.account_id), self.channel_name)
            self.in_access_group = True

    async def leave_access_group(self) -> None:
        if self.in_access_group and self.account_id is not None:
            await self.channel_layer.group_discard(access.group(self.account_id), self.channel_name)

    async def access_changed(self, event: dict[str, Any]) -> None:
        """The account's roles or session changed (``core.access``): read them again now."""
        await _in_pool(self.follow)(told=True)
        await self.after_follow()

    async def after_follow(self) -> None:
        """The permissions were read again: close the page if it is no longer theirs, else
        show it as they may now see it."""
        if not self.visible:
            if not self.closing:  # told once; messages already on their way find it shut
                self.closing = True
                await self.send_json(
                    {"type": "error", "code": "not_visible", "detail": self.lost_detail}
                )
                await self.close(code=4403)
        else:
            await self.refresh()

    async def refresh(self) -> None:
        """Show the page again for the viewer as they are now (pages with a view)."""


class _ActionConsumer(_FollowsAccess):
    """A live page's socket that takes actions as JSON: read with the API's reader, and a
    message that is not JSON answered with an error, never a dropped connection."""

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        # The API's JSON reader: bounded depth and number size, no NUL (core/parsers.py).
        return parse_json(text_data)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        try:
            await super().receive(text_data=text_data, bytes_data=bytes_data, **kwargs)
        except BadJSON as error:
            await self.send_json({"type": "error", "code": error.code, "detail": error.detail})

    #: Whether the last action read the permissions again (:meth:`user_as_now`).
    followed: bool = False

    def user_as_now(self, doing: str) -> AnyUser:
        """The socket's user as they are now, to act as (in the pool, before the action):
        their session and permissions read again if their access token moved. A page they
        may no longer see, or a session that ended, is refused in words."""
        self.followed = self.follow()
        if not self.visible:
            raise NotAllowed(self.lost_detail, code="not_visible")
        if not self.user.is_authenticated:
            raise NotAllowed(
                "Your session has ended (you logged out, or your password changed): "
                f"log in again to {doing}.",
                code="not_logged_in",
            )
        return self.user


class DraftConsumer(_ActionConsumer):
    pod_id: int
    user_id: int | None = None
    manager: bool = False
    plays: bool = False
    lost_detail = "You may no longer see this draft: your role or your session changed."

    async def connect(self) -> None:
        self.pod_id = int(self.scope["url_route"]["kwargs"]["pod_id"])
        if not await _in_pool(self._open)():
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(live.group_name(self.pod_id), self.channel_name)
        await self.join_access_group()
        await self.accept()
        await self.send_snapshot()
        clock.start_in_event_loop()  # the embedded default has no beat to fire pick timers

    def _open(self) -> bool:
        self.begin()
        return self.reread()

    def reread(self) -> bool:
        pod = selectors.pod_for_viewer(self.pod_id, self.user)
        if pod is None:  # nothing of the pod for them, even before the socket closes
            self.user_id, self.manager, self.plays = None, False, False
            return False
        who = selectors.viewer(pod, self.user)
        self.user_id, self.manager, self.plays = who.user_id, who.manager, who.plays
        return True

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "pod_id"):
            await self.channel_layer.group_discard(live.group_name(self.pod_id), self.channel_name)
        await self.leave_access_group()

    async def send_snapshot(self, full: dict[str, Any] | None = None) -> None:
        if full is None:
            full = await _in_pool(selectors.full_snapshot)(self.pod_id)
        if full is not None:
            await self.send_json(
                selectors.view_for(
                    full, user_id=self.user_id, manager=self.manager, plays=self.plays
                )
            )

    async def refresh(self) -> None:
        await self.send_snapshot()

    def _act_as_now(self, message: dict[str, Any]) -> tuple[int, list[tuple[int, dict[str, Any]]]]:
        """:func:`_act` for the socket's user as they are now (in the pool)."""
        return _act(self.pod_id, self.user_as_now("draft"), message)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json(
                {"type": "error", "code": "invalid", "detail": "Send a JSON object."}
            )
            return
        request_id = content.get("id")
        if content.get("type") == "snapshot":
            if await _in_pool(self.follow)() and not self.visible:
                await self.after_follow()
                return
            await self.send_snapshot()
            return
        if self.account_id is None:  # never logged in (a session that ended: user_as_now)
            await self.send_json(
                {
                    "type": "error",
                    "id": request_id,
                    "code": "not_logged_in",
                    "detail": "Log in to draft.",
                }
            )
            return
        self.followed = False
        try:
            async with _pod_lock(self.pod_id):
                version, pending = await _in_pool(self._act_as_now)(content)
        except (DomainError, RuleViolation) as error:
            problem = problem_of(error)
            assert problem is not None
            await self.send_json(
                {"type": "error", "id": request_id, "code": problem.code, "detail": problem.detail}
            )
        else:
            await self.send_json({"type": "ack", "id": request_id, "version": version})
            for pod_id, snapshot in pending:
                live.publish(self.channel_layer, live.group_name(pod_id), snapshot)
        if self.followed:  # the viewer changed: show the pod as they may see it now
            await self.after_follow()

    async def draft_snapshot(self, event: dict[str, Any]) -> None:
        # An organiser's view (one who does not play) is the one that shows every seat's
        # cards: before sending it, make sure it is still theirs (one cache read), in case
        # the group message that would have told this socket was lost. Players' views
        # show only their own.
        if self.closing:
            return
        referee = self.manager and not self.plays
        if referee and await _in_pool(self.follow)() and not self.visible:
            await self.after_follow()
            return
        await self.send_snapshot(event["snapshot"])


def _stage_visible(stage_id: int, user: AnyUser) -> bool:
    return tournament_selectors.stage_visible_to(user, stage_id)


class StageConsumer(_FollowsAccess):
    """A bracket's or round robin's page (``/ws/stages/<stage>/``): ``{"type": "hello"}`` on
    connect, then ``{"type": "changed"}`` after every change to the stage, on which the page
    fetches its drawing again (and on every reconnect: it may have missed one). A stage the
    user may not see closes the socket (4404; 4403 once their role or session no longer
    lets them). Anything the page sends is ignored but ``{"type": "ping"}``, answered
    ``{"type": "pong"}``."""

    lost_detail = "You may no longer see this stage: your role or your session changed."

    async def connect(self) -> None:
        self.stage_id = int(self.scope["url_route"]["kwargs"]["stage_id"])
        if not await _in_pool(self._open)():
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(live.stage_group(self.stage_id), self.channel_name)
        await self.join_access_group()
        await self.accept()
        await self.send_json({"type": "hello"})

    def _open(self) -> bool:
        self.begin()
        return self.reread()

    def reread(self) -> bool:
        return _stage_visible(self.stage_id, self.user)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "stage_id"):
            await self.channel_layer.group_discard(
                live.stage_group(self.stage_id), self.channel_name
            )
        await self.leave_access_group()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if text_data and '"ping"' in text_data[:40]:
            await self.send_json({"type": "pong"})

    async def stage_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})


class ProjectorConsumer(_FollowsAccess):
    """A tournament's projector screen (``/ws/tournaments/<tournament>/projector/``), as the
    stage pages' socket: ``{"type": "hello"}`` on connect, then ``{"type": "changed"}``
    after every change it shows (an entry of the tournament's event feed, the
    announcement), on which the page fetches its content again (and on every hello: after
    a reconnect it may have missed one). A tournament the user may not see closes the
    socket (4404; 4403 once their role or session no longer lets them). Anything the page
    sends is ignored but ``{"type": "ping"}``, answered ``{"type": "pong"}``."""

    lost_detail = "You may no longer see this tournament: your role or your session changed."

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await _in_pool(self._open)():
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(
            live.tournament_group(self.tournament_id), self.channel_name
        )
        await self.join_access_group()
        await self.accept()
        await self.send_json({"type": "hello"})

    def _open(self) -> bool:
        self.begin()
        return self.reread()

    def reread(self) -> bool:
        return tournament_visible_to(self.user, self.tournament_id)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "tournament_id"):
            await self.channel_layer.group_discard(
                live.tournament_group(self.tournament_id), self.channel_name
            )
        await self.leave_access_group()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if text_data and '"ping"' in text_data[:40]:
            await self.send_json({"type": "pong"})

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})


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
        raise DomainError(f"Unknown action {str(kind)[:30]!r}.", code="unknown_action")


def _table_act(
    table_id: int, user: AnyUser, message: dict[str, Any]
) -> list[tuple[int, dict[str, Any]]]:
    with live.deferred() as pending:
        _table_action(table_id, user, message)
    return pending


class TableConsumer(_ActionConsumer):
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

    table_id: int
    who: Any
    lost_detail = "You may no longer see this table: your role or your session changed."

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if not await _in_pool(self._open)():
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(live.table_group(self.table_id), self.channel_name)
        await self.join_access_group()
        await self.accept()
        await self.send_snapshot()

    def _open(self) -> bool:
        self.begin()
        return self.reread()

    def reread(self) -> bool:
        table = table_selectors.table_for_viewer(self.table_id, self.user)
        if table is None:  # no powers at all, even before the socket closes
            self.who = table_selectors.Viewer(user_id=None, seat=None, judge=False)
            return False
        self.who = table_selectors.viewer(table, self.user)
        return True

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "who"):
            await self.channel_layer.group_discard(
                live.table_group(self.table_id), self.channel_name
            )
        await self.leave_access_group()

    async def send_snapshot(self, full: dict[str, Any] | None = None) -> None:
        if full is None:
            full = await _in_pool(table_selectors.full_snapshot)(self.table_id)
        if full is not None:
            await self.send_json(table_selectors.view_for(full, self.who))

    async def refresh(self) -> None:
        await self.send_snapshot()

    def _act_as_now(self, message: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
        """:func:`_table_act` for the socket's user as they are now (in the pool)."""
        return _table_act(self.table_id, self.user_as_now("play at this table"), message)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json(
                {"type": "error", "code": "invalid", "detail": "Send a JSON object."}
            )
            return
        request_id = content.get("id")
        if content.get("type") == "snapshot":
            if await _in_pool(self.follow)() and not self.visible:
                await self.after_follow()
                return
            await self.send_snapshot()
            return
        if content.get("type") == "ping":
            await self.send_json({"type": "pong"})
            return
        if self.account_id is None:  # never logged in (a session that ended: user_as_now)
            await self.send_json(
                {
                    "type": "error",
                    "id": request_id,
                    "code": "not_logged_in",
                    "detail": "Log in to play at this table.",
                }
            )
            return
        self.followed = False
        try:
            async with _pod_lock(-self.table_id):
                pending = await _in_pool(self._act_as_now)(content)
        except (DomainError, RuleViolation) as error:
            problem = problem_of(error)
            assert problem is not None
            await self.send_json(
                {"type": "error", "id": request_id, "code": problem.code, "detail": problem.detail}
            )
            if self.followed and not self.visible:
                await self.after_follow()  # told why, then closed
            else:
                await self.send_snapshot()  # what happened instead (or what they may do now)
            return
        await self.send_json({"type": "ack", "id": request_id})
        for table_id, snapshot in pending:
            live.publish(self.channel_layer, live.table_group(table_id), snapshot, "table.snapshot")
        if self.followed:
            await self.after_follow()

    async def table_snapshot(self, event: dict[str, Any]) -> None:
        if not self.closing:
            await self.send_snapshot(event["snapshot"])
