"""Issue 10, security 6 and 7: where a ``next`` may send a person; what a new account's
password and user name may be; what a display, club or tournament name may contain; and
sign-ins throttled after too many failures (the login page, the API's token endpoint,
the admin's login)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from core import text
from core.errors import Conflict
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    member,
    running_tournament,
)
from tournaments.api.serializers import ClubInput, TournamentUpdateInput
from tournaments.models import AccountName, Club, Match, MatchStatus, Player, Role, Tournament
from tournaments.services import people, swiss
from tournaments.web.forms import ClubForm, SignUpForm

pytestmark = pytest.mark.django_db
User = get_user_model()

# --- 6. open redirects ------------------------------------------------------------------------

#: Every ``next`` here must be ignored: another site, what a browser reads as another site,
#: another scheme, or something our own links never contain.
HOSTILE_NEXTS = [
    "https://elsewhere.example/",
    "http://elsewhere.example",
    "//elsewhere.example/",
    "///elsewhere.example/",
    "/\\elsewhere.example/",
    "\\\\elsewhere.example/",
    "https:elsewhere.example",
    "https:/\\elsewhere.example",
    "http://testserver@elsewhere.example/",
    " //elsewhere.example/",
    "\t//elsewhere.example/",
    "/\t/elsewhere.example/",
    "/\n/elsewhere.example/",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "elsewhere.example",
    "/ok\r\nSet-Cookie: stolen=1",
]


def _sign_up_data(username: str = "nina", **extra: str) -> dict[str, str]:
    return {"username": username, "display_name": "Nina", "password": "quiet-harbour-47", **extra}


@pytest.mark.parametrize("target", HOSTILE_NEXTS)
def test_sign_up_never_follows_a_hostile_next_in_the_query_or_the_form(
    client: Client, target: str
) -> None:
    response = client.post(reverse("signup") + "?" + _query(target), _sign_up_data("nina"))
    assert response.status_code == 302 and response["Location"] == reverse("home")
    client.logout()
    response = client.post(reverse("signup"), _sign_up_data("nina2", next=target))
    assert response.status_code == 302 and response["Location"] == reverse("home")


def _query(target: str) -> str:
    from urllib.parse import urlencode

    return urlencode({"next": target})


@pytest.mark.parametrize("target", HOSTILE_NEXTS)
def test_login_and_logout_never_follow_a_hostile_next(client: Client, target: str) -> None:
    UserFactory(username="nina")
    page = client.get(reverse("login"), {"next": target})
    assert page.context["next"] == ""
    response = client.post(
        reverse("login"), {"username": "nina", "password": "pass-word-123", "next": target}
    )
    assert response.status_code == 302 and response["Location"] == reverse("home")
    response = client.post(reverse("logout"), {"next": target})
    assert response.status_code == 302 and response["Location"] == reverse("home")


def _judged_match() -> tuple[Tournament, Match, Any, Any]:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    judge = member(tournament.club, Role.JUDGE)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    match = Match.objects.filter(round=rnd, b__isnull=False).first()
    assert match is not None
    return tournament, match, organiser, judge


#: The match page's grid filled in: the first player wins two game rounds to none.
SCORES = {"g1_r1_a": "10", "g1_r1_b": "5", "g1_r2_a": "10", "g1_r2_b": "5"}


@pytest.mark.parametrize("target", HOSTILE_NEXTS)
def test_round_registration_and_match_posts_never_follow_a_hostile_next(
    client: Client, target: str
) -> None:
    tournament, match, organiser, judge = _judged_match()
    client.force_login(judge)
    url = reverse("match", args=[tournament.pk, match.pk])
    page = client.get(url, {"next": target}).content.decode()
    assert 'name="next"' not in page and "Back to the results grid" not in page
    response = client.post(url, {"action": "judge", "next": target, **SCORES})
    assert response.status_code == 302 and response["Location"] == url
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED

    client.force_login(organiser)
    response = client.post(
        reverse("round-action", args=[tournament.pk, "extend"]), {"next": target}
    )
    assert response["Location"] == reverse("round-current", args=[tournament.pk])
    response = client.post(
        reverse("round-action", args=[tournament.pk, "extend"]) + "?" + _query(target)
    )
    assert response["Location"] == reverse("round-current", args=[tournament.pk])
    response = client.post(
        reverse("registration-action", args=[tournament.pk, match.a_id, "drop"]),
        {"next": target},
    )
    assert response["Location"] == reverse("standings", args=[tournament.pk])


def test_a_next_on_this_site_is_still_followed_everywhere(client: Client) -> None:
    tournament, match, organiser, judge = _judged_match()
    grid = reverse("judge", args=[tournament.pk]) + "?round=1&status=pending"
    response = client.post(reverse("signup") + "?" + _query(grid), _sign_up_data("nina"))
    assert response["Location"] == grid
    client.post(reverse("logout"))
    response = client.post(
        reverse("login"),
        {"username": "nina", "password": "quiet-harbour-47", "next": grid},
    )
    assert response["Location"] == grid
    response = client.post(reverse("logout"), {"next": grid})
    assert response["Location"] == grid
    client.force_login(judge)
    url = reverse("match", args=[tournament.pk, match.pk])
    response = client.post(url, {"action": "judge", "next": grid, **SCORES})
    assert response["Location"] == grid
    client.force_login(organiser)
    history = reverse("history", args=[tournament.pk])
    response = client.post(
        reverse("round-action", args=[tournament.pk, "extend"]), {"next": history}
    )
    assert response["Location"] == history


# --- 7a. passwords ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("password", "too common"),
        ("12345678", "entirely numeric"),
        ("short", "too short"),
        ("nina-kowalska", "too similar"),
    ],
)
def test_sign_up_refuses_a_password_the_validators_refuse(
    client: Client, password: str, why: str
) -> None:
    response = client.post(
        reverse("signup"), _sign_up_data("nina-kowalska", password=password, email="n@x.example")
    )
    assert response.status_code == 200
    assert any(why in e for e in response.context["form"].errors["password"])
    assert not User.objects.exists()


def test_sign_up_accepts_a_good_password(client: Client) -> None:
    response = client.post(reverse("signup"), _sign_up_data("nina"))
    assert response.status_code == 302
    assert User.objects.get(username="nina").check_password("quiet-harbour-47")


# --- 7b. user names ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["ADMIN", "Admin", "ＡＤＭＩＮ", "ａｄｍｉｎ"])  # noqa: RUF001
def test_a_user_name_in_another_case_or_width_is_taken(client: Client, variant: str) -> None:
    UserFactory(username="admin")
    response = client.post(reverse("signup"), _sign_up_data(variant))
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == ["That user name is taken."]
    assert User.objects.count() == 1


def test_a_full_width_user_name_is_stored_in_plain_letters(client: Client) -> None:
    response = client.post(reverse("signup"), _sign_up_data("ｎｉｎａ＿１"))  # noqa: RUF001
    assert response.status_code == 302
    assert User.objects.get().username == "nina_1"


LOOKS_ALIKE = "That name looks like another player's: choose another."


def test_sign_up_refuses_a_user_name_mixing_alphabets(client: Client) -> None:
    response = client.post(reverse("signup"), _sign_up_data("\u0440layer20"))  # Cyrillic er
    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert any("cannot mix alphabets (this one has Cyrillic and Latin" in e for e in errors)
    assert not User.objects.exists()


@pytest.mark.parametrize("made_by", ["sign-up", "admin"])
@pytest.mark.parametrize("variant", ["ORGANİSER", "0rganiser", "organlser", "orga\u0144iser"])
def test_sign_up_refuses_a_user_name_that_looks_like_another_account(
    client: Client, made_by: str, variant: str
) -> None:
    if made_by == "sign-up":
        people.sign_up(username="organiser", email="", password="quiet-harbour-47")
    else:  # an account without a stored skeleton (the admin's, createsuperuser's)
        UserFactory(username="organiser")
    response = client.post(reverse("signup"), _sign_up_data(variant))
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == [LOOKS_ALIKE]
    assert list(User.objects.values_list("username", flat=True)) == ["organiser"]


def test_two_look_alike_sign_ups_at_once_cannot_both_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The database refuses the second one (``AccountName.skeleton`` is unique) when both
    passed the check before either committed: played here by skipping the check."""
    people.sign_up(username="organiser", email="", password="quiet-harbour-47")
    monkeypatch.setattr(people, "_refuse_look_alike", text.username_skeleton)
    with pytest.raises(Conflict) as refused:
        people.sign_up(username="ORGANİSER", email="", password="quiet-harbour-47")
    assert refused.value.code == "username_looks_alike"
    assert list(User.objects.values_list("username", flat=True)) == ["organiser"]
    assert Player.objects.count() == 1


def test_a_new_account_stores_what_its_name_looks_like(client: Client) -> None:
    assert client.post(reverse("signup"), _sign_up_data("Nina")).status_code == 302
    assert AccountName.objects.get().skeleton == "nlna"


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("ad\u200bmin", "invisible or control characters (found U+200B ZERO WIDTH SPACE)"),
        ("admin\u2060", "invisible or control characters (found U+2060 WORD JOINER)"),
        ("\u202enimda", "invisible or control characters (found U+202E RIGHT-TO-LEFT OVERRIDE)"),
        ("<b>nina</b>", "only letters, digits and . _ - @ +"),
        ("nina kowalska", "only letters, digits and . _ - @ +"),
        ("nina;drop", "only letters, digits and . _ - @ +"),
    ],
)
def test_sign_up_refuses_invisible_characters_and_markup_in_a_user_name(
    client: Client, username: str, message: str
) -> None:
    response = client.post(reverse("signup"), _sign_up_data(username))
    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert any(message in e for e in errors), errors
    assert not User.objects.exists()


def test_sign_in_finds_the_account_in_any_case_and_width(client: Client) -> None:
    UserFactory(username="Nina")
    for typed in ("nina", "NINA", "Ｎｉｎａ"):  # noqa: RUF001
        response = client.post(reverse("login"), {"username": typed, "password": "pass-word-123"})
        assert response.status_code == 302, typed
        assert int(client.session["_auth_user_id"]) == User.objects.get(username="Nina").pk
        client.logout()
    token = APIClient().post(
        "/api/v1/auth/token/", {"username": "NINA", "password": "pass-word-123"}, format="json"
    )
    assert token.status_code == 200 and token.json()["token"]


def test_an_exact_user_name_wins_over_another_account_differing_only_by_case(
    client: Client,
) -> None:
    """Accounts made before names were compared case-insensitively may differ by case."""
    UserFactory(username="nina", password="first-account-1")
    UserFactory(username="Nina", password="second-account-2")
    assert client.login(username="Nina", password="second-account-2")
    client.logout()
    assert not client.login(username="NINA", password="second-account-2")  # ambiguous


# --- 7c. names: display, club, tournament -----------------------------------------------------

HIDDEN = [
    ("Ann\u202eevil", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("Ann\u2066x\u2069", "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("An\u200bn", "U+200B ZERO WIDTH SPACE"),
    ("Ann\u00ad", "U+00AD SOFT HYPHEN"),
    ("Ann\x07", "U+0007"),
    ("Ann\u2028Bob", "U+2028 LINE SEPARATOR"),
]


@pytest.mark.parametrize(("name", "found"), HIDDEN)
def test_display_names_refuse_invisible_and_control_characters(
    client: Client, name: str, found: str
) -> None:
    response = client.post(reverse("signup"), _sign_up_data("nina", display_name=name))
    assert response.status_code == 200
    [error] = response.context["form"].errors["display_name"]
    assert error.startswith("The display name cannot contain invisible or control characters")
    assert f"(found {found})" in error
    assert not User.objects.exists()

    player = PlayerFactory(display_name="Ann")
    client.force_login(player.user)
    response = client.post(reverse("profile"), {"display_name": name})
    assert response.status_code == 200
    assert f"(found {found})" in response.context["form"].errors["display_name"][0]
    player.refresh_from_db()
    assert player.display_name == "Ann"


@pytest.mark.parametrize("bad", ["A\x00nn", "Ann\ud800"])
def test_nul_bytes_and_lone_surrogates_in_names_are_refused_by_forms_and_serializers(
    client: Client, api_as: Any, bad: str
) -> None:
    """The forms and serializers refuse them themselves (``core.text``), whatever refuses
    them earlier on the way in."""
    form = SignUpForm(data=_sign_up_data("nina", display_name=bad))
    assert not form.is_valid() and "display_name" in form.errors
    for form_class in (ClubForm,):
        form = form_class(data={"name": bad})
        assert not form.is_valid() and "name" in form.errors
    for serializer_class in (ClubInput, TournamentUpdateInput):
        serializer = serializer_class(data={"name": bad})
        assert not serializer.is_valid() and "name" in serializer.errors
    if bad == "A\x00nn":  # a lone surrogate cannot be sent in a form post (UTF-8)
        response = client.post(reverse("signup"), _sign_up_data("nina", display_name=bad))
        assert 400 <= response.status_code < 500 or response.context["form"].errors
    response = api_as(UserFactory()).post(
        "/api/v1/clubs/",
        data=json.dumps({"name": bad}, ensure_ascii=True),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert not User.objects.filter(username="nina").exists()
    assert not Club.objects.exists()


def test_a_display_name_is_stored_in_canonical_form_on_one_line(client: Client) -> None:
    response = client.post(
        reverse("signup"), _sign_up_data("nina", display_name="  Zoe\u0308   van   Dijk ")
    )
    assert response.status_code == 302
    assert Player.objects.get().display_name == "Zo\u00eb van Dijk"


@pytest.mark.parametrize(("name", "found"), HIDDEN)
def test_club_and_tournament_names_refuse_invisible_characters_on_the_pages(
    client: Client, name: str, found: str
) -> None:
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("club-create"), {"name": name})
    assert response.status_code == 200
    assert f"(found {found})" in response.context["form"].errors["name"][0]
    assert not Club.objects.exists()

    club = ClubFactory()
    client.force_login(member(club, Role.ORGANISER))
    data = {
        "name": name,
        "game": "kontsina",
        "best_of": 1,
        "capacity": 12,
        "scheduled_start": "2099-01-01T10:00",
    }
    response = client.post(reverse("tournament-create", args=[club.slug]), data)
    assert response.status_code == 200
    assert f"(found {found})" in response.context["form"].errors["name"][0]
    assert not Tournament.objects.exists()
    tournament = TournamentFactory(club=club, name="Friday")
    response = client.post(reverse("tournament-edit", args=[tournament.pk]), data)
    assert response.status_code == 200
    assert f"(found {found})" in response.context["form"].errors["name"][0]
    tournament.refresh_from_db()
    assert tournament.name == "Friday"


def test_descriptions_keep_line_breaks_but_refuse_overrides(client: Client) -> None:
    client.force_login(UserFactory())
    response = client.post(
        reverse("club-create"), {"name": "Owls", "description": "Fridays\n\u202eevil"}
    )
    assert response.status_code == 200
    assert "U+202E" in response.context["form"].errors["description"][0]
    response = client.post(
        reverse("club-create"), {"name": "Owls", "description": "Fridays\r\nat 7\tpm"}
    )
    assert response.status_code == 302
    assert Club.objects.get().description == "Fridays\r\nat 7\tpm"


def _tournament_input(club: Club, **overrides: Any) -> dict[str, Any]:
    return {
        "club": club.slug,
        "name": "Friday",
        "game": "kontsina",
        "capacity": 16,
        "scheduled_start": "2099-01-01T10:00:00Z",
        **overrides,
    }


#: (name, the character named in the refusal, refused in free text too)
API_HIDDEN = [
    ("Ann\u202eevil", "U+202E RIGHT-TO-LEFT OVERRIDE", True),
    ("Ann\u2066x\u2069", "U+2066 LEFT-TO-RIGHT ISOLATE", True),
    ("An\u200bn", "U+200B ZERO WIDTH SPACE", False),
    ("Ann\x07", "U+0007", True),
]


@pytest.mark.parametrize(("name", "found", "refused_in_text"), API_HIDDEN)
def test_the_api_refuses_invisible_characters_in_club_and_tournament_names(
    api_as: Any, name: str, found: str, refused_in_text: bool
) -> None:
    user = UserFactory()
    client = api_as(user)
    response = client.post("/api/v1/clubs/", {"name": name}, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid" and "name" in body["fields"]
    assert f"(found {found})" in body["detail"]
    assert not Club.objects.exists()

    club = ClubFactory()
    organiser = api_as(member(club, Role.ORGANISER))
    response = organiser.post("/api/v1/tournaments/", _tournament_input(club, name=name))
    assert response.status_code == 400 and "name" in response.json()["fields"]
    assert f"(found {found})" in response.json()["detail"]
    tournament = TournamentFactory(club=club, name="Friday")
    response = organiser.patch(f"/api/v1/tournaments/{tournament.pk}/", {"name": name})
    assert response.status_code == 400 and "name" in response.json()["fields"]
    tournament.refresh_from_db()
    assert tournament.name == "Friday"
    response = organiser.post(
        "/api/v1/tournaments/", _tournament_input(club, description=f"Notes: {name}")
    )
    if refused_in_text:
        assert response.status_code == 400 and "description" in response.json()["fields"]
    else:  # invisible but harmless in free text (no reordering, no control)
        assert response.status_code == 201


def test_the_api_stores_names_in_canonical_form(api_as: Any) -> None:
    client = api_as(UserFactory())
    response = client.post("/api/v1/clubs/", {"name": "  Caf\u0065\u0301  Owls "}, format="json")
    assert response.status_code == 201
    assert Club.objects.get().name == "Caf\u00e9 Owls"


# --- 7d. sign-in throttling -------------------------------------------------------------------


def _page_sign_in(client: Client, username: str, password: str, address: str = "127.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def _token(username: str, password: str, address: str = "127.0.0.1"):
    return APIClient(REMOTE_ADDR=address).post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json"
    )


def test_forty_wrong_passwords_then_the_right_one_is_refused_on_the_api() -> None:
    UserFactory(username="nina")
    for _ in range(40):
        assert _token("nina", "guess").status_code in (400, 429)
    response = _token("nina", "pass-word-123")
    assert response.status_code == 429
    assert response.json() == {
        "code": "too_many_sign_ins",
        "detail": "Too many failed sign-ins: try again in 15 minutes.",
    }
    assert 840 <= int(response["Retry-After"]) <= 900


def test_the_login_page_refuses_even_the_right_password_after_too_many_failures(
    client: Client, settings: Any
) -> None:
    UserFactory(username="nina")
    for _ in range(settings.LOGIN_FAILURE_LIMIT_PER_USERNAME):
        response = _page_sign_in(client, "nina", "guess")
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()
    response = _page_sign_in(client, "nina", "pass-word-123")
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [
        "Too many failed sign-ins: try again in 15 minutes."
    ]
    assert "_auth_user_id" not in client.session
    # The same name is refused on the API, and from another address: it is the name.
    assert _token("nina", "pass-word-123", address="10.1.2.3").status_code == 429
    # Another person signs in from the same address.
    UserFactory(username="olga")
    assert _page_sign_in(client, "olga", "pass-word-123").status_code == 302


def test_failures_count_for_a_name_in_any_case_or_width(client: Client, settings: Any) -> None:
    settings.LOGIN_FAILURE_LIMIT_PER_USERNAME = 3
    UserFactory(username="nina")
    for typed in ("nina", "NINA", "Ｎｉｎａ"):  # noqa: RUF001
        _page_sign_in(client, typed, "guess")
    response = _page_sign_in(client, "nina", "pass-word-123")
    assert response.status_code == 200 and "Too many failed sign-ins" in response.content.decode()


def test_too_many_failures_from_one_address_refuse_every_name_from_it(
    client: Client, settings: Any
) -> None:
    settings.LOGIN_FAILURE_LIMIT_PER_ADDRESS = 4
    UserFactory(username="olga")
    for n in range(4):  # a different name each time: only the address adds up
        assert _token(f"nobody{n}", "guess", address="192.0.2.7").status_code == 400
    response = _token("olga", "pass-word-123", address="192.0.2.7")
    assert response.status_code == 429 and response["Retry-After"]
    response = _page_sign_in(client, "olga", "pass-word-123", address="192.0.2.7")
    assert "Too many failed sign-ins" in response.content.decode()
    # Another address is not concerned; IPv6 counts by /64.
    assert _token("olga", "pass-word-123", address="192.0.2.8").status_code == 200
    for n in range(4):
        _token(f"nobody{n}", "guess", address=f"2001:db8:1:2::{n + 1}")
    assert _token("olga", "pass-word-123", address="2001:db8:1:2::99").status_code == 429
    assert _token("olga", "pass-word-123", address="2001:db8:1:3::1").status_code == 200


def test_the_admin_login_is_throttled_too(client: Client, settings: Any) -> None:
    settings.LOGIN_FAILURE_LIMIT_PER_USERNAME = 2
    UserFactory(username="root", is_staff=True, is_superuser=True)
    for _ in range(2):
        client.post("/admin/login/", {"username": "root", "password": "guess"})
    client.post("/admin/login/", {"username": "root", "password": "pass-word-123"})
    assert "_auth_user_id" not in client.session


def test_a_successful_sign_in_clears_its_names_failures(client: Client, settings: Any) -> None:
    settings.LOGIN_FAILURE_LIMIT_PER_USERNAME = 3
    UserFactory(username="nina")
    for _ in range(2):
        for _ in range(2):
            _page_sign_in(client, "nina", "guess")
        assert _page_sign_in(client, "nina", "pass-word-123").status_code == 302
        client.logout()


def test_sign_ins_are_allowed_again_when_the_window_closes(settings: Any) -> None:
    settings.LOGIN_FAILURE_LIMIT_PER_USERNAME = 2
    settings.LOGIN_FAILURE_WINDOW_SECONDS = 1
    UserFactory(username="nina")
    for _ in range(2):
        _token("nina", "guess")
    refused = _token("nina", "pass-word-123")
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert refused.json()["detail"] == "Too many failed sign-ins: try again in 1 minute."
    time.sleep(1.5)
    assert _token("nina", "pass-word-123").status_code == 200


def test_throttling_works_with_the_embedded_defaults_local_memory_cache(
    settings: Any,
) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.LOGIN_FAILURE_LIMIT_PER_USERNAME = 3
    UserFactory(username="nina")
    for _ in range(3):
        assert _token("nina", "guess").status_code == 400
    assert _token("nina", "pass-word-123").status_code == 429


def test_the_token_endpoint_documents_its_429(api: APIClient) -> None:
    schema = api.get("/api/schema/", {"format": "json"}).json()
    responses = schema["paths"]["/api/v1/auth/token/"]["post"]["responses"]
    assert {"200", "400", "429"} <= set(responses)


def test_throttling_leaves_signed_in_sessions_and_tokens_alone(
    client: Client, api_as: Any, settings: Any
) -> None:
    """Only password checks are refused: people already signed in (a session, a token)
    from a throttled address go on working."""
    settings.LOGIN_FAILURE_LIMIT_PER_ADDRESS = 1
    nina = PlayerFactory(user__username="nina").user
    assert _token("nobody", "guess").status_code == 400
    assert _token("nina", "pass-word-123").status_code == 429
    client.force_login(nina)
    assert client.get(reverse("profile")).status_code == 200
    assert api_as(nina).get("/api/v1/me/").json()["username"] == "nina"
