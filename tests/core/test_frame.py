"""The site's frame kept (core/templatetags/frame.py): rendered once per kind of page, then
filled with each reader's values; what a kept piece shows is what a fresh render shows,
and nobody's name, token or address reaches another reader."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import RequestContext, Template, TemplateSyntaxError
from django.template.loader import get_template
from django.test import Client, RequestFactory
from django.urls import resolve
from django.utils import translation

from core.templatetags import frame
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _frame_nodes() -> list[Any]:
    base: Any = get_template("base.html")
    return base.template.nodelist.get_nodes_by_type(frame.FrameNode)


def _forget() -> None:
    for node in _frame_nodes():
        node.kept.clear()


def _page(user: Any, path: str, language: str = "en") -> str:
    request: Any = RequestFactory().get(path)
    request.user = user
    request.session = {}
    request.resolver_match = resolve(path.partition("?")[0])
    with translation.override(language):
        return get_template("base.html").render({}, request)


def _untokened(page: str) -> str:
    """The page with its CSRF tokens (masked anew at each render) made alike."""
    return re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"', r'\1"T"', page)


def _cases(alice: Any, bob: Any) -> list[tuple[Any, str, str]]:
    return [
        (alice, "/", "en"),
        (bob, "/", "en"),
        (AnonymousUser(), "/", "en"),
        (alice, "/clubs/", "fr"),
        (bob, "/accounts/profile/", "el"),
        (AnonymousUser(), "/accounts/login/?next=/clubs/%3Ca%3E", "en"),
        (alice, "/tournaments/?page=2&q=a%26b", "en"),
        (bob, "/score/", "en"),
    ]


def test_the_base_template_keeps_its_frame() -> None:
    names = [node.name for node in _frame_nodes()]
    assert names == ["assets", "scripts", "header", "footer"]


def test_kept_pieces_show_what_a_fresh_render_shows() -> None:
    alice = UserFactory(username="alice")
    bob = PlayerFactory(display_name='Bob <b>"the" & co').user
    for user, path, language in _cases(alice, bob):
        _forget()
        fresh = _untokened(_page(user, path, language))
        for other, other_path, other_language in _cases(alice, bob):  # fill every key
            _page(other, other_path, other_language)
        assert _untokened(_page(user, path, language)) == fresh, (user, path, language)


def test_each_reader_sees_their_own_name_token_and_address() -> None:
    _forget()
    alice = UserFactory(username="alice")
    bob = PlayerFactory(display_name="Bob <script>").user
    first = _page(alice, "/clubs/")
    second = _page(bob, "/clubs/?q=x&y=<z>")
    assert ">alice</a>" in first and "alice" not in second
    assert "Bob &lt;script&gt;</a>" in second and "<script>" not in second.split("<body")[1]
    assert "next=/clubs/%3Fq%3Dx%26y%3D%253Cz%253E" in second
    assert "next=/clubs/%3F" not in first
    token = second.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert token and token not in first
    assert 'href="/clubs/" aria-current="page"' in second
    anonymous = _page(AnonymousUser(), "/clubs/")
    assert "csrfmiddlewaretoken" not in anonymous and "Log in" in anonymous


def test_the_menu_marks_the_page_it_is_on() -> None:
    _forget()
    user = UserFactory(username="carol")
    assert 'title="Your profile" aria-current="page"' not in _page(user, "/")
    profile = _page(user, "/accounts/profile/")
    assert 'aria-current="page" title="Your profile"' in profile
    assert 'href="/tournaments/" aria-current="page"' in _page(user, "/tournaments/?page=2")
    assert 'href="/tournaments/" aria-current="page"' not in _page(user, "/clubs/")


def test_the_language_is_in_the_key() -> None:
    _forget()
    user = UserFactory()
    assert "Tournois" in _page(user, "/", "fr")
    assert ">Tournaments<" in _page(user, "/", "en")


def _node(source: str) -> Any:
    return Template("{% load frame %}" + source).nodelist.get_nodes_by_type(frame.FrameNode)[0]


def _render(source: str, **values: Any) -> str:
    request = RequestFactory().get("/clubs/")
    request.user = AnonymousUser()
    return Template("{% load frame %}" + source).render(RequestContext(request, values))


def test_a_placeholder_through_a_filter_is_refused() -> None:
    with pytest.raises(TemplateSyntaxError, match="bare"):
        _render('{% frame "x" name=who %}{{ name|upper }}{% endframe %}', who="a")


def test_the_piece_reads_only_its_own_context() -> None:
    source = '{% frame "x" name=who %}[{{ who }}|{{ name }}|{{ request.path }}]{% endframe %}'
    assert _render(source, who="dora") == "[|dora|/clubs/]"


@pytest.mark.parametrize(
    "source",
    [
        "{% frame %}{% endframe %}",
        "{% frame x %}{% endframe %}",
        '{% frame "x" who %}{% endframe %}',
        '{% frame "x" a=1 a=2 %}{% endframe %}',
    ],
)
def test_bad_tags_are_refused(source: str) -> None:
    with pytest.raises(TemplateSyntaxError):
        _node(source)


def test_a_piece_keeps_at_most_its_bound_of_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frame, "KEYS", 3)
    template = Template('{% load frame %}{% frame "x" %}{{ request.path }}{% endframe %}')
    node: Any = template.nodelist.get_nodes_by_type(frame.FrameNode)[0]
    for n in range(6):
        request = RequestFactory().get(f"/made-up-{n}/page/")
        request.user = AnonymousUser()
        assert template.render(RequestContext(request)) == f"/made-up-{n}/"
    assert len(node.kept) == 3


def test_a_signed_in_page_through_the_client_shows_the_reader() -> None:
    client = Client()
    eve: Any = UserFactory(username="eve")
    client.force_login(eve)
    body = client.get("/clubs/").content.decode()
    assert ">eve</a>" in body
    client.logout()
    body = client.get("/clubs/").content.decode()
    assert "eve" not in body and "Log in" in body


def test_a_readers_value_is_shown_as_it_is_even_if_it_looks_like_a_placeholder() -> None:
    source = '{% frame "x" a=one b=two %}{{ a }}|{{ b }}{% endframe %}'
    assert _render(source, one="\x1fframe:b\x1f", two="token") == "\x1fframe:b\x1f|token"
