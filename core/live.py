"""The one live mechanism: what every live page's websocket is built on (docs/architecture.md,
"Live pages"; ``static/js/live.js`` is its twin in the browser).

- **Groups** (:func:`group`): one channel group per live object, named by its kind and id
  (``draft_7``, ``table_3``, ``stage_2``, ``tournament_5``), plus one per account for
  ``core.access``.
- **Sending** (:func:`after_commit`, :func:`send`, :func:`broadcast_snapshot`,
  :func:`tell`): a change reaches the pages only once it is committed, so a page never
  shows what a rollback undoes; a failure to reach the channel layer is logged, never
  raised (the pages poll while they hear nothing). With a worker, a tell leaves with the
  commit's other after-commit work as one message and the worker sends it
  (``core.queue``: one message a commit).
- **Snapshot versions** (:func:`publish`): a snapshot is complete and carries its
  ``version``; from the event loop only the newest waiting one per group goes out, and a
  page ignores one older than what it shows.
- **Deferred** (:func:`deferred`): a consumer acting for its own client collects the
  snapshots its action would broadcast, acknowledges the client, then publishes them.
- **Per-object locks** (:func:`object_lock`): one asyncio lock per live object, keyed by
  ``(kind, id)``, so a burst of actions on one object queues here rather than filling the
  thread pool with threads waiting on its row lock; each kind has keys of its own.
- **Consumers**: :class:`LiveConsumer` (connect, who the viewer is and the access-token
  check of ``core.access``, groups, a full versioned snapshot on connect and on resync,
  updates after commit, closing with 4403 when the viewer may no longer see it),
  :class:`ActionConsumer` (pages that act over the socket: ack or error, never a dropped
  connection) and :class:`NoticeConsumer` (pages that fetch their content as HTML and only
  learn that it is stale: ``hello``, then ``changed``).

``core`` depends on no app: each app's consumers live in its own ``realtime`` module, and
its signals are wired to them in its own ``AppConfig.ready``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, NamedTuple

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from core import access, queue
from core.auth import AnyUser
from core.errors import DomainError, NotAllowed, RuleViolation
from core.languages import language_from
from core.parsers import BadJSON
from core.parsers import loads as parse_json
from core.words import problem as problem_of

logger = logging.getLogger(__name__)

#: The channel-layer message types of the live pages (handlers ``live_snapshot`` and
#: ``live_changed`` of the consumers below).
SNAPSHOT = "live.snapshot"
CHANGED = "live.changed"


def group(kind: str, object_id: int) -> str:
    """The channel group of every page open on one live object."""
    return f"{kind}_{object_id}"


# --- sending ---------------------------------------------------------------------------------


def after_commit(func: Callable[[], None]) -> None:
    """Run ``func`` once the current transaction commits (at once outside one); ``robust``:
    a failure there never fails the writer's other callbacks."""
    if connection.in_atomic_block:
        transaction.on_commit(func, robust=True)
    else:
        func()


async def _group_send(layer: Any, name: str, message: dict[str, Any]) -> None:
    try:
        await layer.group_send(name, message)
    except Exception:  # Redis down: pages fall back to polling
        logger.warning(
            "could not broadcast to %s: could not tell its live pages (they poll)",
            name,
            exc_info=True,
        )


def send(name: str, message: dict[str, Any]) -> None:
    """Send ``message`` to a group now, from a thread (a service's commit hook). A failure
    (no layer, Redis down, no way to the loop from here) is logged, never raised."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(_group_send)(layer, name, message)
    except Exception:
        logger.warning(
            "could not broadcast to %s: could not tell its live pages (they poll)",
            name,
            exc_info=True,
        )


class Pending(NamedTuple):
    """A snapshot an action would have broadcast, collected by :func:`deferred`."""

    group: str
    snapshot: dict[str, Any]


_deferred = threading.local()


@contextlib.contextmanager
def deferred() -> Iterator[list[Pending]]:
    """Collect this thread's snapshot broadcasts instead of sending them.

    A consumer runs an action in a worker thread inside this, acknowledges the action to
    its client, and only then publishes the collected snapshots from the event loop
    (:func:`publish`): the acknowledgement does not wait on the channel layer, and the
    worker thread is not held while Redis answers.
    """
    outer = getattr(_deferred, "pending", None)
    pending: list[Pending] = []
    _deferred.pending = pending
    try:
        yield pending
    finally:
        _deferred.pending = outer


def broadcast_snapshot(name: str, snapshot: dict[str, Any]) -> None:
    """Send an object's full, versioned snapshot to its group once committed (each page cuts
    out its viewer's view), or, inside :func:`deferred`, hand it to the acting consumer.
    Every snapshot carries its ``version``: pages and :func:`publish` keep the newest."""
    if not isinstance(snapshot.get("version"), int):
        raise ValueError(f"a live snapshot carries its version: {name} sent {sorted(snapshot)}")
    pending: list[Pending] | None = getattr(_deferred, "pending", None)
    if pending is not None:
        pending.append(Pending(name, snapshot))
        return
    after_commit(lambda: send(name, {"type": SNAPSHOT, "snapshot": snapshot}))


def send_all(names: list[str], message: dict[str, Any]) -> None:
    """Send ``message`` to several groups now, from a thread, in one trip to the event loop
    (``core.queue``'s after-commit run). Failures are logged, never raised."""
    layer = get_channel_layer()
    if layer is None or not names:
        return

    async def each() -> None:
        await asyncio.gather(*(_group_send(layer, name, message) for name in names))

    try:
        async_to_sync(each)()
    except Exception:
        logger.warning("could not tell %s: their live pages poll", names, exc_info=True)


def tell(name: str) -> None:
    """Tell a group's pages, once committed, that what they show is stale; each fetches it
    again. Nothing of the object travels: a lost message costs only the wait for the next
    fetch (on reconnect, or the page's poll while it hears nothing). With a worker, the
    tell goes with the rest of the commit's after-commit work, as one message, and the
    worker tells the group once for every commit that asked meanwhile (``core.queue``)."""
    if queue.gathering():
        queue.gather(queue.tell_item(name))
        return
    after_commit(lambda: send(name, {"type": CHANGED}))


class _Outbox:
    """One event loop's snapshots waiting to go out, newest per group."""

    def __init__(self) -> None:
        self.latest: dict[str, dict[str, Any]] = {}
        self.senders: dict[str, asyncio.Task[None]] = {}
        # redis-py's asyncio pool refuses (rather than waits) past 100 connections; a burst
        # of picks in 32 pods must queue here instead.
        self.slots = asyncio.Semaphore(16)


_outboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Outbox] = (
    weakref.WeakKeyDictionary()
)


def publish(layer: Any, name: str, snapshot: dict[str, Any]) -> None:
    """Send ``snapshot`` to a group from the running event loop, without waiting.

    Snapshots are complete, so only the newest matters: while one is on its way to Redis,
    a newer one (by ``version``) replaces any still waiting for the same group. A burst of
    eight picks in a pod then fans out as a few snapshots, not eight times eight.
    """
    loop = asyncio.get_running_loop()
    outbox = _outboxes.get(loop)
    if outbox is None:
        outbox = _outboxes[loop] = _Outbox()
    waiting = outbox.latest.get(name)
    if waiting is None or waiting["version"] <= snapshot["version"]:
        outbox.latest[name] = snapshot
    if name not in outbox.senders:
        outbox.senders[name] = loop.create_task(_send(layer, outbox, name))


async def _send(layer: Any, outbox: _Outbox, name: str) -> None:
    try:
        while (snapshot := outbox.latest.pop(name, None)) is not None:
            async with outbox.slots:
                await _group_send(layer, name, {"type": SNAPSHOT, "snapshot": snapshot})
    finally:
        outbox.senders.pop(name, None)


# --- per-object locks ------------------------------------------------------------------------

#: One asyncio lock per live object and event loop, keyed by ``(loop, kind, id)``: a draft
#: pod and a table of the same id never share one. The row lock still does the real work
#: (other processes, the timers); this one only queues a burst of actions on one object
#: before they take a database thread.
_locks: weakref.WeakValueDictionary[tuple[asyncio.AbstractEventLoop, str, int], asyncio.Lock] = (
    weakref.WeakValueDictionary()
)


def object_lock(kind: str, object_id: int) -> asyncio.Lock:
    key = (asyncio.get_running_loop(), kind, object_id)
    lock = _locks.get(key)
    if lock is None:
        lock = _locks[key] = asyncio.Lock()
    return lock


# --- consumers -------------------------------------------------------------------------------


def in_pool(func: Any) -> Any:
    """Run ORM work in the thread pool, not Channels' single thread-sensitive thread: actions
    on different objects then wait on the database side by side (each thread has its own
    connection); actions on one object are serialised by its row lock anyway."""
    return database_sync_to_async(func, thread_sensitive=False)


def language_of(scope: Any) -> str:
    """The reader's language for a socket, from the same sources as a page's
    (``core.languages``: the session's choice, the switcher's cookie, ``Accept-Language``,
    else English): no middleware of Django's sees a websocket. Reads the session (in the
    pool) only when the browser sent its cookie."""
    headers: dict[bytes, bytes] = {}
    for name, value in scope.get("headers") or ():
        headers[bytes(name).lower()] = bytes(value)
    cookies = scope.get("cookies")
    if cookies is None:  # routed without Channels' cookie middleware
        cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    session = scope.get("session") if settings.SESSION_COOKIE_NAME in cookies else None
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    return language_from(session, cookies, accept)


def user_of(scope_user: object) -> AnyUser:
    """The connection's user: Channels' ``AuthMiddlewareStack`` puts a lazy proxy of the
    account or of ``AnonymousUser`` in the scope (``isinstance`` sees through the proxy);
    a connection without one is anonymous."""
    return scope_user if isinstance(scope_user, User | AnonymousUser) else AnonymousUser()


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """A live page's socket, on one object (``kind`` and the URL's ``url_kwarg``).

    On connect (in the pool) it notes its account, session and access token
    (:meth:`begin`), then reads what its viewer may see (:meth:`reread`: False closes the
    socket with 4404), joins the object's group and the account's (``core.access``),
    accepts and greets the page (:meth:`greet`: the viewer's view of the full, versioned
    snapshot). A ``live.snapshot`` sent to the group after a commit goes out as the
    viewer's view of it.

    It follows its user's roles and session: before each action :meth:`follow` compares the
    access token (one cache read, no query) and only when it moved reads the session and
    the viewer again; the account group's ``access.changed``, sent after every such change
    commits, makes it do so at once. A socket whose user may no longer see its page is told
    so in words and closed (4403).

    Its words are in its reader's language (:func:`language_of`, chosen on connect and
    kept in :attr:`language`): every message it handles is handled in that language
    (:meth:`dispatch`), refusals and the words it sends included.
    """

    #: The kind of object (the group's prefix, the lock's key) and the URL's keyword.
    kind: ClassVar[str]
    url_kwarg: ClassVar[str]
    #: What a socket that may no longer see its page is told before it closes.
    lost_detail: ClassVar[str | Promise] = gettext_lazy(
        "You may no longer see this page: your role or your session changed."
    )
    #: The reader's language (None until connected: the site's default).
    language: str | None = None

    object_id: int
    user: AnyUser
    account_id: int | None = None
    session_key: str | None = None
    #: The access token when the permissions were last read.
    seen: str | None = None
    #: Whether the page may still be seen (set by :meth:`reread`).
    visible: bool = True
    joined: bool = False
    in_access_group: bool = False
    closing: bool = False

    @property
    def group(self) -> str:
        return group(self.kind, self.object_id)

    # -- connecting

    async def dispatch(self, message: Any) -> None:
        """Every message (the socket's frames, the group's broadcasts) handled in the
        reader's language, on this socket's task alone."""
        with translation.override(self.language or settings.LANGUAGE_CODE):
            await super().dispatch(message)

    async def connect(self) -> None:
        self.object_id = int(self.scope["url_route"]["kwargs"][self.url_kwarg])
        if not await in_pool(self._open)():
            await self.close(code=4404)
            return
        translation.activate(self.language or settings.LANGUAGE_CODE)  # until dispatch ends
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined = True
        if self.account_id is not None:
            await self.channel_layer.group_add(access.group(self.account_id), self.channel_name)
            self.in_access_group = True
        await self.accept()
        await self.greet()

    def _open(self) -> bool:
        self.begin()
        return self.reread()

    def begin(self) -> None:
        """Who the socket is for (in the pool, on connect, before :meth:`reread`)."""
        self.user = user_of(self.scope.get("user"))
        self.account_id = self.user.pk if self.user.is_authenticated else None
        self.language = language_of(self.scope)
        session = self.scope.get("session")
        self.session_key = None if session is None else session.session_key
        if self.account_id is not None:
            self.seen = access.token(self.account_id)

    def reread(self) -> bool:
        """Read what ``self.user`` may see and do here (in the pool); False when they may
        no longer see the page. Each socket reads its own viewer."""
        return True

    async def greet(self) -> None:
        """What the page gets on connect: its viewer's view of the full snapshot."""
        await self.send_snapshot()

    async def disconnect(self, code: int) -> None:
        if self.joined:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.in_access_group and self.account_id is not None:
            await self.channel_layer.group_discard(access.group(self.account_id), self.channel_name)

    # -- snapshots

    def full_snapshot(self) -> dict[str, Any] | None:
        """The object's full, versioned snapshot, read now (in the pool); None if gone."""
        raise NotImplementedError

    def view(self, full: dict[str, Any]) -> dict[str, Any]:
        """What the viewer sees of a full snapshot (no query: it runs for every broadcast)."""
        return full

    async def send_snapshot(self, full: dict[str, Any] | None = None) -> None:
        if full is None:
            full = await in_pool(self.full_snapshot)()
        if full is not None:
            await self.send_json(self.view(full))

    async def resync(self) -> None:
        """The page asked for the current state (``{"type": "snapshot"}``): its permissions
        read again if their token moved, then the snapshot (or the page closed)."""
        if await in_pool(self.follow)() and not self.visible:
            await self.after_follow()
            return
        await self.send_snapshot()

    async def live_snapshot(self, event: dict[str, Any]) -> None:
        """A snapshot broadcast to the group after a commit."""
        if not self.closing:
            await self.send_snapshot(event["snapshot"])

    # -- following roles and sessions

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

    async def access_changed(self, event: dict[str, Any]) -> None:
        """The account's roles or session changed (``core.access``): read them again now."""
        await in_pool(self.follow)(told=True)
        await self.after_follow()

    async def after_follow(self) -> None:
        """The permissions were read again: close the page if it is no longer theirs, else
        show it as they may now see it."""
        if not self.visible:
            if not self.closing:  # told once; messages already on their way find it shut
                self.closing = True
                await self.send_json(
                    {"type": "error", "code": "not_visible", "detail": str(self.lost_detail)}
                )
                await self.close(code=4403)
        else:
            await self.refresh()

    async def refresh(self) -> None:
        """Show the page again for the viewer as they are now."""
        await self.send_snapshot()


class ActionConsumer(LiveConsumer):
    """A live page whose socket takes actions as JSON objects with an ``id``: each answered
    ``{"type": "ack", "id", ...}`` or ``{"type": "error", "id", "code", "detail"}``, never
    a dropped connection (a message that is not JSON included). ``{"type": "snapshot"}``
    asks for the current state (:meth:`resync`), ``{"type": "ping"}`` is answered
    ``{"type": "pong"}`` when :attr:`answers_ping`.

    An action runs in the pool under the object's lock (:func:`object_lock`), as the
    socket's user is now (:meth:`user_as_now`), inside :func:`deferred`: the client is
    acknowledged first, then the snapshots the action made are published."""

    #: What a visitor who never logged in is told when they act ("Log in to draft.").
    login_detail: ClassVar[str | Promise] = gettext_lazy("Log in to do this.")
    #: What a user whose session ended is told when they act.
    session_ended_detail: ClassVar[str | Promise] = gettext_lazy(
        "Your session has ended (you logged out, or your password changed): log in again "
        "to do this."
    )
    #: Whether a refused action is followed by the current snapshot (what won instead).
    snapshot_after_refusal: ClassVar[bool] = False
    answers_ping: ClassVar[bool] = False

    #: Whether the last action read the permissions again (:meth:`user_as_now`).
    followed: bool = False

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        # The API's JSON reader: bounded depth and number size, no NUL (core/parsers.py).
        return parse_json(text_data)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        # Django's encoder: a label marked for translation (a lazy string) is sent as the
        # words of the active language, as a page would show it.
        return json.dumps(content, cls=DjangoJSONEncoder)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        try:
            await super().receive(text_data=text_data, bytes_data=bytes_data, **kwargs)
        except BadJSON as error:
            await self.send_json({"type": "error", "code": error.code, "detail": str(error.detail)})

    def act(self, user: AnyUser, message: dict[str, Any]) -> dict[str, Any]:
        """Do one action for ``user`` (in the pool); what the acknowledgement adds."""
        raise NotImplementedError

    def user_as_now(self) -> AnyUser:
        """The socket's user as they are now, to act as (in the pool, before the action):
        their session and permissions read again if their access token moved. A page they
        may no longer see, or a session that ended, is refused in words."""
        self.followed = self.follow()
        if not self.visible:
            raise NotAllowed(str(self.lost_detail), code="not_visible")
        if not self.user.is_authenticated:
            raise NotAllowed(str(self.session_ended_detail), code="not_logged_in")
        return self.user

    def _act_as_now(self, message: dict[str, Any]) -> tuple[dict[str, Any], list[Pending]]:
        with deferred() as pending:
            ack = self.act(self.user_as_now(), message)
        return ack, pending

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json(
                {"type": "error", "code": "invalid", "detail": gettext("Send a JSON object.")}
            )
            return
        request_id = content.get("id")
        if content.get("type") == "snapshot":
            await self.resync()
            return
        if self.answers_ping and content.get("type") == "ping":
            await self.send_json({"type": "pong"})
            return
        if self.account_id is None:  # never logged in (a session that ended: user_as_now)
            await self.send_json(
                {
                    "type": "error",
                    "id": request_id,
                    "code": "not_logged_in",
                    "detail": str(self.login_detail),
                }
            )
            return
        self.followed = False
        try:
            async with object_lock(self.kind, self.object_id):
                ack, pending = await in_pool(self._act_as_now)(content)
        except (DomainError, RuleViolation) as error:
            problem = problem_of(error)
            assert problem is not None
            await self.send_json(
                {"type": "error", "id": request_id, "code": problem.code, "detail": problem.detail}
            )
            if self.followed:
                await self.after_follow()  # told why, then closed or shown as they now may
            elif self.snapshot_after_refusal:
                await self.send_snapshot()  # what happened instead
            return
        await self.send_json({"type": "ack", "id": request_id, **ack})
        for name, snapshot in pending:
            publish(self.channel_layer, name, snapshot)
        if self.followed:  # the viewer changed: show the object as they may see it now
            await self.after_follow()


class NoticeConsumer(LiveConsumer):
    """A live page that fetches its content as HTML (htmx) and learns only that it is stale:
    ``{"type": "hello"}`` on connect (the page fetches its content: a fetch is its full
    snapshot, and after a reconnect it may have missed a change), then ``{"type":
    "changed"}`` after every change (:func:`tell`). Anything the page sends is ignored but
    ``{"type": "ping"}``, answered ``{"type": "pong"}``."""

    async def greet(self) -> None:
        await self.send_json({"type": "hello"})

    async def refresh(self) -> None:
        """Nothing to resend: the page fetches its content with the viewer's permissions."""

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if text_data and '"ping"' in text_data[:40]:
            await self.send_json({"type": "pong"})

    async def live_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})
