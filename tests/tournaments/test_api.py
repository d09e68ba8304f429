"""The REST API: auth, permissions, error shape, nothing half-saved."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import ClubFactory, RegistrationFactory, TournamentFactory, UserFactory, member
from tournaments.models import Registration, Role, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def new_tournament(club_slug: str, **overrides):
    data = {
        "club": club_slug,
        "name": "Friday Gwent",
        "game": "vanilla_gwent",
        "capacity": 16,
        "best_of": 3,
        "scheduled_start": (timezone.now() + timedelta(days=3)).isoformat(),
        "publish": True,
    }
    data.update(overrides)
    return data


def assert_error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code, body
    assert body["detail"]


def test_anonymous_reads_public_lists_but_not_drafts(api) -> None:
    published = TournamentFactory()
    TournamentFactory(status=TournamentStatus.DRAFT, club=published.club)
    response = api.get("/api/v1/tournaments/")
    assert response.status_code == 200
    assert [t["id"] for t in response.json()["results"]] == [published.pk]
    assert api.get(f"/api/v1/clubs/{published.club.slug}/").status_code == 200
    assert api.get(f"/api/v1/tournaments/{published.pk}/registrations/").status_code == 200


def test_anonymous_cannot_write(api) -> None:
    club = ClubFactory()
    response = api.post("/api/v1/tournaments/", new_tournament(club.slug), format="json")
    assert_error(response, 403, "not_authenticated")
    assert not Tournament.objects.exists()


def test_token_login_and_me(api) -> None:
    user = UserFactory(username="tokenuser")
    response = api.post(
        "/api/v1/auth/token/", {"username": "tokenuser", "password": "pass-word-123"}
    )
    assert response.status_code == 200
    api.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    me = api.get("/api/v1/me/").json()
    assert me["username"] == user.username and me["memberships"] == []


def test_a_token_unknown_or_of_an_inactive_account_is_refused(api) -> None:
    user = UserFactory(username="tokenuser")
    token = api.post(
        "/api/v1/auth/token/", {"username": "tokenuser", "password": "pass-word-123"}
    ).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token[:-1]}{'a' if token[-1] != 'a' else 'b'}")
    assert_error(api.get("/api/v1/me/"), 403, "authentication_failed")
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/me/").status_code == 200
    user.is_active = False
    user.save()
    response = api.get("/api/v1/me/")
    assert_error(response, 403, "authentication_failed")
    assert response.json()["detail"] == "User inactive or deleted."


def test_session_auth_works_too(client) -> None:
    user = UserFactory()
    client.force_login(user)
    assert client.get("/api/v1/me/").json()["username"] == user.username


def test_organiser_creates_edits_and_publishes_a_tournament(api_as) -> None:
    club = ClubFactory()
    organiser = api_as(member(club, Role.ORGANISER))
    response = organiser.post(
        "/api/v1/tournaments/", new_tournament(club.slug, publish=False), format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "draft" and body["club"] == club.slug and body["best_of"] == 3
    pk = body["id"]
    response = organiser.patch(f"/api/v1/tournaments/{pk}/", {"capacity": 24}, format="json")
    assert response.status_code == 200 and response.json()["capacity"] == 24
    response = organiser.post(f"/api/v1/tournaments/{pk}/publish/")
    assert response.status_code == 200 and response.json()["registration_open"] is True


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"game": "chess"}, "invalid"),
        ({"capacity": 1}, "invalid"),
        ({"scheduled_start": "2001-01-01T10:00:00Z"}, "start_in_past"),
        ({"scheduled_start": "not a date"}, "invalid"),
        ({"club": "no-such-club"}, "not_found"),
    ],
)
def test_bad_tournament_input_gets_a_clear_4xx_and_saves_nothing(api_as, overrides, code) -> None:
    club = ClubFactory()
    organiser = api_as(member(club, Role.ORGANISER))
    response = organiser.post(
        "/api/v1/tournaments/", new_tournament(club.slug, **overrides), format="json"
    )
    assert response.status_code in (400, 404)
    assert_error(response, response.status_code, code)
    assert not Tournament.objects.exists()


def test_unknown_game_error_names_the_field(api_as) -> None:
    club = ClubFactory()
    organiser = api_as(member(club, Role.ORGANISER))
    body = organiser.post(
        "/api/v1/tournaments/", new_tournament(club.slug, game="chess"), format="json"
    ).json()
    assert "game" in body["fields"] and body["detail"].startswith("game:")


def test_editing_another_clubs_tournament_is_forbidden(api_as) -> None:
    tournament = TournamentFactory()
    stranger = api_as(member(ClubFactory(), Role.OWNER))
    response = stranger.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"name": "Mine"}, format="json"
    )
    assert_error(response, 403, "not_organiser")
    tournament.refresh_from_db()
    assert tournament.name != "Mine"


def test_player_registers_checks_in_and_withdraws(api_as) -> None:
    tournament = TournamentFactory()
    client = api_as(UserFactory())
    url = f"/api/v1/tournaments/{tournament.pk}/registrations/"
    response = client.post(url, {}, format="json")
    assert response.status_code == 201
    reg = response.json()
    assert reg["status"] == "registered" and reg["checked_in"] is False
    assert_error(client.post(url, {}, format="json"), 409, "already_registered")
    response = client.post(f"{url}{reg['id']}/check-in/")
    assert response.status_code == 200 and response.json()["checked_in"] is True
    response = client.delete(f"{url}{reg['id']}/")
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"


def test_registering_when_full_or_closed_is_a_conflict(api_as) -> None:
    full = TournamentFactory(capacity=2)
    RegistrationFactory.create_batch(2, tournament=full)
    client = api_as(UserFactory())
    assert_error(
        client.post(f"/api/v1/tournaments/{full.pk}/registrations/"), 409, "tournament_full"
    )
    closed = TournamentFactory(status=TournamentStatus.RUNNING)
    assert_error(
        client.post(f"/api/v1/tournaments/{closed.pk}/registrations/"), 409, "registration_closed"
    )
    assert Registration.objects.count() == 2


def test_check_in_outside_the_window_is_a_conflict(api_as) -> None:
    now = timezone.now()
    tournament = TournamentFactory(
        check_in_opens_at=now + timedelta(hours=1), check_in_closes_at=now + timedelta(hours=2)
    )
    registration = RegistrationFactory(tournament=tournament)
    client = api_as(registration.player.user)
    response = client.post(
        f"/api/v1/tournaments/{tournament.pk}/registrations/{registration.pk}/check-in/"
    )
    assert_error(response, 409, "check_in_closed")
    assert "opens at" in response.json()["detail"]


def test_a_player_cannot_touch_someone_elses_registration(api_as) -> None:
    registration = RegistrationFactory()
    client = api_as(UserFactory())
    base = f"/api/v1/tournaments/{registration.tournament.pk}/registrations/{registration.pk}/"
    assert_error(client.delete(base), 403, "not_your_registration")
    assert_error(client.post(f"{base}check-in/"), 403, "not_your_registration")
    registration.refresh_from_db()
    assert registration.is_active


def test_organiser_adds_and_removes_players_by_username(api_as) -> None:
    tournament = TournamentFactory()
    organiser = api_as(member(tournament.club, Role.ORGANISER))
    UserFactory(username="walkin")
    url = f"/api/v1/tournaments/{tournament.pk}/registrations/"
    response = organiser.post(url, {"username": "walkin"}, format="json")
    assert response.status_code == 201 and response.json()["username"] == "walkin"
    assert_error(organiser.post(url, {"username": "nobody"}, format="json"), 404, "unknown_user")
    reg_id = response.json()["id"]
    assert organiser.post(f"{url}{reg_id}/check-in/").json()["checked_in"] is True
    assert organiser.delete(f"{url}{reg_id}/").json()["status"] == "withdrawn"


def test_club_creation_and_member_management(api_as) -> None:
    owner_user = UserFactory()
    owner = api_as(owner_user)
    response = owner.post("/api/v1/clubs/", {"name": "Night Owls"}, format="json")
    assert response.status_code == 201
    slug = response.json()["slug"]
    UserFactory(username="helper")
    response = owner.post(
        f"/api/v1/clubs/{slug}/members/", {"username": "helper", "role": "organiser"}, format="json"
    )
    assert response.status_code == 201
    member_id = response.json()["id"]
    response = owner.patch(
        f"/api/v1/clubs/{slug}/members/{member_id}/", {"role": "judge"}, format="json"
    )
    assert response.json()["role"] == "judge"
    roles = {m["username"]: m["role"] for m in owner.get(f"/api/v1/clubs/{slug}/members/").json()}
    assert roles == {owner_user.username: "owner", "helper": "judge"}
    assert (
        owner.post(
            f"/api/v1/clubs/{slug}/members/invite/", {"email": "x@example.com"}, format="json"
        ).status_code
        == 201
    )
    assert owner.delete(f"/api/v1/clubs/{slug}/members/{member_id}/").status_code == 204


def test_non_owner_cannot_change_roles(api_as) -> None:
    club = ClubFactory()
    member(club, Role.OWNER)
    organiser_user = member(club, Role.ORGANISER)
    organiser = api_as(organiser_user)
    membership_id = organiser_user.memberships.get().pk
    response = organiser.patch(
        f"/api/v1/clubs/{club.slug}/members/{membership_id}/", {"role": "owner"}, format="json"
    )
    assert_error(response, 403, "not_owner")


def test_filtering_and_pagination(api) -> None:
    club = ClubFactory()
    TournamentFactory.create_batch(3, club=club, game="kontsina")
    TournamentFactory(game="gesoseka")
    body = api.get(f"/api/v1/tournaments/?game=kontsina&club={club.slug}&page_size=2").json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]


def test_unknown_ids_are_404_with_the_error_shape(api) -> None:
    assert_error(api.get("/api/v1/tournaments/999999/"), 404, "not_found")
    assert_error(api.get("/api/v1/clubs/nope/"), 404, "not_found")


def test_schema_and_docs_are_served(api) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/v1/tournaments/{tournament_pk}/registrations/" in paths
    assert api.get("/api/docs/").status_code == 200


def test_tournament_list_query_count_does_not_grow(api, django_assert_max_num_queries) -> None:
    TournamentFactory.create_batch(30)
    with django_assert_max_num_queries(3):
        assert api.get("/api/v1/tournaments/").status_code == 200


def test_openapi_schema_generates_without_warnings(tmp_path) -> None:
    from django.core.management import call_command

    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )


@pytest.mark.parametrize(
    "value", ["0201-08-24T02:09:50+21:43", "0001-01-01T00:00:00+05:00", "not-a-date"]
)
def test_odd_dates_in_filters_are_400_or_handled_not_500(api, value: str) -> None:
    TournamentFactory()
    response = api.get("/api/v1/tournaments/", {"starts_after": value})
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert response.json()["code"] == "invalid"


def test_date_filters_select_by_start(api) -> None:
    soon = TournamentFactory(scheduled_start=timezone.now() + timedelta(days=1))
    TournamentFactory(scheduled_start=timezone.now() + timedelta(days=10))
    before = (timezone.now() + timedelta(days=2)).isoformat()
    body = api.get("/api/v1/tournaments/", {"starts_before": before}).json()
    assert [t["id"] for t in body["results"]] == [soon.pk]


def test_result_posts_for_a_match_id_beyond_the_column_are_404(api_as) -> None:
    """The result posts lock the match's round straight from the id (found by the API
    fuzzer: a 20-digit id was a 500)."""
    client = api_as(UserFactory())
    huge = "38915305925824872448"
    body = {"games": [{"rounds": [[0, 0]]}], "final": False}
    assert_error(client.post(f"/api/v1/matches/{huge}/confirm/"), 404, "not_found")
    assert_error(
        client.post(f"/api/v1/matches/{huge}/report/", body, format="json"), 404, "not_found"
    )
    assert_error(
        client.post(f"/api/v1/matches/{huge}/judge/", {"games": body["games"]}, format="json"),
        404,
        "not_found",
    )
