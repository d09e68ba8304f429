"""Pages: what anonymous users, players and organisers see and can do."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from core.models import AuditEntry
from seasons.models import Season
from tests.factories import (
    ClubFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    member,
)
from tournaments.models import Membership, Registration, Role, Tournament, TournamentStatus
from tournaments.services import clubs, swiss

pytestmark = pytest.mark.django_db


def test_public_pages_render_for_anonymous_users(client) -> None:
    registration = RegistrationFactory()
    tournament = registration.tournament
    for url in [
        "/",
        "/clubs/",
        f"/clubs/{tournament.club.slug}/",
        "/tournaments/",
        f"/tournaments/{tournament.pk}/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password_reset/",
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert registration.player.display_name in page and "Log in" in page


def test_drafts_are_hidden_from_the_public(client) -> None:
    draft = TournamentFactory(status=TournamentStatus.DRAFT)
    assert client.get(f"/tournaments/{draft.pk}/").status_code == 404
    client.force_login(member(draft.club, Role.ORGANISER))
    assert client.get(f"/tournaments/{draft.pk}/").status_code == 200


def test_sign_up_logs_in_and_shows_form_errors(client) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "nina", "display_name": "Nina", "password": "long-enough-1"},
    )
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "nina"
    client.logout()
    response = client.post("/accounts/signup/", {"username": "NINA", "password": "long-enough-1"})
    assert response.status_code == 200
    assert "That user name is taken." in response.content.decode()


def test_register_and_withdraw_through_htmx_return_the_panel(client) -> None:
    tournament = TournamentFactory()
    user = UserFactory()
    client.force_login(user)
    response = client.post(f"/tournaments/{tournament.pk}/register/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["HX-Trigger"] == "registrations-changed"
    html = response.content.decode()
    assert "You are registered" in html and "<html" not in html
    registration = Registration.objects.get(player__user=user)
    response = client.post(reverse("registration-withdraw", args=[tournament.pk, registration.pk]))
    assert response.status_code == 302
    registration.refresh_from_db()
    assert not registration.is_active


def test_errors_from_buttons_are_shown_as_messages(client) -> None:
    tournament = TournamentFactory(capacity=2)
    RegistrationFactory.create_batch(2, tournament=tournament)
    client.force_login(UserFactory())
    response = client.post(f"/tournaments/{tournament.pk}/register/", follow=True)
    assert "is full (2 players)" in response.content.decode()


def test_check_in_button_appears_only_during_the_window(client) -> None:
    registration = RegistrationFactory()
    client.force_login(registration.player.user)
    url = f"/tournaments/{registration.tournament.pk}/"
    assert ">Check in</button>" in client.get(url).content.decode()
    Tournament.objects.filter(pk=registration.tournament.pk).update(
        check_in_opens_at=timezone.now() + timedelta(hours=1),
        check_in_closes_at=timezone.now() + timedelta(hours=2),
    )
    assert ">Check in</button>" not in client.get(url).content.decode()


def test_organiser_creates_a_tournament_through_the_form(client) -> None:
    club = ClubFactory()
    client.force_login(member(club, Role.ORGANISER))
    start = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        f"/clubs/{club.slug}/tournaments/new/",
        {
            "name": "Kontsina Cup",
            "game": "kontsina",
            "best_of": 1,
            "capacity": 12,
            "scheduled_start": start,
            "publish": "on",
        },
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.status == TournamentStatus.REGISTRATION


def test_tournament_form_shows_service_errors_next_to_the_field(client) -> None:
    club = ClubFactory()
    client.force_login(member(club, Role.ORGANISER))
    response = client.post(
        f"/clubs/{club.slug}/tournaments/new/",
        {
            "name": "Too late",
            "game": "kontsina",
            "best_of": 1,
            "capacity": 12,
            "scheduled_start": "2020-01-01T10:00",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["scheduled_start"] == [
        "The scheduled start must be in the future."
    ]
    assert not Tournament.objects.exists()


def test_members_and_strangers_cannot_open_organiser_pages(client) -> None:
    tournament = TournamentFactory()
    client.force_login(member(tournament.club, Role.JUDGE))
    assert client.get(f"/clubs/{tournament.club.slug}/tournaments/new/").status_code == 403
    assert client.get(f"/tournaments/{tournament.pk}/edit/").status_code == 403
    assert client.get(f"/tournaments/{tournament.pk}/audit/").status_code == 403


def test_organiser_edits_and_sees_the_change_log(client) -> None:
    tournament = TournamentFactory(check_in_opens_at=None, check_in_closes_at=None)
    client.force_login(member(tournament.club, Role.ORGANISER))
    form = client.get(f"/tournaments/{tournament.pk}/edit/").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(
        name="Renamed", scheduled_start=tournament.scheduled_start.strftime("%Y-%m-%dT%H:%M")
    )
    data.pop("check_in_opens_at", None)
    response = client.post(f"/tournaments/{tournament.pk}/edit/", data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.name == "Renamed"
    assert "edited" in client.get(f"/tournaments/{tournament.pk}/audit/").content.decode()


def test_owner_manages_members_from_the_club_page(client) -> None:
    club = ClubFactory()
    owner = member(club, Role.OWNER)
    UserFactory(username="newbie")
    client.force_login(owner)
    response = client.post(
        f"/clubs/{club.slug}/", {"form": "add", "add-username": "newbie", "add-role": "judge"}
    )
    assert response.status_code == 302
    membership = Membership.objects.get(user__username="newbie")
    client.post(reverse("member-role", args=[club.slug, membership.pk]), {"role": "organiser"})
    membership.refresh_from_db()
    assert membership.role == Role.ORGANISER
    response = client.post(
        f"/clubs/{club.slug}/", {"form": "add", "add-username": "ghost", "add-role": "member"}
    )
    assert "No user is called" in response.content.decode()
    assert AuditEntry.objects.filter(action="membership.role_set").exists()


def test_organiser_adds_and_checks_in_a_player_by_hand(client) -> None:
    tournament = TournamentFactory()
    client.force_login(member(tournament.club, Role.ORGANISER))
    UserFactory(username="walkin")
    response = client.post(
        f"/tournaments/{tournament.pk}/players/add/", {"username": "walkin"}, HTTP_HX_REQUEST="true"
    )
    assert "Walkin" in response.content.decode() or "walkin" in response.content.decode()
    registration = Registration.objects.get(player__user__username="walkin")
    client.post(reverse("registration-check-in", args=[tournament.pk, registration.pk]))
    registration.refresh_from_db()
    assert registration.checked_in


def test_invitation_page_accepts(client) -> None:

    club = ClubFactory()
    invitation = clubs.invite_member(
        actor=member(club, Role.OWNER), club=club, email="a@b.c", role=Role.JUDGE
    )
    guest = UserFactory()
    client.force_login(guest)
    assert "Join" in client.get(f"/invitations/{invitation.token}/").content.decode()
    client.post(f"/invitations/{invitation.token}/")
    assert Membership.objects.get(user=guest).role == Role.JUDGE


@pytest.mark.parametrize(
    "model",
    [
        "tournaments/player",
        "tournaments/club",
        "tournaments/membership",
        "tournaments/invitation",
        "tournaments/tournament",
        "tournaments/registration",
        "core/auditentry",
        "tournaments/stage",
        "tournaments/swisssettings",
        "tournaments/round",
        "tournaments/match",
        "core/event",
        "gameplay/draftpod",
        "gameplay/draftseat",
        "gameplay/pick",
        "gameplay/draftpack",
        "gameplay/draftsettings",
    ],
)
def test_admin_lists_every_model(admin_client, model: str) -> None:
    from tests.factories import draft_pods

    pods, organiser, _ = draft_pods(2, pod_size=2)
    from gameplay.services import drafts as draft_services
    from gameplay.services import picks
    from rules import draft as engine
    from tournaments.models import Invitation

    pod = draft_services.start_pod(actor=organiser, pod=pods[0])
    expected = engine.expected_pick(engine.DraftState.from_dict(pod.state), 0)
    seat = pod.seats.select_related("registration__player__user").get(position=0)
    picks.make_pick(
        actor=seat.registration.player.user,
        pod=pod,
        pack=expected.pack_id,
        pick_number=1,
        cards=[str(c) for c in expected.cards[:2]],
    )
    draft_services.end_pod(actor=organiser, pod=pod)  # round 1 waits for the draft
    swiss.pair_next_round(actor=organiser, tournament=pod.tournament)
    Invitation.objects.create(club=pod.tournament.club, email="new@example.com", token="t0k3n")
    assert admin_client.get(f"/admin/{model}/?q=a").status_code == 200  # search works
    response = admin_client.get(f"/admin/{model}/")
    first = response.context["cl"].result_list.first()
    assert first is not None, f"{model} lists nothing"
    assert admin_client.get(f"/admin/{model}/{first.pk}/change/").status_code == 200


@pytest.mark.parametrize("clock_on", [True, False])
def test_embedded_clock_runs_the_sweeper_on_requests(client, settings, clock_on) -> None:
    from config.celery import app
    from core import clock

    app.conf.task_always_eager = True
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.EMBEDDED_CLOCK = clock_on
    clock._last_sweep = 0.0  # whatever swept before, the interval has passed
    now = timezone.now()
    tournament = TournamentFactory(
        scheduled_start=now - timedelta(seconds=1),
        check_in_opens_at=now - timedelta(hours=1),
        check_in_closes_at=now - timedelta(seconds=1),
    )
    client.get("/")
    tournament.refresh_from_db()
    expected = TournamentStatus.RUNNING if clock_on else TournamentStatus.REGISTRATION
    assert tournament.status == expected


def test_health_check_reports_database_and_redis(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["database"] == "ok"


def test_password_reset_sends_a_link_by_email(client, mailoutbox) -> None:
    UserFactory(username="forgetful", email="forgetful@example.com")
    response = client.post("/accounts/password_reset/", {"email": "forgetful@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1 and "/accounts/reset/" in mailoutbox[0].body


def test_profile_renames_the_player(client) -> None:
    registration = RegistrationFactory()
    client.force_login(registration.player.user)
    assert registration.tournament.name in client.get("/accounts/profile/").content.decode()
    client.post("/accounts/profile/", {"display_name": "The Shark"})
    registration.player.refresh_from_db()
    assert registration.player.display_name == "The Shark"


def test_demo_data_is_created_once_with_the_promised_people(capsys) -> None:
    from django.core.management import call_command

    from tournaments.models import Club, Player

    call_command("seed_demo")
    call_command("seed_demo")
    assert Club.objects.count() == 3  # Riverside, and the French and Greek clubs
    club = Club.objects.get(name="Riverside Card Club")
    roles = dict(club.memberships.values_list("user__username", "role"))
    assert roles["organiser"] == "owner" and roles["judge"] == "judge"
    assert sum(1 for name in roles if name.startswith("player")) == 24
    tournament = Tournament.objects.get(name="Gesoseka Swiss")
    assert tournament.registration_is_open()
    assert tournament.registrations.count() == 20
    assert Player.objects.count() == 26
    running = Tournament.objects.get(name="Vanilla Gwent Swiss")
    assert running.status == "running"
    assert list(running.rounds.values_list("number", "status")) == [
        (1, "complete"),
        (2, "in_progress"),
    ]
    # and the double elimination, the pods, the teams; the French and the Greek events;
    # last week's Swiss, over, and the club's season counting it
    assert Tournament.objects.count() == 8
    pods = Tournament.objects.get(name="Gesoseka pods")
    assert pods.stages.get().kind == "pods" and pods.rounds.count() == 1
    past = Tournament.objects.get(name="Last week's Gesoseka")
    assert past.status == "finished" and past.scheduled_start < timezone.now()
    season = Season.objects.get(club__name="Riverside Card Club")
    assert season.standings.filter(player__display_name="Ada", place=1).exists()
    assert "demo-pass-2026" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("do/start-round/", {"minutes": "²"}),
        ("do/extend/", {"minutes": "٣"}),
        ("do/swap/", {"first": "¹", "second": "2"}),
    ],
)
def test_digits_that_int_refuses_are_a_message_not_a_500(client, path, data) -> None:
    """``str.isdigit`` accepts superscript and Arabic-Indic digits, ``int`` refuses the
    former: the pages parse numbers with ``core.web.parse_int``."""
    from tests.factories import running_tournament
    from tournaments.services import swiss

    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    client.force_login(organiser)
    response = client.post(f"/tournaments/{tournament.pk}/{path}", data, follow=True)
    assert response.status_code == 200
    assert "whole number" in response.content.decode()


def test_judges_grid_ignores_a_round_filter_that_is_not_a_number(client) -> None:
    from tests.factories import member, running_tournament

    tournament, _, _ = running_tournament(4, auto_pair=False)
    client.force_login(member(tournament.club, Role.JUDGE))
    response = client.get(f"/tournaments/{tournament.pk}/judge/", {"round": "²"})
    assert response.status_code == 200


def test_every_page_links_to_the_api_documentation(client) -> None:
    """Issue 22: the site links to its API's documentation (a footer on every page)."""
    page = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("api-docs")}"' in page and "API documentation" in page
    docs = client.get(reverse("api-docs"))
    assert docs.status_code == 200  # and it leads back to the site
    assert f'href="{reverse("home")}"' in docs.content.decode()


def test_a_full_event_says_so_instead_of_offering_a_form_to_fill_in_vain(client) -> None:
    """Issue 22 (the journeys' screenshots): a full 2 vs 2 event still offered "Register the
    team", which the service refuses (``tournament_full``)."""
    tournament = TournamentFactory(capacity=2)
    RegistrationFactory.create_batch(2, tournament=tournament)
    client.force_login(UserFactory())
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert 'id="event-full"' in page and "is full: 2 players" in page
    assert reverse("tournament-register", args=[tournament.pk]) not in page
    Registration.objects.filter(tournament=tournament).first().delete()
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert 'id="event-full"' not in page
    assert reverse("tournament-register", args=[tournament.pk]) in page
