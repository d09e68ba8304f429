"""Which addresses the server may send to: no server-side request forgery.

A webhook's URL (typed by a club organiser) and a push subscription's endpoint (sent by a
browser) make this server send requests. Only ``http`` and ``https`` URLs are taken, and
only to public addresses: a host that is, or resolves to, a loopback, private, link-local,
multicast, reserved or unspecified address is refused, when the URL is saved and again
right before each request (a name may resolve differently later).
``NOTIFICATIONS_ALLOW_LOOPBACK`` lets loopback through, for tests and local development
(a receiver on 127.0.0.1); private ranges stay refused.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings

from core.errors import InvalidInput

MAX_URL = 500


def _refused_address(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    if ip.is_loopback:
        return None if settings.NOTIFICATIONS_ALLOW_LOOPBACK else "a loopback address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return _refused_address(ip.ipv4_mapped)
    for test, words in (  # the most telling name first (a link-local one is private too)
        (ip.is_unspecified, "an unspecified address"),
        (ip.is_link_local, "a link-local address"),
        (ip.is_multicast, "a multicast address"),
        (ip.is_reserved, "a reserved address"),
        (ip.is_private, "a private address"),
    ):
        if test:
            return words
    return None


def problem_with(url: str, *, resolve: bool = True) -> str | None:
    """Why the server must not send to ``url`` (None: it may)."""
    if len(url) > MAX_URL:
        return f"The address is too long ({MAX_URL} characters at most)."
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "That is not a web address."
    if parts.scheme not in ("http", "https"):
        return "The address must start with https:// (or http://)."
    host = parts.hostname
    if not host:
        return "The address has no host."
    if parts.username or parts.password:
        return "The address must not hold a user name or password."
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [literal]
    elif host.lower() == "localhost" or host.lower().endswith(".localhost"):
        addresses = [ipaddress.ip_address("127.0.0.1")]
    elif not resolve:
        return None
    else:
        try:
            infos = socket.getaddrinfo(host, port or 443, proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError):
            return f"{host} cannot be found."
        addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    for ip in addresses:
        why = _refused_address(ip)
        if why is not None:
            return f"{host} is {why}: the server only sends to public addresses."
    return None


def require_public_url(url: str, *, field: str) -> str:
    """``url`` trimmed, or a 400 naming ``field`` and what is wrong with it."""
    url = (url or "").strip()
    why = problem_with(url)
    if why is not None:
        raise InvalidInput(why, code="url_refused", field=field)
    return url
