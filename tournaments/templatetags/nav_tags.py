"""Menus and tabs mark the page you are on: ``aria-current="page"`` (screen readers say
"current page"; the stylesheet draws it).

``{% current_view "standings" %}``: on a page of one of these URL names (and, with keyword
arguments, only when the URL's arguments match: ``match_pk=my_match.pk``).
``{% current_path "/clubs/" %}``: on any page under this path.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_CURRENT = mark_safe(' aria-current="page"')
_NOT = mark_safe("")


@register.simple_tag(takes_context=True)
def current_view(context: template.Context, *names: str, **arguments: Any) -> SafeString:
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    if match is None or match.url_name not in names:
        return _NOT
    for key, value in arguments.items():
        if str(match.kwargs.get(key)) != str(value):
            return _NOT
    return _CURRENT


@register.simple_tag(takes_context=True)
def current_path(context: template.Context, prefix: str) -> SafeString:
    request = context.get("request")
    path = getattr(request, "path", "")
    return _CURRENT if isinstance(path, str) and path.startswith(prefix) else _NOT
