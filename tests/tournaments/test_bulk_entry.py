"""The organiser's fast tools: a pasted list of names (accounts and guests, teams) added all
or none; "check in the selected" and "check in everyone" in one transaction; searching the
players list; two organisers pasting at once (PostgreSQL); the list's query count."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.errors import DomainError
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    member,
)
from tests.tournaments.test_concurrency import run_together
from tournaments.models import (
    EntrantType,
    Player,
    Registration,
    RegistrationStatus,
    Role,
)
from tournaments.services import entrants, guests

db = pytest.mark.django_db


def _organised(**kwargs):
    tournament = TournamentFactory(**kwargs)
    return tournament, member(tournament.club, Role.ORGANISER)


def _active(tournament) -> int:
    return tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()


@db
def test_sixteen_guests_and_eight_accounts_in_one_paste(client) -> None:
    tournament, organiser = _organised(capacity=32)
    accounts = [UserFactory(username=f"acct{i}") for i in range(8)]
    text = "\n".join(f"Guest Number {i}" for i in range(16))
    text += "\n\n  " + ", ".join(f"@{u.username.upper()}" for u in accounts) + "\n"
    client.force_login(organiser)
    response = client.post(
        f"/tournaments/{tournament.pk}/registrations/bulk/", {"names": text}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "24 players added (16 new guests)." in page
    assert _active(tournament) == 24
    assert Player.objects.filter(club=tournament.club, user__isnull=True).count() == 16
    assert {
        r.player.user for r in tournament.registrations.filter(player__user__isnull=False)
    } == set(accounts)


@db
def test_names_are_cleaned_and_blank_lines_ignored() -> None:
    tournament, organiser = _organised()
    added = guests.add_players_by_name(
        actor=organiser, tournament=tournament, names="  Ana   Maria \n\n , ,\nBo"
    )
    assert sorted(r.player.display_name for r in added.registrations) == ["Ana Maria", "Bo"]


@db
def test_five_thousand_names_are_refused_and_nothing_is_saved(api_as) -> None:
    tournament, organiser = _organised(capacity=10_000)
    names = [f"Guest {i}" for i in range(5000)]
    response = api_as(organiser).post(
        f"/api/v1/tournaments/{tournament.pk}/registrations/bulk/", {"names": names}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "too_many_names" and body["field"] == "names"
    assert "5,000 names" in body["detail"] and "256" in body["detail"]
    assert _active(tournament) == 0 and not Player.objects.filter(user__isnull=True).exists()


@db
def test_the_page_refuses_a_huge_paste_with_the_same_words(client) -> None:
    tournament, organiser = _organised(capacity=10_000)
    client.force_login(organiser)
    response = client.post(
        f"/tournaments/{tournament.pk}/registrations/bulk/",
        {"names": "\n".join(f"G{i}" for i in range(5000))},
        HTTP_HX_REQUEST="true",
    )
    page = response.content.decode()
    assert "You pasted 5,000 names" in page and "Nothing was added." in page
    assert "G4999" in page  # the paste comes back in the box to be fixed
    assert _active(tournament) == 0


@db
def test_duplicate_names_are_refused_by_name() -> None:
    tournament, organiser = _organised()
    UserFactory(username="ada")
    for paste, named in (
        (["Lena", "lena"], "lena"),
        (["@ada", "@ADA"], "@ADA"),
    ):
        with pytest.raises(DomainError) as refused:
            guests.add_players_by_name(actor=organiser, tournament=tournament, names=paste)
        assert refused.value.code == "duplicate_names" and named in refused.value.detail
    assert _active(tournament) == 0


@db
def test_a_name_already_registered_is_refused_by_name_and_nothing_is_added() -> None:
    tournament, organiser = _organised()
    guests.add_players_by_name(actor=organiser, tournament=tournament, names=["Mo"])
    account = RegistrationFactory(tournament=tournament).player
    for paste, named in (
        (["Zed", "MO"], "Mo"),
        (["Zed", f"@{account.user.username}"], account.display_name),
    ):
        with pytest.raises(DomainError) as refused:
            guests.add_players_by_name(actor=organiser, tournament=tournament, names=paste)
        assert refused.value.code == "already_registered" and named in refused.value.detail
    assert not Player.objects.filter(display_name="Zed").exists()
    assert _active(tournament) == 2


@db
def test_unknown_accounts_are_refused_by_name() -> None:
    tournament, organiser = _organised()
    with pytest.raises(DomainError) as refused:
        guests.add_players_by_name(actor=organiser, tournament=tournament, names=["Ok", "@ghost"])
    assert refused.value.code == "unknown_user" and "@ghost" in refused.value.detail
    assert _active(tournament) == 0


@db
def test_bad_names_are_refused_naming_the_line() -> None:
    tournament, organiser = _organised()
    for paste, code in (
        ("Ok\nBad\u202eName", "invalid_characters"),
        ("Ok\n" + "x" * 81, "name_too_long"),
        ("\n \n", "no_names"),
        ("@", "invalid_name"),
    ):
        with pytest.raises(DomainError) as refused:
            guests.add_players_by_name(actor=organiser, tournament=tournament, names=paste)
        assert refused.value.code == code and refused.value.field == "names"
    assert _active(tournament) == 0


@db
def test_capacity_is_checked_for_the_whole_paste() -> None:
    tournament, organiser = _organised(capacity=4)
    RegistrationFactory(tournament=tournament)
    with pytest.raises(DomainError) as refused:
        guests.add_players_by_name(
            actor=organiser, tournament=tournament, names=["A1", "A2", "A3", "A4"]
        )
    assert refused.value.code == "tournament_full"
    assert "room for 3 more players" in refused.value.detail and "has 4" in refused.value.detail
    assert _active(tournament) == 1
    guests.add_players_by_name(actor=organiser, tournament=tournament, names=["A1", "A2", "A3"])
    assert _active(tournament) == 4


@db
def test_only_organisers_paste_and_only_before_the_start(api_as) -> None:
    tournament, organiser = _organised()
    url = f"/api/v1/tournaments/{tournament.pk}/registrations/bulk/"
    response = api_as(UserFactory()).post(url, {"names": ["X"]}, format="json")
    assert response.status_code == 403
    response = api_as(organiser).post(url, {"names": ["X"], "extra": 1}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "unknown_field"
    response = api_as(organiser).post(url, {"names": "X"}, format="json")
    assert response.status_code == 400
    tournament.status = "running"
    tournament.save()
    response = api_as(organiser).post(url, {"names": ["X"]}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "tournament_started"


@db
def test_a_withdrawn_player_pasted_again_is_registered_again() -> None:
    tournament, organiser = _organised()
    reg = guests.add_players_by_name(actor=organiser, tournament=tournament, names=["Nia"])
    entrants.remove_player(actor=organiser, registration=reg.registrations[0])
    again = guests.add_players_by_name(actor=organiser, tournament=tournament, names=["nia"])
    assert again.registrations[0].pk == reg.registrations[0].pk and again.known_guests == 1
    assert _active(tournament) == 1


# --- teams -----------------------------------------------------------------------------------


@db
def test_team_lines_make_teams_of_accounts_and_guests() -> None:
    tournament, organiser = _organised(entrant_type=EntrantType.TEAM)
    UserFactory(username="ada")
    added = guests.add_players_by_name(
        actor=organiser,
        tournament=tournament,
        names="Night Owls: @ada, Bruno\nCarla, Dev\nSolo: Eli",
    )
    teams = {r.team_name: r for r in added.registrations}
    assert set(teams) == {"Night Owls", "Carla & Dev", "Solo"}
    owls = teams["Night Owls"]
    assert owls.player.user.username == "ada" and owls.partner.display_name == "Bruno"
    assert owls.partner.is_guest and owls.team_complete
    assert not teams["Solo"].team_complete
    with pytest.raises(DomainError) as refused:
        guests.add_players_by_name(
            actor=organiser, tournament=tournament, names="Crowd: Fay, Gus, Hal"
        )
    assert refused.value.code == "team_too_big"
    with pytest.raises(DomainError) as refused:
        guests.add_players_by_name(actor=organiser, tournament=tournament, names="night owls: Ivy")
    assert refused.value.code == "team_name_taken"
    with pytest.raises(DomainError) as refused:
        guests.add_players_by_name(actor=organiser, tournament=tournament, names="New: Bruno, Ivy")
    assert refused.value.code == "already_registered" and "Bruno" in refused.value.detail
    assert _active(tournament) == 3


# --- check in many ---------------------------------------------------------------------------


@db
def test_check_in_the_selected_and_everyone_skipping_teams_of_one(client) -> None:
    tournament, organiser = _organised(entrant_type=EntrantType.TEAM)
    added = guests.add_players_by_name(
        actor=organiser, tournament=tournament, names="T1: A, B\nT2: C, D\nT3: E, F\nLonely: G"
    )
    t1, t2, t3, lonely = added.registrations
    client.force_login(organiser)
    url = f"/tournaments/{tournament.pk}/registrations/check-in/"
    response = client.post(
        url, {"registrations": [str(t1.pk), str(lonely.pk)]}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert "1 entrant checked in." in page and "Lonely" in page
    assert set(tournament.registrations.filter(checked_in_at__isnull=False)) == {t1}
    response = client.post(url, {"all": "1"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert "2 entrants checked in." in page and "1 already were." in page and "Lonely" in page
    assert set(tournament.registrations.filter(checked_in_at__isnull=False)) == {t1, t2, t3}


@db
def test_check_in_many_is_all_or_nothing_and_refuses_unknown_ids(api_as) -> None:
    tournament, organiser = _organised()
    regs = guests.add_players_by_name(
        actor=organiser, tournament=tournament, names=["P1", "P2", "P3"]
    ).registrations
    elsewhere = RegistrationFactory()
    api = api_as(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/registrations/check-in/"
    response = api.post(url, {"registrations": [regs[0].pk, elsewhere.pk]}, format="json")
    assert response.status_code == 404 and response.json()["field"] == "registrations"
    entrants.remove_player(actor=organiser, registration=regs[2])
    response = api.post(url, {"registrations": [regs[0].pk, regs[2].pk]}, format="json")
    assert response.status_code == 409 and "P3" in response.json()["detail"]
    assert not tournament.registrations.filter(checked_in_at__isnull=False).exists()
    for bad in (
        {},
        {"all": True, "registrations": [1]},
        {"registrations": [0]},
        {"everyone": True},
    ):
        assert api.post(url, bad, format="json").status_code == 400, bad
    assert api.post(url, {"registrations": list(range(1, 2000))}, format="json").status_code == 400
    response = api.post(url, {"registrations": [regs[0].pk, regs[1].pk]}, format="json")
    assert response.status_code == 200 and sorted(response.json()["checked_in"]) == sorted(
        [regs[0].pk, regs[1].pk]
    )
    assert api_as(UserFactory()).post(url, {"all": True}, format="json").status_code == 403


@db
def test_check_in_many_is_one_transaction(monkeypatch) -> None:
    tournament, organiser = _organised()
    regs = guests.add_players_by_name(
        actor=organiser, tournament=tournament, names=["Q1", "Q2", "Q3"]
    ).registrations
    real = entrants._mark_checked_in
    calls = []

    def failing(**kwargs):
        calls.append(kwargs["registration"].pk)
        if len(calls) == 3:
            raise RuntimeError("the database went away")
        return real(**kwargs)

    monkeypatch.setattr(entrants, "_mark_checked_in", failing)
    with pytest.raises(RuntimeError):
        entrants.check_in_many(actor=organiser, tournament=tournament, everyone=True)
    assert len(calls) == 3
    assert not Registration.objects.filter(
        pk__in=[r.pk for r in regs], checked_in_at__isnull=False
    ).exists()


# --- search ----------------------------------------------------------------------------------


@db
def test_search_filters_the_players_list_and_the_api(client, api) -> None:
    tournament, organiser = _organised()
    UserFactory(username="zebra99")
    guests.add_players_by_name(
        actor=organiser,
        tournament=tournament,
        names=["Ana Silva", "Bruno Silva", "Carla", "@zebra99"],
    )
    url = f"/tournaments/{tournament.pk}/players/"
    page = client.get(url, {"q": "silva"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Ana Silva" in page and "Bruno Silva" in page and "Carla" not in page
    assert "2 found of 4" in page
    page = client.get(url, {"q": "nobody"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Nobody matches" in page
    full = client.get(url, {"q": "carla"}).content.decode()  # without htmx: the whole page
    assert "<html" in full and "Carla" in full and "Ana Silva" not in full
    assert client.get(url, {"q": "x" * 5000}, HTTP_HX_REQUEST="true").status_code == 200
    base = f"/api/v1/tournaments/{tournament.pk}/registrations/"
    rows = api.get(base, {"search": "ZEBRA"}).json()["results"]
    assert [r["username"] for r in rows] == ["zebra99"]
    assert len(api.get(base, {"search": "silva"}).json()["results"]) == 2
    response = api.get(base, {"search": "x" * 81})
    assert response.status_code == 400 and response.json()["field"] == "search"


# --- the players list ------------------------------------------------------------------------


@db
def test_the_players_list_offers_the_paste_box_and_check_in_buttons_to_organisers(client) -> None:
    tournament, organiser = _organised()
    guests.add_players_by_name(actor=organiser, tournament=tournament, names=["R1", "R2"])
    url = f"/tournaments/{tournament.pk}/"
    page = client.get(url).content.decode()
    assert 'id="bulk-add"' not in page and "Check in everyone" not in page
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert 'id="bulk-add"' in page and "Check in the selected" in page
    assert page.count('form="check-in-selected"') == 2


@db
def test_the_players_list_reads_a_constant_number_of_queries(client) -> None:
    counts = []
    for size in (8, 32):
        tournament, organiser = _organised(capacity=64)
        half = size // 2
        guests.add_players_by_name(
            actor=organiser, tournament=tournament, names=[f"G{i}" for i in range(half)]
        )
        for _ in range(size - half):
            RegistrationFactory(tournament=tournament, player=PlayerFactory())
        client.force_login(organiser)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(
                f"/tournaments/{tournament.pk}/?fragment=players", HTTP_HX_REQUEST="true"
            )
        assert response.status_code == 200
        with CaptureQueriesContext(connection) as searched:
            response = client.get(
                f"/tournaments/{tournament.pk}/players/", {"q": "G"}, HTTP_HX_REQUEST="true"
            )
        assert response.status_code == 200
        counts.append((len(queries), len(searched)))
    assert counts[0] == counts[1], counts


# --- two organisers at once (PostgreSQL) -----------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_two_organisers_pasting_at_once_into_room_for_one_batch() -> None:
    tournament, organiser = _organised(capacity=6)
    other = member(tournament.club, Role.ORGANISER)
    results = run_together(
        lambda: guests.add_players_by_name(
            actor=organiser, tournament=tournament, names=["Shared", "A1", "A2", "A3"]
        ),
        lambda: guests.add_players_by_name(
            actor=other, tournament=tournament, names=["shared", "B1", "B2", "B3"]
        ),
    )
    won = [r for r in results if isinstance(r, guests.BulkAdded)]
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(won) == 1 and len(refused) == 1, results
    assert refused[0].code in ("tournament_full", "already_registered")
    assert _active(tournament) == 4
    # Nothing of the refused paste was saved: only the winner's guests exist.
    assert Player.objects.filter(club=tournament.club, user__isnull=True).count() == 4
