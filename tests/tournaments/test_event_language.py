"""The event's language (issue 25): the sheets the whole room reads (the projector, printed
pairings and standings, match slips, the final results) speak the tournament's language,
else its club's, whatever each reader's own; the organisers set it at any time."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from core.audit import AuditEntry
from core.errors import InvalidInput
from tests.factories import TournamentFactory, member, running_tournament
from tournaments.models import Role, Tournament
from tournaments.services import lifecycle, swiss

pytestmark = pytest.mark.django_db

#: A reader who chose English with the switcher (it wins over the browser and the club).
ENGLISH = {settings.LANGUAGE_COOKIE_NAME: "en"}


def _paired(language: str = "", club_language: str = "en") -> tuple[Tournament, Any]:
    tournament, organiser, _ = running_tournament(8, auto_pair=False)
    tournament.club.language = club_language
    tournament.club.save(update_fields=["language"])
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    if language:
        Tournament.objects.filter(pk=tournament.pk).update(language=language)
        tournament.refresh_from_db()
    return tournament, organiser


def _open(language: str = "") -> tuple[Tournament, Any]:
    """A published tournament (not started), its organiser."""
    tournament = TournamentFactory(language=language)
    return tournament, member(tournament.club, Role.ORGANISER)


def _get(path: str) -> tuple[str, str]:
    client = Client()
    client.cookies.load(ENGLISH)
    response = client.get(path)
    assert response.status_code == 200, path
    return response["Content-Language"], response.content.decode()


def test_the_projector_speaks_the_clubs_language_to_an_english_reader() -> None:
    tournament, _ = _paired(club_language="fr")
    language, page = _get(f"/tournaments/{tournament.pk}/projector/")
    assert language == "fr" and '<html lang="fr"' in page and "Ronde 1" in page
    language, content = _get(f"/tournaments/{tournament.pk}/projector/content/")
    assert language == "fr" and "Ronde 1" in content


def test_the_events_own_language_wins_over_its_clubs() -> None:
    tournament, _ = _paired(language="el", club_language="fr")
    base = f"/tournaments/{tournament.pk}"
    for path in (f"{base}/projector/", f"{base}/rounds/1/slips/", f"{base}/rounds/1/?all=1"):
        language, page = _get(path)
        assert language == "el" and '<html lang="el"' in page, path
    # The same pages on screen are the reader's.
    language, page = _get(f"{base}/rounds/1/")
    assert language == "en" and "Round 1" in page


def test_printed_standings_and_final_results_are_the_events() -> None:
    tournament, _ = _paired(language="fr")
    base = f"/tournaments/{tournament.pk}"
    assert _get(f"{base}/standings/?all=1")[0] == "fr"
    assert _get(f"{base}/standings/")[0] == "en"
    language, page = _get(f"{base}/results/")
    assert language == "fr" and "Résultats finaux" in page


def test_the_organisers_set_the_language_and_it_is_audited() -> None:
    tournament, organiser = _open()
    assert tournament.event_language == tournament.club.language
    tournament = lifecycle.update_tournament(
        actor=organiser, tournament=tournament, changes={"language": "fr"}
    )
    assert tournament.language == "fr" and tournament.event_language == "fr"
    entry = AuditEntry.objects.filter(action="tournament.updated").latest("pk")
    assert entry.before["language"] == "" and entry.after["language"] == "fr"


def test_the_language_may_change_after_the_start() -> None:
    tournament, organiser = _paired(language="fr")
    Tournament.objects.filter(pk=tournament.pk).update(
        check_in_opens_at=None, check_in_closes_at=None
    )
    tournament.refresh_from_db()
    tournament = lifecycle.update_tournament(
        actor=organiser, tournament=tournament, changes={"language": "el"}
    )
    assert tournament.event_language == "el"


@pytest.mark.parametrize("asked", ["xx", "fr-FR", "de"])
def test_an_unknown_event_language_is_refused_and_nothing_changes(asked: str) -> None:
    tournament, organiser = _open()
    with pytest.raises(InvalidInput) as refused:
        lifecycle.update_tournament(
            actor=organiser, tournament=tournament, changes={"language": asked}
        )
    assert refused.value.code == "unknown_language" and refused.value.field == "language"
    assert Tournament.objects.get(pk=tournament.pk).language == ""


def test_the_api_sets_and_refuses_the_event_language() -> None:
    tournament, organiser = _open()
    client = Client()
    client.force_login(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    answer = client.patch(url, {"language": "el"}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["language"] == "el"
    answer = client.patch(url, {"language": "klingon"}, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["field"] == "language"
    assert Tournament.objects.get(pk=tournament.pk).language == "el"


def test_the_organisers_form_offers_the_clubs_language_or_any_of_the_sites() -> None:
    tournament, organiser = _open()
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/tournaments/{tournament.pk}/edit/").content.decode()
    assert 'name="language"' in page and "The club&#x27;s language" in page
    assert "Ελληνικά" in page
    answer = client.post(
        f"/tournaments/{tournament.pk}/edit/",
        {
            "name": tournament.name,
            "game": tournament.game,
            "entrant_type": tournament.entrant_type,
            "best_of": tournament.best_of,
            "capacity": tournament.capacity,
            "scheduled_start": tournament.scheduled_start.strftime("%Y-%m-%dT%H:%M"),
            "description": "",
            "language": "el",
        },
    )
    assert answer.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).language == "el"
