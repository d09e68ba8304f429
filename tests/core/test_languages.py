"""The reader's language (issue 25, core/languages.py): the account's choice, else the
switcher's cookie, else the browser's, else the club's, else English; the switcher on
every page; the profile's and the club's settings; pages kept per language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from core.audit import AuditEntry
from tests.factories import PlayerFactory, TournamentFactory, member
from tournaments.models import Club, Player, Role
from tournaments.services import clubs, people

pytestmark = pytest.mark.django_db

HOME = "/"


def _heading(client: Client, path: str = HOME, **headers: str) -> tuple[str, str]:
    response = client.get(path, **headers)
    assert response.status_code == 200
    page = response.content.decode()
    return response["Content-Language"], page[page.index("<html") : page.index("<body")]


def test_english_without_any_choice() -> None:
    language, head = _heading(Client())
    assert language == "en" and '<html lang="en">' in head


def test_the_browsers_first_language_the_site_has() -> None:
    response = Client().get(HOME, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,fr-CA;q=0.8,en;q=0.5")
    assert response["Content-Language"] == "fr"
    assert "Accept-Language" in response["Vary"]
    assert "Tournois pour les clubs" in response.content.decode()  # fr-CA is read as French


def test_the_switchers_cookie_wins_over_the_browser() -> None:
    client = Client()
    response = client.get(reverse("choose-language"), {"language": "el", "next": "/tournaments/"})
    assert response.status_code == 302 and response["Location"] == "/tournaments/"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "el" and cookie["httponly"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == settings.LANGUAGE_COOKIE_AGE
    language, head = _heading(client, HTTP_ACCEPT_LANGUAGE="fr")
    assert language == "el" and '<html lang="el">' in head


@pytest.mark.parametrize("asked", ["xx", "", "fr-FR", "<script>", "e" * 500])
def test_an_unknown_language_is_refused_by_name_and_nothing_is_set(asked: str) -> None:
    response = Client().get(reverse("choose-language"), {"language": asked, "next": "/x/"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Not a language of this site" in page and "Français" in page and "Ελληνικά" in page
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_the_switcher_goes_back_only_to_a_page_of_this_site() -> None:
    response = Client().get(
        reverse("choose-language"), {"language": "fr", "next": "https://elsewhere.example/"}
    )
    assert response["Location"] == reverse("home")


def test_every_page_has_the_switcher_with_each_language_in_its_own_name() -> None:
    page = Client().get("/tournaments/?page=2").content.decode()
    switcher = page[page.index('<nav class="languages"') :]
    switcher = switcher[: switcher.index("</nav>")]
    for code, name in (("en", "English"), ("fr", "Français"), ("el", "Ελληνικά")):
        assert f'lang="{code}"' in switcher and f">{name}</a>" in switcher
    # Back to the same page, its query kept.
    assert "next=/tournaments/%3Fpage%3D2" in switcher
    assert 'aria-current="true">English' in switcher


def test_the_profiles_language_follows_the_player_to_every_device() -> None:
    player = PlayerFactory()
    people.set_language(user=player.user, language="fr")
    phone, laptop = Client(), Client()
    phone.force_login(player.user)  # a new sign-in: the profile's language in the session
    assert _heading(phone, HTTP_ACCEPT_LANGUAGE="el")[0] == "fr"
    # Picked on this device: it wins here until the next sign-in.
    phone.get(reverse("choose-language"), {"language": "el"})
    assert _heading(phone)[0] == "el"
    laptop.force_login(player.user)
    assert _heading(laptop)[0] == "fr"


def test_the_profile_form_sets_the_language_and_says_so_in_it() -> None:
    player = PlayerFactory(display_name="Zoé")
    client = Client()
    client.force_login(player.user)
    response = client.post(
        reverse("profile"), {"display_name": "Zoé", "language": "el"}, follow=True
    )
    assert response["Content-Language"] == "el"
    assert Player.objects.get(pk=player.pk).language == "el"
    entry = AuditEntry.objects.get(action="player.language_set")
    assert entry.params == {"language": "el"}
    # Back to the browser's: no choice.
    client.post(reverse("profile"), {"display_name": "Zoé", "language": ""})
    assert Player.objects.get(pk=player.pk).language == ""
    assert _heading(client, HTTP_ACCEPT_LANGUAGE="fr")[0] == "fr"


def test_the_profile_refuses_a_language_the_site_has_not() -> None:
    player = PlayerFactory()
    client = Client()
    client.force_login(player.user)
    response = client.post(reverse("profile"), {"display_name": "Ann", "language": "de"})
    assert response.status_code == 200  # the form again, with the error by the field
    assert Player.objects.get(pk=player.pk).language == ""


def test_a_club_page_falls_back_to_the_clubs_language_only_without_a_choice() -> None:
    tournament = TournamentFactory()
    owner = member(tournament.club, Role.OWNER)
    clubs.set_language(actor=owner, club=tournament.club, language="fr")
    path = reverse("tournament-detail", args=[tournament.pk])
    assert Client().get(path, HTTP_ACCEPT_LANGUAGE="de")["Content-Language"] == "fr"
    assert Client().get(path)["Content-Language"] == "fr"
    club_page = reverse("club-detail", args=[tournament.club.slug])
    assert Client().get(club_page)["Content-Language"] == "fr"
    # A reader who named a language the site has reads theirs.
    assert Client().get(path, HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "en"
    assert Client().get(path, HTTP_ACCEPT_LANGUAGE="el")["Content-Language"] == "el"
    # Elsewhere, English.
    assert Client().get(HOME, HTTP_ACCEPT_LANGUAGE="de")["Content-Language"] == "en"


def test_only_an_owner_sets_the_clubs_language_and_it_is_audited() -> None:
    from core.errors import DomainError

    tournament = TournamentFactory()
    owner = member(tournament.club, Role.OWNER)
    organiser = member(tournament.club, Role.ORGANISER)
    with pytest.raises(DomainError):
        clubs.set_language(actor=organiser, club=tournament.club, language="el")
    with pytest.raises(DomainError) as refused:
        clubs.set_language(actor=owner, club=tournament.club, language="de")
    assert refused.value.code == "unknown_language" and refused.value.field == "language"
    clubs.set_language(actor=owner, club=tournament.club, language="el")
    assert Club.objects.get(pk=tournament.club.pk).language == "el"
    entry = AuditEntry.objects.get(action="club.language_set")
    assert entry.params == {"club": tournament.club.name, "language": "el"}


def test_the_club_page_form_sets_the_language(client: Client) -> None:
    tournament = TournamentFactory()
    owner = member(tournament.club, Role.OWNER)
    client.force_login(owner)
    path = reverse("club-detail", args=[tournament.club.slug])
    assert 'id="language-form"' in client.get(path).content.decode()
    response = client.post(path, {"form": "language", "lang-language": "el"}, follow=True)
    assert Club.objects.get(pk=tournament.club.pk).language == "el"
    assert "Ελληνικά" in response.content.decode()


def test_a_kept_anonymous_page_is_kept_per_language() -> None:
    """The server's copy of a public page: one per language, and one for the readers whose
    language the page's club chose (never served to a reader who asked for English)."""
    from tests.factories import running_tournament

    tournament, _, _ = running_tournament(4)
    owner = member(tournament.club, Role.OWNER)
    clubs.set_language(actor=owner, club=tournament.club, language="fr")
    path = reverse("standings", args=[tournament.pk])
    french = Client().get(path, HTTP_ACCEPT_LANGUAGE="de")  # the club's: French
    english = Client().get(path, HTTP_ACCEPT_LANGUAGE="en")
    greek = Client().get(path, HTTP_ACCEPT_LANGUAGE="el")
    assert [r["Content-Language"] for r in (french, english, greek)] == ["fr", "en", "el"]
    assert len({french["ETag"], english["ETag"], greek["ETag"]}) == 3
    assert "Accept-Language" in english["Vary"]
    # (A fresh change's ETag also carries a 2-second slice of time: compare the pages.)
    again = Client().get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert again["Content-Language"] == "en" and again.content == english.content
    assert french.content != english.content


def test_the_english_possessive_only_in_english() -> None:
    """``core.text.possessive`` is English grammar ("Ada's report"); the translations say
    whose around the plain name ("le rapport de Ada" is the translator's phrase)."""
    from django.utils import translation

    from core.text import possessive

    assert possessive("Ada") == "Ada's" and possessive("The Aces") == "The Aces'"
    with translation.override("fr"):
        assert possessive("Ada") == "Ada"
    with translation.override("el"):
        assert possessive("Jonas") == "Jonas"


@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", ["Classement", "Appariements"]), ("el", ["Κατάταξη", "Ζευγαρώματα"])],
)
def test_a_tournaments_pages_speak_the_readers_language(language: str, words: list[str]) -> None:
    from tests.factories import running_tournament

    tournament, _, _ = running_tournament(4)
    page = Client().get(reverse("standings", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE=language)
    text = page.content.decode()
    assert page["Content-Language"] == language
    assert all(word in text for word in words), words


def test_the_readers_language_ends_with_the_request() -> None:
    """A thread that served a Greek page speaks English again after it (a task or a test
    run next on the thread must not inherit the reader's language)."""
    from django.utils import translation

    Client().get(HOME, HTTP_ACCEPT_LANGUAGE="el")
    assert translation.get_language() == "en"


def test_the_profiles_name_and_language_are_saved_together_or_not_at_all() -> None:
    from core.errors import DomainError

    player = PlayerFactory(display_name="Ann")
    with pytest.raises(DomainError) as refused:
        people.update_profile(user=player.user, display_name="Anna", language="de")
    assert refused.value.code == "unknown_language"
    assert Player.objects.get(pk=player.pk).display_name == "Ann"  # nothing half-saved
    people.update_profile(user=player.user, display_name="Anna", language="fr")
    saved = Player.objects.get(pk=player.pk)
    assert (saved.display_name, saved.language) == ("Anna", "fr")


# --- the same choice where no middleware runs (websockets, refusals made before it) ---------


@pytest.mark.parametrize(
    ("session", "cookies", "header", "expected"),
    [
        ({"language": "el"}, {"django_language": "fr"}, "fr", ("el", "account")),
        ({"language": "xx"}, {"django_language": "fr"}, "el", ("fr", "cookie")),
        (None, {"django_language": "fr"}, "el", ("fr", "cookie")),
        (None, {"django_language": "xx"}, "de-DE,de;q=0.9,el;q=0.5", ("el", "browser")),
        (None, {}, "fr-CH", ("fr", "browser")),
        (None, {}, "de, *, fr", (None, "default")),  # "*" ends the browser's list
        (None, {}, "", (None, "default")),
    ],
)
def test_the_choice_in_order_from_session_cookie_and_browser(
    session: dict[str, str] | None,
    cookies: dict[str, str],
    header: str,
    expected: tuple[str | None, str],
) -> None:
    from core.languages import chosen, language_from

    assert chosen(session, cookies, header) == expected
    assert language_from(session, cookies, header) == (expected[0] or settings.LANGUAGE_CODE)


def test_a_sockets_language_from_its_handshake() -> None:
    """A websocket's scope: the cookie header (or Channels' parsed cookies), the session
    only when the browser sent its cookie, then ``Accept-Language``."""
    from core.live import language_of

    def scope(headers: list[tuple[bytes, bytes]], **more: object) -> dict[str, object]:
        return {"headers": headers, **more}

    assert language_of(scope([])) == "en"
    assert language_of(scope([(b"accept-language", b"el-GR,el;q=0.9")])) == "el"
    french_cookie = (b"cookie", b"csrftoken=x; django_language=fr")
    assert language_of(scope([french_cookie, (b"accept-language", b"el")])) == "fr"
    assert language_of(scope([], cookies={"django_language": "el"})) == "el"
    greek_session = {"language": "el"}
    without_cookie = scope([(b"cookie", b"django_language=fr")], session=greek_session)
    assert language_of(without_cookie) == "fr"  # no session cookie: the session is not read
    with_cookie = scope([(b"cookie", b"sessionid=abc; django_language=fr")], session=greek_session)
    assert language_of(with_cookie) == "el"
