"""``{% url %}`` with its answers kept: Django's own tag (a builtin of the site's templates,
``config.settings.TEMPLATES``), whose ``reverse`` is asked once per view name, arguments
and what else decides the address (the URLconf, the script prefix, the language, the
application namespace), then answered from memory.

Django reverses a URL anew each time: it looks up the thread's URLconf, prefix and
language (context-local reads), finds the view's patterns and checks the arguments
against each with a regular expression. That is 15 µs a link; a tournament page has
about twenty links in its menu and tabs, a tenth of the page's Python. The same
address comes out for the same inputs as long as the URLconf is the same, which the key
holds. Only plain arguments (ints and strings) are kept: anything else (a model
instance, whose ``str`` may change) is reversed each time, as Django does. A name that
does not reverse raises as before (nothing is kept for it).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.conf import settings
from django.template import defaulttags
from django.template.base import Parser, Token
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.translation import get_language

register = template.Library()


def _plain(value: object) -> bool:
    """An int (not a bool) or a string (a template's literal is a ``SafeString``)."""
    return type(value) is int or isinstance(value, str)


@lru_cache(maxsize=4096)
def _reverse(
    view_name: str,
    args: tuple[Any, ...],
    kwargs: tuple[tuple[str, Any], ...],
    current_app: str | None,
    prefix: str,  # what ``reverse`` reads itself: part of the key
    urlconf: str,
    language: str | None,
) -> str:
    return reverse(
        view_name, urlconf=urlconf, args=args, kwargs=dict(kwargs), current_app=current_app
    )


class KeptURLNode(defaulttags.URLNode):
    def render(self, context: template.Context) -> str:
        args = tuple(arg.resolve(context) for arg in self.args)
        kwargs = tuple((key, value.resolve(context)) for key, value in self.kwargs.items())
        view_name = self.view_name.resolve(context)
        if not all(_plain(v) for v in (view_name, *args, *(v for _, v in kwargs))):
            return str(super().render(context))
        request = getattr(context, "request", None)
        current_app = getattr(request, "current_app", None)
        if current_app is None and not hasattr(request, "current_app"):
            current_app = getattr(getattr(request, "resolver_match", None), "namespace", None)
        urlconf = get_urlconf() or settings.ROOT_URLCONF
        try:
            url = _reverse(
                view_name, args, kwargs, current_app, get_script_prefix(), urlconf, get_language()
            )
        except NoReverseMatch:
            if self.asvar is None:
                raise
            url = ""
        if self.asvar:
            context[self.asvar] = url
            return ""
        return str(conditional_escape(url)) if context.autoescape else url


@register.tag
def url(parser: Parser, token: Token) -> KeptURLNode:
    """Django's ``{% url %}``, parsed by Django, its answers kept (above)."""
    node = defaulttags.url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)
