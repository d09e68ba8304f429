"""core.page_cache on its own: a view of no app, a version given by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.test import RequestFactory

from core import page_cache
from core.page_cache import PageVersion, cached_page

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page_cache, "timezone", SimpleNamespace(now=lambda: NOW))
    cache.clear()


class Counted:
    """A view that counts its calls and answers what it is told."""

    def __init__(self, body: str = "page", status: int = 200) -> None:
        self.calls = 0
        self.body, self.status = body, status

    def __call__(self, request: HttpRequest, pk: int) -> HttpResponse:
        self.calls += 1
        return HttpResponse(f"{self.body} {self.calls}", status=self.status)


def version(tag: str = "v1", age: int = 3600) -> Any:
    def of(request: HttpRequest, pk: int) -> PageVersion | None:
        return PageVersion(tag=tag, changed_at=NOW - timedelta(seconds=age))

    return of


def get(path: str = "/t/1/", **headers: Any) -> HttpRequest:
    request = RequestFactory().get(path, **headers)
    request.user = AnonymousUser()
    return request


def test_the_second_request_is_the_servers_copy_and_a_conditional_one_a_304() -> None:
    view = Counted()
    page = cached_page(version())(view)
    first = page(get(), pk=1)
    assert first.content == b"page 1"
    assert page(get(), pk=1).content == b"page 1"
    assert page(get(HTTP_IF_NONE_MATCH=first["ETag"]), pk=1).status_code == 304
    assert view.calls == 1


def test_a_new_version_is_rendered_and_the_old_etag_no_longer_matches() -> None:
    view = Counted()
    first = cached_page(version("v1"))(view)(get(), pk=1)
    second = cached_page(version("v2"))(view)(get(HTTP_IF_NONE_MATCH=first["ETag"]), pk=1)
    assert second.status_code == 200
    assert second.content == b"page 2"


def test_while_another_request_renders_a_new_version_the_previous_one_is_served(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = Counted()
    old = cached_page(version("v1"))(view)(get(), pk=1)
    monkeypatch.setattr(page_cache.cache, "add", lambda *args, **kwargs: False)  # locked
    meanwhile = cached_page(version("v2"))(view)(get(), pk=1)
    assert view.calls == 1
    assert meanwhile.content == old.content
    assert meanwhile["ETag"] == old["ETag"]
    assert meanwhile["Cache-Control"] == "public, no-cache"


def test_with_no_previous_version_a_request_renders_even_while_another_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = Counted()
    monkeypatch.setattr(page_cache.cache, "add", lambda *args, **kwargs: False)
    assert cached_page(version("v1"))(view)(get(), pk=1).content == b"page 1"


def test_writes_pass_through() -> None:
    view = Counted()
    page = cached_page(version())(view)
    request = RequestFactory().post("/t/1/")
    request.user = AnonymousUser()
    response = page(request, pk=1)
    assert "ETag" not in response
    assert view.calls == 1


def test_no_version_answers_as_the_view_does() -> None:
    view = Counted(status=404)
    page = cached_page(lambda request, pk: None)(view)
    response = page(get(), pk=1)
    assert response.status_code == 404
    assert "ETag" not in response and "Cache-Control" not in response


def test_an_error_or_a_redirect_is_never_stored() -> None:
    view = Counted(status=302)
    page = cached_page(version())(view)
    page(get(), pk=1)
    page(get(), pk=1)
    assert view.calls == 2


def test_a_response_that_sets_a_cookie_is_never_stored() -> None:
    calls = []

    def view(request: HttpRequest, pk: int) -> HttpResponse:
        calls.append(1)
        response = HttpResponse("mine")
        response.set_cookie("who", "me")
        return response

    page = cached_page(version())(view)
    page(get(), pk=1)
    page(get(), pk=1)
    assert len(calls) == 2


def test_the_headers_named_and_htmx_are_in_the_key_and_in_vary() -> None:
    view = Counted()
    page = cached_page(version(), vary=("X-Theme",))(view)
    dark = page(get(HTTP_X_THEME="dark"), pk=1)
    light = page(get(HTTP_X_THEME="light"), pk=1)
    htmx = page(get(HTTP_X_THEME="dark", HTTP_HX_REQUEST="true"), pk=1)
    assert len({dark["ETag"], light["ETag"], htmx["ETag"]}) == 3
    assert view.calls == 3
    assert dark["Vary"] == "Cookie, HX-Request, X-Theme, Accept-Language"
    assert htmx["Cache-Control"] == "public, no-cache"


def test_accept_language_is_in_vary_when_the_language_may_come_from_it(settings) -> None:
    response = cached_page(version())(Counted())(get(), pk=1)
    assert "Accept-Language" in response["Vary"]  # core.languages.LanguageMiddleware
    settings.MIDDLEWARE = [
        m for m in settings.MIDDLEWARE if m != "core.languages.LanguageMiddleware"
    ]
    response = cached_page(version())(Counted())(get(), pk=1)
    assert "Accept-Language" not in response["Vary"]


def test_a_shared_page_says_how_long_a_proxy_may_keep_it(settings) -> None:
    settings.PAGE_CACHE_SHARED_SECONDS = 5
    response = cached_page(version())(Counted())(get(), pk=1)
    assert response["Cache-Control"] == "public, max-age=0, s-maxage=5, stale-while-revalidate=5"
    assert response["Last-Modified"]


def test_an_unsettled_version_has_no_last_modified_and_a_short_lived_etag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = Counted()
    page = cached_page(version(age=1))(view)
    first = page(get(), pk=1)
    assert "Last-Modified" not in first
    assert page(get(HTTP_IF_NONE_MATCH=first["ETag"]), pk=1).status_code == 304
    later = NOW + timedelta(seconds=page_cache.BUCKET_SECONDS)
    monkeypatch.setattr(page_cache, "timezone", SimpleNamespace(now=lambda: later))
    assert page(get(HTTP_IF_NONE_MATCH=first["ETag"]), pk=1).status_code == 200
    assert view.calls == 2


def test_the_csrf_token_is_empty_on_a_shared_render_only() -> None:
    template = engines["django"].from_string("[{{ csrf_token }}]")
    shared = get()
    setattr(shared, page_cache.SHARED_FLAG, True)
    assert template.render({}, shared) == "[]"
    own = template.render({}, get())
    assert own != "[]" and len(own) > 10


def test_an_unreachable_cache_renders_the_page_as_if_nothing_were_cached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("Redis is restarting")

    for name in ("get", "add", "set", "delete"):
        monkeypatch.setattr(page_cache.cache, name, down)
    view = Counted()
    page = cached_page(version())(view)
    first = page(get(), pk=1)
    assert first.status_code == 200 and first["ETag"]
    assert page(get(), pk=1).content == b"page 2"
    assert page(get(HTTP_IF_NONE_MATCH=first["ETag"]), pk=1).status_code == 304
