"""The reader's language: which of ``settings.LANGUAGES`` a request is answered in.

In order, the first that names a language the site has:

1. **The account's choice**: a signed-in reader's profile language, copied into their
   session when they sign in (and by the switcher), so it costs no query a request;
2. **the visitor's pick**: the switcher's cookie (``settings.LANGUAGE_COOKIE_NAME``),
   kept for a year, signed in or not;
3. **the browser's**: ``Accept-Language``, in its order of preference ("fr-CH" is read
   as French);
4. **the club's**: on a club's or a tournament's page, the club's default language
   (:func:`fall_back_to`, called by those pages);
5. English, the source language.

The choice is left on the request (``request.language_source``) and in
``request.language_key``: the language, or ``"default:<code>"`` when nothing above 4
decided, since such a page's language then depends on the page (its club), not on the
reader. ``core.page_cache`` keys a kept page by it, so a French page chosen for its club
is never served to a reader who asked for English. Answers say which language they are
in (``Content-Language``), and vary on ``Accept-Language`` when it decided.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.utils.translation.trans_real import parse_accept_lang_header

from core.errors import InvalidInput

#: The session's key for the account's choice (set at sign-in and by the switcher).
SESSION_KEY = "language"

#: Where the language came from, in order (``request.language_source``).
ACCOUNT, COOKIE, BROWSER, CLUB, DEFAULT = "account", "cookie", "browser", "club", "default"
#: A sheet the whole room reads, in its event's language (:func:`speak_for_the_room`).
EVENT = "event"


def supported(code: object) -> str | None:
    """The site's language for ``code`` ("fr-CA" -> "fr"), None if it has none."""
    if not isinstance(code, str) or not code or len(code) > 35:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def codes() -> list[str]:
    return [code for code, _ in settings.LANGUAGES]


def own_name(code: str) -> str:
    """A language's name in itself ("Français", "Ελληνικά"), as the switcher shows it."""
    name = translation.get_language_info(code)["name_local"]
    return str(name[:1].upper() + name[1:])


def choices() -> list[tuple[str, str]]:
    """(code, its own name) of every language of the site, for a form."""
    return [(code, own_name(code)) for code in codes()]


def require_language(value: object, *, field: str = "language", blank: bool = False) -> str:
    """``value`` as one of the site's languages' codes (exactly: "fr", not "fr-CA"), or
    "" when ``blank`` allows no choice; else a refusal naming the languages."""
    code = value.strip().lower() if isinstance(value, str) else None
    if code == "" and blank:
        return ""
    if code not in codes():
        raise InvalidInput(
            gettext("Not a language of this site: choose one of %(languages)s.")
            % {"languages": ", ".join(own_name(c) for c in codes())},
            code="unknown_language",
            field=field,
        )
    return code


def chosen(
    session: Mapping[str, Any] | None, cookies: Mapping[str, str], accept_language: str
) -> tuple[str | None, str]:
    """The reader's own choice (1 to 3 above) and where it came from: the ``session``'s
    (None: no session, or one that must not be read), the ``cookies``' and the
    ``Accept-Language`` header's; ``(None, DEFAULT)`` when none names a language."""
    if session is not None:
        code = supported(session.get(SESSION_KEY))
        if code:
            return code, ACCOUNT
    code = supported(cookies.get(settings.LANGUAGE_COOKIE_NAME))
    if code:
        return code, COOKIE
    for tag, _ in parse_accept_lang_header(accept_language[:500]):
        if tag == "*":
            break
        code = supported(tag)
        if code:
            return code, BROWSER
    return None, DEFAULT


def language_from(
    session: Mapping[str, Any] | None, cookies: Mapping[str, str], accept_language: str
) -> str:
    """The reader's language from the same sources as a request's (:func:`chosen`), else
    English: for what the middleware never sees (a websocket, a refusal made before it)."""
    return chosen(session, cookies, accept_language)[0] or settings.LANGUAGE_CODE


def _chosen(request: HttpRequest) -> tuple[str | None, str]:
    # The session only when the browser has one: reading it must not make one.
    has_session = settings.SESSION_COOKIE_NAME in request.COOKIES and hasattr(request, "session")
    return chosen(
        request.session if has_session else None,
        request.COOKIES,
        request.META.get("HTTP_ACCEPT_LANGUAGE", ""),
    )


def language_key(request: HttpRequest) -> str:
    """What a kept page's key says of its language (``request.language_key``, above; the
    active language for a request the middleware did not see)."""
    return getattr(request, "language_key", None) or translation.get_language() or ""


def _speak(request: HttpRequest, language: str, source: str) -> None:
    """``language`` for the rest of the request, chosen by ``source``."""
    translation.activate(language)
    request.LANGUAGE_CODE = language
    request.language_source = source  # type: ignore[attr-defined]


def fall_back_to(request: HttpRequest, code: str | None) -> None:
    """A club's page: its language when the reader's own choices named none (4 above)."""
    if getattr(request, "language_source", None) != DEFAULT:
        return
    language = supported(code)
    if language:
        _speak(request, language, CLUB)


def speak_for_the_room(request: HttpRequest, code: str | None) -> None:
    """A sheet the whole room reads (the projector, printed pairings and slips, the final
    results): the event's language for the rest of the request, whatever the reader's own,
    so the wall and the printed sheets say the same words to everyone. Its kept copies are
    one per event language (``request.language_key``), shared by every reader."""
    language = supported(code)
    if language:
        _speak(request, language, EVENT)
        request.language_key = f"event:{language}"  # type: ignore[attr-defined]


class LanguageMiddleware:
    """Activates the reader's language for the request (above)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language, source = _chosen(request)
        # The thread's language before the request, given back after it: a thread that
        # next runs something outside a request (a task, a test) must not speak this
        # reader's language.
        before = translation.get_language()
        translation.activate(language or settings.LANGUAGE_CODE)
        request.LANGUAGE_CODE = translation.get_language()
        request.language_source = source  # type: ignore[attr-defined]
        request.language_key = (  # type: ignore[attr-defined]
            language if language else f"default:{settings.LANGUAGE_CODE}"
        )
        response = self.get_response(request)
        if source in (BROWSER, DEFAULT, CLUB):
            patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        if before:
            translation.activate(before)
        else:
            translation.deactivate()
        return response
