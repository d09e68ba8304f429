"""The Swiss API end to end: a tournament run through HTTP only, and its errors."""

from __future__ import annotations

import csv
import io

import pytest

from tests.factories import A_WINS, B_WINS, member, running_tournament
from tournaments.models import Match, Role, TournamentStatus
from tournaments.services import swiss

pytestmark = pytest.mark.django_db

GESOSEKA_WIN = [{"rounds": [[40, 30], [35, 20]]}]


def test_a_tournament_runs_to_the_end_through_the_api(
    api_as,
    django_capture_on_commit_callbacks,
) -> None:
    tournament, organiser, regs = running_tournament(24, game="gesoseka", rounds=None)
    users = {r.pk: r.player.user for r in regs}
    org = api_as(organiser)
    base = f"/api/v1/tournaments/{tournament.pk}"
    response = org.post(f"{base}/rounds/")
    assert response.status_code == 201, response.json()
    assert org.get(f"{base}/swiss/").json()["rounds"] == 5  # 24 players: 5 rounds (MTR)
    for number in range(1, 6):
        rnd = org.get(f"{base}/rounds/{number}/").json()
        assert rnd["status"] == "paired"
        assert org.post(f"{base}/rounds/{number}/start/", {"minutes": 40}).status_code == 200
        for m in rnd["matches"]:
            if m["b"] is None:
                continue
            a, b = users[m["a"]["registration"]], users[m["b"]["registration"]]
            with django_capture_on_commit_callbacks(execute=True):
                r = api_as(a).post(f"/api/v1/matches/{m['id']}/report/", {"games": GESOSEKA_WIN})
                assert r.status_code == 200 and r.json()["status"] == "reported"
                r = api_as(b).post(f"/api/v1/matches/{m['id']}/confirm/")
                assert r.status_code == 200 and r.json()["status"] == "confirmed", r.json()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    standings = org.get(f"{base}/standings/").json()
    assert len(standings["rows"]) == 24
    points = [row["points"] for row in standings["rows"]]
    assert points == sorted(points, reverse=True) and sum(points) == 3 * 12 * 5
    assert list(standings["rows"][0]["tiebreakers"]) == ["omw", "gw", "ogw"]
    events = org.get(f"{base}/events/").json()
    kinds = {e["kind"] for e in events}
    assert {"round.paired", "result.confirmed", "round.complete", "tournament.finished"} <= kinds


def test_exports_give_pairings_and_standings_as_csv_and_json(api_as) -> None:
    tournament, organiser, _ = running_tournament(4)
    org = api_as(organiser)
    org.post(f"/api/v1/tournaments/{tournament.pk}/rounds/")
    response = org.get(f"/api/v1/tournaments/{tournament.pk}/export/pairings.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:2] == ["table", "player_a"] and len(rows) == 3
    data = org.get(f"/api/v1/tournaments/{tournament.pk}/export/pairings.json").json()
    assert data["round"] == 1 and len(data["pairings"]) == 2
    standings = org.get(f"/api/v1/tournaments/{tournament.pk}/export/standings.csv")
    assert standings.content.decode().startswith("rank,player,registration,points,record,OMW%")


def test_api_errors_are_4xx_with_a_code(api_as, api) -> None:
    tournament, organiser, regs = running_tournament(4)
    base = f"/api/v1/tournaments/{tournament.pk}"
    player = api_as(regs[0].player.user)
    assert player.post(f"{base}/rounds/").json()["code"] == "not_organiser"
    assert api.post(f"{base}/rounds/").status_code in (401, 403)
    org = api_as(organiser)
    org.post(f"{base}/rounds/")
    again = org.post(f"{base}/rounds/")
    assert again.status_code == 409 and again.json()["code"] == "previous_round_open"
    match = Match.objects.filter(round__tournament=tournament, b__isnull=False).first()
    outsider = next(r for r in regs if r.pk not in (match.a_id, match.b_id))
    r = api_as(outsider.player.user).post(f"/api/v1/matches/{match.pk}/report/", {"games": A_WINS})
    assert r.status_code == 403 and r.json()["code"] == "not_in_match"
    bad = api_as(match.a.player.user).post(
        f"/api/v1/matches/{match.pk}/report/", {"games": [{"rounds": [[1, 0]]}]}
    )
    assert bad.status_code == 400 and bad.json()["code"] == "generic.game_unfinished"
    assert bad.json()["where"] == "game 1"
    judge = member(tournament.club, Role.JUDGE)
    ok = api_as(judge).post(f"/api/v1/matches/{match.pk}/judge/", {"games": B_WINS})
    assert ok.status_code == 200 and ok.json()["winner"] == "b"
    assert org.get(f"{base}/matches/?status=nonsense").status_code == 400
    assert org.get(f"{base}/matches/?status=confirmed").json()[0]["id"] == match.pk
    assert (
        org.patch(f"{base}/swiss/", {"tiebreakers": ["omw", "omw"]}, format="json").status_code
        == 400
    )


def test_swiss_settings_change_through_the_api(api_as) -> None:
    tournament, organiser, _ = running_tournament(4)
    org = api_as(organiser)
    response = org.patch(
        f"/api/v1/tournaments/{tournament.pk}/swiss/",
        {"round_minutes": 35, "tiebreakers": ["buchholz", "sonneborn_berger"]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["round_minutes"] == 35
    assert response.json()["tiebreakers"] == ["buchholz", "sonneborn_berger"]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"rounds_to_win": 99}, "rounds_to_win"),
        ({"kontsina_rounds": 0}, "kontsina_rounds"),
        ({"rounds": 31}, "rounds"),
        ({"round_minutes": 601}, "round_minutes"),
    ],
)
def test_swiss_limits_hold_for_the_page_the_api_and_the_service(
    client, api_as, changes, field
) -> None:
    """One set of limits (the model's validators): the page, the API and the service itself
    refuse the same values, naming the field, and nothing is saved."""
    from django.urls import reverse

    from core.errors import InvalidInput
    from tournaments.models import SwissSettings

    # The page shows a game's own settings only: Kontsina's game rounds on a Kontsina event.
    tournament, organiser, _ = running_tournament(
        4, game="kontsina" if field == "kontsina_rounds" else "generic"
    )
    before = SwissSettings.objects.get(stage__tournament=tournament)
    response = api_as(organiser).patch(
        f"/api/v1/tournaments/{tournament.pk}/swiss/", changes, format="json"
    )
    assert response.status_code == 400 and field in response.json()["fields"]
    client.force_login(organiser)
    form = {name: getattr(before, name) for name in ("round_minutes", "overdue_policy")}
    form.update(first_round=before.first_round, late_entry=before.late_entry)
    form.update(rounds_to_win=before.rounds_to_win, kontsina_rounds=before.kontsina_rounds)
    form.update(changes)
    page = client.post(reverse("swiss-settings", args=[tournament.pk]), form)
    assert page.status_code == 200 and page.context["form"].errors[field]
    with pytest.raises(InvalidInput) as refused:
        swiss.update_swiss_settings(actor=organiser, tournament=tournament, changes=changes)
    assert refused.value.field == field and refused.value.code == "invalid_setting"
    after = SwissSettings.objects.get(stage__tournament=tournament)
    assert [getattr(after, f) for f in SwissSettings.EDITABLE] == [
        getattr(before, f) for f in SwissSettings.EDITABLE
    ]
