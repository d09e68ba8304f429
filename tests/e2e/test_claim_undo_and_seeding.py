"""An organiser undoes a guest's claim from the players list and seeds a bracket by the
club's ratings from the stages page (issue 26), on a phone and a laptop; the screenshots
are looked at."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from seasons.models import Rating
from tests.e2e.journey import DESKTOP, LiveServerJourney
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, member
from tournaments.models import Player, Registration, Role, TournamentStatus
from tournaments.services import guests

pytestmark = [pytest.mark.e2e]

NAMES = ["Ana Lima", "Ben Okafor", "Cleo Park", "Dev Rao"]


class ClaimUndoAndSeeding(LiveServerJourney):
    def test_an_organiser_undoes_a_claim_and_seeds_by_rating(self) -> None:
        tournament = TournamentFactory(
            name="Friday Swiss",
            capacity=8,
            status=TournamentStatus.REGISTRATION,
            scheduled_start=timezone.now() + timedelta(hours=2),
        )
        organiser = member(tournament.club, Role.ORGANISER)
        regs = [RegistrationFactory(tournament=tournament) for _ in NAMES]
        for reg, name, ordinal in zip(regs, NAMES, (12.5, 30.25, 4.0, 21.0), strict=True):
            Player.objects.filter(pk=reg.player_id).update(display_name=name)
            Rating.objects.create(
                club=tournament.club, game=tournament.game, player_id=reg.player_id,
                mu=ordinal + 8, sigma=8 / 3, ordinal=ordinal, matches=6,
            )  # fmt: skip
        guests.add_players_by_name(actor=organiser, tournament=tournament, names="Eli Moss")
        guest = Player.objects.get(display_name="Eli Moss")
        guests.claim_guest(user=UserFactory(username="eli"), code=guest.claim_code)

        journey = self.start_journey("claim-undo-and-seeding")
        phone = journey.log_in(organiser.username)
        phone.goto(journey.url(f"/tournaments/{tournament.pk}/"))
        row = phone.locator("#players tr", has_text="Eli Moss")
        assert "claimed guest" in row.inner_text()
        journey.shot(phone, "the players list on a phone: a claimed guest")
        phone.once("dialog", lambda dialog: dialog.accept())
        row.get_by_role("button", name="Undo claim").click()
        phone.get_by_text("is a guest again, with a new claim code").wait_for()
        journey.shot(phone, "the claim undone: a guest again with a new code")
        guest.refresh_from_db()
        assert guest.user is None

        desk = journey.log_in(organiser.username, DESKTOP)
        desk.goto(journey.url(f"/tournaments/{tournament.pk}/stages/"))
        journey.shot(desk, "the stages page on a laptop: seed by club rating")
        desk.get_by_role("button", name="Seed by club rating").click()
        desk.get_by_text("Seeded by the club's ratings").wait_for()
        journey.shot(desk, "seeded by the club's ratings")
        phone.goto(journey.url(f"/tournaments/{tournament.pk}/stages/"))
        journey.shot(phone, "the stages page on a phone")
        seeds = dict(Registration.objects.filter(tournament=tournament).values_list(
            "player__display_name", "rating"
        ))  # fmt: skip
        assert seeds == {
            "Ana Lima": 1250, "Ben Okafor": 3025, "Cleo Park": 400, "Dev Rao": 2100,
            "Eli Moss": None,
        }  # fmt: skip
        assert not journey.errors
