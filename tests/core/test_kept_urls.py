"""``{% url %}`` answered from memory (core/templatetags/kept_urls.py): the same addresses
as Django's own tag, ``as`` and the namespaces as before, reversed once per set of inputs,
and anything but plain arguments reversed as Django does."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import Context, Engine, Template
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import NoReverseMatch

from core.templatetags import kept_urls

DJANGO = Engine()  # Django's own {% url %}: no builtins of ours


def _both(source: str, **context: Any) -> tuple[str, str]:
    ours = Template(source).render(Context(context))  # the site's engine: ours
    theirs = DJANGO.from_string(source).render(Context(context))
    return ours, theirs


def test_the_site_templates_use_the_kept_tag() -> None:
    assert isinstance(Template("{% url 'home' %}").nodelist[0], kept_urls.KeptURLNode)


@pytest.mark.parametrize(
    ("source", "context"),
    [
        ("{% url 'home' %}", {}),
        ("{% url 'tournament-detail' 7 %}", {}),
        ("{% url 'tournament-detail' pk %}", {"pk": 12}),
        ("{% url 'match' t m %}|{% url 'match' t 5 %}", {"t": 3, "m": 4}),
        ("{% url 'tournament-detail' pk=pk %}", {"pk": "9"}),
        ("{% url 'club-detail' slug %}", {"slug": "le-tarot"}),
        ("{% url name 1 %}", {"name": "tournament-detail"}),
        ("{% url 'tournament-detail' 1 as where %}[{{ where }}]", {}),
        ("{% url 'no-such-page' as where %}[{{ where }}]", {}),
        ("{% url 'admin:index' %}", {}),
    ],
)
def test_the_same_addresses_as_djangos_tag(source: str, context: dict[str, Any]) -> None:
    ours, theirs = _both(source, **context)
    assert ours == theirs
    assert _both(source, **context)[0] == theirs  # kept: the same again


def test_reversed_once_for_the_same_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    kept_urls._reverse.cache_clear()
    asked: list[tuple[Any, ...]] = []
    reverse = kept_urls.reverse

    def counted(*args: Any, **kwargs: Any) -> str:
        asked.append((args, kwargs["args"]))
        return reverse(*args, **kwargs)

    monkeypatch.setattr(kept_urls, "reverse", counted)
    page = Template("{% for t in ts %}{% url 'tournament-detail' t %} {% endfor %}")
    for _ in range(3):
        assert (
            page.render(Context({"ts": [1, 2, 1]}))
            == "/tournaments/1/ /tournaments/2/ /tournaments/1/ "
        )
    assert len(asked) == 2


def test_a_name_that_does_not_reverse_still_raises() -> None:
    with pytest.raises(NoReverseMatch):
        Template("{% url 'no-such-page' %}").render(Context({}))


def test_other_arguments_are_reversed_as_django_does() -> None:
    class Slug:
        def __init__(self, text: str) -> None:
            self.text = text

        def __str__(self) -> str:
            return self.text

    slug = Slug("first")
    page = Template("{% url 'club-detail' slug %}")
    assert page.render(Context({"slug": slug})) == "/clubs/first/"
    slug.text = "second"
    assert page.render(Context({"slug": slug})) == "/clubs/second/"


def test_a_page_renders_with_the_requests_namespace() -> None:
    request = RequestFactory().get("/")
    html = render_to_string("base.html", {}, request=request)
    assert 'href="/tournaments/"' in html
