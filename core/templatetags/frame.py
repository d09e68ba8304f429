"""The site's frame kept: the menu at the top and the foot with its languages, rendered once
per kind of page and then only filled in with the reader's own values.

Every page carries the same frame for every reader but for a few values: the reader's
name, their CSRF token, the address the language links come back to. Rendering it costs
about half a millisecond a page (two dozen translated words, a dozen links, a loop over
the languages): a tenth of a signed-in player's home, and every player opens two or three
pages at a round's start.

``{% frame "header" name=user.username csrf=csrf_token %}...{% endframe %}`` renders what
it holds once per **key** and keeps the text in the template's node (a template edited in
development is parsed again, with nothing kept); every other time it fills the kept text
with this request's values. What the piece may read is all in its key, because the piece
is rendered in a context of its own that holds nothing else:

- ``LANGUAGE_CODE``, ``LANGUAGE_BIDI`` and ``LANGUAGES``: the page's language, and the
  site's (the key holds the language);
- ``signed_in``: whether a user is signed in (in the key);
- ``request``: a stand-in whose ``path`` is the page's first path segment (``/clubs/``)
  and whose ``resolver_match`` has the page's URL name, so ``{% current_path %}`` with a
  first-segment prefix and ``{% current_view %}`` without arguments mark the menu as on
  the page (both in the key, with the URL's namespace, the script prefix and the URLconf
  that ``{% url %}`` reads);
- the tag's keyword arguments, each as a **placeholder**: the value is resolved in the
  page's context on every request and put in the kept text where its placeholder is,
  escaped as ``{{ }}`` would escape it. A placeholder is written bare (``{{ name }}``),
  never through a filter or a condition: the kept text holds the placeholder, not the
  value (a placeholder that went through one is refused when the piece is rendered). A
  value the kept text does not show (a signed-out menu has no name) is not resolved.

At most :data:`KEYS` keys a node (a page's first segment comes from its address, so a
crawler's made-up addresses could make new ones): beyond that the piece is rendered each
time, as a plain block would be.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from django import template
from django.conf import settings
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.urls import get_script_prefix, get_urlconf
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()

#: The most keys one piece keeps (see the module).
KEYS = 256

_MARK = "\x1fframe:{}\x1f"
#: Any placeholder in a kept text (a reader's value is never searched for one).
_MARKS = re.compile("\x1fframe:(\\w+)\x1f")


@dataclass(frozen=True)
class _Piece:
    #: The piece's text with a placeholder for each value it shows.
    text: str
    #: The names of the values it shows (a signed-out menu shows no name).
    shown: tuple[str, ...]


def _first_segment(path: str) -> str:
    head, slash, _ = path.lstrip("/").partition("/")
    return f"/{head}{slash}" if head else "/"


class FrameNode(template.Node):
    def __init__(self, name: str, nodelist: NodeList, values: dict[str, FilterExpression]):
        self.name = name
        self.nodelist = nodelist
        self.values = values
        self.kept: dict[tuple[Any, ...], _Piece] = {}
        self.lock = threading.Lock()

    def _key(self, context: template.Context, request: Any, signed_in: bool) -> tuple[Any, ...]:
        match = getattr(request, "resolver_match", None)
        return (
            context.get("LANGUAGE_CODE"),
            signed_in,
            getattr(match, "url_name", None),
            getattr(match, "namespace", None),
            _first_segment(getattr(request, "path", "") or "/"),
            get_script_prefix(),
            get_urlconf() or settings.ROOT_URLCONF,
        )

    def _render_piece(self, context: template.Context, key: tuple[Any, ...]) -> _Piece:
        _, signed_in, url_name, namespace, segment, _, _ = key
        match = SimpleNamespace(url_name=url_name, namespace=namespace, kwargs={})
        stand_in = SimpleNamespace(path=segment, resolver_match=match)
        own = {
            "LANGUAGE_CODE": context.get("LANGUAGE_CODE"),
            "LANGUAGE_BIDI": context.get("LANGUAGE_BIDI"),
            "LANGUAGES": context.get("LANGUAGES"),
            "signed_in": signed_in,
            "request": stand_in,
            **{name: mark_safe(_MARK.format(name)) for name in self.values},
        }
        text = str(self.nodelist.render(context.new(own)))
        shown = tuple(name for name in dict.fromkeys(_MARKS.findall(text)) if name in self.values)
        if "\x1f" in _MARKS.sub(lambda mark: "" if mark.group(1) in shown else "\x1f", text):
            raise template.TemplateSyntaxError(
                f"frame {self.name!r} shows a placeholder through a filter or a tag: "
                "write it bare, as {{ name }}"
            )
        return _Piece(text, shown)

    def render(self, context: template.Context) -> str:
        request = context.get("request")
        user = context.get("user")
        signed_in = bool(getattr(user, "is_authenticated", False))
        key = self._key(context, request, signed_in)
        piece = self.kept.get(key)
        if piece is None:
            piece = self._render_piece(context, key)
            with self.lock:
                if len(self.kept) < KEYS:
                    self.kept[key] = piece
        filled = {}
        for name in piece.shown:
            resolved = self.values[name].resolve(context)
            value = "" if resolved is None else str(resolved)
            filled[name] = str(conditional_escape(value)) if context.autoescape else value
        # One pass: a value that happens to hold a placeholder is shown as it is.
        return mark_safe(_MARKS.sub(lambda mark: filled[mark.group(1)], piece.text))


@register.tag
def frame(parser: Parser, token: Token) -> FrameNode:
    """``{% frame "name" value=expression ... %}...{% endframe %}``: see the module."""
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "'\"" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError("{% frame %} wants a quoted name first")
    values: dict[str, FilterExpression] = {}
    for bit in bits[2:]:
        name, equals, expression = bit.partition("=")
        if not equals or not name.isidentifier() or name in values:
            raise template.TemplateSyntaxError(f"{{% frame %}}: {bit!r} is not name=value")
        values[name] = parser.compile_filter(expression)
    nodelist = parser.parse(("endframe",))
    parser.delete_first_token()
    return FrameNode(bits[1][1:-1], nodelist, values)
