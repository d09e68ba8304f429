"""Teams of two: registering a team, inviting and accepting a teammate, the organiser's
assignments, team check-in, a player in one team only, team names; the pages and the API
that reach them, with their refusals in words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import Conflict, InvalidInput, NotAllowed, NotFound
from core.models import AuditEntry
from tests.factories import (
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    member,
    running_team_tournament,
    team_registration,
)
from tournaments.models import (
    EntrantType,
    Registration,
    RegistrationStatus,
    Role,
    TournamentStatus,
)
from tournaments.services import entrants, lifecycle, pods, teams

pytestmark = pytest.mark.django_db


def team_event(**kwargs):
    tournament = TournamentFactory(entrant_type=EntrantType.TEAM, **kwargs)
    return tournament, member(tournament.club, Role.ORGANISER)


def test_a_player_registers_a_team_invites_a_teammate_who_accepts_and_both_check_in() -> None:
    tournament, _ = team_event()
    ada, bruno = UserFactory(username="ada"), UserFactory(username="bruno")
    team = entrants.register(
        actor=ada, tournament=tournament, team_name="  The   Aces ", teammate="Bruno"
    )
    assert team.team_name == "The Aces" and team.partner.user == bruno
    assert team.partner_accepted_at is None and not team.team_complete
    with pytest.raises(Conflict) as refused:
        entrants.check_in(actor=ada, registration=team)
    assert refused.value.code == "team_incomplete"
    assert "has not accepted yet" in refused.value.detail

    team = teams.answer_invitation(actor=bruno, registration=team, accept=True)
    assert team.team_complete and [p.user for p in team.members] == [ada, bruno]

    team = entrants.check_in(actor=bruno, registration=team)
    assert team.partner_checked_in_at is not None and team.checked_in_at is None
    team = entrants.check_in(actor=ada, registration=team)
    assert team.checked_in_at is not None
    actions = list(
        AuditEntry.objects.filter(tournament=tournament)
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "registration.added",
        "team.joined",
        "registration.checked_in",
        "registration.checked_in",
    ]


def test_a_declined_invitation_frees_the_team_to_invite_someone_else() -> None:
    tournament, _ = team_event()
    ada, bruno, chloe = UserFactory(), UserFactory(), UserFactory()
    team = entrants.register(
        actor=ada, tournament=tournament, team_name="Aces", teammate=bruno.username
    )
    team = teams.answer_invitation(actor=bruno, registration=team, accept=False)
    assert team.partner is None
    team = teams.invite_teammate(actor=ada, registration=team, username=chloe.username)
    assert team.is_invited(chloe.pk)
    with pytest.raises(NotFound):  # bruno's invitation is gone
        teams.answer_invitation(actor=bruno, registration=team, accept=True)


def test_a_player_plays_for_one_team_only() -> None:
    tournament, organiser = team_event()
    ada, bruno, chloe, dario = (UserFactory() for _ in range(4))
    aces = entrants.register(
        actor=ada, tournament=tournament, team_name="Aces", teammate=bruno.username
    )
    # Bruno, invited by the Aces, registers a team of his own, then tries to join both.
    kings = entrants.register(actor=bruno, tournament=tournament, team_name="Kings")
    with pytest.raises(Conflict) as refused:
        teams.answer_invitation(actor=bruno, registration=aces, accept=True)
    assert refused.value.code == "already_in_a_team"
    assert "You already play for Kings" in refused.value.detail
    # Chloe cannot invite Bruno while the Aces' invitation stands, nor a captain.
    queens = entrants.register(actor=chloe, tournament=tournament, team_name="Queens")
    with pytest.raises(Conflict) as refused:
        teams.invite_teammate(actor=chloe, registration=queens, username=ada.username)
    assert refused.value.code == "already_in_a_team"
    teams.remove_teammate(actor=ada, registration=aces)  # the Aces cancel their invitation
    teams.assign_teammate(actor=organiser, registration=queens, username=dario.username)
    # Dario, Chloe's teammate, cannot register a team of his own.
    with pytest.raises(Conflict) as refused:
        entrants.register(actor=dario, tournament=tournament, team_name="Jacks")
    assert refused.value.code == "already_in_a_team"
    with pytest.raises(Conflict) as refused:
        entrants.add_player(
            actor=organiser, tournament=tournament, username=ada.username, teammate=dario.username
        )
    assert refused.value.code == "already_registered"
    with pytest.raises(Conflict):
        teams.assign_teammate(actor=organiser, registration=kings, username=dario.username)
    assert Registration.objects.filter(partner__user=dario).count() == 1
    with pytest.raises(InvalidInput) as refused:
        teams.invite_teammate(actor=bruno, registration=kings, username=bruno.username)
    assert refused.value.code == "teammate_is_self"


def test_team_names_are_required_normalised_bounded_and_unique() -> None:
    tournament, organiser = team_event()
    ada, bruno, chloe = UserFactory(), UserFactory(), UserFactory()
    for name, code in (
        ("", "team_name_required"),
        ("   ", "team_name_required"),
        ("x" * 61, "team_name_too_long"),
        ("Aces\u202e", "invalid_characters"),
    ):
        with pytest.raises(InvalidInput) as refused:
            entrants.register(actor=ada, tournament=tournament, team_name=name)
        assert refused.value.code == code and refused.value.field == "team_name"
    entrants.register(actor=ada, tournament=tournament, team_name="Aces")
    with pytest.raises(Conflict) as refused:
        entrants.register(actor=bruno, tournament=tournament, team_name="ACES")
    assert refused.value.code == "team_name_taken"
    # An organiser's team without a name is named after its players.
    added = entrants.add_player(
        actor=organiser, tournament=tournament, username=bruno.username, teammate=chloe.username
    )
    assert added.team_name == f"{bruno.player.display_name} & {chloe.player.display_name}"
    assert added.team_complete
    assert Registration.objects.filter(tournament=tournament).count() == 2


def test_a_single_player_event_refuses_team_input_and_a_team_event_refuses_pods() -> None:
    singles = TournamentFactory()
    with pytest.raises(InvalidInput) as refused:
        entrants.register(actor=UserFactory(), tournament=singles, team_name="Aces")
    assert refused.value.code == "not_a_team_event"
    tournament, organiser = team_event()
    with pytest.raises(InvalidInput) as refused:
        pods.add_stage(actor=organiser, tournament=tournament)
    assert refused.value.code == "no_team_pods"


def test_a_team_of_one_never_starts_play() -> None:
    tournament, organiser = team_event()
    alone = entrants.register(actor=UserFactory(), tournament=tournament, team_name="Solo")
    with pytest.raises(Conflict) as refused:
        entrants.check_in_player(actor=organiser, registration=alone)
    assert refused.value.code == "team_incomplete"
    assert refused.value.detail == "Solo needs a second player before it can check in."
    complete = team_registration(tournament, checked_in=False)
    entrants.check_in_player(actor=organiser, registration=complete)
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    alone.refresh_from_db()
    complete.refresh_from_db()
    assert alone.status == RegistrationStatus.NOT_PLAYING
    assert complete.status == RegistrationStatus.REGISTERED and complete.checked_in


def test_the_teammate_leaving_undoes_the_team_check_in_and_a_withdrawal_frees_them() -> None:
    tournament, organiser = team_event()
    team = team_registration(tournament)
    partner = team.partner.user
    team = entrants.withdraw_entry(actor=partner, registration=team)  # "leave the team"
    assert team.partner is None and team.checked_in_at is None
    assert team.status == RegistrationStatus.REGISTERED
    teams.assign_teammate(actor=organiser, registration=team, username=partner.username)
    entrants.withdraw_entry(actor=team.player.user, registration=team)
    team.refresh_from_db()
    assert team.status == RegistrationStatus.WITHDRAWN and team.partner is None
    # Freed, the teammate registers a team of their own.
    own = entrants.register(actor=partner, tournament=tournament, team_name="Free agents")
    assert own.status == RegistrationStatus.REGISTERED


def test_only_the_captain_invites_and_only_members_rename() -> None:
    tournament, _ = team_event()
    team = team_registration(tournament)
    stranger = UserFactory()
    with pytest.raises(NotAllowed):
        teams.invite_teammate(actor=stranger, registration=team, username=stranger.username)
    with pytest.raises(NotAllowed):
        teams.rename_team(actor=stranger, registration=team, team_name="Ours")
    with pytest.raises(Conflict) as refused:
        teams.invite_teammate(actor=team.player.user, registration=team, username=stranger.username)
    assert refused.value.code == "team_full"
    renamed = teams.rename_team(actor=team.partner.user, registration=team, team_name="Ours")
    assert renamed.team_name == "Ours"


def test_teams_stop_changing_at_the_start_but_may_be_renamed() -> None:
    _, organiser, regs = running_team_tournament(4)
    with pytest.raises(Conflict) as refused:
        teams.remove_teammate(actor=regs[0].partner.user, registration=regs[0])
    assert refused.value.code == "tournament_started"
    assert teams.rename_team(actor=organiser, registration=regs[0], team_name="New").name == "New"


def test_a_late_team_needs_two_players() -> None:
    tournament, organiser, _ = running_team_tournament(4)
    a, b = UserFactory(), UserFactory()
    with pytest.raises(InvalidInput) as refused:
        entrants.add_late_entrant(actor=organiser, tournament=tournament, username=a.username)
    assert refused.value.code == "team_incomplete" and refused.value.field == "teammate"
    late = entrants.add_late_entrant(
        actor=organiser, tournament=tournament, username=a.username, teammate=b.username
    )
    assert late.team_complete and late.checked_in and late.joined_round == 1


def test_the_entrant_type_cannot_change_once_players_registered() -> None:
    tournament, organiser = team_event()
    team_registration(tournament)
    with pytest.raises(Conflict) as refused:
        lifecycle.update_tournament(
            actor=organiser, tournament=tournament, changes={"entrant_type": EntrantType.PLAYER}
        )
    assert refused.value.code == "entrants_registered"


# --- the API ---------------------------------------------------------------------------------


def test_teams_form_through_the_api(api_as) -> None:
    tournament, organiser = team_event()
    ada, bruno, chloe = UserFactory(), UserFactory(), UserFactory()
    base = f"/api/v1/tournaments/{tournament.pk}/registrations"
    r = api_as(ada).post(base + "/", {"team_name": "Aces", "teammate": bruno.username})
    assert r.status_code == 201, r.json()
    pk = r.json()["id"]
    r = api_as(chloe).post(f"{base}/{pk}/answer/", {"accept": True})
    assert r.status_code == 404 and r.json()["code"] == "no_invitation"
    r = api_as(bruno).post(f"{base}/{pk}/answer/", {"accept": True, "extra": 1}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "unknown_field"
    r = api_as(bruno).post(f"{base}/{pk}/answer/", {"accept": True}, format="json")
    assert r.status_code == 200
    for user in (ada, bruno):
        assert api_as(user).post(f"{base}/{pk}/check-in/").status_code == 200
    assert Registration.objects.get(pk=pk).checked_in
    r = api_as(bruno).post(f"{base}/{pk}/rename/", {"team_name": "Kings"})
    assert r.status_code == 200
    r = api_as(organiser).post(base + "/", {"username": chloe.username, "teammate": "nobody"})
    assert r.status_code == 404 and r.json()["field"] == "teammate"
    r = api_as(chloe).post(base + "/", {"team_name": "Kings"})
    assert r.status_code == 409 and r.json()["code"] == "team_name_taken"
    r = api_as(chloe).post(base + "/", {"team_name": "x" * 300})
    assert r.status_code == 400
    assert Registration.objects.filter(tournament=tournament).count() == 1


# --- the pages -------------------------------------------------------------------------------


def test_the_tournament_page_offers_team_registration_invitations_and_team_check_in(
    client,
) -> None:
    tournament, _ = team_event()
    ada, bruno = UserFactory(), UserFactory()
    url = reverse("tournament-detail", args=[tournament.pk])
    client.force_login(ada)
    page = client.get(url).content.decode()
    assert "Register the team" in page and 'name="teammate"' in page
    client.post(
        reverse("tournament-register", args=[tournament.pk]),
        {"team_name": "Aces", "teammate": bruno.username},
    )
    page = client.get(url).content.decode()
    assert "Your team: Aces" in page and "invited, not answered yet" in page
    assert "Cancel the invitation" in page and ">Check in<" not in page
    team = Registration.objects.get(tournament=tournament)

    client.force_login(bruno)
    page = client.get(url).content.decode()
    assert f"{ada.player.display_name}</strong> invites you to play for <strong>Aces" in page
    client.post(reverse("team-answer", args=[tournament.pk, team.pk]), {"answer": "accept"})
    page = client.get(url).content.decode()
    assert "Your team: Aces" in page and "Leave the team" in page and ">Check in<" in page
    client.post(reverse("registration-check-in", args=[tournament.pk, team.pk]))
    page = client.get(url).content.decode()
    assert "Your team is checked in once both of you have." in page
    assert "1 of 2" in page
    response = client.post(
        reverse("team-answer", args=[tournament.pk, team.pk]), {"answer": "maybe"}, follow=True
    )
    assert "Join the team or decline the invitation." in response.content.decode()


def test_a_tournament_can_be_created_for_teams(client) -> None:
    club = TournamentFactory().club
    club_owner = member(club, Role.OWNER)
    client.force_login(club_owner)
    start = TournamentFactory.build().scheduled_start
    response = client.post(
        reverse("tournament-create", args=[club.slug]),
        {
            "name": "Doubles night",
            "game": "gesoseka",
            "entrant_type": "team",
            "best_of": 1,
            "capacity": 8,
            "scheduled_start": start.strftime("%Y-%m-%dT%H:%M"),
            "publish": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    created = club.tournaments.get(name="Doubles night")
    assert created.entrant_type == EntrantType.TEAM
    assert created.status == TournamentStatus.REGISTRATION


def test_the_tournament_page_and_registration_list_cost_the_same_queries_for_more_teams(
    client, api_as
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (2, 8):
        tournament, organiser = team_event(capacity=16)
        for _ in range(size):
            team_registration(tournament, checked_in=False)
        # An invitation waiting and a team of one, among them.
        waiting = entrants.register(actor=UserFactory(), tournament=tournament, team_name="W")
        teams.invite_teammate(
            actor=waiting.player.user, registration=waiting, username=UserFactory().username
        )
        entrants.register(actor=UserFactory(), tournament=tournament, team_name="Solo")
        client.force_login(organiser)
        api = api_as(organiser)
        with CaptureQueriesContext(connection) as page:
            response = client.get(reverse("tournament-detail", args=[tournament.pk]))
        assert response.status_code == 200
        with CaptureQueriesContext(connection) as listing:
            rows = api.get(f"/api/v1/tournaments/{tournament.pk}/registrations/").json()
        assert len(rows["results"]) == size + 2
        counts.append((len(page), len(listing)))
    assert counts[0] == counts[1], counts


def test_the_invitation_message_names_the_teammate_as_pages_do(client) -> None:
    """Issue 22, defect 13: the flash said the typed user name ("bruno") where the card
    shows the display name ("Bruno Costa")."""
    tournament, _ = team_event()
    ada = UserFactory(username="ada")
    PlayerFactory(user__username="bruno", display_name="Bruno Costa")
    team = entrants.register(actor=ada, tournament=tournament, team_name="The Aces")
    client.force_login(ada)
    response = client.post(
        reverse("team-invite", args=[tournament.pk, team.pk]), {"username": "BRUNO"}, follow=True
    )
    shown = [str(m) for m in response.context["messages"]]
    assert shown == ["Bruno Costa is invited: they accept on this page."], shown


def test_settings_show_only_what_applies_to_the_events_game(client) -> None:
    from tests.factories import running_tournament

    for game, shown, hidden in (
        ("gesoseka", set(), {"rounds_to_win", "kontsina_rounds"}),
        ("kontsina", {"kontsina_rounds"}, {"rounds_to_win"}),
        ("generic", {"rounds_to_win"}, {"kontsina_rounds"}),
    ):
        tournament, organiser, _ = running_tournament(2, game=game)
        client.force_login(organiser)
        html = client.get(reverse("swiss-settings", args=[tournament.pk])).content.decode()
        for name in shown:
            assert f'name="{name}"' in html, (game, name)
        for name in hidden:
            assert f'name="{name}"' not in html, (game, name)
        assert "own match-win %" in html and "bye counts in own mw" not in html.lower()
