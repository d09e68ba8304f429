"""The Content-Security-Policy of every response: the browser runs only our own scripts
and styles, from our own address, so markup that slipped into a page (a name, a comment)
can never run as script, and no other site can frame ours.

Every page of ours loads its scripts and styles as files from ``/static/``; there is no
inline ``<script>``, no ``on...=`` handler (``static/js/site.js`` gives ``data-confirm``,
``data-print`` and the round clocks) and no ``style="..."`` attribute (classes in
``static/css/site.css``; scripts set styles through ``element.style``, which the policy
allows). htmx runs without ``eval`` and without its injected indicator styles (the
``htmx-config`` meta tag of ``templates/base.html``). ``connect-src 'self'`` covers the
live pages' websockets to the same host (CSP Level 3: ``ws:`` and ``wss:`` match
``'self'``). ``img-src`` allows ``data:`` for the favicon placeholder and Swagger UI's
icons. A view whose response already carries the header keeps it (:func:`policy`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"

#: Every page, the API's responses and the static files alike.
DIRECTIVES: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "worker-src": "'self'",
    "manifest-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def render(directives: dict[str, str]) -> str:
    return "; ".join(f"{name} {value}" for name, value in directives.items())


POLICY = render(DIRECTIVES)


def policy(**changes: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view's own policy: the site's with ``changes`` (``style_src="'self' ..."``; the
    names with ``_`` for ``-``), for a page that truly needs more (say why where used)."""
    header = render({**DIRECTIVES, **{k.replace("_", "-"): v for k, v in changes.items()}})

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> HttpResponse:
            response = view(*args, **kwargs)
            response[HEADER] = header
            return response

        return wrapped

    return decorate


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = POLICY
        return response
