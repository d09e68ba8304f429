"""A club's season of six weekly events of mixed formats, run through the API only (issue
26's "Done when"), with a log of every result entered: the case the tests compute by hand.

Twelve accounts, ``p01`` (the strongest) to ``p12``; the stronger side always wins (a team's
strength: its best player's; a pod's seats by strength). The
organiser enters every result as the club's judge, round by round, table by table: the
log is therefore in play order. The six events, a week apart, all Gesoseka:

1. a Swiss of 8 (p01-p08), 3 rounds, then a top-4 single elimination cut;
2. a Swiss of 8 (p01-p06, p09, p10), 3 rounds (the correction's event);
3. a 2 vs 2 Swiss of 4 teams (p01+p12, p02+p11, p03+p10, p04+p09), 2 rounds;
4. a pod event of 8 (p01-p08), 2 rounds, placement scoring;
5. a round robin of 6 (p05-p10);
6. a single elimination of 8 (p03-p10).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, UserFactory

WEEK = timedelta(days=7)
#: Gesoseka, best of one: the first side wins both game rounds, or the second does.
FIRST_WINS = [{"rounds": [[40, 30], [35, 20]]}]
SECOND_WINS = [{"rounds": [[30, 40], [20, 35]]}]
#: A pod's three game rounds, a score for each seat by its strength (1 the strongest): the
#: strongest wins the first and third, the second strongest the second; the first to two
#: game-round wins takes the pod, the others are placed by game rounds won, ties sharing
#: (``tournaments.pairing.pods.places``): places 1, 2, 3, 3.
POD_ROUNDS = ((40, 30, 20, 10), (30, 40, 20, 10), (40, 30, 20, 10))
POD_PLACES = (1, 2, 3, 3)

#: The season's rules (the API's names).
RULES = {
    "placement_points": [10, 7, 5, 3, 2, 1],
    "win_points": 1,
    "draw_points": 0,
    "attendance_points": 1,
    "best_of": 5,
    "team_events": True,
    "qualifiers": 8,
}


def client_for(user: Any) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:600])
    return response.json() if response.content else None


@dataclass
class Played:
    """One result entered: its event (1-6), match, sides (player ids) and each side's rank
    (1 best)."""

    event: int
    match: int
    sides: list[tuple[int, ...]]
    ranks: list[int]


@dataclass
class Season:
    org: APIClient
    club: str
    users: dict[int, Any]  # number -> user
    player_of: dict[int, int]  # number -> player id
    events: dict[int, int] = field(default_factory=dict)  # event number -> tournament id
    log: list[Played] = field(default_factory=list)
    season: int | None = None

    # --- the people and the club -------------------------------------------------------

    @classmethod
    def begin(cls) -> Season:
        organiser = PlayerFactory(user=UserFactory(username="organiser")).user
        org = client_for(organiser)
        club = ok(org.post("/api/v1/clubs/", {"name": "Thursday Club"}, format="json"), 201)
        players = {
            n: PlayerFactory(user=UserFactory(username=f"p{n:02d}"), display_name=f"Player {n:02d}")
            for n in range(1, 13)
        }
        users = {n: p.user for n, p in players.items()}
        player_of = {n: p.pk for n, p in players.items()}
        return cls(org=org, club=club["slug"], users=users, player_of=player_of)

    @staticmethod
    def client_of(user: Any) -> APIClient:
        return client_for(user)

    def number_of(self, player_id: int) -> int:
        return next(n for n, p in self.player_of.items() if p == player_id)

    # --- events ----------------------------------------------------------------------------

    def _create(self, number: int, name: str, entrants: list[str], **extra: Any) -> str:
        start = timezone.now() + timedelta(hours=1) + WEEK * (number - 1)
        body = {
            "club": self.club,
            "name": name,
            "game": "gesoseka",
            "capacity": len(entrants),
            "scheduled_start": start.isoformat(),
            "publish": True,
            **extra,
        }
        tournament = ok(self.org.post("/api/v1/tournaments/", body, format="json"), 201)
        self.events[number] = tournament["id"]
        base = f"/api/v1/tournaments/{tournament['id']}"
        ok(self.org.post(f"{base}/registrations/bulk/", {"names": entrants}, format="json"), 201)
        ok(self.org.post(f"{base}/registrations/check-in/", {"all": True}, format="json"))
        return base

    def run_week(self, number: int) -> None:
        """Event ``number`` made, started and played to its end."""
        names = {n: f"@p{n:02d}" for n in range(1, 13)}
        if number == 1:
            base = self._create(1, "Week 1: Swiss and top 4", [names[n] for n in range(1, 9)])
            ok(self.org.patch(f"{base}/swiss/", {"rounds": 3}, format="json"))
            cut = {"kind": "single_elim", "cut_top": 4}
            ok(self.org.post(f"{base}/stages/", cut, format="json"), 201)
        elif number == 2:
            entrants = [names[n] for n in (1, 2, 3, 4, 5, 6, 9, 10)]
            base = self._create(2, "Week 2: Swiss", entrants)
            ok(self.org.patch(f"{base}/swiss/", {"rounds": 3}, format="json"))
        elif number == 3:
            teams = [f"Team {a}-{b}: {names[a]}, {names[b]}" for a, b in TEAMS]
            base = self._create(3, "Week 3: 2 vs 2", teams, entrant_type="team")
            ok(self.org.patch(f"{base}/swiss/", {"rounds": 2}, format="json"))
        elif number == 4:
            base = self._create(4, "Week 4: pods", [names[n] for n in range(1, 9)])
            pods = {"rounds": 2, "scoring": "placement"}
            ok(self.org.post(f"{base}/pods/", pods, format="json"), 201)
        elif number == 5:
            base = self._create(5, "Week 5: round robin", [names[n] for n in range(5, 11)])
            only = {"kind": "round_robin", "position": "only"}
            ok(self.org.post(f"{base}/stages/", only, format="json"), 201)
        else:
            base = self._create(6, "Week 6: knockout", [names[n] for n in range(3, 11)])
            only = {"kind": "single_elim", "position": "only"}
            ok(self.org.post(f"{base}/stages/", only, format="json"), 201)
        ok(self.org.post(f"{base}/start/", {}, format="json"))
        self._play(number, base)

    def _members(self, entrant: dict[str, Any]) -> tuple[int, ...]:
        # ``members``: display names, "Player 07"
        return tuple(sorted(self.player_of[int(name.split()[-1])] for name in entrant["members"]))

    def _entrants(self, base: str) -> dict[int, tuple[int, ...]]:
        rows = ok(self.org.get(f"{base}/registrations/"))
        rows = rows["results"] if isinstance(rows, dict) else rows
        return {row["id"]: self._members(row) for row in rows}

    def _strength(self, side: tuple[int, ...]) -> int:
        return min(self.number_of(p) for p in side)  # a team: its best player

    def _play(self, number: int, base: str) -> None:
        entrants = self._entrants(base)
        for _ in range(40):
            tournament = ok(self.org.get(f"{base}/"))
            if tournament["status"] == "finished":
                return
            waiting = ok(self.org.get(f"{base}/matches/", {"status": "pending"}))
            if not waiting:
                rounds = ok(self.org.get(f"{base}/rounds/"))
                paired = [r for r in rounds if r["status"] == "paired"]
                if paired:
                    minutes = {"minutes": 40}
                    ok(self.org.post(f"{base}/rounds/{paired[0]['number']}/start/", minutes))
                else:
                    ok(self.org.post(f"{base}/rounds/"), 201)
                continue
            pods = self._pod_seats(base) if number == 4 else {}
            for match in sorted(waiting, key=lambda m: (m["round"], m["table"])):
                self._enter(number, match, entrants, pods.get(match["id"]))
        raise AssertionError(f"event {number} did not finish")

    def _pod_seats(self, base: str) -> dict[int, list[dict[str, Any]]]:
        """The current round's pods: each match's seats, in seat order (the pods' API)."""
        stage = ok(self.org.get(f"{base}/pods/"))
        return {pod["match"]: pod["seats"] for pod in stage["rounds"][-1]["pods"]}

    def _enter(
        self,
        number: int,
        match: dict[str, Any],
        entrants: dict[int, Any],
        seats: list[dict[str, Any]] | None = None,
    ) -> None:
        path = f"/api/v1/matches/{match['id']}"
        seats = seats or [match["a"], match["b"]]
        sides = [entrants[seat["registration"]] for seat in seats]
        order = sorted(range(len(sides)), key=lambda i: self._strength(sides[i]))
        ranks = [order.index(i) + 1 for i in range(len(sides))]
        if len(sides) > 2:
            rounds = [[scores[rank - 1] for rank in ranks] for scores in POD_ROUNDS]
            ok(self.org.post(f"{path}/pod-judge/", {"rounds": rounds}, format="json"))
            ranks = [POD_PLACES[rank - 1] for rank in ranks]
        else:
            games = FIRST_WINS if ranks[0] == 1 else SECOND_WINS
            ok(self.org.post(f"{path}/judge/", {"games": games}, format="json"))
        self.log.append(Played(number, match["id"], sides, ranks))

    def correct(self, played: Played) -> None:
        """A judge's correction: the match's result turned round (a two-seat match)."""
        games = SECOND_WINS if played.ranks[0] == 1 else FIRST_WINS
        ok(self.org.post(f"/api/v1/matches/{played.match}/judge/", {"games": games}, format="json"))
        played.ranks = [3 - rank for rank in played.ranks]

    # --- the season ------------------------------------------------------------------------

    def open_season(self) -> dict[str, Any]:
        today = timezone.localdate()
        body = {
            "name": "Autumn league",
            "starts_on": today.isoformat(),
            "ends_on": (today + 7 * WEEK).isoformat(),
            "game": "gesoseka",
            **RULES,
        }
        url = f"/api/v1/clubs/{self.club}/seasons/"
        season = ok(self.org.post(url, body, format="json"), 201)
        self.season = season["id"]
        return season

    def leaderboard(self) -> list[dict[str, Any]]:
        url = f"/api/v1/clubs/{self.club}/seasons/{self.season}/leaderboard/"
        answer = ok(self.org.get(url, {"page_size": 500}))
        return answer["results"] if isinstance(answer, dict) else answer


TEAMS = [(1, 12), (2, 11), (3, 10), (4, 9)]
