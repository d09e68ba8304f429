"""Pages a proxy can cache: conditional GETs, and the server's copy of a public page.

A page wrapped with :func:`cached_page` is read through its **version**: a
:class:`PageVersion` that the app computes cheaply (one indexed query, no rendering) and
that changes whenever anything the page shows changes. The wrapper knows no app: it is
given a function from the request and the URL's arguments to the version (``None``: the
object is not there or not visible, and the view answers as it would).

- **The reader.** An anonymous reader (no session user, no ``Authorization`` header, no
  message waiting to be shown) gets the **shared** page: the same bytes for everyone, so
  a shared cache (the proxy in front) may keep it, and the server keeps it too. Anyone
  else gets a **private** page: ETag and 304 as well, but the ETag mixes in who reads
  (the user, the CSRF cookie its forms carry, the token), and nobody but the reader's
  browser may keep it. A reader with a message waiting gets the page rendered as it is,
  uncached: the message is theirs and shows once.
- **ETag** is made of the version, the address (scheme, host, path, query), the
  language, whether htmx asked (``HX-Request``), the headers the caller names, and the
  reader: a conditional request whose ETag still matches is answered 304 after the
  version's query, with nothing rendered. **Last-Modified** is the version's time.
- **A settling window.** The version's ``tag`` is typically the newest id of a feed plus
  a row's ``updated_at``. Ids are handed out when rows are written, not when they
  commit: a writer that took id 10 may commit after a writer that took id 11, and a
  reader in between sees 11 without 10's change. While the newest change is younger than
  :data:`SETTLE_SECONDS` (longer than any writing transaction), the tag also carries the
  current :data:`BUCKET_SECONDS` slice of time, so a page rendered in that gap is
  rendered again within seconds; Last-Modified is sent only once the version has
  settled (a date has one-second steps; two changes in one second would look the same).
- **The server's copy** of a shared page is kept in the cache (``django.core.cache``:
  Redis on the full stack, memory in one process on the embedded default) under the
  ETag, so the thousandth anonymous request of a round costs the version's query and a
  cache read. When a version changes, one request renders it (a short lock in the
  cache) while the others get the page of the previous version with its own ETag and
  ``no-cache``; with no previous page they render too.
- **Cache-Control.** A shared page: ``public, max-age=0, s-maxage=N,
  stale-while-revalidate=N``: a browser asks again each time (a 304 costs one query),
  the proxy answers alone for ``N`` seconds (:data:`settings.PAGE_CACHE_SHARED_SECONDS`),
  so a page can be ``N`` seconds late for a full page load. A request from htmx (the
  live pages' refresh after a "changed" message, the bracket's redraw) is ``public,
  no-cache``: a shared cache must ask us each time, so a refresh never gets the page from
  before the change it was told about. A private page: ``private, no-cache``.
  ``Vary``: ``Cookie`` (a signed-in reader sees another page), ``HX-Request``, the
  caller's headers, and ``Accept-Language`` (a visitor's language may come from it:
  ``core.languages``; the language, or that the page chose it, is in the ETag and the
  key anyway).
- **A private page's shared piece.** The tag a page is served under (with how long a
  copy of it may be kept) is left on the request for the view: ``core.page_pieces`` keeps
  the part of a signed-in reader's page every reader shares (a big table's page of rows)
  under it, the rest rendered for the reader.
- **CSRF.** A shared page carries no CSRF token (:func:`shared_page_csrf`, a context
  processor): a token is tied to one browser's cookie and must not be served to others;
  an anonymous reader has no form to post on these pages.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from core.languages import language_key

logger = logging.getLogger(__name__)

#: The middlewares that may choose the language from ``Accept-Language``.
_LANGUAGE_MIDDLEWARES = {
    "core.languages.LanguageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
}

#: A change younger than this may still have writers in flight with a lower id (above).
SETTLE_SECONDS = 10
#: While unsettled, a page is rendered again at most this often.
BUCKET_SECONDS = 2
#: How long the server keeps a settled page; an unsettled one lives one bucket longer.
SERVER_SECONDS = 600
#: How long one request may hold the right to render a new version before others try.
RENDER_LOCK_SECONDS = 30
#: The request attribute that marks a shared render (read by :func:`shared_page_csrf`).
SHARED_FLAG = "shared_page"
#: The request attribute holding the page's version tag and how long a copy of it may be
#: kept (read by ``core.page_pieces``).
VERSION_FLAG = "page_version_tag"


@dataclass(frozen=True)
class PageVersion:
    """What a page's content depends on: ``tag`` changes with every change of it,
    ``changed_at`` is when the newest change was made."""

    tag: str
    changed_at: datetime


VersionOf = Callable[..., PageVersion | None]
View = Callable[..., HttpResponseBase]


def shared_page_csrf(request: HttpRequest) -> dict[str, Any]:
    """A context processor: no CSRF token on a shared page (it would be one browser's
    token served to everyone); nothing otherwise, so Django's own processor answers."""
    return {"csrf_token": ""} if getattr(request, SHARED_FLAG, False) else {}


def cached_page(
    version_of: VersionOf, *, vary: tuple[str, ...] = (), clock_seconds: int | None = None
) -> Callable[[View], View]:
    """Wrap a GET view: ETag, Last-Modified, 304, Cache-Control and Vary as above, and
    the server's copy of the shared page. ``version_of(request, **kwargs)`` gets the
    URL's arguments; ``vary`` names request headers the page also depends on;
    ``clock_seconds``: the page also shows the time (a countdown and the server's time it
    counts from), so a copy serves for at most that long and has no Last-Modified."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method not in ("GET", "HEAD"):
                return view(request, *args, **kwargs)
            version = version_of(request, *args, **kwargs)
            if version is None:
                return view(request, *args, **kwargs)
            if _message_waiting(request):  # shown once, to this reader only
                response = view(request, *args, **kwargs)
                response["Cache-Control"] = "private, no-store"
                return response
            return _serve(
                request, version, vary, clock_seconds, lambda: view(request, *args, **kwargs)
            )

        return wrapped

    return decorate


def _message_waiting(request: HttpRequest) -> bool:
    # ``len`` loads the stored messages without marking them shown.
    return hasattr(request, "_messages") and len(get_messages(request)) > 0


def _reader(request: HttpRequest) -> str | None:
    """``None`` for the anonymous (shared) reader, else who reads: the session's user
    and the token (before the view runs: an API view sets ``request.user`` to the token's
    user as it runs)."""
    user = getattr(request, "user", None)
    signed_in = user is not None and user.is_authenticated
    token = request.META.get("HTTP_AUTHORIZATION", "")
    if not signed_in and not token:
        return None
    return f"{user.pk if signed_in and user is not None else '-'}|{token}"


def _private(reader: str, request: HttpRequest) -> str:
    """The reader with the CSRF secret the page's forms are made from: the cookie's, or
    the one made while rendering (``CsrfViewMiddleware`` keeps it in ``META``), which the
    reader's next request sends back."""
    secret = str(request.META.get("CSRF_COOKIE", ""))
    return hashlib.sha256(f"{reader}|{secret}".encode()).hexdigest()


def _digest(page: str, tag: str, reader: str | None, request: HttpRequest) -> str:
    who = "shared" if reader is None else _private(reader, request)
    return hashlib.sha256(f"{page}|{tag}|{who}".encode()).hexdigest()[:32]


def _serve(
    request: HttpRequest,
    version: PageVersion,
    vary: tuple[str, ...],
    clock_seconds: int | None,
    render: Callable[[], Any],
) -> HttpResponseBase:
    now = timezone.now()
    settled = now - version.changed_at >= timedelta(seconds=SETTLE_SECONDS)
    tag = version.tag if settled else f"{version.tag}~{int(now.timestamp()) // BUCKET_SECONDS}"
    if clock_seconds:
        tag = f"{tag}@{int(now.timestamp()) // clock_seconds}"
    reader = _reader(request)
    # The pieces a private page shares with other readers are kept under the same tag.
    lasts = SERVER_SECONDS if settled else BUCKET_SECONDS + 1
    if clock_seconds:
        lasts = min(lasts, clock_seconds + 1)
    setattr(request, VERSION_FLAG, (tag, lasts))
    htmx = request.headers.get("HX-Request") == "true"
    page = "|".join(
        (
            request.scheme or "",
            request.get_host(),
            request.path,
            request.META.get("QUERY_STRING", ""),
            language_key(request),
            "htmx" if htmx else "",
            *(request.headers.get(name, "") for name in vary),
        )
    )
    digest = _digest(page, tag, reader, request)
    etag = f'W/"{digest}"'
    modified = version.changed_at if settled and not clock_seconds else None
    headers = _headers(etag, modified, reader is None, htmx, vary, clock_seconds)

    template = HttpResponse()
    _apply(template, headers)
    answer = get_conditional_response(
        request, etag=etag, last_modified=_seconds(modified), response=template
    )
    if answer is not None and answer is not template:  # 304 (or 412): nothing rendered
        return answer

    if reader is not None:
        response = _rendered(render())
        if response.status_code == 200:
            # The page may have made the reader's CSRF cookie: their next request sends it.
            after = f'W/"{_digest(page, tag, reader, request)}"'
            _apply(response, {**headers, "ETag": after})
        return response

    key = "page:" + digest
    latest_key = "page-latest:" + hashlib.sha256(page.encode()).hexdigest()[:32]

    def make() -> HttpResponseBase:
        setattr(request, SHARED_FLAG, True)
        return _rendered(render())

    def keep(response: HttpResponseBase) -> tuple[dict[str, Any] | None, int]:
        if response.status_code != 200 or response.cookies or response.streaming:
            return None, 0
        _apply(response, headers)
        lasts = SERVER_SECONDS if settled else BUCKET_SECONDS + 1
        if clock_seconds:
            lasts = min(lasts, clock_seconds + 1)
        stored = {
            "status": response.status_code,
            "content_type": response["Content-Type"],
            "body": response.content,  # type: ignore[attr-defined]
            "headers": headers,
            # The page's language: the reader's, or the one its club chose for readers
            # who named none (core.languages), which only the view knew.
            "language": get_language(),
        }
        return stored, lasts

    how, value = kept_or_rendered(key, latest_key, make, keep)
    if how == RENDERED:
        return value
    response = _from_stored(value)
    if how == KEPT:
        _apply(response, headers)
    else:  # the previous version's page, as it was, while another request renders
        _apply(response, {**value["headers"], "Cache-Control": "public, no-cache"})
    return response


#: What :func:`kept_or_rendered` answered with.
KEPT, PREVIOUS, RENDERED = "kept", "previous", "rendered"


def kept_or_rendered(
    key: str,
    latest_key: str,
    render: Callable[[], Any],
    keep: Callable[[Any], tuple[Any, int]],
) -> tuple[str, Any]:
    """One render per version, shared by the pages and their pieces (``core.page_pieces``):
    what is kept under ``key`` (``KEPT``); else, while another request holds the right to
    render it (a short lock in the cache), what was kept last for the same address under
    ``latest_key`` (``PREVIOUS``); else ``render()``'s value (``RENDERED``), which
    ``keep(value)`` turns into what to keep and for how many seconds (``None``: nothing).
    The cache unreachable: every request renders (``_safely``), as without a cache."""
    stored = _safely(cache.get, key)
    if stored is not None:
        return KEPT, stored
    lock = key + ":render"
    locked = _safely(cache.add, lock, 1, timeout=RENDER_LOCK_SECONDS, failed=True)
    if not locked:
        previous = _safely(cache.get, latest_key)
        if previous is not None:
            return PREVIOUS, previous
    try:
        made = render()
        stored, lasts = keep(made)
        if stored is not None:
            _safely(cache.set, key, stored, timeout=lasts)
            _safely(cache.set, latest_key, stored, timeout=SERVER_SECONDS)
    finally:
        if locked:
            _safely(cache.delete, lock)
    return RENDERED, made


def _safely(call: Callable[..., Any], *args: Any, failed: Any = None, **kwargs: Any) -> Any:
    """A cache call that fails open: the page is rendered as if nothing were cached (as
    ``core.throttle`` does, the cache being Redis on the full stack)."""
    try:
        return call(*args, **kwargs)
    except Exception:  # the cache's own errors: redis-py's, a refused connection
        logger.warning("page cache unavailable", exc_info=True)
        return failed


def _rendered(response: HttpResponseBase) -> HttpResponseBase:
    """A DRF or template response, rendered now (its bytes are what is stored)."""
    render = getattr(response, "render", None)
    if callable(render) and not getattr(response, "is_rendered", True):
        render()
    return response


def _from_stored(stored: dict[str, Any]) -> HttpResponse:
    response = HttpResponse(
        stored["body"], content_type=stored["content_type"], status=stored["status"]
    )
    if stored.get("language"):
        response["Content-Language"] = stored["language"]
    return response


def _seconds(moment: datetime | None) -> int | None:
    """Whole seconds, as Last-Modified and If-Modified-Since count them."""
    return None if moment is None else int(moment.timestamp())


def _headers(
    etag: str,
    modified: datetime | None,
    shared: bool,
    htmx: bool,
    vary: tuple[str, ...],
    clock_seconds: int | None,
) -> dict[str, str]:
    if not shared:
        control = "private, no-cache"
    elif htmx:
        control = "public, no-cache"
    else:
        seconds = settings.PAGE_CACHE_SHARED_SECONDS
        if clock_seconds:
            seconds = min(seconds, clock_seconds)
        control = f"public, max-age=0, s-maxage={seconds}, stale-while-revalidate={seconds}"
    headers = {"ETag": etag, "Cache-Control": control}
    if modified is not None:
        headers["Last-Modified"] = http_date(modified.timestamp())
    varies = ["Cookie", "HX-Request", *vary]
    if _LANGUAGE_MIDDLEWARES & set(settings.MIDDLEWARE):
        varies.append("Accept-Language")  # a visitor's language may come from it
    headers["Vary"] = ", ".join(varies)
    return headers


def _apply(response: HttpResponseBase, headers: dict[str, str]) -> None:
    for name, value in headers.items():
        if name == "Vary":
            patch_vary_headers(response, [v.strip() for v in value.split(",")])
        else:
            response[name] = value
