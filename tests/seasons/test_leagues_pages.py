"""The seasons' pages (issue 26): the club's seasons, the leaderboard (paged, the reader's
row first, the top N marked, hidden names withheld), its projector view and exports, and
the organiser's forms (403 for others, 404 for another club's season)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.models import AuditEntry
from seasons.models import Season
from seasons.services import leagues
from tests.factories import member
from tests.seasons.helpers import club_with_players, played_event, season
from tournaments.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db


def _played(players: int = 4, **rules):
    club, organiser, people = club_with_players(players)
    played_event(club, organiser, people)
    s = season(club, organiser, qualifiers=2, game="generic", **rules)
    leagues.recompute(season_id=s.pk)
    return club, organiser, s, people


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _url(s: Season, tail: str = "") -> str:
    return f"/clubs/{s.club.slug}/seasons/{s.pk}/{tail}"


def test_the_club_page_links_its_seasons_and_the_list_links_each() -> None:
    club, _, s, _ = _played()
    page = _client().get(f"/clubs/{club.slug}/").content.decode()
    assert f"/clubs/{club.slug}/seasons/" in page
    listed = _client().get(f"/clubs/{club.slug}/seasons/").content.decode()
    assert _url(s) in listed and s.name in listed


def test_the_leaderboard_marks_the_top_n_links_players_and_withholds_hidden_names() -> None:
    _, _, s, _people = _played()
    first, second = s.standings.order_by("place")[:2]
    Player.objects.filter(pk=second.player_id).update(profile_hidden=True)
    hidden = Player.objects.get(pk=second.player_id)
    page = _client().get(_url(s)).content.decode()
    assert f'href="/players/{first.player_id}/"' in page
    assert hidden.display_name not in page and f"/players/{hidden.pk}/" not in page
    assert "Private player" in page
    assert page.count('class="badge ok"') == 2  # the top 2 go to the finals


def test_the_readers_own_row_comes_first_with_their_name_even_hidden() -> None:
    _, _, s, _people = _played()
    last = s.standings.order_by("-place").first().player
    Player.objects.filter(pk=last.pk).update(profile_hidden=True)
    page = _client(last.user).get(_url(s)).content.decode()
    mine = page.index('id="my-standing"')
    assert page.index(last.display_name, mine) < page.index('id="leaderboard-rows"')


def test_the_exports_list_every_row_with_hidden_names_withheld() -> None:
    _, _, s, _ = _played()
    hidden = s.standings.get(place=1).player
    Player.objects.filter(pk=hidden.pk).update(profile_hidden=True)
    body = json.loads(_client().get(_url(s, "standings.json")).content)
    assert len(body["standings"]) == 4 and body["qualifiers"] == 2
    assert body["standings"][0]["player"] is None
    assert body["standings"][0]["name"] == "Private player"
    csv = _client().get(_url(s, "standings.csv")).content.decode()
    assert hidden.display_name not in csv and len(csv.strip().splitlines()) == 5


def test_the_projector_shows_the_top_rows() -> None:
    _, _, s, _people = _played()
    page = _client().get(_url(s, "projector/")).content.decode()
    top = s.standings.get(place=1).player.display_name
    assert "pj-tables" in page and top in page


def _statements(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("tail", ["", "projector/", "standings.json", "standings.csv"])
def test_the_pages_statements_do_not_grow_with_the_players(tail: str) -> None:
    _, _, few, few_people = _played(2)
    _, _, many, many_people = _played(12)
    assert _statements(_client(), _url(few, tail)) == _statements(_client(), _url(many, tail))
    assert _statements(_client(few_people[0].user), _url(few, tail)) == _statements(
        _client(many_people[0].user), _url(many, tail)
    )


def test_the_club_seasons_list_statements_do_not_grow() -> None:
    club, organiser, _, _ = _played(2)
    url = f"/clubs/{club.slug}/seasons/"
    few = _statements(_client(), url)
    for n in range(5):
        season(club, organiser, name=f"More {n}")
    assert _statements(_client(), url) == few


@pytest.mark.parametrize("tail", ["edit/", "finals/"])
def test_the_organiser_forms_are_403_for_others_and_404_for_another_club(tail: str) -> None:
    club, organiser, s, people = _played()
    assert _client(member(club)).get(_url(s, tail)).status_code == 403
    assert _client(people[0].user).get(_url(s, tail)).status_code == 403
    assert _client().get(_url(s, tail)).status_code == 302  # to sign in
    other, other_organiser, _ = club_with_players(0)
    url = f"/clubs/{other.slug}/seasons/{s.pk}/{tail}"
    assert _client(other_organiser).get(url).status_code == 404
    assert _client(organiser).get(_url(s, tail)).status_code == 200


def test_posts_of_others_change_nothing() -> None:
    club, _, s, _people = _played()
    event = Tournament.objects.get(club=club)
    stranger = _client(member(club))
    assert stranger.post(_url(s, "delete/")).status_code == 403
    assert (
        stranger.post(_url(s, "leave-out/"), {"tournament": event.pk, "left_out": "1"}).status_code
        == 403
    )
    assert stranger.get(f"/clubs/{club.slug}/seasons/new/").status_code == 403
    assert Season.objects.filter(pk=s.pk).exists() and not s.excluded.exists()


FORM = {
    "name": "Winter league",
    "starts_on": str(timezone.localdate() - timedelta(days=30)),
    "ends_on": str(timezone.localdate() + timedelta(days=30)),
    "game": "",
    "stage_kind": "",
    "placement_points": "10, 6, 3",
    "win_points": "2",
    "draw_points": "1",
    "attendance_points": "1",
    "best_of": "",
    "team_events": "on",
    "qualifiers": "8",
}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"win_points": "-1"}, "win_points"),
        ({"placement_points": "25, -3"}, "placement_points"),
        ({"placement_points": "25, ten"}, "placement_points"),
        ({"attendance_points": "5000"}, "attendance_points"),
        ({"qualifiers": "0"}, "qualifiers"),
        ({"ends_on": str(timezone.localdate() - timedelta(days=90))}, "ends_on"),
        ({"placement_points": "", "win_points": "0", "draw_points": "0",
          "attendance_points": "0"}, "placement_points"),
    ],
)  # fmt: skip
def test_the_form_shows_each_wrong_field_and_saves_nothing(change, field) -> None:
    club, organiser, _ = club_with_players(0)
    answer = _client(organiser).post(f"/clubs/{club.slug}/seasons/new/", {**FORM, **change})
    assert answer.status_code == 200
    form = answer.context["form"]
    assert field in form.errors, form.errors
    assert not Season.objects.exists()


def test_an_organiser_creates_edits_leaves_out_and_deletes_a_season() -> None:
    club, organiser, people = club_with_players(4)
    event = played_event(club, organiser, people)
    client = _client(organiser)
    answer = client.post(f"/clubs/{club.slug}/seasons/new/", FORM)
    s = Season.objects.get()
    assert answer.status_code == 302 and answer["Location"] == _url(s)
    edit = client.get(_url(s, "edit/")).content.decode()
    assert event.name in edit and 'value="10, 6, 3"' in edit
    answer = client.post(_url(s, "edit/"), {**FORM, "win_points": "5"})
    assert answer.status_code == 302
    s.refresh_from_db()
    assert s.win_points == 5
    client.post(_url(s, "leave-out/"), {"tournament": event.pk, "left_out": "1"})
    assert list(s.excluded.all()) == [event]
    client.post(_url(s, "delete/"))
    assert not Season.objects.exists()
    assert set(
        AuditEntry.objects.filter(action__startswith="season.").values_list("action", flat=True)
    ) == {"season.created", "season.updated", "season.event_left_out", "season.deleted"}


def test_the_finals_form_creates_the_event_with_the_top_n_and_goes_to_it() -> None:
    _club, organiser, s, _ = _played()
    top = set(s.standings.filter(place__lte=2).values_list("player_id", flat=True))
    answer = _client(organiser).post(
        _url(s, "finals/"),
        {
            "name": "Grand final",
            "scheduled_start": (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
            "game": "",
        },
    )
    finals = Tournament.objects.get(name="Grand final")
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{finals.pk}/"
    assert (
        set(Registration.objects.filter(tournament=finals).values_list("player_id", flat=True))
        == top
    )
