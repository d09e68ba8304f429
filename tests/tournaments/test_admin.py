"""The admin cannot change state or derived columns (issue 9: staff edited a match's status,
winner and result with no audit): those change only through the services. Staff may still
fix plain data, such as a club's name.

Each test posts the admin's own change form back, as a browser would, with the state
fields forged in, and checks what was saved.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib import admin
from django.test import Client

from tests.factories import A_WINS, ClubFactory, running_tournament
from tournaments.models import (
    Club,
    Match,
    MatchStatus,
    Registration,
    RegistrationStatus,
    RoundStatus,
    SwissSettings,
    Tournament,
    TournamentStatus,
)
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


class _FormFields(HTMLParser):
    """The fields a browser would submit from the page's form ``form_id``."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        if tag == "option" and self._select is not None:
            if "selected" in a:
                self.data[self._select] = a.get("value") or ""
            return
        name = a.get("name")
        if not name:
            return
        if tag == "input":
            kind = a.get("type") or "text"
            if kind in ("submit", "button", "file"):
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self.data[name] = a.get("value") or ("on" if kind == "checkbox" else "")
        elif tag == "select":
            self._select = name
            self.data.setdefault(name, "")
        elif tag == "textarea":
            self._textarea = name
            self.data[name] = ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self.data[self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None


def _change_url(obj: Any) -> str:
    meta = obj._meta
    return f"/admin/{meta.app_label}/{meta.model_name}/{obj.pk}/change/"


def _form_of(client: Client, obj: Any) -> dict[str, str]:
    response = client.get(_change_url(obj))
    assert response.status_code == 200
    parser = _FormFields(f"{obj._meta.model_name}_form")
    parser.feed(response.content.decode())
    return parser.data


def _columns(obj: Any, fields: list[str]) -> dict[str, Any]:
    fresh = type(obj).objects.get(pk=obj.pk)
    return {name: getattr(fresh, name) for name in fields}


@pytest.fixture
def confirmed_match() -> Match:
    """A running tournament with round 1 paired and one match's result confirmed."""
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.filter(round__tournament=tournament, b__isnull=False).first()
    assert match is not None
    results.judge_result(actor=organiser, match=match, games=A_WINS)
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    return match


def test_staff_can_still_rename_a_club(admin_client: Client) -> None:
    club = ClubFactory(name="Old name")
    data = _form_of(admin_client, club)
    data["name"] = "New name"
    response = admin_client.post(_change_url(club), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Club.objects.get(pk=club.pk).name == "New name"


def test_a_match_is_read_only_in_the_admin(admin_client: Client, confirmed_match: Match) -> None:
    match = confirmed_match
    state = [
        "status",
        "winner",
        "result",
        "games_a",
        "games_b",
        "game_rounds_a",
        "game_rounds_b",
        "score_a",
        "score_b",
        "confirmed_at",
        "overdue",
    ]
    before = _columns(match, state)
    model_admin = admin.site._registry[Match]
    request = admin_client.get(_change_url(match)).wsgi_request
    assert not model_admin.has_change_permission(request, match)
    assert set(state) <= set(model_admin.get_readonly_fields(request, match))
    forged = {
        "status": MatchStatus.PENDING,
        "winner": "b",
        "result": "[]",
        "games_a": "0",
        "games_b": "9",
        "score_b": "99",
    }
    response = admin_client.post(_change_url(match), forged)
    assert response.status_code == 403
    assert _columns(match, state) == before


def test_a_round_is_read_only_in_the_admin(admin_client: Client, confirmed_match: Match) -> None:
    round_ = confirmed_match.round
    state = ["status", "started_at", "ends_at", "completed_at", "time_handled_at", "number"]
    before = _columns(round_, state)
    data = _form_of(admin_client, round_)
    assert "status" not in data and "ends_at_0" not in data
    # The round's matches are listed read-only too: their inline forms carry no state.
    assert not [key for key in data if key.endswith(("-status", "-winner"))]
    data.update(
        {
            "status": RoundStatus.COMPLETE,
            "number": "7",
            "ends_at_0": "2001-01-01",
            "ends_at_1": "00:00:00",
            "matches-0-status": MatchStatus.PENDING,
            "matches-0-winner": "b",
        }
    )
    response = admin_client.post(_change_url(round_), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert _columns(round_, state) == before
    match = Match.objects.get(pk=confirmed_match.pk)
    assert (match.status, match.winner) == (MatchStatus.CONFIRMED, confirmed_match.winner)


def test_a_registration_keeps_its_state_while_its_rating_can_be_fixed(
    admin_client: Client, confirmed_match: Match
) -> None:
    registration = confirmed_match.a
    state = ["status", "checked_in_at", "joined_round", "dropped_after_round", "tournament_id"]
    before = _columns(registration, state)
    data = _form_of(admin_client, registration)
    assert "status" not in data and "checked_in_at_0" not in data
    data.update(
        {
            "rating": "1500",
            "status": RegistrationStatus.DROPPED,
            "dropped_after_round": "1",
            "joined_round": "3",
            "checked_in_at_0": "",
            "checked_in_at_1": "",
        }
    )
    response = admin_client.post(_change_url(registration), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert _columns(registration, state) == before
    assert Registration.objects.get(pk=registration.pk).rating == 1500


def test_a_tournament_keeps_its_status_while_its_name_can_be_fixed(
    admin_client: Client, confirmed_match: Match
) -> None:
    tournament = confirmed_match.round.tournament
    state = ["status", "start_handled_at", "club_id", "game", "entrant_type"]
    before = _columns(tournament, state)
    data = _form_of(admin_client, tournament)
    assert "status" not in data and "game" not in data
    data.update(
        {
            "name": "Renamed",
            "status": TournamentStatus.FINISHED,
            "game": "kontsina",
            "start_handled_at_0": "",
            # The inlines' state is read-only too: a forged stage or registration status
            # is ignored.
            "stages-0-status": "complete",
            "registrations-0-status": RegistrationStatus.WITHDRAWN,
        }
    )
    response = admin_client.post(_change_url(tournament), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert _columns(tournament, state) == before
    assert Tournament.objects.get(pk=tournament.pk).name == "Renamed"
    assert tournament.stages.get().status == "running"
    assert not tournament.registrations.exclude(status=RegistrationStatus.REGISTERED).exists()


def test_swiss_settings_are_read_only_in_the_admin(
    admin_client: Client, confirmed_match: Match
) -> None:
    settings_row = SwissSettings.objects.get(stage__tournament=confirmed_match.round.tournament)
    fields = [*SwissSettings.EDITABLE, "seed"]
    before = _columns(settings_row, fields)
    model_admin = admin.site._registry[SwissSettings]
    request = admin_client.get(_change_url(settings_row)).wsgi_request
    assert not model_admin.has_change_permission(request, settings_row)
    response = admin_client.post(
        _change_url(settings_row), {"rounds": "9", "round_minutes": "5", "seed": "1"}
    )
    assert response.status_code == 403
    assert _columns(settings_row, fields) == before


def test_bracket_settings_are_listed_and_read_only_in_the_admin(admin_client: Client) -> None:
    from tournaments.models import BracketSettings
    from tournaments.services import brackets

    tournament, organiser, _ = running_tournament(8)
    stage = brackets.add_stage(
        actor=organiser, tournament=tournament, kind="single_elim", cut_top=4
    )
    settings_row = BracketSettings.objects.get(stage=stage)
    assert admin_client.get("/admin/tournaments/bracketsettings/").status_code == 200
    assert admin_client.get(_change_url(settings_row)).status_code == 200
    response = admin_client.post(_change_url(settings_row), {"cut_top": "2"})
    assert response.status_code == 403
    settings_row.refresh_from_db()
    assert settings_row.cut_top == 4


def _versions(tournament: Tournament) -> str:
    from django.contrib.auth.models import AnonymousUser

    from tournaments.selectors.page_versions import tournament_version

    version = tournament_version(AnonymousUser(), tournament.pk)
    assert version is not None
    return version.tag


def test_a_player_renamed_here_moves_the_pages_version(admin_client: Client) -> None:
    """The pairings a proxy keeps show the new name: the version moved with it."""
    tournament, _, registrations = running_tournament(4)
    player = registrations[0].player
    before = _versions(tournament)
    data = _form_of(admin_client, player)
    data["display_name"] = "Renamed By Staff"
    response = admin_client.post(_change_url(player), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert _versions(tournament) != before
    # Saved without a change of name: the pages stay as they were.
    unchanged = _versions(tournament)
    admin_client.post(_change_url(player), _form_of(admin_client, player))
    assert _versions(tournament) == unchanged


def test_a_club_renamed_here_moves_its_tournaments_version(admin_client: Client) -> None:
    tournament, _, _ = running_tournament(4)
    before = _versions(tournament)
    data = _form_of(admin_client, tournament.club)
    data["name"] = "A new club name"
    response = admin_client.post(_change_url(tournament.club), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert _versions(tournament) != before
