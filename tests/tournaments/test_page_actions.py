"""Pages offer what the services allow: in each state of a tournament, a round and a
match, a button is on the page exactly when pressing it does something (the service acts
and writes its audit entry) — the templates ask ``actions`` from ``selectors.policies``,
which mirror the services' own checks. Also the page bugs of issue 9: the players
fragment, the Swiss settings page writing on GET, and where ``next`` may send a user."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from core.errors import DomainError, RuleViolation
from core.models import AuditEntry
from gameplay.services import drafts as draft_services
from tests.factories import (
    A_WINS,
    B_WINS,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    member,
    running_tournament,
)
from tournaments import selectors
from tournaments.models import (
    Match,
    MatchStatus,
    Registration,
    Role,
    Round,
    Stage,
    StageKind,
    SwissSettings,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import policies
from tournaments.services import brackets, entrants, lifecycle, results, round_clock, swiss

pytestmark = pytest.mark.django_db


# --- the organiser's buttons ---------------------------------------------------------------


@dataclass
class World:
    tournament: Tournament
    organiser: Any
    registrations: list[Registration]
    unchecked: Registration | None = None
    dropped: Registration | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def round(self) -> Round | None:
        return selectors.current_round(self.tournament)


def _before_start(status: str) -> World:
    tournament = TournamentFactory(status=status)
    organiser = member(tournament.club, Role.ORGANISER)
    now = timezone.now()
    registrations = [
        RegistrationFactory(tournament=tournament, checked_in_at=now if i < 3 else None)
        for i in range(4)
    ]
    return World(tournament, organiser, registrations, unchecked=registrations[3])


def _running(step: str) -> World:
    """A running tournament (3 rounds, no automatic pairing, unfinished matches only
    flagged at time) moved to ``step``; one of its five players dropped."""
    tournament, organiser, registrations = running_tournament(
        5, rounds=3, auto_pair=False, overdue_policy="none"
    )
    world = World(tournament, organiser, registrations, dropped=registrations[4])
    entrants.drop_player(actor=organiser, registration=registrations[4])
    steps = ["no round", "paired", "clock running", "time called", "complete", "finished"]
    done = steps.index(step)
    if done >= 1:
        swiss.pair_next_round(actor=organiser, tournament=tournament)
    if done >= 2:
        round_clock.start_round(actor=organiser, round=world.round, minutes=30)
    if done == 3:
        rnd = world.round
        assert rnd is not None and rnd.ends_at is not None
        round_clock.handle_round_clock(round_id=rnd.pk, now=rnd.ends_at + timedelta(seconds=1))
    if done >= 4:
        for match in Match.objects.filter(round=world.round, b__isnull=False):
            results.judge_result(actor=organiser, match=match, games=A_WINS)
    if done >= 5:
        lifecycle.finish_tournament(actor=organiser, tournament=tournament)
    tournament.refresh_from_db()
    return world


STATES: dict[str, Callable[[], World]] = {
    "draft": lambda: _before_start(TournamentStatus.DRAFT),
    "registration": lambda: _before_start(TournamentStatus.REGISTRATION),
    "running, no round": lambda: _running("no round"),
    "round paired": lambda: _running("paired"),
    "round clock running": lambda: _running("clock running"),
    "round time called": lambda: _running("time called"),
    "round complete": lambda: _running("complete"),
    "finished": lambda: _running("finished"),
}


def _two_at_different_tables(world: World) -> tuple[Registration, Registration]:
    rnd = world.round
    assert rnd is not None
    first, second = list(Match.objects.filter(round=rnd).order_by("table"))[:2]
    return first.a, second.a


def _round_or_refuse(world: World) -> Round:
    if world.round is None:
        raise DomainError("No round to act on.")
    return world.round


def _swap(world: World) -> object:
    rnd = _round_or_refuse(world)
    first, second = _two_at_different_tables(world)
    return swiss.swap_players(actor=world.organiser, round=rnd, first=first, second=second)


SERVICES: dict[str, Callable[[World], object]] = {
    "publish": lambda w: lifecycle.publish_tournament(actor=w.organiser, tournament=w.tournament),
    "start": lambda w: lifecycle.start_tournament_now(actor=w.organiser, tournament=w.tournament),
    "seat_drafts": lambda w: draft_services.create_pods(
        actor=w.organiser, tournament=w.tournament, timing="each"
    ),
    "add_player": lambda w: entrants.add_player(
        actor=w.organiser, tournament=w.tournament, username=UserFactory().username
    ),
    "remove_player": lambda w: entrants.remove_player(
        actor=w.organiser, registration=w.registrations[0]
    ),
    "check_in_player": lambda w: entrants.check_in_player(
        actor=w.organiser, registration=w.unchecked or w.registrations[0]
    ),
    "pair": lambda w: swiss.pair_next_round(actor=w.organiser, tournament=w.tournament),
    "finish": lambda w: lifecycle.finish_tournament(actor=w.organiser, tournament=w.tournament),
    "start_round": lambda w: round_clock.start_round(actor=w.organiser, round=_round_or_refuse(w)),
    "repair": lambda w: swiss.repair_round(actor=w.organiser, round=_round_or_refuse(w)),
    "swap": lambda w: _swap(w),
    "extend": lambda w: round_clock.extend_round(
        actor=w.organiser, round=_round_or_refuse(w), minutes=5
    ),
    "drop_player": lambda w: entrants.drop_player(
        actor=w.organiser, registration=w.registrations[0]
    ),
    "readd_player": lambda w: entrants.readd_player(
        actor=w.organiser, registration=w.dropped or w.registrations[0]
    ),
    "late_entrant": lambda w: entrants.add_late_entrant(
        actor=w.organiser, tournament=w.tournament, username=UserFactory().username
    ),
}


def _detail(world: World) -> str:
    return reverse("tournament-detail", args=[world.tournament.pk])


def _round_page(world: World) -> str:
    rnd = world.round
    if rnd is None:
        return reverse("round-current", args=[world.tournament.pk])
    return reverse("round-detail", args=[world.tournament.pk, rnd.number])


def _standings(world: World) -> str:
    return reverse("standings", args=[world.tournament.pk])


def _do(action: str) -> Callable[[World], str]:
    return lambda w: f'action="{reverse("round-action", args=[w.tournament.pk, action])}"'


#: action -> (the page that offers it, what its button looks like on that page)
BUTTONS: dict[str, tuple[Callable[[World], str], Callable[[World], str]]] = {
    "publish": (_detail, lambda w: reverse("tournament-publish", args=[w.tournament.pk])),
    "start": (_detail, _do("start-tournament")),
    "seat_drafts": (_detail, lambda w: 'id="seat-pods"'),
    "add_player": (_detail, lambda w: reverse("tournament-add-player", args=[w.tournament.pk])),
    "remove_player": (
        _detail,
        lambda w: reverse("registration-withdraw", args=[w.tournament.pk, w.registrations[0].pk]),
    ),
    "check_in_player": (
        _detail,
        lambda w: reverse(
            "registration-check-in",
            args=[w.tournament.pk, (w.unchecked or w.registrations[0]).pk],
        ),
    ),
    "pair": (_round_page, _do("pair")),
    "finish": (_round_page, _do("finish")),
    "start_round": (_round_page, _do("start-round")),
    "repair": (_round_page, _do("repair")),
    "swap": (_round_page, _do("swap")),
    "extend": (_round_page, _do("extend")),
    "drop_player": (
        _standings,
        lambda w: reverse(
            "registration-action", args=[w.tournament.pk, w.registrations[0].pk, "drop"]
        ),
    ),
    "readd_player": (
        _standings,
        lambda w: reverse(
            "registration-action",
            args=[w.tournament.pk, (w.dropped or w.registrations[0]).pk, "readd"],
        ),
    ),
    "late_entrant": (_standings, lambda w: reverse("late-entrant", args=[w.tournament.pk])),
}


def acted(call: Callable[[], object]) -> bool:
    """Whether the service did something: no refusal, and a new audit entry."""
    before = AuditEntry.objects.count()
    try:
        call()
    except (DomainError, RuleViolation):
        return False
    return AuditEntry.objects.count() > before


@pytest.mark.parametrize("state", list(STATES))
@pytest.mark.parametrize("action", list(SERVICES))
def test_organiser_sees_a_button_exactly_when_the_service_acts(
    client, state: str, action: str
) -> None:
    world = STATES[state]()
    page, button = BUTTONS[action]
    client.force_login(world.organiser)
    response = client.get(page(world), follow=True)
    assert response.status_code == 200
    shown = button(world) in response.content.decode()
    allowed = action in response.context["actions"]
    assert shown == allowed, f"{action} in {state}: the page and its actions disagree"
    assert shown == acted(lambda: SERVICES[action](world)), (
        f"{action} in {state}: {'shown' if shown else 'hidden'}, but the service "
        f"{'refuses' if shown else 'acts'}"
    )


def test_a_judge_extends_a_running_round_from_the_pairings_page(client) -> None:
    world = _running("clock running")
    judge = member(world.tournament.club, Role.JUDGE)
    client.force_login(judge)
    page = client.get(_round_page(world)).content.decode()
    assert _do("extend")(world) in page
    assert _do("pair")(world) not in page and _do("repair")(world) not in page
    assert acted(lambda: round_clock.extend_round(actor=judge, round=world.round, minutes=5))


def test_round_controls_show_on_the_latest_round_only(client) -> None:
    world = _running("complete")
    swiss.pair_next_round(actor=world.organiser, tournament=world.tournament)
    client.force_login(world.organiser)
    old = client.get(reverse("round-detail", args=[world.tournament.pk, 1])).content.decode()
    latest = client.get(reverse("round-detail", args=[world.tournament.pk, 2])).content.decode()
    assert 'id="round-controls"' not in old
    assert _do("start-round")(world) in latest and "Start round 2" in latest


def test_the_public_sees_no_controls(client) -> None:
    world = _running("paired")
    page = client.get(_round_page(world)).content.decode()
    assert 'id="round-controls"' not in page
    assert (
        policies.tournament_actions(UserFactory(), world.tournament, current_round=world.round)
        == frozenset()
    )


# --- the player's own entry -----------------------------------------------------------------


def test_register_check_in_and_withdraw_follow_the_services(client) -> None:
    tournament = TournamentFactory()
    user = UserFactory()
    client.force_login(user)
    url = reverse("tournament-detail", args=[tournament.pk])
    register = reverse("tournament-register", args=[tournament.pk])

    page = client.get(url).content.decode()
    assert register in page
    assert acted(lambda: entrants.register(actor=user, tournament=tournament))

    registration = Registration.objects.get(player__user=user)
    check_in = reverse("registration-check-in", args=[tournament.pk, registration.pk])
    withdraw = reverse("registration-withdraw", args=[tournament.pk, registration.pk])
    page = client.get(url).content.decode()
    assert register not in page and check_in in page and withdraw in page
    assert acted(lambda: entrants.check_in(actor=user, registration=registration))

    page = client.get(url).content.decode()
    assert check_in not in page and withdraw in page
    assert not acted(lambda: entrants.check_in(actor=user, registration=registration))

    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.RUNNING)
    page = client.get(url).content.decode()
    assert withdraw not in page and register not in page
    assert not acted(lambda: entrants.unregister(actor=user, registration=registration))


def test_register_is_offered_only_while_registration_is_open(client) -> None:
    tournament = TournamentFactory(registration_opens_at=timezone.now() + timedelta(hours=1))
    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert reverse("tournament-register", args=[tournament.pk]) not in page
    assert not acted(lambda: entrants.register(actor=user, tournament=tournament))


# --- the match page -------------------------------------------------------------------------


def _match_in(state: str) -> tuple[Match, Any, Any, Any]:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    judge = member(tournament.club, Role.JUDGE)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    match = Match.objects.select_related("a__player", "b__player").filter(round=rnd).first()
    assert match is not None and match.b is not None
    a, b = match.a.player.user, match.b.player.user
    if state in ("reported", "disputed"):
        results.report_result(actor=a, match=match, games=A_WINS)
    if state == "disputed":
        results.report_result(actor=b, match=match, games=B_WINS)
    if state == "confirmed":
        results.judge_result(actor=judge, match=match, games=A_WINS)
    match.refresh_from_db()
    expected = {
        "pending": MatchStatus.PENDING,
        "reported": MatchStatus.REPORTED,
        "disputed": MatchStatus.DISPUTED,
        "confirmed": MatchStatus.CONFIRMED,
    }[state]
    assert match.status == expected
    return match, a, b, judge


#: A result neither player reported yet (a report the same as one's own changes nothing).
A_WINS_2_1 = [{"rounds": [[10, 5], [5, 10], [10, 5]]}]
MATCH_BUTTONS = {"report": 'id="report-result"', "confirm": 'id="confirm-result"'}
MATCH_BUTTONS["judge"] = 'id="judge-result"'


@pytest.mark.parametrize("state", ["pending", "reported", "disputed", "confirmed"])
@pytest.mark.parametrize("who", ["first player", "second player", "judge"])
@pytest.mark.parametrize("action", ["report", "confirm", "judge"])
def test_match_page_offers_what_the_result_services_accept(
    client, state: str, who: str, action: str
) -> None:
    match, a, b, judge = _match_in(state)
    user = {"first player": a, "second player": b, "judge": judge}[who]
    client.force_login(user)
    response = client.get(reverse("match", args=[match.round.tournament_id, match.pk]))
    shown = MATCH_BUTTONS[action] in response.content.decode()
    assert shown == (action in response.context["match_actions"])
    call = {
        "report": lambda: results.report_result(actor=user, match=match, games=A_WINS_2_1),
        "confirm": lambda: results.confirm_result(actor=user, match=match),
        "judge": lambda: results.judge_result(actor=user, match=match, games=B_WINS),
    }[action]
    assert shown == acted(call), f"{who}, {action}, {state}: shown={shown}"


# --- the draft panel ----------------------------------------------------------------------------


def test_draft_panel_offers_start_until_the_pod_starts(client) -> None:
    from tests.factories import draft_pods

    pods, organiser, registrations = draft_pods(4)
    pod = pods[0]
    url = reverse("tournament-detail", args=[pod.tournament_id])
    start = f'name="pod" value="{pod.pk}"'
    client.force_login(organiser)
    assert start in client.get(url).content.decode()
    assert acted(lambda: draft_services.start_pod(actor=organiser, pod=pod))
    assert start not in client.get(url).content.decode()
    assert not acted(lambda: draft_services.start_pod(actor=organiser, pod=pod))
    client.force_login(registrations[0].player.user)
    page = client.get(url).content.decode()
    assert reverse("draft-pick", args=[pod.pk]) in page
    assert reverse("draft-control", args=[pod.pk]) not in page and start not in page


# --- issue 9's page bugs --------------------------------------------------------------------------


def test_players_fragment_renders_the_players_list_for_htmx(client) -> None:
    registration = RegistrationFactory()
    url = reverse("tournament-detail", args=[registration.tournament.pk])
    response = client.get(url, {"fragment": "players"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert registration.player.display_name in html and 'id="players"' in html
    assert "<html" not in html and 'id="my-registration"' not in html
    full = client.get(url).content.decode()
    assert 'id="players"' in full and "<html" in full


def test_swiss_settings_page_writes_nothing_on_get(client) -> None:
    tournament = TournamentFactory()
    client.force_login(member(tournament.club, Role.ORGANISER))
    settings_rows = SwissSettings.objects.count()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("swiss-settings", args=[tournament.pk]))
    assert response.status_code == 200
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert writes == []
    assert SwissSettings.objects.count() == settings_rows


def test_the_settings_tab_of_a_tournament_without_swiss_rounds_leads_to_its_stages(client) -> None:
    """The tabs offer "Settings" to every organiser; a bracket (no Swiss stage) is set up
    on its stages page, never a server error (the demo's double elimination was one)."""
    tournament = TournamentFactory()
    organiser = member(tournament.club, Role.ORGANISER)
    brackets.add_stage(
        actor=organiser,
        tournament=tournament,
        kind=StageKind.DOUBLE_ELIMINATION,
        position=brackets.ONLY,
    )
    assert not Stage.objects.filter(tournament=tournament, kind=StageKind.SWISS).exists()
    client.force_login(organiser)
    response = client.get(reverse("swiss-settings", args=[tournament.pk]), follow=True)
    assert response.redirect_chain == [(reverse("stages", args=[tournament.pk]), 302)]
    assert "has no Swiss rounds" in response.content.decode()


#: The match page's grid filled in: the first player wins two game rounds to none.
SCORES = {"g1_r1_a": "10", "g1_r1_b": "5", "g1_r2_a": "10", "g1_r2_b": "5"}


def test_judge_goes_back_to_the_results_grid_after_entering_a_result(client) -> None:
    match, _, _, judge = _match_in("pending")
    tournament_pk = match.round.tournament_id
    grid = reverse("judge", args=[tournament_pk]) + "?round=1&status=pending"
    client.force_login(judge)
    page = client.get(reverse("judge", args=[tournament_pk]), {"round": 1, "status": "pending"})
    assert "?next=" in page.content.decode()
    url = reverse("match", args=[tournament_pk, match.pk])
    form = client.get(url, {"next": grid}).content.decode()
    assert 'name="next"' in form and "Back to the results grid" in form
    response = client.post(url, {"action": "judge", "next": grid, **SCORES})
    assert response.status_code == 302 and response["Location"] == grid
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:1"])
def test_off_site_next_is_ignored_by_every_post(client, target: str) -> None:
    match, _, _, judge = _match_in("pending")
    tournament = match.round.tournament
    organiser = member(tournament.club, Role.ORGANISER)
    client.force_login(judge)
    url = reverse("match", args=[tournament.pk, match.pk])
    response = client.post(url, {"action": "judge", "next": target, **SCORES})
    assert response.status_code == 302 and response["Location"] == url
    assert 'name="next"' not in client.get(url, {"next": target}).content.decode()

    client.force_login(organiser)
    response = client.post(
        reverse("round-action", args=[tournament.pk, "extend"]), {"next": target}
    )
    assert response["Location"] == reverse("round-current", args=[tournament.pk])
    registration = match.a
    response = client.post(
        reverse("registration-action", args=[tournament.pk, registration.pk, "drop"]),
        {"next": target},
    )
    assert response["Location"] == reverse("standings", args=[tournament.pk])
    response = client.post(
        reverse("round-action", args=[tournament.pk, "extend"]),
        {"next": reverse("history", args=[tournament.pk])},
    )
    assert response["Location"] == reverse("history", args=[tournament.pk])


def test_sign_up_ignores_an_off_site_next(client) -> None:
    response = client.post(
        "/accounts/signup/?next=https://evil.example/",
        {"username": "nina", "display_name": "Nina", "password": "long-enough-1"},
    )
    assert response.status_code == 302 and response["Location"] == reverse("home")
