"""Bad input is a 4xx with a code, never a 500 (issue 10, defect 10).

NUL characters, superscript digits, numbers of thousands of digits, JSON nested 100,000
deep, bodies of megabytes, misspelt keys; and every error under ``/api/`` as JSON
``{"code", "detail"}`` while pages keep their HTML.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import member, running_tournament
from tournaments.models import Match, ResultReport, Role, Round, Tournament
from tournaments.services import swiss

pytestmark = pytest.mark.django_db

BIG = "9" * 5000
#: A number that fits Python's parser but no column (a bigint holds 19 digits).
HUGE = "9" * 25
DEEP = "[" * 100_000 + "]" * 100_000


@dataclass
class World:
    tournament: Tournament
    organiser: User
    round: Round
    match: Match
    player: User

    @property
    def t(self) -> int:
        return self.tournament.pk


@pytest.fixture
def world() -> World:
    tournament, organiser, _ = running_tournament(4, game="vanilla_gwent")
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.filter(round=rnd, b__isnull=False).select_related("a__player").first()
    assert match is not None
    return World(tournament, organiser, rnd, match, match.a.player.user)


def as_page_user(user: User) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def as_api_user(user: User) -> APIClient:
    from rest_framework.authtoken.models import Token

    client = APIClient(raise_request_exception=False)
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def assert_api_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["code"] == code, body
    assert body["detail"], body
    return dict(body)


def assert_page_400(response: Any) -> str:
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"].startswith("text/html")
    return str(response.content.decode())


# --- NUL ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/tournaments/?q=%00",
        "/tournaments/?game=%00",
        "/tournaments/?status=%00",
        "/tournaments/?q=ok&%00=1",
        "/invitations/%00abc/",
        "/tournaments/{t}/judge/?round=%00",
        "/tournaments/{t}/judge/?status=%00",
        "/tournaments/{t}/rounds/1/?by=%00",
    ],
)
def test_a_nul_in_a_page_address_is_a_plain_400_page(world: World, url: str) -> None:
    response = as_page_user(world.organiser).get(url.format(t=world.t))
    text = assert_page_400(response)
    assert "null character" in text and "try again" in text


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/tournaments/{t}/late-entrant/", {"username": "\x00"}),
        ("/clubs/new/", {"name": "Club\x00", "description": ""}),
        ("/tournaments/{t}/do/start-round/", {"minutes": "5\x00"}),
    ],
)
def test_a_nul_in_a_posted_form_is_a_plain_400_page(world: World, url: str, data: dict) -> None:
    response = as_page_user(world.organiser).post(url.format(t=world.t), data)
    assert "null character" in assert_page_400(response)


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/tournaments/?search=%00",
        "/api/v1/tournaments/?game=%00",
        "/api/v1/tournaments/?club=%00",
        "/api/v1/tournaments/?status=%00",
        "/api/v1/tournaments/?ordering=%00",
        "/api/v1/tournaments/?starts_after=%00",
        "/api/v1/tournaments/?page=%00",
        "/api/v1/clubs/?search=%00",
        "/api/v1/clubs/?ordering=name%00",
        "/api/v1/tournaments/{t}/matches/?status=%00",
        "/api/v1/tournaments/{t}/matches/?round=%00",
        "/api/v1/tournaments/{t}/events/?after=%00",
        "/api/v1/tournaments/{t}/export/pairings.csv?round=%00",
    ],
)
def test_a_nul_in_an_api_query_is_a_400_naming_it(world: World, url: str) -> None:
    response = as_api_user(world.organiser).get(url.format(t=world.t))
    body = assert_api_error(response, 400, "null_character")
    assert "null character" in body["detail"]


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/v1/clubs/", {"name": "Club\x00"}),
        ("/api/v1/clubs/", {"name": "Club", "description": "\x00"}),
        (
            "/api/v1/matches/{m}/report/",
            {"games": [{"rounds": [[1, 2]]}], "final": False, "\x00": 1},
        ),
        ("/api/v1/rules/gesoseka/score/", {"fields": [{"cards": ["7H\x00"]}, {}]}),
    ],
)
def test_a_nul_in_a_json_body_is_a_400_and_nothing_is_saved(
    world: World, url: str, body: dict
) -> None:
    client = as_api_user(world.player)
    response = client.post(url.format(m=world.match.pk), body, format="json")
    assert_api_error(response, 400, "null_character")
    assert not ResultReport.objects.exists()


@pytest.mark.parametrize(
    "header",
    [
        {"HTTP_AUTHORIZATION": "Token abc\x00def"},
        {"HTTP_COOKIE": "sessionid=abcdefghijkl\x00mnop"},
    ],
)
@pytest.mark.parametrize("url", ["/api/v1/clubs/", "/clubs/"])
def test_a_nul_in_a_header_is_a_400(world: World, url: str, header: dict[str, str]) -> None:
    """A token or a session cookie with a NUL once reached a query (a 500)."""
    response = Client(raise_request_exception=False).get(url, **header)
    if url.startswith("/api/"):
        assert_api_error(response, 400, "null_character")
    else:
        assert "null character" in assert_page_400(response)


@pytest.mark.parametrize(
    ("url", "body", "code"),
    [
        ("/api/v1/clubs/{club}/members/", '{"username": "\\ud800"}', "invalid_text"),
        ("/api/v1/clubs/{club}/members/", '{"username": "x", "role": NaN}', "parse_error"),
        (
            "/api/v1/rules/generic/outcome/",
            '{"games": [{"rounds": [[1e999, 1]]}]}',
            "number_too_large",
        ),
        ("/api/v1/rules/generic/outcome/", "[" * 40 + "]" * 40, "too_deep"),
        ("/api/v1/rules/generic/outcome/", '{"games": ', "parse_error"),
    ],
)
def test_json_that_no_column_can_hold_is_a_400_naming_why(
    world: World, url: str, body: str, code: str
) -> None:
    client = as_api_user(world.organiser)
    url = url.format(club=world.tournament.club.slug)
    response = client.post(url, body, content_type="application/json")
    assert_api_error(response, 400, code)


# --- digits that are not ASCII digits, numbers with thousands of digits -----------------


@pytest.mark.parametrize("value", ["²", "¹", "٣", "1e3", "-1", BIG, HUGE])
@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/tournaments/{t}/matches/?round={v}",
        "/api/v1/tournaments/{t}/events/?after={v}",
        "/api/v1/tournaments/{t}/export/pairings.json?round={v}",
        "/api/v1/tournaments/{t}/export/pairings.csv?round={v}",
    ],
)
def test_a_number_in_an_api_query_that_is_not_one_is_a_400_naming_it(
    world: World, url: str, value: str
) -> None:
    response = as_api_user(world.organiser).get(url.format(t=world.t, v=value))
    body = assert_api_error(response, 400, "invalid_number")
    assert body["field"] in ("round", "after")


@pytest.mark.parametrize("value", ["²", "¹", BIG, HUGE])
@pytest.mark.parametrize(
    ("url", "field", "extra"),
    [
        ("/api/v1/tournaments/{t}/rounds/1/start/", "minutes", {}),
        ("/api/v1/tournaments/{t}/rounds/1/extend/", "minutes", {}),
        ("/api/v1/tournaments/{t}/rounds/1/swap/", "first", {"second": 1}),
        ("/api/v1/tournaments/{t}/swiss/", "rounds", {}),
        ("/api/v1/rules/generic/outcome/", "best_of", {"games": [{"rounds": [[1, 2]]}]}),
    ],
)
def test_a_number_in_a_json_body_that_is_not_one_is_a_400(
    world: World, url: str, field: str, extra: dict, value: str
) -> None:
    """As a string (``"²"``) DRF's IntegerField refuses it; as a JSON number of 5,000
    digits Python's parser would (in programmers' words), and one of 25 digits would
    reach the database: both are refused before, in words."""
    client = as_api_user(world.organiser)
    method = client.patch if url.endswith("/swiss/") else client.post
    url = url.format(t=world.t)
    if value.isascii():  # a JSON number
        raw = json.dumps({field: "NUMBER", **extra}).replace('"NUMBER"', value)
        response = method(url, raw, content_type="application/json")
        body = assert_api_error(response, 400, "number_too_large")
        assert "too large" in body["detail"] and "sys." not in body["detail"]
    else:  # a JSON string
        response = method(url, {field: value, **extra}, format="json")
        assert_api_error(response, 400, "invalid")


@pytest.mark.parametrize("value", ["²", "¹", BIG, "12345678901"])
@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/tournaments/{t}/do/start-round/", {"minutes": "{v}"}),
        ("/tournaments/{t}/do/extend/", {"minutes": "{v}"}),
        ("/tournaments/{t}/do/swap/", {"first": "{v}", "second": "1"}),
        ("/tournaments/{t}/drafts/seat/", {"pod_size": "{v}", "seconds_per_pick": "60"}),
        ("/tournaments/{t}/drafts/seat/", {"pod_size": "4", "seconds_per_pick": "{v}"}),
        ("/tournaments/{t}/drafts/start/", {"pod": "{v}"}),
    ],
)
def test_a_posted_number_that_is_not_one_is_refused_in_words(
    world: World, url: str, data: dict, value: str
) -> None:
    data = {k: v.format(v=value) for k, v in data.items()}
    response = as_page_user(world.organiser).post(url.format(t=world.t), data, follow=True)
    assert response.status_code == 200
    assert "is not a whole number" in response.content.decode() or "too large" in (
        response.content.decode()
    )


@pytest.mark.parametrize("value", ["²", BIG, HUGE])
def test_a_page_filter_that_is_not_a_number_shows_every_round(world: World, value: str) -> None:
    response = as_page_user(world.organiser).get(f"/tournaments/{world.t}/judge/?round={value}")
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/score/gesoseka/", {"board-deck": "french32", "board-decks": "{v}"}),
        ("/score/gesoseka/", {"board-deck": "french32", "board-decks": "1", "p1-cards": "7H+{v}"}),
        ("/score/kontsina/", {"pile_a": "2C", "pile_b": "3C", "last_capturer": "{v}"}),
    ],
)
@pytest.mark.parametrize("value", ["²", "¹", BIG])
def test_the_score_helper_page_refuses_odd_numbers_in_words(
    client: Client, url: str, data: dict, value: str
) -> None:
    client.raise_request_exception = False
    response = client.post(url, {k: v.format(v=value) for k, v in data.items()})
    assert response.status_code == 200


# --- JSON nested 100,000 deep -----------------------------------------------------------

JSON_ENDPOINTS = [
    ("post", "/api/v1/auth/token/"),
    ("post", "/api/v1/clubs/"),
    ("post", "/api/v1/clubs/{club}/members/"),
    ("post", "/api/v1/clubs/{club}/members/invite/"),
    ("post", "/api/v1/tournaments/"),
    ("patch", "/api/v1/tournaments/{t}/"),
    ("post", "/api/v1/tournaments/{t}/registrations/"),
    ("post", "/api/v1/tournaments/{t}/late-entrants/"),
    ("patch", "/api/v1/tournaments/{t}/swiss/"),
    ("post", "/api/v1/tournaments/{t}/rounds/1/start/"),
    ("post", "/api/v1/tournaments/{t}/rounds/1/extend/"),
    ("post", "/api/v1/tournaments/{t}/rounds/1/swap/"),
    ("post", "/api/v1/matches/{m}/report/"),
    ("post", "/api/v1/matches/{m}/judge/"),
    ("post", "/api/v1/rules/gesoseka/score/"),
    ("post", "/api/v1/rules/generic/outcome/"),
    ("post", "/api/v1/tournaments/{t}/drafts/"),
]


def _url(url: str, world: World) -> str:
    return url.format(t=world.t, m=world.match.pk, club=world.tournament.club.slug)


@pytest.mark.parametrize(("method", "url"), JSON_ENDPOINTS)
def test_json_nested_100000_deep_is_a_400_on_every_endpoint(
    world: World, method: str, url: str
) -> None:
    client = as_api_user(world.organiser)
    response = getattr(client, method)(_url(url, world), DEEP, content_type="application/json")
    assert_api_error(response, 400, "too_deep")


@pytest.mark.parametrize(("method", "url"), JSON_ENDPOINTS)
def test_a_3_mb_body_is_a_json_413_on_every_endpoint(world: World, method: str, url: str) -> None:
    client = as_api_user(world.organiser)
    body = '{"name": "' + "x" * 3_000_000 + '"}'
    response = getattr(client, method)(_url(url, world), body, content_type="application/json")
    assert_api_error(response, 413, "too_large")


def test_a_3_mb_form_under_the_api_is_a_json_413(world: World) -> None:
    client = as_api_user(world.organiser)
    response = client.post("/api/v1/clubs/", {"name": "x" * 3_000_000}, format="multipart")
    assert_api_error(response, 413, "too_large")


def test_a_3_mb_form_on_a_page_is_an_html_413(world: World) -> None:
    response = as_page_user(world.organiser).post("/clubs/new/", {"name": "x" * 3_000_000})
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    assert "too large" in response.content.decode()


# --- unknown keys -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        (
            "/api/v1/rules/vanilla_gwent/outcome/",
            {"games": [{"rounds": [[30, 30]], "alignmnet": ["might", None]}]},
            "games[0].alignmnet",
        ),
        (
            "/api/v1/rules/generic/outcome/",
            {"games": [{"rounds": [[1, 2]]}], "bestof": 3},
            "bestof",
        ),
        (
            "/api/v1/matches/{m}/judge/",
            {"games": [{"rounds": [[30, 20], [20, 30], [30, 30]], "alignmnet": ["might", None]}]},
            "games[0].alignmnet",
        ),
        (
            "/api/v1/matches/{m}/report/",
            {"games": [{"rounds": [[30, 20], [20, 30], [30, 30]], "alignmnet": ["might", None]}]},
            "games[0].alignmnet",
        ),
        (
            "/api/v1/matches/{m}/report/",
            {"games": [{"rounds": [[30, 20]]}], "finale": False},
            "finale",
        ),
    ],
)
def test_a_misspelt_key_in_a_result_is_refused_by_name_and_nothing_is_saved(
    world: World, url: str, body: dict, field: str
) -> None:
    """A misspelt ``"alignment"`` once changed a Vanilla Gwent result without a word."""
    user = world.player if url.endswith("/report/") else world.organiser
    response = as_api_user(user).post(url.format(m=world.match.pk), body, format="json")
    error = assert_api_error(response, 400, "unknown_field")
    assert error["field"] == field
    assert f"'{field.rsplit('.', 1)[-1]}' is not a field" in error["detail"]
    world.match.refresh_from_db()
    assert world.match.status == "pending" and not ResultReport.objects.exists()


#: Every writing operation with a body its serializer takes, plus a key it does not.
WRITES = [
    ("post", "/api/v1/clubs/", {"name": "New club"}),
    ("post", "/api/v1/clubs/{club}/members/", {"username": "someone"}),
    ("patch", "/api/v1/clubs/{club}/members/{membership}/", {"role": "judge"}),
    ("post", "/api/v1/clubs/{club}/members/invite/", {"email": "a@example.com"}),
    (
        "post",
        "/api/v1/tournaments/",
        {
            "club": "{club}",
            "name": "T",
            "game": "generic",
            "capacity": 8,
            "scheduled_start": "2030-01-01T10:00:00Z",
        },
    ),
    ("patch", "/api/v1/tournaments/{t}/", {"name": "T"}),
    ("post", "/api/v1/tournaments/{t}/registrations/", {}),
    ("post", "/api/v1/tournaments/{t}/late-entrants/", {"username": "someone"}),
    ("patch", "/api/v1/tournaments/{t}/swiss/", {"rounds": 3}),
    ("post", "/api/v1/tournaments/{t}/rounds/1/start/", {"minutes": 30}),
    ("post", "/api/v1/tournaments/{t}/rounds/1/extend/", {"minutes": 5}),
    ("post", "/api/v1/tournaments/{t}/rounds/1/swap/", {"first": 1, "second": 2}),
    ("post", "/api/v1/matches/{m}/report/", {"games": [{"rounds": [[1, 2]]}]}),
    ("post", "/api/v1/matches/{m}/judge/", {"games": [{"rounds": [[1, 2]]}]}),
    ("post", "/api/v1/rules/generic/outcome/", {"games": [{"rounds": [[1, 2]]}]}),
]


@pytest.mark.parametrize(("method", "url", "body"), WRITES)
def test_every_writing_operation_refuses_an_unknown_key_by_name(
    world: World, method: str, url: str, body: dict
) -> None:
    club = world.tournament.club
    owner = member(club, Role.OWNER)
    membership = club.memberships.get(user=world.organiser)
    url = url.format(t=world.t, m=world.match.pk, club=club.slug, membership=membership.pk)
    body = {k: (v.format(club=club.slug) if isinstance(v, str) else v) for k, v in body.items()}
    user = world.player if url.endswith("/report/") else owner
    response = getattr(as_api_user(user), method)(url, {**body, "colour": "red"}, format="json")
    error = assert_api_error(response, 400, "unknown_field")
    assert error["field"] == "colour"
    assert "'colour' is not a field" in error["detail"]


# --- errors under /api/ are JSON; pages keep HTML --------------------------------------


@pytest.mark.parametrize(
    ("method", "url", "status", "code"),
    [
        ("get", "/api/v1/nothing-here/", 404, "not_found"),
        ("get", "/api/nothing", 404, "not_found"),
        ("get", "/api/v1/tournaments/abc/", 404, "not_found"),
        ("get", "/api/v1/tournaments/999999/", 404, "not_found"),
        ("get", "/api/v1/clubs/no-such-club/", 404, "not_found"),
        ("delete", "/api/v1/clubs/", 405, "method_not_allowed"),
        ("put", "/api/v1/tournaments/1/", 405, "method_not_allowed"),
        ("post", "/api/schema/", 405, "method_not_allowed"),
        ("post", "/api/docs/", 405, "method_not_allowed"),
    ],
)
def test_every_api_error_is_json_with_a_code(
    world: World, method: str, url: str, status: int, code: str
) -> None:
    response = getattr(as_api_user(world.organiser), method)(url)
    assert_api_error(response, status, code)


def test_a_host_we_do_not_serve_is_a_json_400_under_the_api_and_html_elsewhere() -> None:
    client = Client(raise_request_exception=False)
    assert_api_error(client.get("/api/v1/clubs/", HTTP_HOST="evil.example"), 400, "bad_host")
    assert_page_400(client.get("/clubs/", HTTP_HOST="evil.example"))


def test_a_crash_under_the_api_is_a_json_500(world: World, monkeypatch) -> None:
    from tournaments.api import clubs

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(clubs.selectors, "club_list", crash)
    response = Client(raise_request_exception=False).get("/api/v1/clubs/")
    assert_api_error(response, 500, "server_error")


def test_pages_keep_their_html_errors(world: World) -> None:
    client = Client(raise_request_exception=False)
    response = client.get("/nothing-here/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


# --- responses match the OpenAPI schema -----------------------------------------------


def test_a_created_club_has_every_field_its_schema_requires(world: World) -> None:
    response = as_api_user(world.organiser).post("/api/v1/clubs/", {"name": "New"}, format="json")
    assert response.status_code == 201
    assert response.json()["member_count"] == 1
    assert response.json()["tournament_count"] == 0


# --- content types ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("", b"username=nina&password=x"),
        ("text/plain", b"username=nina&password=x"),
        ("multipart/mixed; boundary=b", b"--b\r\nContent-Type: \r\n\r\nnina\r\n--b--\r\n"),
    ],
)
def test_a_body_of_a_type_the_api_does_not_read_is_a_415_the_schema_documents(
    content_type: str, body: bytes
) -> None:
    response = APIClient().generic("POST", "/api/v1/auth/token/", body, content_type=content_type)
    assert_api_error(response, 415, "unsupported_media_type")

    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "requestBody" in operation:
                assert {"413", "415"} <= set(operation["responses"]), (method, path)
