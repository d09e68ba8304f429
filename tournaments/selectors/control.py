"""The organiser's control page for the running event: the clock, live counts, the one next
step with what blocks it, and a link to each open problem (issue 22's "control page").

The next step is one of the round controls the organiser already has (``round-action``:
start the tournament, start the round's clock, pair the next round, finish), chosen from
``policies.tournament_actions`` so the page never offers what the service would refuse;
when nothing can be pressed it says what the event waits for ("4 results to come: 1
disputed, 1 overdue").

Problems: disputed and overdue matches (each linked), and what other apps know about
the round's tables, asked through :data:`table_alerts` (the gameplay app answers: live
tables with no turn for a while, or waiting for their scores), so this app never imports
gameplay. A fixed number of queries whatever the field size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Q
from django.dispatch import Signal
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext, pgettext

from core.auth import AnyUser
from tournaments.models import (
    MATCH_ENTRANTS,
    Match,
    MatchStatus,
    Registration,
    RegistrationStatus,
    Round,
    RoundStatus,
    Tournament,
)
from tournaments.selectors import policies
from tournaments.selectors.judge_calls import open_calls, words_for
from tournaments.selectors.rounds import current_round
from tournaments.selectors.timer import RoundClock, round_clock

#: Matches listed by name at most (the rest are counted, and the grid has them all).
LISTED = 12


@dataclass(frozen=True)
class TableAlert:
    """A live table that wants a look: ``words`` say why ("no turn for 7 minutes")."""

    match_id: int
    table: int
    words: str
    url: str


#: Asked for the round's table alerts: ``send(sender=Round, round_id=..., now=...)``; each
#: receiver answers a list of ``TableAlert``. The gameplay app answers it (live tables).
table_alerts = Signal()


@dataclass(frozen=True)
class Problem:
    words: str
    url: str
    tone: str  # "bad" (a judge must act) or "warn"


@dataclass(frozen=True)
class NextStep:
    """The one thing to press now (``action``: a ``round-action``), or, with no action,
    what the event waits for (``waiting``). ``blocked``: why the action cannot be pressed
    yet (the page shows it instead of the button)."""

    label: str
    action: str = ""
    confirm: str = ""
    waiting: str = ""
    blocked: str = ""
    minutes: int | None = None


@dataclass
class ControlView:
    tournament: Tournament
    round: Round | None
    clock: RoundClock | None
    counts: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    step: NextStep | None = None
    alerts: list[TableAlert] = field(default_factory=list)


def control_view(
    user: AnyUser, tournament: Tournament, *, now: datetime | None = None
) -> ControlView:
    now = now or timezone.now()
    rnd = current_round(tournament)
    view = ControlView(tournament=tournament, round=rnd, clock=round_clock(rnd))
    people = Registration.objects.filter(tournament=tournament).aggregate(
        playing=Count("pk", filter=Q(status=RegistrationStatus.REGISTERED)),
        checked_in=Count(
            "pk", filter=Q(status=RegistrationStatus.REGISTERED, checked_in_at__isnull=False)
        ),
        dropped=Count("pk", filter=Q(status=RegistrationStatus.DROPPED)),
    )
    view.counts = {
        "playing": people["playing"],
        "checked_in": people["checked_in"],
        "dropped": people["dropped"],
    }
    matches: list[Match] = []
    if rnd is not None:
        matches = list(
            Match.objects.filter(round=rnd, b__isnull=False)
            .select_related(*MATCH_ENTRANTS)
            .order_by("table")
        )
        open_matches = [m for m in matches if m.status != MatchStatus.CONFIRMED]
        view.counts.update(
            {
                "matches": len(matches),
                "pending": sum(1 for m in open_matches if m.status == MatchStatus.PENDING),
                "reported": sum(1 for m in open_matches if m.status == MatchStatus.REPORTED),
                "disputed": sum(1 for m in open_matches if m.status == MatchStatus.DISPUTED),
                "overdue": sum(1 for m in open_matches if m.overdue),
                "confirmed": len(matches) - len(open_matches),
            }
        )
        base = reverse("match", args=[tournament.pk, 0]).rsplit("/0/", 1)[0]
        calls = open_calls(tournament)
        view.counts["judge_calls"] = len(calls)
        for call in sorted(calls.values(), key=lambda c: c.called_at):
            words = words_for(call, now=now)
            said = {"table": call.match.table, "called": words.called, "answered": words.answered}
            view.problems.append(
                Problem(
                    gettext("Table %(table)d: %(called)s; %(answered)s") % said
                    if words.answered
                    else gettext("Table %(table)d: %(called)s: nobody has taken it yet") % said,
                    f"{base}/{call.match_id}/",
                    "warn" if words.answered else "bad",
                )
            )
        for match in [m for m in open_matches if m.status == MatchStatus.DISPUTED][:LISTED]:
            view.problems.append(
                Problem(
                    gettext("Table %(table)d: %(match)s: the reports differ, a judge decides")
                    % {"table": match.table, "match": _versus(match)},
                    f"{base}/{match.pk}/",
                    "bad",
                )
            )
        for match in [m for m in open_matches if m.overdue and m.status != MatchStatus.DISPUTED][
            :LISTED
        ]:
            view.problems.append(
                Problem(
                    gettext("Table %(table)d: %(match)s: overdue, no result yet")
                    % {"table": match.table, "match": _versus(match)},
                    f"{base}/{match.pk}/",
                    "bad",
                )
            )
        for _, reply in table_alerts.send(sender=Round, round_id=rnd.pk, now=now):
            view.alerts.extend(a for a in (reply or []) if isinstance(a, TableAlert))
        view.alerts.sort(key=lambda a: a.table)
    view.step = _next_step(user, tournament, rnd, view.counts)
    return view


def _versus(match: Match) -> str:
    return gettext("%(a)s v %(b)s") % {
        "a": match.a.name,
        "b": match.b.name if match.b else pgettext("a match without an opponent", "bye"),
    }


def _waiting(left: int, counts: dict[str, int]) -> str:
    """What a running round waits for: "3 results to come: 1 to confirm, 1 disputed."."""
    details = []
    if counts.get("reported"):
        n = counts["reported"]
        details.append(ngettext("%(count)d to confirm", "%(count)d to confirm", n) % {"count": n})
    if counts.get("disputed"):
        n = counts["disputed"]
        details.append(ngettext("%(count)d disputed", "%(count)d disputed", n) % {"count": n})
    if counts.get("overdue"):
        n = counts["overdue"]
        details.append(ngettext("%(count)d overdue", "%(count)d overdue", n) % {"count": n})
    said = {"count": left, "details": ", ".join(details)}
    if details:
        return (
            ngettext(
                "%(count)d result to come: %(details)s.",
                "%(count)d results to come: %(details)s.",
                left,
            )
            % said
        )
    return ngettext("%(count)d result to come.", "%(count)d results to come.", left) % said


def _next_step(
    user: AnyUser, tournament: Tournament, rnd: Round | None, counts: dict[str, int]
) -> NextStep | None:
    actions = policies.tournament_actions(user, tournament, current_round=rnd)
    held, blocker = policies.hold_round_controls(tournament, actions, current_round=rnd)
    blocked = blocker.detail if blocker is not None else ""
    if "start" in actions:
        n = counts.get("checked_in", 0)
        return NextStep(
            gettext("Start the tournament"),
            action="start-tournament",
            confirm=gettext(
                "Start now? Players who have not checked in will be marked not playing."
            ),
            blocked="" if n >= 2 else gettext("Fewer than two players have checked in."),
            waiting=ngettext("%(count)d player checked in.", "%(count)d players checked in.", n)
            % {"count": n},
        )
    if rnd is not None and rnd.status == RoundStatus.PAIRED and "start_round" in actions:
        return NextStep(
            gettext("Start round %(round)d's clock") % {"round": rnd.number},
            action="start-round" if "start_round" in held else "",
            blocked=blocked,
        )
    if rnd is not None and rnd.status == RoundStatus.IN_PROGRESS:
        left = counts.get("matches", 0) - counts.get("confirmed", 0)
        if left == 0:
            waiting = gettext("Every result is in: the round completes in a moment.")
        else:
            waiting = _waiting(left, counts)
        return NextStep(
            gettext("Round %(round)d is under way") % {"round": rnd.number}, waiting=waiting
        )
    if "pair" in actions:
        number = 1 if rnd is None else rnd.number + 1
        return NextStep(
            gettext("Pair round %(round)d") % {"round": number},
            action="pair" if "pair" in held else "",
            blocked=blocked,
        )
    if "finish" in actions:
        return NextStep(
            gettext("Finish the tournament"),
            action="finish",
            confirm=gettext("End the tournament now?"),
        )
    if (
        rnd is not None
        and rnd.status == RoundStatus.COMPLETE
        and policies.tournament_is_running(tournament)
    ):
        # A scheduled stage (a cut, a bracket) moves on by itself as results come in.
        return NextStep(
            gettext("The next stage begins by itself"),
            waiting=gettext("Its matches appear as they are ready."),
        )
    if policies.tournament_is_finished(tournament):
        return NextStep(
            gettext("The tournament is over"), waiting=gettext("See the final results.")
        )
    return None
