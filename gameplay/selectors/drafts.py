"""Reads of the live draft: the pod's full snapshot, and what one viewer may see of it.

A *snapshot* is the whole pod at one ``version``: seats, queues, pools, deadlines and the
pack in front of every seat. It is built once per change (one query for the pod, one for
its seats) and sent to the pod's channel group; each connection then cuts its viewer's
view out of it with ``view_for`` (no query).

What a viewer sees (nothing lets a player see what others hold before the draft ends):
- before the organiser starts the draft, nobody sees a card: the snapshot has no packs;
- a player sees their own pack and pool, and of the other seats only counts (picks made,
  packs waiting) and timers. A seat is its player's (``DraftSeat.player``): in a team
  event each member of a team has a seat, and teammates see each other's cards no more
  than anyone else's (a seat's name carries its team's);
- the organisers who do not play in the tournament see every seat's pack and pool (they
  run the draft and settle disputes); an organiser who plays sees what a player sees, in
  every pod of the tournament, though they keep the controls;
- a spectator sees counts;
- once the draft is over, everyone sees every pool (and the pod's seed, in the API and the
  pick log: with it anyone can deal the packs again and check the draft was fair).
The pod's ``seed`` and engine ``state`` are never in a snapshot: either rebuilds every
opening pack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from gameplay.models import DraftPod, DraftSeat, Pick, PodStatus
from gameplay.selectors import state_cache
from rules import draft as engine
from tournaments import selectors as tournament_selectors
from tournaments.models import Registration, Tournament
from tournaments.selectors import policies
from tournaments.selectors.tournaments import member_of_entrant

if TYPE_CHECKING:
    from core.auth import AnyUser


def full_snapshot(pod_id: int) -> dict[str, Any] | None:
    pod = DraftPod.objects.filter(pk=pod_id).first()
    if pod is None:
        return None
    seats = list(pod.seats.select_related("player", "registration").order_by("position"))
    return snapshot_of(pod, seats, state_cache.load(pod))


def snapshot_of(
    pod: DraftPod, seats: Sequence[DraftSeat], state: engine.DraftState
) -> dict[str, Any]:
    """The full snapshot from rows already loaded (the services pass theirs: no query)."""
    waits = {w.seat: w.holder for w in engine.who_is_waiting_on_whom(state)}
    made = Counter(r.seat for r in state.pick_log)
    # Before the start nobody sees a card, not even their own pack.
    started = pod.status != PodStatus.READY
    rows = []
    for seat in sorted(seats, key=lambda s: s.position):
        expected = engine.expected_pick(state, seat.position) if started else None
        rows.append(
            {
                "position": seat.position,
                "name": seat.label,
                "user_id": seat.player.user_id,
                "player": seat.player_id,
                "registration": seat.registration_id,
                "team": seat.registration.team_name or None,
                "auto": seat.auto_pick,
                "queued": len(state.queues[seat.position]),
                "picks": made[seat.position],
                "pool": [str(c) for c in state.pools[seat.position]],
                "deadline": seat.deadline.isoformat() if seat.deadline else None,
                # Positions in the pack in front (older rows may hold card codes).
                "highlighted": []
                if expected is None
                else list(engine.positions_of(expected.cards, seat.highlighted)),
                "waiting_on": waits.get(seat.position),
                "pack": None
                if expected is None
                else {
                    "id": expected.pack_id,
                    "pick": expected.pick_number,
                    "keep": expected.keep,
                    "cards": [str(c) for c in expected.cards],
                },
            }
        )
    return {
        "type": "snapshot",
        "pod": pod.pk,
        "tournament": pod.tournament_id,
        "number": pod.number,
        "version": pod.version,
        "status": pod.status,
        "pack_size": pod.pack_size,
        "picks_per_pack": state.picks_per_pack,
        "seconds_per_pick": pod.seconds_per_pick,
        # Packs pass "left" (to the next seat) or "right" (to the one before): the page
        # names each player's neighbours from it.
        "direction": pod.direction,
        "server_time": timezone.now().isoformat(),
        "seats": rows,
    }


def view_for(
    full: dict[str, Any], *, user_id: int | None, manager: bool, plays: bool = False
) -> dict[str, Any]:
    """What ``user_id`` may see of a full snapshot (pure: no query). ``manager``: runs the
    pod; ``plays``: has a place in the tournament (``Viewer.plays``). A manager sees every
    seat's cards only if they neither play nor sit in this pod."""
    finished = full["status"] == PodStatus.FINISHED
    seated = user_id is not None and any(s["user_id"] == user_id for s in full["seats"])
    referee = manager and not plays and not seated
    you = None
    seats = []
    for seat in full["seats"]:
        mine = user_id is not None and seat["user_id"] == user_id
        public = {
            key: seat[key]
            for key in (
                "position",
                "name",
                "team",
                "auto",
                "queued",
                "picks",
                "deadline",
                "waiting_on",
            )
        }
        public["pool_size"] = len(seat["pool"])
        if finished or referee:
            public["pool"] = seat["pool"]
        if referee:
            public["pack"] = seat["pack"]
        seats.append(public)
        if mine:
            you = {
                "seat": seat["position"],
                "pack": seat["pack"],
                "queued": max(0, seat["queued"] - 1) if seat["pack"] else 0,
                "pool": seat["pool"],
                "highlighted": seat["highlighted"],
                "deadline": seat["deadline"],
                "auto": seat["auto"],
                "team": seat["team"],
                # Where the teammates sit (a team event), never what they hold.
                "teammates": [
                    other["position"]
                    for other in full["seats"]
                    if other["registration"] == seat["registration"] and other is not seat
                ],
            }
    view = {key: value for key, value in full.items() if key != "seats"}
    view.update({"seats": seats, "you": you, "manager": manager})
    return view


class Viewer(NamedTuple):
    """Who looks at a tournament's drafts, for ``view_for`` and the pages."""

    user_id: int | None
    #: Runs the drafts (the club's owners and organisers): the controls.
    manager: bool
    #: Has a place in the tournament (a registration, whatever its status): sees only their
    #: own cards until a draft is over, even as an organiser. Asked only of managers.
    plays: bool

    @property
    def referee(self) -> bool:
        """Sees every seat's cards while a draft runs: an organiser who does not play."""
        return self.manager and not self.plays


def viewer(pod: DraftPod, user: AnyUser) -> Viewer:
    return viewer_of_tournament(pod.tournament, user)


def may_see_every_seat(pod: DraftPod, who: Viewer) -> bool:
    """Every seat's cards (the pick log, every pool): anyone once the draft is over, during
    it only an organiser who does not play in the tournament."""
    return pod.status == PodStatus.FINISHED or who.referee


def public_seed(pod: DraftPod) -> int | None:
    """The pod's seed once the draft is over (anyone may then deal the packs again and check
    the draft was fair); None before: with it the pure engine rebuilds every opening pack,
    so during the draft it would show each seat the packs and what the seats before it
    picked."""
    return pod.seed if pod.status == PodStatus.FINISHED else None


def pod_for_viewer(pod_id: int, user: AnyUser) -> DraftPod | None:
    """The pod if the user may see it (its tournament is visible to them)."""
    visible = tournament_selectors.visible_tournaments(user)
    return (
        DraftPod.objects.select_related("tournament__club")
        .filter(pk=pod_id, tournament__in=visible)
        .first()
    )


def pick_log(pod: DraftPod) -> list[Pick]:
    return list(pod.picks.select_related("seat__player", "seat__registration").order_by("id"))


def _pods_with_seats() -> QuerySet[DraftPod]:
    """Pods with their seats in order and the seated players' names: 2 queries for any
    number of pods and seats."""
    seats = DraftSeat.objects.select_related("player", "registration").order_by("position")
    return DraftPod.objects.prefetch_related(Prefetch("seats", queryset=seats))


def tournament_pods(tournament: Tournament) -> list[DraftPod]:
    """The tournament's pods, latest draft first, with their seats (2 queries)."""
    return list(
        _pods_with_seats().filter(tournament=tournament).order_by("-before_round", "number")
    )


def pods_by_id(pod_ids: Sequence[int]) -> list[DraftPod]:
    """These pods (just seated, say) with their seats, in ``pod_ids`` order (2 queries)."""
    found = {pod.pk: pod for pod in _pods_with_seats().filter(pk__in=pod_ids)}
    return [found[pk] for pk in pod_ids if pk in found]


#: A pod's status badge colour on the tournament page.
POD_TONES: dict[str, str] = {PodStatus.RUNNING: "ok", PodStatus.PAUSED: "warn"}


def pod_actions(pod: DraftPod, *, manager: bool, seated: bool) -> frozenset[str]:
    """What a viewer may do with the pod from the tournament page: ``pick`` (a seated
    player, until the draft is over), ``start`` (organisers, a pod not started yet:
    ``services.drafts.start_pod``), ``control`` (organisers)."""
    allowed: set[str] = set()
    if seated and pod.status != PodStatus.FINISHED:
        allowed.add("pick")
    if manager:
        allowed.add("control")
        if pod.status == PodStatus.READY:
            allowed.add("start")
    return frozenset(allowed)


def pods_panel(tournament: Tournament, user: AnyUser) -> list[dict[str, Any]]:
    """The tournament page's draft pods with their seats and the pools this user may see:
    their own always, everyone's once the draft is over or for the organisers who do not
    play (the same rule as ``view_for``); with what the user may do with each pod
    (``actions``). 2 queries (plus the user's role in the club, read once per request, and
    for organisers whether they play)."""
    who = viewer_of_tournament(tournament, user)
    manager = who.manager
    panel = []
    for pod in tournament_pods(tournament):
        state = state_cache.load(pod)
        everyone = may_see_every_seat(pod, who)
        seats = []
        for seat in pod.seats.all():
            mine = user.is_authenticated and seat.player.user_id == user.pk
            pool = [str(c) for c in state.pools[seat.position]] if everyone or mine else None
            seats.append({"name": seat.label, "mine": mine, "pool": pool})
        seated = any(s["mine"] for s in seats)
        panel.append(
            {
                "pod": pod,
                "seats": seats,
                "mine": seated,
                "tone": POD_TONES.get(pod.status, ""),
                "actions": pod_actions(pod, manager=manager, seated=seated),
            }
        )
    return panel


def viewer_of_tournament(tournament: Tournament, user: AnyUser) -> Viewer:
    """Who the user is to the tournament's drafts (one query for an organiser: do they
    play; none for anyone else beyond their role in the club)."""
    if not user.is_authenticated:
        return Viewer(None, manager=False, plays=False)
    manager = policies.can_manage_club(user, tournament.club)
    plays = (
        manager
        and Registration.objects.filter(member_of_entrant(user.pk), tournament=tournament).exists()
    )
    return Viewer(user.pk, manager=manager, plays=plays)


#: A pick timer fires this long after its deadline (a tap in flight wins).
GRACE = timedelta(seconds=2)


def due_seats(now: datetime) -> list[tuple[int, int]]:
    """(seat id, timer token) of running pods' seats whose deadline and grace passed."""
    return list(
        DraftSeat.objects.filter(
            deadline__lte=now - GRACE, pod__status=PodStatus.RUNNING
        ).values_list("pk", "timer_token")[:200]
    )


def pod_version(pod_id: int) -> int:
    """The pod's current version (what an action's acknowledgement names)."""
    return int(DraftPod.objects.values_list("version", flat=True).get(pk=pod_id))
