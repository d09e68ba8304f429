"""Which addresses the server may send to: no server-side request forgery.

A webhook's URL (typed by a club organiser) and a push subscription's endpoint (sent by a
browser) make this server send requests. Only ``http`` and ``https`` URLs are taken, and
only to globally reachable addresses: a host that is, or resolves to, anything else is
refused, when the URL is saved (:func:`problem_with`) and again for every connection
(:func:`resolve_public`: the sender connects to one of the addresses checked there, never
to a name resolved again, since a name may resolve differently later).

"Globally reachable" follows IANA's special-purpose registries, written out here rather
than trusted to ``ipaddress.is_global`` (Python 3.11's misses shared address space
``100.64.0.0/10`` in part, ``192.0.0.0/24``, site-local ``fec0::/10`` and the 6to4 range):
private, shared (carrier-grade NAT, where cloud metadata services live), loopback,
link-local, site-local, multicast, documentation, benchmarking and reserved ranges are
refused; IPv6 must be global unicast (``2000::/3``); addresses that wrap an IPv4 one
(IPv4-mapped and -compatible, NAT64) are judged by the address they wrap, and 6to4 and
Teredo (tunnels that lead to an IPv4 address of the tunnel's choosing) are refused.

Host literals are read as the system's resolver reads them (``inet_aton``: ``0x64.0x64.
0x64.0xc8``, ``0177.1``, ``2130706433`` are IPv4 addresses), so a disguised address is
named in the message as what it is.

``NOTIFICATIONS_ALLOW_LOOPBACK`` lets plain loopback through, for tests and local
development (a receiver on 127.0.0.1); everything else that is not global stays refused.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import threading
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from core.errors import InvalidInput

MAX_URL = 500

IP = ipaddress.IPv4Address | ipaddress.IPv6Address

_V4 = ipaddress.IPv4Network
_V6 = ipaddress.IPv6Network

#: IPv4 ranges that are not globally reachable, the most telling name first (the words
#: are translated where they are said: :func:`refused_address`).
_IPV4_REFUSED: list[tuple[ipaddress.IPv4Network, str]] = [
    (_V4("0.0.0.0/8"), _("an unspecified address")),
    (_V4("127.0.0.0/8"), _("a loopback address")),
    (_V4("169.254.0.0/16"), _("a link-local address")),
    (_V4("10.0.0.0/8"), _("a private address")),
    (_V4("172.16.0.0/12"), _("a private address")),
    (_V4("192.168.0.0/16"), _("a private address")),
    (_V4("100.64.0.0/10"), _("a private address (shared address space)")),
    (_V4("192.0.0.0/24"), _("a private address (reserved for protocols)")),
    (_V4("192.0.2.0/24"), _("a documentation address")),
    (_V4("198.51.100.0/24"), _("a documentation address")),
    (_V4("203.0.113.0/24"), _("a documentation address")),
    (_V4("198.18.0.0/15"), _("a private address (benchmarking)")),
    (_V4("192.88.99.0/24"), _("a relay address")),
    (_V4("224.0.0.0/4"), _("a multicast address")),
    (_V4("240.0.0.0/4"), _("a reserved address")),
]

#: IPv6 ranges refused outright (wrappers of IPv4 are handled before these).
_IPV6_REFUSED: list[tuple[ipaddress.IPv6Network, str]] = [
    (_V6("::/128"), _("an unspecified address")),
    (_V6("::1/128"), _("a loopback address")),
    (_V6("fe80::/10"), _("a link-local address")),
    (_V6("fec0::/10"), _("a site-local address")),
    (_V6("fc00::/7"), _("a private address")),
    (_V6("ff00::/8"), _("a multicast address")),
    (_V6("2002::/16"), _("a 6to4 tunnel address")),
    (_V6("2001::/32"), _("a Teredo tunnel address")),
    (_V6("2001::/23"), _("a reserved address")),
    (_V6("2001:db8::/32"), _("a documentation address")),
    (_V6("3fff::/20"), _("a documentation address")),
    (_V6("64:ff9b:1::/48"), _("a private address (local NAT64)")),
    (_V6("100::/64"), _("a reserved address")),
    (_V6("5f00::/16"), _("a reserved address")),
]
LOOPBACK = _("a loopback address")
LINK_LOCAL = _("a link-local address")
RESERVED = _("a reserved address")
_GLOBAL_UNICAST = _V6("2000::/3")
_NAT64 = _V6("64:ff9b::/96")
_IPV4_COMPATIBLE = _V6("::/96")


def _refused_v4(ip: ipaddress.IPv4Address) -> str | None:
    for network, words in _IPV4_REFUSED:
        if ip in network:
            return words
    return None


def refused_address(ip: IP, *, wrapped: bool = False) -> str | None:
    """Why the server must not connect to ``ip``, in words (None: it may)."""
    if isinstance(ip, ipaddress.IPv4Address):
        why = _refused_v4(ip)
        if why == LOOPBACK and settings.NOTIFICATIONS_ALLOW_LOOPBACK and not wrapped:
            return None
        return gettext(why) if why is not None else None
    if ip.scope_id:
        return gettext(LINK_LOCAL)
    if ip.is_loopback and settings.NOTIFICATIONS_ALLOW_LOOPBACK and not wrapped:
        return None
    # Addresses that carry an IPv4 one: judged by what they lead to.
    inner: ipaddress.IPv4Address | None = None
    if ip.ipv4_mapped is not None:
        inner = ip.ipv4_mapped
    elif ip in _NAT64 or (ip in _IPV4_COMPATIBLE and int(ip) > 1):
        inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if inner is not None:
        said = refused_address(inner, wrapped=ip.ipv4_mapped is None)
        if said is None:
            return None
        return said if ip.ipv4_mapped is not None else _in_disguise(said, inner)
    for network, words in _IPV6_REFUSED:
        if ip in network:
            tunnelled = _refused_v4(ip.sixtofour) if ip.sixtofour is not None else None
            if tunnelled is not None:
                return _in_disguise(gettext(tunnelled), ip.sixtofour)
            return gettext(words)
    if ip not in _GLOBAL_UNICAST:
        return gettext(RESERVED)
    return None


def _in_disguise(why: str, inner: ipaddress.IPv4Address | None) -> str:
    """ "a loopback address in disguise (127.0.0.1)": an address wrapping a refused one."""
    return gettext("%(why)s in disguise (%(address)s)") % {"why": why, "address": inner}


_NUMBER = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$", re.IGNORECASE)


def ipv4_literal(host: str) -> ipaddress.IPv4Address | None:
    """``host`` read as ``inet_aton`` reads it (1 to 4 parts, each decimal, ``0x`` hex or
    ``0``-led octal, the last filling the bytes left), or None when it is not one."""
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or not all(_NUMBER.match(p) for p in parts):
        return None
    values = []
    for part in parts:
        lowered = part.lower()
        try:
            if lowered.startswith("0x"):
                values.append(int(lowered[2:] or "0", 16))
            elif len(part) > 1 and part.startswith("0"):
                values.append(int(part, 8))
            else:
                values.append(int(part))
        except ValueError:  # "08": not octal, and not a name either
            return None
    *leading, last = values
    if any(v > 255 for v in leading) or last >= 256 ** (4 - len(leading)):
        return None
    number = 0
    for value in leading:
        number = number * 256 + value
    return ipaddress.IPv4Address((number << (8 * (4 - len(leading)))) + last)


def host_literal(host: str) -> IP | None:
    """The address a host literal stands for (IPv6 in brackets come without them)."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    return ipv4_literal(host.rstrip(".") if host.count(".") == 4 else host)


class Refused(Exception):
    """The server must not send there; ``str()`` says why, in an organiser's words."""


#: Seconds a name's resolution may take before the attempt gives up.
RESOLVE_SECONDS = 5.0


def _getaddrinfo(host: str, port: int, timeout: float) -> list[str]:
    """``getaddrinfo`` within ``timeout`` (a resolver that never answers holds only a
    daemon thread, never the delivery)."""
    answer: dict[str, object] = {}
    done = threading.Event()

    def run() -> None:
        try:
            answer["infos"] = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError) as error:
            answer["error"] = error
        finally:
            done.set()

    threading.Thread(target=run, name="resolve", daemon=True).start()
    if not done.wait(timeout):
        raise TimeoutError(f"{host} took too long to resolve")
    if "error" in answer:
        raise Refused(gettext("%(host)s cannot be found.") % {"host": host})
    infos = answer["infos"]
    assert isinstance(infos, list)
    return [str(info[4][0]) for info in infos]


def _split(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of a URL the server may consider, or :class:`Refused`."""
    if len(url) > MAX_URL:
        raise Refused(
            gettext("The address is too long (%(count)d characters at most).") % {"count": MAX_URL}
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused(gettext("That is not a web address.")) from None
    if parts.scheme not in ("http", "https"):
        raise Refused(gettext("The address must start with https:// (or http://)."))
    host = parts.hostname
    if not host:
        raise Refused(gettext("The address has no host."))
    if parts.username or parts.password:
        raise Refused(gettext("The address must not hold a user name or password."))
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80)


def resolve_public(url: str, *, timeout: float = RESOLVE_SECONDS) -> list[IP]:
    """The addresses ``url``'s host stands for, every one of them checked (the sender
    connects to these, never to the name again); :class:`Refused` if any is not public,
    ``TimeoutError`` if the name takes longer than ``timeout`` to resolve."""
    _scheme, host, port = _split(url)
    literal = host_literal(host)
    if literal is not None:
        found = [literal]
    elif host.lower().rstrip(".") == "localhost" or host.lower().rstrip(".").endswith(".localhost"):
        found = [ipaddress.ip_address("127.0.0.1")]
    else:
        found = [ipaddress.ip_address(a.split("%")[0]) for a in _getaddrinfo(host, port, timeout)]
    disguised = literal is not None and isinstance(literal, ipaddress.IPv4Address)
    shown = f"{host} ({literal})" if disguised and str(literal) != host else host
    for ip in found:
        why = refused_address(ip)
        if why is not None:
            raise Refused(
                gettext("%(host)s is %(why)s: the server only sends to public addresses.")
                % {"host": shown, "why": why}
            )
    return list(dict.fromkeys(found))


def problem_with(url: str) -> str | None:
    """Why the server must not send to ``url`` (None: it may)."""
    try:
        resolve_public(url)
    except Refused as refused:
        return str(refused)
    except TimeoutError:
        return gettext("%(host)s cannot be found (its name server does not answer).") % {
            "host": urlsplit(url).hostname
        }
    return None


def require_public_url(url: str, *, field: str) -> str:
    """``url`` trimmed, or a 400 naming ``field`` and what is wrong with it."""
    url = (url or "").strip()
    why = problem_with(url)
    if why is not None:
        raise InvalidInput(why, code="url_refused", field=field)
    return url
