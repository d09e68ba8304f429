"""Guest players: added by name without an account, shown as guests (their claim code to
organisers only), played through a Swiss round whose results a judge enters, and claimed
later by an account (at sign-up or on the profile page), once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from core.errors import DomainError
from core.models import AuditEntry
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, member
from tournaments.models import Player, Registration, Role, Round, TournamentStatus
from tournaments.models.clubs import CLAIM_CODE_ALPHABET, CLAIM_CODE_LENGTH
from tournaments.selectors import policies
from tournaments.services import entrants, guests, people

pytestmark = pytest.mark.django_db

GENERIC_WIN = [{"rounds": [[10, 5], [10, 5]]}]


def _guests_in(tournament, organiser, names):
    return guests.add_players_by_name(actor=organiser, tournament=tournament, names=names)


def test_a_guest_has_no_account_and_an_unguessable_claim_code() -> None:
    tournament = TournamentFactory()
    organiser = member(tournament.club, Role.ORGANISER)
    added = _guests_in(tournament, organiser, ["Ada Lovelace", "Bruno"])
    codes = set()
    for reg in added.registrations:
        guest = reg.player
        assert guest.is_guest and guest.user is None and guest.club == tournament.club
        assert len(guest.claim_code) == CLAIM_CODE_LENGTH
        assert set(guest.claim_code) <= set(CLAIM_CODE_ALPHABET)
        codes.add(guest.claim_code)
    assert len(codes) == 2
    # A guest never acts: nobody is "them" (anonymous users have no id either).
    reg = added.registrations[0]
    assert not reg.has_member(None)
    assert not reg.is_invited(None)


def test_the_same_guest_name_in_the_club_is_the_same_guest_again() -> None:
    first = TournamentFactory()
    organiser = member(first.club, Role.ORGANISER)
    second = TournamentFactory(club=first.club)
    a = _guests_in(first, organiser, ["Carla"]).registrations[0].player
    added = _guests_in(second, organiser, ["carla"])
    assert added.known_guests == 1 and added.new_guests == 0
    assert added.registrations[0].player == a
    # Another club's Carla is someone else.
    other = TournamentFactory()
    other_organiser = member(other.club, Role.ORGANISER)
    assert _guests_in(other, other_organiser, ["Carla"]).registrations[0].player != a


def test_guests_show_on_the_players_list_with_their_code_for_organisers_only(client) -> None:
    tournament = TournamentFactory()
    organiser = member(tournament.club, Role.ORGANISER)
    guest = _guests_in(tournament, organiser, ["Dana Guest"]).registrations[0].player
    url = f"/tournaments/{tournament.pk}/"
    page = client.get(url).content.decode()
    assert "Dana Guest" in page and ">guest</span>" in page
    assert guest.claim_code not in page
    client.force_login(UserFactory())
    assert guest.claim_code not in client.get(url).content.decode()
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert guest.claim_code in page


def test_guests_in_the_api_have_a_null_username(api) -> None:
    tournament = TournamentFactory()
    organiser = member(tournament.club, Role.ORGANISER)
    _guests_in(tournament, organiser, ["Eve", f"@{organiser.username}"])
    rows = api.get(f"/api/v1/tournaments/{tournament.pk}/registrations/").json()["results"]
    by_name = {row["player"]: row for row in rows}
    assert by_name["Eve"]["username"] is None
    assert by_name[organiser.player.display_name]["username"] == organiser.username


def test_a_guest_cannot_check_in_or_withdraw_themselves_nor_can_an_anonymous_user() -> None:
    tournament = TournamentFactory()
    organiser = member(tournament.club, Role.ORGANISER)
    reg = _guests_in(tournament, organiser, ["Finn"]).registrations[0]
    stranger = UserFactory()
    with pytest.raises(DomainError):
        entrants.check_in_entry(actor=stranger, registration=reg)
    with pytest.raises(DomainError):
        entrants.withdraw_entry(actor=stranger, registration=reg)
    # An anonymous user has no id, and neither has a guest: never "the same person".
    for action in (entrants.withdraw_entry, entrants.unregister, entrants.check_in_entry):
        with pytest.raises(DomainError):
            action(actor=AnonymousUser(), registration=reg)
    assert entrants.check_in_entry(actor=organiser, registration=reg).checked_in


def test_guests_play_a_swiss_round_whose_results_a_judge_enters(
    api_as, client, django_capture_on_commit_callbacks
) -> None:
    tournament = TournamentFactory(game="generic", capacity=8)
    organiser = member(tournament.club, Role.ORGANISER)
    judge = member(tournament.club, Role.JUDGE)
    accounts = [UserFactory() for _ in range(2)]
    names = [f"Guest {i}" for i in range(6)] + [f"@{u.username}" for u in accounts]
    org = api_as(organiser)
    base = f"/api/v1/tournaments/{tournament.pk}"
    r = org.post(f"{base}/registrations/bulk/", {"names": names}, format="json")
    assert r.status_code == 201 and r.json()["added"] == 8, r.json()
    r = org.post(f"{base}/registrations/check-in/", {"all": True}, format="json")
    assert r.status_code == 200 and len(r.json()["checked_in"]) == 8, r.json()
    with django_capture_on_commit_callbacks(execute=True):
        assert org.post(f"{base}/start/").status_code == 200
    if not Round.objects.filter(tournament=tournament).exists():
        assert org.post(f"{base}/rounds/").status_code == 201
    rnd = org.get(f"{base}/rounds/1/").json()
    assert org.post(f"{base}/rounds/1/start/", {"minutes": 40}).status_code == 200
    guest_match = next(
        m for m in rnd["matches"] if m["a"]["name"].startswith("Guest ") and m["b"] is not None
    )
    # Nobody reports for a guest but a judge; pages and the API still show the match.
    for m in rnd["matches"]:
        with django_capture_on_commit_callbacks(execute=True):
            r = api_as(judge).post(
                f"/api/v1/matches/{m['id']}/judge/", {"games": GENERIC_WIN}, format="json"
            )
        assert r.status_code == 200, r.json()
    assert Round.objects.get(tournament=tournament, number=1).status == "complete"
    standings = org.get(f"{base}/standings/").json()["rows"]
    assert {row["name"] for row in standings} >= {"Guest 0", "Guest 5"}
    for url in (
        f"/tournaments/{tournament.pk}/",
        f"/tournaments/{tournament.pk}/rounds/1/",
        f"/tournaments/{tournament.pk}/standings/",
        f"/tournaments/{tournament.pk}/matches/{guest_match['id']}/",
        f"/tournaments/{tournament.pk}/rounds/1/slips/",
        f"/tournaments/{tournament.pk}/history/",
    ):
        client.force_login(organiser)
        assert client.get(url).status_code == 200, url
        client.logout()
        assert client.get(url).status_code in (200, 302), url
    for url in (f"{base}/matches/", f"{base}/export/standings.csv", f"{base}/export/pairings.json"):
        assert org.get(url).status_code == 200, url


def test_the_admin_lists_guests(admin_client) -> None:
    tournament = TournamentFactory()
    organiser = member(tournament.club, Role.ORGANISER)
    guest = _guests_in(tournament, organiser, ["Gail"]).registrations[0].player
    assert admin_client.get("/admin/tournaments/player/").status_code == 200
    assert admin_client.get("/admin/tournaments/player/?user__isempty=1").status_code == 200
    page = admin_client.get(f"/admin/tournaments/player/{guest.pk}/change/")
    assert page.status_code == 200 and guest.claim_code in page.content.decode()
    assert admin_client.get("/admin/tournaments/registration/").status_code == 200


# --- claiming --------------------------------------------------------------------------------


def _a_guest_with_history():
    tournament = TournamentFactory()
    organiser = member(tournament.club, Role.ORGANISER)
    reg = _guests_in(tournament, organiser, ["Hana"]).registrations[0]
    return reg.player, reg


def test_signing_up_with_a_claim_code_makes_the_guests_history_the_accounts(client) -> None:
    guest, reg = _a_guest_with_history()
    code = guest.claim_code.lower()
    response = client.post(
        "/accounts/signup/",
        {
            "username": "hana",
            "password": "a-long-pass-phrase-9",
            "claim_code": f"{code[:5]}-{code[5:]}",  # as typed from a slip
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    user = get_user_model().objects.get(username="hana")
    guest.refresh_from_db()
    assert guest.user == user and guest.claimed_at is not None and not guest.is_guest
    assert Player.objects.filter(user=user).count() == 1
    assert Registration.objects.get(pk=reg.pk).has_member(user.pk)
    assert AuditEntry.objects.filter(action="player.claimed", object_id=str(guest.pk)).exists()
    # The new account is the guest now: it acts for the entry (checks in itself).
    profile = client.get("/accounts/profile/").content.decode()
    assert reg.tournament.name in profile and 'id="claim-guest"' not in profile


def test_a_wrong_claim_code_at_sign_up_is_a_form_error_and_nothing_is_made(client) -> None:
    _a_guest_with_history()
    for code, words in (("NOPE", "10 letters"), ("2222222222", "No guest has this claim code")):
        response = client.post(
            "/accounts/signup/",
            {"username": "ivo", "password": "a-long-pass-phrase-9", "claim_code": code},
        )
        assert response.status_code == 200
        assert words in response.content.decode()
        assert response.context["form"].errors["claim_code"]
    assert not get_user_model().objects.filter(username="ivo").exists()


def test_a_claim_code_works_once() -> None:
    guest, _ = _a_guest_with_history()
    people.sign_up(
        username="jo", email="", password="a-long-pass-phrase-9", claim_code=guest.claim_code
    )
    with pytest.raises(DomainError) as refused:
        people.sign_up(
            username="jo2", email="", password="a-long-pass-phrase-9", claim_code=guest.claim_code
        )
    assert refused.value.code == "claim_code_used" and refused.value.field == "claim_code"
    assert not get_user_model().objects.filter(username="jo2").exists()
    other = UserFactory()
    with pytest.raises(DomainError) as refused:
        guests.claim_guest(user=other, code=guest.claim_code)
    assert refused.value.code == "claim_code_used"


def test_a_user_without_history_claims_on_the_profile_page(client) -> None:
    guest, reg = _a_guest_with_history()
    user = UserFactory()
    people.ensure_player(user)  # an empty profile, as every account has
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert 'id="claim-guest"' in page
    response = client.post("/accounts/profile/claim/", {"claim_code": "ZZZZZZZZZZ"})
    assert (
        response.status_code == 200 and "No guest has this claim code" in response.content.decode()
    )
    response = client.post("/accounts/profile/claim/", {"claim_code": guest.claim_code})
    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.user == user and Player.objects.filter(user=user).get() == guest
    assert reg.tournament.name in client.get("/accounts/profile/").content.decode()


def test_a_user_with_history_cannot_claim(client) -> None:
    guest, _ = _a_guest_with_history()
    reg = RegistrationFactory()
    user = reg.player.user
    with pytest.raises(DomainError) as refused:
        guests.claim_guest(user=user, code=guest.claim_code)
    assert refused.value.code == "has_history"
    assert "already has a tournament history" in refused.value.detail
    guest.refresh_from_db()
    assert guest.is_guest
    # The profile page offers no claim to someone with a history.
    client.force_login(user)
    assert 'id="claim-guest"' not in client.get("/accounts/profile/").content.decode()


def test_a_claimed_guest_acts_for_their_entry() -> None:
    tournament = TournamentFactory(
        check_in_opens_at=timezone.now() - timedelta(minutes=5),
        status=TournamentStatus.REGISTRATION,
    )
    organiser = member(tournament.club, Role.ORGANISER)
    reg = _guests_in(tournament, organiser, ["Kim"]).registrations[0]
    user = people.sign_up(
        username="kim", email="", password="a-long-pass-phrase-9", claim_code=reg.player.claim_code
    ).user
    reg = Registration.objects.select_related("player", "partner", "tournament").get(pk=reg.pk)
    assert "check_in" in policies.entrant_actions(user, tournament, reg)
    assert entrants.check_in_entry(actor=user, registration=reg).checked_in
