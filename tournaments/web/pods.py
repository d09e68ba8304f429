"""The pod stage's page (``/tournaments/<id>/pods/``): making the event a pod stage before
the start (organisers), every round's pods with their seats and results, the viewer's own
pod with its result form (report, confirm) and the judges' entry, the standings; and the
printable pod slips."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy

from core.errors import DomainError, InvalidInput
from core.web import parse_int, run_action
from rules import games as game_rules
from rules import pod_game
from tournaments.models import (
    JudgeCall,
    MatchStatus,
    PodFill,
    PodScoring,
    PodSettings,
    TournamentStatus,
)
from tournaments.selectors import judge_calls as call_selectors
from tournaments.selectors import pods as selectors
from tournaments.selectors import policies
from tournaments.selectors.rounds import entrant_of
from tournaments.services import pods
from tournaments.web.common import tournament_context, tournament_for

#: Game-round rows a pod's result form shows open (Gesoseka: two deals of two game rounds);
#: the rest up to the pod's bound (``pod_game.max_game_rounds``) are one tap away, and the
#: open rows grow with what was reported.
FORM_ROWS = 4


def game_round_bound(view: selectors.PodView, settings: PodSettings) -> int:
    """The most game rounds this pod's game may record (its seats and win target)."""
    return pod_game.max_game_rounds(players=len(view.seats), rounds_to_win=settings.rounds_to_win)


def parse_rounds(data: Any, seats: int, *, bound: int) -> list[list[int]]:
    """The pod's game rounds from the form (``r<round>_s<seat>``, rounds 1 to ``bound``),
    empty rows skipped; a row filled in part is refused by name."""
    rounds: list[list[int]] = []
    for number in range(1, bound + 1):
        names = [f"r{number}_s{seat}" for seat in range(seats)]
        raw = [(data.get(name) or "").strip() for name in names]
        if not any(raw):
            continue
        if not all(raw):
            raise InvalidInput(
                gettext("Game round %(game_round)d: enter every player's score, or none.")
                % {"game_round": number},
                code="incomplete_game_round",
                field=names[raw.index("")],
            )
        rounds.append([parse_int(v, field=n) or 0 for v, n in zip(raw, names, strict=True)])
    if not rounds:
        raise InvalidInput(gettext("Enter the scores of the game rounds played."), code="no_rounds")
    return rounds


def _act(request: HttpRequest, tournament_pk: int) -> HttpResponse:
    action = request.POST.get("action", "")
    back = reverse("pods", args=[tournament_pk])
    if action == "make":
        tournament = tournament_for(request, tournament_pk)
        try:
            options = {
                name: parse_int(request.POST.get(name), field=name)
                for name in ("rounds", "rounds_to_win")
            }
        except DomainError as error:
            messages.error(request, error.detail)
            return redirect(back)
        run_action(
            request,
            lambda: pods.add_stage(
                actor=request.user,
                tournament=tournament,
                rounds=options["rounds"] or 3,
                rounds_to_win=options["rounds_to_win"] or 2,
                fill=request.POST.get("fill", PodFill.THREES),
                scoring=request.POST.get("scoring", PodScoring.WINNER),
            ),
            gettext("The event is now played in pods."),
        )
        return redirect(back)
    try:
        match_id = parse_int(request.POST.get("match"), field="match")
    except DomainError:
        match_id = None
    view = selectors.pod_of(match_id) if match_id else None
    if view is None or view.match.round.tournament_id != tournament_pk:
        raise Http404
    anchor = f"{back}#pod-{view.match.pk}"
    if action == "confirm":
        run_action(
            request,
            lambda: pods.confirm(actor=request.user, match=view.match.pk),
            gettext("Result confirmed."),
        )
        return redirect(anchor)
    bound = game_round_bound(view, selectors.settings_of(view.match.round.stage))
    try:
        rounds = parse_rounds(request.POST, len(view.seats), bound=bound)
    except DomainError as error:
        messages.error(request, error.detail)
        return redirect(anchor)
    service = pods.judge if action == "judge" else pods.report
    done = gettext("Result entered.") if action == "judge" else gettext("Result reported.")
    run_action(
        request, lambda: service(actor=request.user, match=view.match.pk, rounds=rounds), done
    )
    return redirect(anchor)


def pod_stage(request: HttpRequest, pk: int, number: int | None = None) -> HttpResponse:
    """The page (``number``: the stage's, when reached from the stages list; a tournament
    has one pod stage)."""
    tournament = tournament_for(request, pk)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        return _act(request, pk)
    context = tournament_context(request, tournament)
    stage = selectors.pod_stage_of(tournament.pk)
    rounds = selectors.rounds_of(stage) if stage is not None else []
    user_id = request.user.pk if request.user.is_authenticated else None
    judge = policies.can_judge(request.user, tournament.club)
    standings = selectors.standings_of(stage) if stage is not None and rounds else []
    # The pods' open judge calls (one query), each shown with its pod.
    calls = call_selectors.open_calls(tournament) if rounds else {}
    page = reverse("pods", args=[tournament.pk])
    settings = selectors.settings_of(stage) if stage is not None else None
    # The round clock's controls are here, as a pod round has no pairings page; held, with
    # the reason shown, while something the round waits for is unfinished (a draft).
    actions, blocker = policies.hold_round_controls(
        tournament, context["actions"], current_round=context["current_round"]
    )
    context.update(
        {
            "actions": actions,
            "round_blocker": blocker,
            "round_minutes": settings.round_minutes if settings is not None else None,
            "next": reverse("pods", args=[tournament.pk]),
            "stage": stage,
            "settings": settings,
            "rounds": [
                {
                    "view": r,
                    "pods": [
                        _pod_context(p, settings, user_id, judge, calls.get(p.match.pk), page)
                        for p in r.pods
                    ],
                }
                for r in reversed(rounds)
            ],
            "standings": standings,
            # The viewer's standings row (theirs, or their team's).
            "my_entrant": entrant_of(user_id, [s.registration for s in standings]),
            "may_make": policies.can_manage_club(request.user, tournament.club)
            and tournament.status not in (TournamentStatus.RUNNING, TournamentStatus.FINISHED)
            and tournament.game in game_rules.POD_GAMES,
            "fills": PodFill.choices,
            "scorings": PodScoring.choices,
            "pod_games": tournament.game in game_rules.POD_GAMES,
        }
    )
    return render(request, "tournaments/pods.html", context)


#: A pod's result state in the words of a table of three or four (not "the opponent").
POD_STATUS_WORDS = {
    MatchStatus.PENDING: pgettext_lazy("result state", "waiting for a report"),
    MatchStatus.REPORTED: pgettext_lazy(
        "result state", "reported, waiting for another player to confirm"
    ),
    MatchStatus.DISPUTED: pgettext_lazy("result state", "disputed, waiting for a judge"),
    MatchStatus.CONFIRMED: pgettext_lazy("result state", "confirmed"),
}


def _pod_context(
    view: selectors.PodView,
    settings: PodSettings | None,
    user_id: int | None,
    judge: bool,
    call: JudgeCall | None = None,
    page: str = "",
) -> dict[str, Any]:
    match = view.match
    # A team's pod is either member's.
    mine = any(s.registration.has_member(user_id) for s in view.seats)
    # Who reported plays for an entrant of the pod: that entrant's players wait for
    # another entrant to confirm (the service refuses their own report's confirmation).
    reporter_entrant = next(
        (s.registration_id for s in view.seats if s.registration.has_member(view.reporter_id)),
        None,
    )
    reported_by_me = reporter_entrant is not None and next(
        s for s in view.seats if s.registration_id == reporter_entrant
    ).registration.has_member(user_id)
    reported = match.status in (MatchStatus.REPORTED, MatchStatus.DISPUTED)
    rows = match.result[0]["rounds"] if match.result else []
    bound = game_round_bound(view, settings or PodSettings())
    shown = min(bound, max(FORM_ROWS, len(rows) + 1))
    return {
        "view": view,
        "mine": mine,
        "rows": rows,
        # Every game round the pod's game may have has its row: the first ones open, the
        # others (a long game: ties, a high win target) under "more game rounds".
        "form_rows": range(1, shown + 1),
        "more_rows": range(shown + 1, bound + 1),
        "bound": bound,
        "may_report": mine and match.status != MatchStatus.CONFIRMED,
        "may_confirm": mine and match.status == MatchStatus.REPORTED and not reported_by_me,
        "reported_by_me": reported_by_me,
        "status_label": str(
            POD_STATUS_WORDS.get(MatchStatus(match.status), match.get_status_display())
        ),
        "may_judge": judge,
        "reported": reported,
        # "Call a judge" (templates/tournaments/_judge_call.html) for the pod's players.
        "judge_call": (
            call_selectors.words_for(call, viewer_id=user_id) if call is not None else None
        ),
        "may_call": mine and match.status != MatchStatus.CONFIRMED,
        "call_next": f"{page}#pod-{match.pk}",
    }


def pod_slips(request: HttpRequest, pk: int) -> HttpResponse:
    """Printable pod slips for the latest round: a box per seat and game round (the
    event's language)."""
    tournament = tournament_for(request, pk, room=True)
    stage = selectors.pod_stage_of(tournament.pk)
    rounds = selectors.rounds_of(stage) if stage is not None else []
    if stage is None or not rounds:
        raise Http404
    context = tournament_context(request, tournament)
    # A box for each game round a game without a tie may need (4 seats: the most).
    settings = selectors.settings_of(stage)
    decisive = pod_game.decisive_rounds(
        players=max(pod_game.POD_SEATS), rounds_to_win=settings.rounds_to_win
    )
    context.update({"round_view": rounds[-1], "rows": range(1, max(FORM_ROWS, decisive) + 1)})
    return render(request, "tournaments/pod_slips.html", context)
