"""Club time zones (issue 14): a club has a time zone (an IANA name, the site's by
default) that its owners set on the club page (``clubs.set_time_zone``, audited); its
tournaments' pages show times in it and say which ("19:30 Europe/Paris"), and the zone
never leaks into the next request."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from core.errors import InvalidInput, NotAllowed
from core.models import AuditEntry
from tests.factories import ClubFactory, TournamentFactory, member
from tournaments.models import Club, Role
from tournaments.services import clubs

pytestmark = pytest.mark.django_db


def test_a_new_club_takes_the_sites_time_zone() -> None:
    assert ClubFactory().time_zone == settings.TIME_ZONE
    with override_settings(TIME_ZONE="America/Montreal"):
        assert Club.objects.create(name="Later", slug="later").time_zone == "America/Montreal"


def test_an_owner_sets_the_time_zone_and_it_is_audited() -> None:
    club = ClubFactory()
    owner = member(club, Role.OWNER)
    clubs.set_time_zone(actor=owner, club=club, time_zone=" Europe/Paris ")
    club.refresh_from_db()
    assert club.time_zone == "Europe/Paris"
    entry = AuditEntry.objects.get(action="club.time_zone_set")
    assert entry.before == {"time_zone": settings.TIME_ZONE}
    assert entry.after == {"time_zone": "Europe/Paris"}


@pytest.mark.parametrize("name", ["Europe/Lutece", "", "../etc/passwd", "UTC\x00"])
def test_a_name_zoneinfo_does_not_know_is_refused(name: str) -> None:
    club = ClubFactory()
    owner = member(club, Role.OWNER)
    with pytest.raises(InvalidInput) as refused:
        clubs.set_time_zone(actor=owner, club=club, time_zone=name)
    assert refused.value.field == "time_zone"
    club.refresh_from_db()
    assert club.time_zone == settings.TIME_ZONE


def test_only_owners_set_the_time_zone() -> None:
    club = ClubFactory()
    with pytest.raises(NotAllowed):
        clubs.set_time_zone(actor=member(club, Role.ORGANISER), club=club, time_zone="Europe/Paris")


def test_the_club_page_sets_it_for_owners(client) -> None:
    club = ClubFactory()
    client.force_login(member(club, Role.OWNER))
    url = reverse("club-detail", args=[club.slug])
    response = client.post(url, {"form": "time_zone", "tz-time_zone": "Asia/Tokyo"}, follow=True)
    assert "Times are shown in Asia/Tokyo." in response.content.decode()
    club.refresh_from_db()
    assert club.time_zone == "Asia/Tokyo"
    page = client.post(url, {"form": "time_zone", "tz-time_zone": "Mars/Olympus"}).content
    assert "Select a valid choice" in page.decode()
    client.force_login(member(club, Role.MEMBER))
    assert client.post(url, {"form": "time_zone", "tz-time_zone": "UTC"}).status_code == 403


def test_tournament_pages_show_times_in_the_clubs_zone_and_say_it(client) -> None:
    club = ClubFactory(time_zone="Europe/Paris")
    tournament = TournamentFactory(
        club=club, scheduled_start=datetime(2030, 6, 1, 17, 30, tzinfo=UTC)
    )
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert '19:30 <span class="muted">Europe/Paris</span>' in page  # summer: UTC+2
    # The zone is the request's only: the next request starts in the site's.
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE
    other = TournamentFactory(scheduled_start=datetime(2030, 6, 1, 17, 30, tzinfo=UTC))
    page = client.get(reverse("tournament-detail", args=[other.pk])).content.decode()
    assert f'17:30 <span class="muted">{settings.TIME_ZONE}</span>' in page


def test_the_api_gives_the_clubs_time_zone(client) -> None:
    club = ClubFactory(time_zone="Europe/Paris")
    body = client.get(f"/api/v1/clubs/{club.slug}/").json()
    assert body["time_zone"] == "Europe/Paris"
