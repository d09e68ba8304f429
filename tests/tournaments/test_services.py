"""Services: permissions, state rules, audit log, the start clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import Conflict, InvalidInput, NotAllowed, NotFound
from core.models import AuditEntry
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    member,
)
from tournaments import tasks
from tournaments.models import (
    Membership,
    Registration,
    RegistrationStatus,
    Role,
    Tournament,
    TournamentStatus,
)
from tournaments.services import clubs, entrants, lifecycle, people

pytestmark = pytest.mark.django_db


def tournament_kwargs(**overrides):
    data = {
        "name": "Thursday Swiss",
        "game": "gesoseka",
        "capacity": 8,
        "scheduled_start": timezone.now() + timedelta(days=1),
        "publish": True,
    }
    data.update(overrides)
    return data


# --- clubs and roles ------------------------------------------------------------------------


def test_creating_a_club_makes_the_creator_its_owner() -> None:
    user = UserFactory()
    club = clubs.create_club(actor=user, name="Riverside Card Club")
    assert club.slug == "riverside-card-club"
    assert Membership.objects.get(club=club, user=user).role == Role.OWNER


def test_club_slugs_stay_unique() -> None:
    user = UserFactory()
    first = clubs.create_club(actor=user, name="Card Club")
    second = clubs.create_club(actor=user, name="Card Club")
    assert first.slug != second.slug


@pytest.mark.parametrize("role", [Role.ORGANISER, Role.JUDGE, Role.MEMBER])
def test_only_owners_add_members(role: str) -> None:
    club = ClubFactory()
    actor = member(club, role)
    UserFactory(username="newbie")
    with pytest.raises(NotAllowed):
        clubs.add_member(actor=actor, club=club, username="newbie")
    assert not Membership.objects.filter(user__username="newbie").exists()


def test_owner_adds_member_with_role_and_it_is_audited() -> None:
    club = ClubFactory()
    owner = member(club, Role.OWNER)
    UserFactory(username="jules")
    membership = clubs.add_member(actor=owner, club=club, username="Jules", role=Role.JUDGE)
    assert membership.role == Role.JUDGE
    entry = AuditEntry.objects.get(action="membership.added")
    assert entry.actor == owner and entry.after == {"user": "jules", "role": "judge"}


def test_adding_an_unknown_user_or_a_member_twice_is_refused() -> None:
    club = ClubFactory()
    owner = member(club, Role.OWNER)
    with pytest.raises(NotFound):
        clubs.add_member(actor=owner, club=club, username="ghost")
    UserFactory(username="twice")
    clubs.add_member(actor=owner, club=club, username="twice")
    with pytest.raises(Conflict) as error:
        clubs.add_member(actor=owner, club=club, username="twice")
    assert error.value.code == "already_member"


def test_role_change_is_audited_with_before_and_after() -> None:
    club = ClubFactory()
    owner = member(club, Role.OWNER)
    judge = member(club, Role.MEMBER)
    membership = Membership.objects.get(user=judge)
    clubs.set_role(actor=owner, membership=membership, role=Role.ORGANISER)
    entry = AuditEntry.objects.filter(action="membership.role_set").latest("id")
    assert entry.before == {"role": "member"} and entry.after == {"role": "organiser"}


def test_last_owner_cannot_be_demoted_or_removed() -> None:
    club = ClubFactory()
    owner = member(club, Role.OWNER)
    membership = Membership.objects.get(user=owner)
    with pytest.raises(Conflict) as error:
        clubs.set_role(actor=owner, membership=membership, role=Role.MEMBER)
    assert error.value.code == "last_owner"
    with pytest.raises(Conflict):
        clubs.remove_member(actor=owner, membership=membership)
    membership.refresh_from_db()
    assert membership.role == Role.OWNER


def test_unknown_role_is_refused() -> None:
    club = ClubFactory()
    owner = member(club, Role.OWNER)
    UserFactory(username="x")
    with pytest.raises(InvalidInput) as error:
        clubs.add_member(actor=owner, club=club, username="x", role="emperor")
    assert error.value.code == "unknown_role"


def test_invitation_sends_mail_and_accepting_adds_the_member(
    mailoutbox,
    django_capture_on_commit_callbacks,
) -> None:
    club = ClubFactory()
    owner = member(club, Role.OWNER)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = clubs.invite_member(
            actor=owner, club=club, email="New@Example.com", role=Role.JUDGE
        )
    assert len(mailoutbox) == 1 and invitation.token in mailoutbox[0].body
    guest = UserFactory()
    membership = clubs.accept_invitation(user=guest, token=invitation.token)
    assert membership.role == Role.JUDGE
    with pytest.raises(Conflict):
        clubs.accept_invitation(user=UserFactory(), token=invitation.token)


# --- tournaments ----------------------------------------------------------------------------


def test_organiser_creates_a_published_tournament_with_a_default_check_in_window() -> None:
    club = ClubFactory()
    organiser = member(club, Role.ORGANISER)
    tournament = lifecycle.create_tournament(actor=organiser, club=club, **tournament_kwargs())
    assert tournament.status == TournamentStatus.REGISTRATION
    assert tournament.check_in_closes_at == tournament.scheduled_start
    assert tournament.scheduled_start - tournament.check_in_opens_at == timedelta(hours=1)
    assert AuditEntry.objects.filter(action="tournament.created", tournament=tournament).exists()


@pytest.mark.parametrize(
    ("overrides", "code", "field"),
    [
        ({"game": "poker"}, "unknown_game", "game"),
        ({"capacity": 1}, "capacity_too_small", "capacity"),
        (
            {"scheduled_start": timezone.now() - timedelta(minutes=1)},
            "start_in_past",
            "scheduled_start",
        ),
        ({"best_of": 2}, "invalid_best_of", "best_of"),
        ({"name": "  "}, "name_required", "name"),
        (
            {
                "check_in_opens_at": timezone.now() + timedelta(hours=30),
                "check_in_closes_at": timezone.now() + timedelta(hours=31),
            },
            "check_in_window",
            "check_in_closes_at",
        ),
        (
            {"check_in_opens_at": timezone.now() + timedelta(hours=2)},
            "check_in_window",
            "check_in_closes_at",
        ),
        (
            {"registration_closes_at": timezone.now() + timedelta(days=3)},
            "registration_window",
            "registration_closes_at",
        ),
    ],
)
def test_bad_tournament_settings_are_refused_naming_the_field(overrides, code, field) -> None:
    club = ClubFactory()
    organiser = member(club, Role.ORGANISER)
    with pytest.raises(InvalidInput) as error:
        lifecycle.create_tournament(actor=organiser, club=club, **tournament_kwargs(**overrides))
    assert (error.value.code, error.value.field) == (code, field)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("role", [Role.JUDGE, Role.MEMBER, None])
def test_only_owners_and_organisers_create_tournaments(role: str | None) -> None:
    club = ClubFactory()
    actor = member(club, role) if role else UserFactory()
    with pytest.raises(NotAllowed) as error:
        lifecycle.create_tournament(actor=actor, club=club, **tournament_kwargs())
    assert error.value.code == "not_organiser"


def test_organiser_of_another_club_cannot_edit() -> None:
    tournament = TournamentFactory()
    stranger = member(ClubFactory(), Role.OWNER)
    with pytest.raises(NotAllowed):
        lifecycle.update_tournament(actor=stranger, tournament=tournament, changes={"name": "x"})
    tournament.refresh_from_db()
    assert tournament.name != "x"


def test_capacity_cannot_drop_below_registered_players() -> None:
    tournament = TournamentFactory(capacity=4)
    organiser = member(tournament.club, Role.ORGANISER)
    RegistrationFactory.create_batch(3, tournament=tournament)
    with pytest.raises(Conflict) as error:
        lifecycle.update_tournament(actor=organiser, tournament=tournament, changes={"capacity": 2})
    assert error.value.code == "capacity_below_registered"


def test_started_tournament_only_changes_name_and_description() -> None:
    tournament = TournamentFactory(status=TournamentStatus.RUNNING)
    organiser = member(tournament.club, Role.ORGANISER)
    lifecycle.update_tournament(
        actor=organiser,
        tournament=tournament,
        changes={"name": "Renamed", "capacity": tournament.capacity},
    )
    with pytest.raises(Conflict):
        lifecycle.update_tournament(
            actor=organiser, tournament=tournament, changes={"capacity": 64}
        )


def test_publishing_a_draft_opens_registration() -> None:
    tournament = TournamentFactory(status=TournamentStatus.DRAFT)
    organiser = member(tournament.club, Role.OWNER)
    lifecycle.publish_tournament(actor=organiser, tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.registration_is_open()
    with pytest.raises(Conflict):
        lifecycle.publish_tournament(actor=organiser, tournament=tournament)


# --- registration and check-in ------------------------------------------------------------------


def test_player_registers_and_it_is_audited() -> None:
    tournament = TournamentFactory()
    user = UserFactory()
    registration = entrants.register(actor=user, tournament=tournament)
    assert registration.status == RegistrationStatus.REGISTERED
    assert registration.player.user == user  # the player profile is created on the fly
    entry = AuditEntry.objects.get(action="registration.added")
    assert entry.tournament == tournament and entry.after["status"] == "registered"


def test_registering_twice_is_refused() -> None:
    tournament = TournamentFactory()
    user = UserFactory()
    entrants.register(actor=user, tournament=tournament)
    with pytest.raises(Conflict) as error:
        entrants.register(actor=user, tournament=tournament)
    assert error.value.code == "already_registered"
    assert Registration.objects.count() == 1


def test_registering_when_full_is_refused() -> None:
    tournament = TournamentFactory(capacity=2)
    RegistrationFactory.create_batch(2, tournament=tournament)
    with pytest.raises(Conflict) as error:
        entrants.register(actor=UserFactory(), tournament=tournament)
    assert error.value.code == "tournament_full"


@pytest.mark.parametrize(
    "fields",
    [
        {"status": TournamentStatus.DRAFT},
        {"status": TournamentStatus.RUNNING},
        {"registration_opens_at": timezone.now() + timedelta(hours=1)},
        {
            "registration_closes_at": timezone.now() - timedelta(minutes=1),
            "registration_opens_at": timezone.now() - timedelta(hours=1),
        },
    ],
)
def test_registering_when_closed_is_refused(fields) -> None:
    tournament = TournamentFactory(**fields)
    with pytest.raises(Conflict) as error:
        entrants.register(actor=UserFactory(), tournament=tournament)
    assert error.value.code == "registration_closed"
    assert not Registration.objects.exists()


def test_withdrawn_player_can_register_again_and_frees_the_seat() -> None:
    tournament = TournamentFactory(capacity=2)
    user = UserFactory()
    registration = entrants.register(actor=user, tournament=tournament)
    entrants.unregister(actor=user, registration=registration)
    entrants.unregister(actor=user, registration=registration)  # twice changes nothing
    assert AuditEntry.objects.filter(action="registration.withdrawn").count() == 1
    entrants.register(actor=UserFactory(), tournament=tournament)
    again = entrants.register(actor=user, tournament=tournament)
    assert again.pk == registration.pk and again.is_active


def test_a_player_changes_only_their_own_registration() -> None:
    registration = RegistrationFactory()
    other = UserFactory()
    with pytest.raises(NotAllowed):
        entrants.unregister(actor=other, registration=registration)
    with pytest.raises(NotAllowed):
        entrants.check_in(actor=other, registration=registration)
    registration.refresh_from_db()
    assert registration.is_active and not registration.checked_in


def test_check_in_during_the_window() -> None:
    registration = RegistrationFactory()
    entrants.check_in(actor=registration.player.user, registration=registration)
    entrants.check_in(actor=registration.player.user, registration=registration)
    registration.refresh_from_db()
    assert registration.checked_in
    assert AuditEntry.objects.filter(action="registration.checked_in").count() == 1


@pytest.mark.parametrize(
    ("opens", "closes"),
    [(timedelta(hours=1), timedelta(hours=2)), (timedelta(hours=-2), timedelta(hours=-1))],
)
def test_check_in_outside_the_window_is_refused(opens, closes) -> None:
    now = timezone.now()
    tournament = TournamentFactory(check_in_opens_at=now + opens, check_in_closes_at=now + closes)
    registration = RegistrationFactory(tournament=tournament)
    with pytest.raises(Conflict) as error:
        entrants.check_in(actor=registration.player.user, registration=registration)
    assert error.value.code == "check_in_closed"
    registration.refresh_from_db()
    assert not registration.checked_in


def test_organiser_adds_removes_and_checks_in_players_outside_the_window() -> None:
    now = timezone.now()
    tournament = TournamentFactory(
        registration_opens_at=now + timedelta(hours=1),
        check_in_opens_at=now + timedelta(hours=2),
        check_in_closes_at=now + timedelta(hours=3),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    PlayerFactory(user__username="walkin")
    registration = entrants.add_player(actor=organiser, tournament=tournament, username="walkin")
    entrants.check_in_player(actor=organiser, registration=registration)
    registration.refresh_from_db()
    assert registration.checked_in
    entrants.remove_player(actor=organiser, registration=registration)
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.WITHDRAWN and not registration.checked_in
    assert AuditEntry.objects.filter(action="registration.added_by_organiser").exists()


def test_judge_cannot_manage_registrations() -> None:
    registration = RegistrationFactory()
    judge = member(registration.tournament.club, Role.JUDGE)
    with pytest.raises(NotAllowed):
        entrants.remove_player(actor=judge, registration=registration)
    with pytest.raises(NotAllowed):
        entrants.add_player(
            actor=judge,
            tournament=registration.tournament,
            username=registration.player.user.username,
        )


# --- the start clock ---------------------------------------------------------------------------


def _started_tournament():
    now = timezone.now()
    tournament = TournamentFactory(
        scheduled_start=now - timedelta(seconds=1),
        check_in_opens_at=now - timedelta(hours=1),
        check_in_closes_at=now - timedelta(seconds=1),
    )
    present = RegistrationFactory(tournament=tournament, checked_in_at=now - timedelta(minutes=5))
    absent = RegistrationFactory(tournament=tournament)
    withdrawn = RegistrationFactory(tournament=tournament, status=RegistrationStatus.WITHDRAWN)
    return tournament, present, absent, withdrawn


def test_start_closes_registration_and_marks_no_shows_not_playing() -> None:
    tournament, present, absent, withdrawn = _started_tournament()
    assert lifecycle.handle_tournament_start(tournament_id=tournament.pk) is True
    for row in (tournament, present, absent, withdrawn):
        row.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING and tournament.start_handled_at
    assert present.status == RegistrationStatus.REGISTERED
    assert absent.status == RegistrationStatus.NOT_PLAYING
    assert withdrawn.status == RegistrationStatus.WITHDRAWN
    entry = AuditEntry.objects.get(action="tournament.started")
    assert entry.actor is None and entry.after["not_playing"] == [absent.player.display_name]


def test_start_job_running_twice_does_nothing_more() -> None:
    tournament, *_ = _started_tournament()
    assert lifecycle.handle_tournament_start(tournament_id=tournament.pk)
    audit_count = AuditEntry.objects.count()
    assert lifecycle.handle_tournament_start(tournament_id=tournament.pk) is False
    assert tasks.sweep_deadlines() == 0
    assert AuditEntry.objects.count() == audit_count


def test_start_job_before_the_start_does_nothing() -> None:
    tournament = TournamentFactory()
    registration = RegistrationFactory(tournament=tournament)
    assert lifecycle.handle_tournament_start(tournament_id=tournament.pk) is False
    assert lifecycle.handle_tournament_start(tournament_id=10**9) is False
    registration.refresh_from_db()
    assert registration.is_active


def test_sweeper_handles_every_start_that_passed_unhandled() -> None:
    first, *_ = _started_tournament()
    second, *_ = _started_tournament()
    future = TournamentFactory()
    draft = TournamentFactory(
        status=TournamentStatus.DRAFT,
        scheduled_start=timezone.now() - timedelta(hours=1),
        check_in_opens_at=None,
        check_in_closes_at=None,
    )
    assert tasks.sweep_deadlines() == 2
    statuses = dict(Tournament.objects.values_list("pk", "status"))
    assert statuses[first.pk] == statuses[second.pk] == TournamentStatus.RUNNING
    assert statuses[future.pk] == TournamentStatus.REGISTRATION
    assert statuses[draft.pk] == TournamentStatus.DRAFT


def test_start_job_is_queued_for_the_start_time_on_commit(
    django_capture_on_commit_callbacks,
    monkeypatch,
) -> None:
    from config.celery import app

    queued = []
    app.conf.task_always_eager = False  # the autouse fixture restores it
    monkeypatch.setattr(
        tasks.handle_tournament_start, "apply_async", lambda args, eta: queued.append((args, eta))
    )
    club = ClubFactory()
    organiser = member(club, Role.ORGANISER)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        tournament = lifecycle.create_tournament(actor=organiser, club=club, **tournament_kwargs())
    assert queued == []  # nothing is sent before the transaction commits
    for callback in callbacks:
        callback()
    assert queued == [([tournament.pk], tournament.scheduled_start)]


def test_sign_up_creates_a_player_and_refuses_taken_names() -> None:
    player = people.sign_up(
        username="mila", email="", password="long-pass-123", display_name="Mila K"
    )
    assert player.display_name == "Mila K" and player.user.check_password("long-pass-123")
    with pytest.raises(Conflict) as error:
        people.sign_up(username="MILA", email="", password="long-pass-123")
    assert error.value.field == "username"
