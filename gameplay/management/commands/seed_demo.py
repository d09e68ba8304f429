"""Demo data: a club, an organiser, a judge, 24 players, a tournament open for
registration and a Swiss tournament in its second round with Gosu draft pods, created
through the real services (each its own transaction). Safe to run twice (it adds nothing
the second time). Prints the logins to use and who plays whom in the running round; what
it seeded right after seeding, and on a second run each tournament's state as it is then
(the demo may have been played since).

Reproducible: the running tournament pairs with a fixed seed (``DEMO_SEED``) and its round-1
results go to the tables in order, so every fresh seeding gives the same pairings (the
README lists them). The services stamp "now"; the running tournament is then dated back
(``STARTED_AGO``) as if it had started earlier today: its scheduled start, check-in and
round 1 lie in the past, and round 2 is being played now. The draft pods' seating and
packs stay random: their seeds are the draft's secret until it ends.

It lives in ``gameplay``, the top app, because it seeds both apps' data."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db.models import Max
from django.utils import timezone

from core.demo import demo_seeded
from gameplay.services import drafts, tables
from tournaments.models import (
    Club,
    EntrantType,
    Game,
    Match,
    Registration,
    Role,
    Round,
    StageKind,
    Tournament,
    TournamentStatus,
)
from tournaments.services import (
    brackets,
    clubs,
    entrants,
    lifecycle,
    people,
    pods,
    results,
    round_clock,
    stages,
    swiss,
    teams,
)

DEMO_PASSWORD = "demo-pass-2026"
CLUB_NAME = "Riverside Card Club"
OPEN_NAME = "Gesoseka Swiss"
RUNNING_NAME = "Vanilla Gwent Swiss"
BRACKET_NAME = "Gesoseka double elimination"
PODS_NAME = "Gesoseka pods"
TEAMS_NAME = "2 vs 2 Vanilla Gwent"
PAST_NAME = "Last week's Gesoseka"
#: A French club running a GOSU-style draft night, and a Greek club's Kontsina event: their
#: pages speak French and Greek to a visitor whose own choices name neither (issue 25).
FRENCH_CLUB = "Club de cartes de Lyon"
FRENCH_EVENT = "Soirée draft GOSU"
GREEK_CLUB = "Λέσχη Κοντσίνας Αθήνας"
GREEK_EVENT = "Πρωτάθλημα Κοντσίνας"
#: A tournament's state, as a second run of the command tells it.
STATE_WORDS = {
    TournamentStatus.DRAFT: "not published",
    TournamentStatus.REGISTRATION: "open for registration",
    TournamentStatus.RUNNING: "running",
    TournamentStatus.FINISHED: "finished",
}
#: The team event's teams: a name and its two players (by index in PLAYER_NAMES, from 1).
DEMO_TEAMS = [
    ("Aces High", 1, 2),
    ("Night Watch", 3, 4),
    ("The Jokers", 5, 6),
    ("Queen's Gambit", 7, 8),
    ("Cavalry", 9, 10),
    ("Weather Witches", 11, 12),
    ("Militia", 13, 14),
]
#: The running tournament's pairing seed: the same pairings on every fresh seeding.
DEMO_SEED = 2026
#: How long ago the running tournament started (round 1 was played in the meantime).
STARTED_AGO = timedelta(hours=2)
PLAYER_NAMES = [
    "Ada",
    "Bruno",
    "Chloe",
    "Dario",
    "Elena",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Kasia",
    "Luca",
    "Mila",
    "Nico",
    "Olga",
    "Pavel",
    "Quinn",
    "Rosa",
    "Sven",
    "Tara",
    "Umar",
    "Vera",
    "Wiktor",
    "Yara",
]


def _account(player: Any) -> Any:
    """A demo player's account (every demo player signed up: none is a guest)."""
    assert player.user is not None
    return player.user


class Command(BaseCommand):
    help = "Create demo data (club, organiser, judge, 24 players, an open tournament)."

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(name=CLUB_NAME).first()
        if club is not None:
            # Seeded earlier, and played since maybe: say what the data is now, never what
            # it was when it was seeded.
            self.stdout.write("Demo data already present (seeded earlier): nothing added.")
            self._print_logins()
            self._print_now(club)
            self._print_pairings()
            return
        owner, club = self._create()
        self._running_swiss(owner, club)
        self._double_elimination(owner, club)
        self._pods(owner, club)
        self._teams(owner, club)
        self._french_draft_night(owner)
        self._greek_kontsina(owner)
        self._last_week(owner, club)
        demo_seeded.send(sender=self.__class__, owner=owner, club=club)
        self._print_logins()
        self._print_seeded()
        self._print_pairings()

    def _create(self) -> tuple[Any, Club]:
        User = get_user_model()
        if not User.objects.filter(username="admin").exists():
            User.objects.create_superuser("admin", "admin@example.com", DEMO_PASSWORD)
        owner = people.sign_up(
            username="organiser",
            email="organiser@example.com",
            password=DEMO_PASSWORD,
            display_name="Olivia Organiser",
        )
        owner = _account(owner)
        club = clubs.create_club(
            actor=owner,
            name=CLUB_NAME,
            description="Thursday evenings: Gesoseka, Vanilla Gwent and Kontsina.",
        )
        people.sign_up(
            username="judge",
            email="judge@example.com",
            password=DEMO_PASSWORD,
            display_name="Jules Judge",
        )
        clubs.add_member(actor=owner, club=club, username="judge", role=Role.JUDGE)
        now = timezone.now()
        tournament = lifecycle.create_tournament(
            actor=owner,
            club=club,
            name=OPEN_NAME,
            game=Game.GESOSEKA,
            capacity=32,
            best_of=1,
            scheduled_start=now + timedelta(days=2),
            description="Swiss rounds, best of one. Bring your own deck.",
            check_in_opens_at=now,
            check_in_closes_at=now + timedelta(days=2),
            publish=True,
        )
        for index, name in enumerate(PLAYER_NAMES, start=1):
            player = people.sign_up(
                username=f"player{index}",
                email=f"player{index}@example.com",
                password=DEMO_PASSWORD,
                display_name=name,
            )
            clubs.add_member(actor=owner, club=club, username=_account(player).username)
            if index <= 20:  # leave a few places to register live
                entrants.register(actor=_account(player), tournament=tournament)
            if index <= 12:
                entrants.check_in(
                    actor=_account(player),
                    registration=player.registrations.get(tournament=tournament),
                )
        return owner, club

    def _running_swiss(self, owner: Any, club: Club) -> None:
        """A Vanilla Gwent Swiss in its second round: pairings, results and standings."""
        now = timezone.now()
        tournament = lifecycle.create_tournament(
            actor=owner,
            club=club,
            name=RUNNING_NAME,
            game=Game.VANILLA_GWENT,
            capacity=16,
            best_of=1,
            scheduled_start=now + timedelta(hours=3),
            description="Three Swiss rounds; alignments recorded per game.",
            check_in_opens_at=now,
            check_in_closes_at=now + timedelta(hours=3),
            publish=True,
        )
        swiss.update_swiss_settings(
            actor=owner,
            tournament=tournament,
            changes={"auto_pair": False, "rounds": 3, "seed": DEMO_SEED},
        )
        User = get_user_model()
        for index in range(1, 15):
            user = User.objects.get(username=f"player{index}")
            registration = entrants.register(actor=user, tournament=tournament)
            entrants.check_in(actor=user, registration=registration)
        lifecycle.start_tournament_now(actor=owner, tournament=tournament)
        first = swiss.pair_next_round(actor=owner, tournament=tournament)
        assert first is not None
        round_clock.start_round(actor=owner, round=first)
        scores = [[[45, 30], [28, 33], [50, 21]], [[38, 24], [41, 19]], [[22, 35], [30, 31]]]
        played = Match.objects.filter(round=first, b__isnull=False).order_by("table")
        for i, match in enumerate(played):
            games = [{"rounds": scores[i % 3], "alignments": ["might", "magic"]}]
            results.judge_result(actor=owner, match=match, games=games)
        second = swiss.pair_next_round(actor=owner, tournament=tournament)
        assert second is not None
        round_clock.start_round(actor=owner, round=second)
        swiss.update_swiss_settings(actor=owner, tournament=tournament, changes={"auto_pair": True})
        # A Gosu draft seated for the next round, ready for the organiser to start.
        drafts.create_pods(
            actor=owner, tournament=tournament, pod_size=8, seconds_per_pick=45, timing="each"
        )
        # Its top 4 plays a single elimination once the third round is over.
        brackets.add_stage(
            actor=owner,
            tournament=tournament,
            kind=StageKind.SINGLE_ELIMINATION,
            cut_top=4,
            third_place=True,
        )
        self._date_back(tournament, first)
        self._live_table(second)

    def _live_table(self, rnd: Round) -> None:
        """Table 1 of the current round at a live table: its first player passed, the
        other on turn with the turn limit running."""
        match = (
            Match.objects.filter(round=rnd, b__isnull=False)
            .select_related("a__player__user", "b__player__user")
            .order_by("table")
            .first()
        )
        if match is None or match.b is None:
            return
        a, b = _account(match.a.player), _account(match.b.player)
        table = tables.open_table(actor=a, match=match)
        for number, (user, kind) in enumerate(
            [(a, "play"), (b, "play"), (a, "extra"), (a, "pass"), (b, "play"), (b, "play")]
        ):
            tables.take_turn(actor=user, table=table.pk, number=number, kind=kind)

    def _double_elimination(self, owner: Any, club: Club) -> None:
        """A double elimination of 8 (seeded by rating) with its first round played."""
        now = timezone.now()
        tournament = lifecycle.create_tournament(
            actor=owner,
            club=club,
            name=BRACKET_NAME,
            game=Game.GESOSEKA,
            capacity=8,
            best_of=1,
            scheduled_start=now + timedelta(hours=1),
            description="Double elimination, seeded by rating; the grand final may be reset.",
            check_in_opens_at=now,
            check_in_closes_at=now + timedelta(hours=1),
            publish=True,
        )
        brackets.add_stage(
            actor=owner,
            tournament=tournament,
            kind=StageKind.DOUBLE_ELIMINATION,
            position=brackets.ONLY,
        )
        User = get_user_model()
        for index in range(15, 23):
            user = User.objects.get(username=f"player{index}")
            registration = entrants.register(actor=user, tournament=tournament)
            entrants.check_in(actor=user, registration=registration)
            Registration.objects.filter(pk=registration.pk).update(rating=2000 - 10 * index)
        lifecycle.start_tournament_now(actor=owner, tournament=tournament)
        # Begun on commit of the start; here too, for a caller inside a transaction.
        stages.begin_stage(tournament_id=tournament.pk, number=1)
        first_round = Match.objects.filter(round__tournament=tournament).order_by("table")
        for i, match in enumerate(first_round):
            rounds = [[45, 30], [50, 21]] if i % 3 else [[30, 45], [21, 50]]
            results.judge_result(actor=owner, match=match, games=[{"rounds": rounds}])

    def _pods(self, owner: Any, club: Club) -> None:
        """Four-player Gesoseka: 11 players in pods (4, 4 and 3), round 1 under way, one
        pod confirmed and one reported."""
        now = timezone.now()
        tournament = lifecycle.create_tournament(
            actor=owner,
            club=club,
            name=PODS_NAME,
            game=Game.GESOSEKA,
            capacity=12,
            best_of=1,
            scheduled_start=now + timedelta(hours=1),
            description="Four-player Gesoseka: first to two game-round wins, three rounds.",
            check_in_opens_at=now,
            check_in_closes_at=now + timedelta(hours=1),
            publish=True,
        )
        pods.add_stage(actor=owner, tournament=tournament, rounds=3, scoring="placement")
        User = get_user_model()
        for index in range(13, 24):
            user = User.objects.get(username=f"player{index}")
            registration = entrants.register(actor=user, tournament=tournament)
            entrants.check_in(actor=user, registration=registration)
        lifecycle.start_tournament_now(actor=owner, tournament=tournament)
        stages.begin_stage(tournament_id=tournament.pk, number=1)
        first, second = list(
            Match.objects.filter(round__tournament=tournament, b__isnull=False).order_by("table")
        )[:2]
        for match, confirm in ((first, True), (second, False)):
            seats = list(
                match.seats.select_related("registration__player__user").order_by("position")
            )
            users = [_account(seat.registration.player) for seat in seats]
            rounds = [[31, 24, 18, 27][: len(users)], [35, 20, 22, 30][: len(users)]]
            pods.report(actor=users[0], match=match.pk, rounds=rounds)
            if confirm:
                pods.confirm(actor=users[1], match=match.pk)

    def _teams(self, owner: Any, club: Club) -> None:
        """A 2 vs 2 Swiss open for registration: seven teams of two (six checked in, one
        waiting for its teammate to accept), so a player can register an eighth."""
        now = timezone.now()
        tournament = lifecycle.create_tournament(
            actor=owner,
            club=club,
            name=TEAMS_NAME,
            game=Game.VANILLA_GWENT,
            entrant_type=EntrantType.TEAM,
            capacity=8,
            best_of=1,
            scheduled_start=now + timedelta(days=3),
            description="Teams of two, 2 vs 2: the team turn limit (5 + 5) at the table.",
            check_in_opens_at=now,
            check_in_closes_at=now + timedelta(days=3),
            publish=True,
        )
        User = get_user_model()
        for name, first, second in DEMO_TEAMS:
            captain = User.objects.get(username=f"player{first}")
            teammate = f"player{second}"
            team = entrants.register(
                actor=captain, tournament=tournament, team_name=name, teammate=teammate
            )
            if name == DEMO_TEAMS[-1][0]:
                continue  # the invitation waits: player14 accepts it on the page
            partner = User.objects.get(username=teammate)
            team = teams.answer_invitation(actor=partner, registration=team, accept=True)
            for member in (captain, partner):
                team = entrants.check_in(actor=member, registration=team)

    def _club_in(self, owner: Any, name: str, description: str, language: str, zone: str) -> Club:
        """A club of the organiser's that speaks ``language``, players 1-16 its members."""
        club = clubs.create_club(actor=owner, name=name, description=description)
        club = clubs.set_language(actor=owner, club=club, language=language)
        club = clubs.set_time_zone(actor=owner, club=club, time_zone=zone)
        for index in range(1, 17):
            clubs.add_member(actor=owner, club=club, username=f"player{index}")
        return club

    def _started(
        self, owner: Any, club: Club, name: str, game: str, description: str, players: range
    ) -> Tournament:
        """A Swiss of ``players`` (their indices) started now, no round paired yet."""
        now = timezone.now()
        tournament = lifecycle.create_tournament(
            actor=owner,
            club=club,
            name=name,
            game=game,
            capacity=16,
            best_of=1,
            scheduled_start=now + timedelta(hours=1),
            description=description,
            check_in_opens_at=now,
            check_in_closes_at=now + timedelta(hours=1),
            publish=True,
        )
        swiss.update_swiss_settings(
            actor=owner, tournament=tournament, changes={"auto_pair": False, "rounds": 3}
        )
        User = get_user_model()
        for index in players:
            user = User.objects.get(username=f"player{index}")
            registration = entrants.register(actor=user, tournament=tournament)
            entrants.check_in(actor=user, registration=registration)
        lifecycle.start_tournament_now(actor=owner, tournament=tournament)
        return tournament

    def _french_draft_night(self, owner: Any) -> None:
        """A French club's GOSU-style draft night: eight players seated at a draft pod,
        the draft under way (the first pick of the first pack), round 1 to pair after it."""
        club = self._club_in(
            owner,
            FRENCH_CLUB,
            "Le jeudi soir : Gesoseka en draft, selon les règles de tournoi GOSU.",
            "fr",
            "Europe/Paris",
        )
        tournament = self._started(
            owner,
            club,
            FRENCH_EVENT,
            Game.GESOSEKA,
            "Draft GOSU à huit joueurs, puis trois rondes suisses avec les decks draftés.",
            range(1, 9),
        )
        pod = drafts.create_pods(
            actor=owner, tournament=tournament, pod_size=8, seconds_per_pick=60
        )[0]
        drafts.start_pod(actor=owner, pod=pod)

    def _greek_kontsina(self, owner: Any) -> None:
        """A Greek club's Kontsina Swiss: round 1 under way, two results in."""
        club = self._club_in(
            owner,
            GREEK_CLUB,
            "Κάθε Τρίτη βράδυ: Κοντσίνα, τρεις γύροι ελβετικού συστήματος.",
            "el",
            "Europe/Athens",
        )
        tournament = self._started(
            owner,
            club,
            GREEK_EVENT,
            Game.KONTSINA,
            "Ελβετικό σύστημα, τρεις γύροι· κάθε παιχνίδι τρία σετ.",
            range(9, 17),
        )
        first = swiss.pair_next_round(actor=owner, tournament=tournament)
        assert first is not None
        round_clock.start_round(actor=owner, round=first)
        played = Match.objects.filter(round=first, b__isnull=False).order_by("table")[:2]
        for match, rounds in zip(
            played, ([[3, 2], [4, 1], [2, 3]], [[1, 4], [2, 3], [3, 2]]), strict=False
        ):
            results.judge_result(actor=owner, match=match, games=[{"rounds": rounds}])

    def _last_week(self, owner: Any, club: Club) -> None:
        """Last week's Gesoseka Swiss of eight (players 1-8), played to the end: the
        club's ratings, the players' pages and the season's leaderboard have a history."""
        tournament = self._started(
            owner, club, PAST_NAME, Game.GESOSEKA, "Three Swiss rounds, best of one.", range(1, 9)
        )
        for _ in range(3):
            rnd = swiss.pair_next_round(actor=owner, tournament=tournament)
            assert rnd is not None
            round_clock.start_round(actor=owner, round=rnd)
            played = Match.objects.filter(round=rnd, b__isnull=False).select_related("a", "b")
            for match in played.order_by("table"):
                # The lower player number wins (player1 the strongest), 2 game rounds to 0.
                assert match.b is not None  # byes left out above
                a_wins = match.a.player_id < match.b.player_id
                rounds = [[45, 30], [50, 21]] if a_wins else [[30, 45], [21, 50]]
                results.judge_result(actor=owner, match=match, games=[{"rounds": rounds}])
        week_ago = timezone.now() - timedelta(days=7)
        Tournament.objects.filter(pk=tournament.pk).update(
            scheduled_start=week_ago,
            check_in_opens_at=week_ago - timedelta(hours=1),
            check_in_closes_at=week_ago,
            start_handled_at=week_ago,
        )

    def _date_back(self, tournament: Tournament, first: Round) -> None:
        """Move the running tournament's start and round 1 into the past (demo dates only:
        what happened and in which order stays as the services recorded it)."""
        started = timezone.now() - STARTED_AGO
        Tournament.objects.filter(pk=tournament.pk).update(
            scheduled_start=started,
            check_in_opens_at=started - timedelta(hours=1),
            check_in_closes_at=started,
            start_handled_at=started,
        )
        Registration.objects.filter(tournament=tournament, checked_in_at__isnull=False).update(
            checked_in_at=started - timedelta(minutes=30)
        )
        first = Round.objects.get(pk=first.pk)
        assert first.started_at is not None and first.ends_at is not None
        round_started = started + timedelta(minutes=5)
        Round.objects.filter(pk=first.pk).update(
            started_at=round_started, ends_at=round_started + (first.ends_at - first.started_at)
        )

    def _print_logins(self) -> None:
        self.stdout.write(self.style.SUCCESS(f"Demo logins (password for all: {DEMO_PASSWORD})"))
        self.stdout.write("  organiser  club owner, runs the tournament")
        self.stdout.write("  judge      club judge")
        self.stdout.write("  player1 … player24  players")
        self.stdout.write("  admin      staff, for /admin/")

    def _print_seeded(self) -> None:
        """What was just seeded (only right after seeding: it is the state of that moment)."""
        self.stdout.write(
            f"{OPEN_NAME}: open for registration (players 1-20 registered, 1-12 checked in)."
        )
        self.stdout.write(
            f"{RUNNING_NAME} is running (round 2): pairings, standings, two Gosu draft "
            "pods ready to start from its page, table 1 at a live table (the turn limit "
            "running), and a top 4 after the Swiss."
        )
        self.stdout.write(f"{BRACKET_NAME}: a double elimination, its first round played.")
        self.stdout.write(f"{PODS_NAME}: 11 players in pods of four and three, round 1 under way.")
        self.stdout.write(
            f"{TEAMS_NAME}: teams of two registering (player14 has an invitation to accept; "
            "players 15-24 may register an eighth team)."
        )
        self.stdout.write(
            f"{FRENCH_CLUB} (pages in French): {FRENCH_EVENT}, players 1-8 drafting in a "
            "GOSU-style draft pod."
        )
        self.stdout.write(
            f"{GREEK_CLUB} (pages in Greek): {GREEK_EVENT}, a Kontsina Swiss, round 1 "
            "under way (players 9-16)."
        )
        self.stdout.write(
            f"{PAST_NAME}: played last week (players 1-8): the club's Gesoseka ratings, "
            "the players' pages and the Winter league's leaderboard."
        )

    def _print_now(self, club: Club) -> None:
        """The club's tournaments as they are now: each one's state and latest round."""
        self.stdout.write("Its tournaments now:")
        tournaments = club.tournaments.annotate(latest_round=Max("rounds__number")).order_by("pk")
        for tournament in tournaments:
            state = STATE_WORDS[TournamentStatus(tournament.status)]
            if tournament.latest_round:
                state += f", round {tournament.latest_round}"
            self.stdout.write(f"  {tournament.name}: {state}.")

    def _print_pairings(self) -> None:
        """Who plays whom in the running tournament's current round (the README's list)."""
        current = (
            Round.objects.filter(tournament__name=RUNNING_NAME, tournament__club__name=CLUB_NAME)
            .order_by("-number")
            .first()
        )
        if current is None:
            return
        self.stdout.write(f"Round {current.number} of {RUNNING_NAME}:")
        for match in current.matches.select_related("a__player", "b__player").order_by("table"):
            if match.b is None:
                self.stdout.write(f"  {match.a.player.display_name} has the bye")
            else:
                self.stdout.write(
                    f"  Table {match.table}: {match.a.player.display_name} v "
                    f"{match.b.player.display_name}"
                )
