"""Seasons and their standings (issue 26): which events a season counts, each player's
facts in them as ``seasons.points`` takes them, the leaderboard a page at a time.

A season counts a tournament of its club that has started (running or finished), whose
scheduled start falls within the season's days in the club's time zone, of the season's
game and first-stage format when set, a team event only when team events count, and
that the organiser has not left out (:func:`counted`). A player's facts in an event: the
entrant's final place (empty until it finishes), the entrant's confirmed matches won,
drawn and lost from their seats' places (a bye is a win; a pod's first place a win, a
first place shared by every seat a draw), attended (registered or dropped: they played),
and, in a team event, the same facts for each member (captain and accepted partner).
"""

from __future__ import annotations

import zoneinfo
from collections import defaultdict
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery

from seasons.models import Season, SeasonStanding
from seasons.points import EventFacts
from seasons.selectors import players
from tournaments.models import (
    EntrantType,
    MatchSeat,
    MatchStatus,
    Registration,
    RegistrationStatus,
    Stage,
    Tournament,
    TournamentStatus,
)

#: Entrants who played (the no-shows are "not playing" once the tournament starts).
PLAYED = (RegistrationStatus.REGISTERED, RegistrationStatus.DROPPED)
STARTED = (TournamentStatus.RUNNING, TournamentStatus.FINISHED)


def _moment(day: date, zone: str) -> datetime:
    return datetime.combine(day, time.min, tzinfo=zoneinfo.ZoneInfo(zone))


def in_rules(season: Season) -> QuerySet[Tournament]:
    """The club's tournaments the season's rules take (dates, game, format, team events),
    whatever their state and whether left out: the organiser's list to leave some out."""
    zone = season.club.time_zone
    found = Tournament.objects.filter(
        club_id=season.club_id,
        scheduled_start__gte=_moment(season.starts_on, zone),
        scheduled_start__lt=_moment(season.ends_on + timedelta(days=1), zone),
    )
    if season.game:
        found = found.filter(game=season.game)
    if not season.team_events:
        found = found.filter(entrant_type=EntrantType.PLAYER)
    if season.stage_kind:
        found = found.filter(
            Exists(
                Stage.objects.filter(tournament=OuterRef("pk"), number=1, kind=season.stage_kind)
            )
        )
    return found.order_by("scheduled_start", "pk")


def counted(season: Season) -> QuerySet[Tournament]:
    """The tournaments whose results count in the season (the module docstring)."""
    return in_rules(season).filter(status__in=STARTED).exclude(pk__in=season.excluded.values("pk"))


def facts(season: Season) -> tuple[list[EventFacts], dict[int, str]]:
    """Every player's facts in every counted event, and their names (for the tiebreak):
    two statements for any number of events and players."""
    events = counted(season).values("pk")
    entrants = Registration.objects.filter(tournament__in=events, status__in=PLAYED).values_list(
        "pk",
        "tournament_id",
        "player_id",
        "player__display_name",
        "partner_id",
        "partner__display_name",
        "partner_accepted_at",
        "final_place",
        "tournament__entrant_type",
    )
    seats = (
        MatchSeat.objects.filter(
            match__round__tournament__in=events, match__status=MatchStatus.CONFIRMED
        )
        .order_by("match_id")
        .values_list("match_id", "registration_id", "place")
    )
    by_match: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    for match_id, registration_id, place in seats.iterator(chunk_size=5000):
        by_match[match_id].append((registration_id, place))
    record: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for found in by_match.values():
        firsts = sum(1 for _, place in found if place == 1)
        for registration_id, place in found:
            if place is None:
                continue
            if place == 1 and (firsts == 1 or len(found) == 1):
                record[registration_id][0] += 1
            elif place == 1:
                record[registration_id][1] += 1
            else:
                record[registration_id][2] += 1
    made: list[EventFacts] = []
    names: dict[int, str] = {}
    for pk, event, player, name, partner, partner_name, accepted, place, kind in entrants:
        wins, draws, losses = record.get(pk, (0, 0, 0))
        team = kind == EntrantType.TEAM
        members = [(player, name)]
        if partner is not None and accepted is not None:
            members.append((partner, partner_name))
        for member, member_name in members:
            names[member] = member_name
            made.append(
                EventFacts(
                    event=event,
                    player=member,
                    place=place,
                    wins=wins,
                    draws=draws,
                    losses=losses,
                    attended=True,
                    team=team,
                )
            )
    made.sort(key=lambda fact: (fact.event, fact.player))
    return made, names


def seasons_counting(tournament_id: int) -> list[int]:
    """The seasons whose rules take the tournament (one statement for the candidates of
    its club, then each candidate's rules checked on the tournament's own row)."""
    found = (
        Tournament.objects.filter(pk=tournament_id)
        .select_related("club")
        .only("pk", "club__time_zone", "scheduled_start", "game", "entrant_type", "club_id")
        .first()
    )
    if found is None:
        return []
    local = found.scheduled_start.astimezone(zoneinfo.ZoneInfo(found.club.time_zone)).date()
    first = Stage.objects.filter(tournament_id=tournament_id, number=1).values("kind")[:1]
    candidates = (
        Season.objects.filter(club_id=found.club_id, starts_on__lte=local, ends_on__gte=local)
        .filter(Q(game="") | Q(game=found.game))
        .filter(Q(stage_kind="") | Q(stage_kind__in=first))
        .exclude(excluded=found)
    )
    if found.entrant_type == EntrantType.TEAM:
        candidates = candidates.filter(team_events=True)
    return list(candidates.order_by("pk").values_list("pk", flat=True))


def club_seasons(club_id: int) -> QuerySet[Season]:
    """A club's seasons, the latest first."""
    return Season.objects.filter(club_id=club_id).order_by("-starts_on", "-pk")


def season_of(club_slug: str, season_id: int) -> Season | None:
    """A club's season with its club (None: no such season in that club)."""
    return Season.objects.select_related("club").filter(club__slug=club_slug, pk=season_id).first()


def leaderboard(season_id: int) -> QuerySet[SeasonStanding]:
    """A season's standings, first place first, with each player's name and whether
    their profile is hidden: one statement a page."""
    return (
        SeasonStanding.objects.filter(season_id=season_id)
        .select_related("player")
        .only(
            "place",
            "points",
            "counted",
            "played",
            "events_won",
            "best_place",
            "wins",
            "draws",
            "losses",
            "player_id",
            "season_id",
            "player__display_name",
            "player__profile_hidden",
        )
        .order_by("place")
    )


def shown_as(row: SeasonStanding) -> tuple[int | None, str]:
    """A row's player id and name as a club's cross-event lists show them (exports, the
    API): a hidden profile's row keeps its place, with no id and the private name."""
    if row.player.profile_hidden:
        return None, players.private_name()
    return row.player_id, row.player.display_name


def standing_of(season_id: int, player_id: int | None) -> SeasonStanding | None:
    """The reader's own row (None: not in the standings, or no player)."""
    if player_id is None:
        return None
    return leaderboard(season_id).filter(player_id=player_id).first()


def qualified(season: Season) -> list[SeasonStanding]:
    """The players who go to the finals (the first ``qualifiers`` places)."""
    if not season.qualifiers:
        return []
    return list(
        SeasonStanding.objects.filter(season_id=season.pk, place__lte=season.qualifiers)
        .select_related("player__user")
        .order_by("place")
    )


def places_of(season_id: int, players: list[int]) -> dict[int, tuple[int, int]]:
    """Each of ``players``' season place and points (those in the standings)."""
    return {
        player: (place, points)
        for player, place, points in SeasonStanding.objects.filter(
            season_id=season_id, player_id__in=players
        ).values_list("player_id", "place", "points")
    }


def event_players(tournament_id: int) -> list[int]:
    """The players of a tournament's entrants who played (captains and accepted
    partners), in id order."""
    found: set[int] = set()
    for player, partner, accepted in Registration.objects.filter(
        tournament_id=tournament_id, status__in=PLAYED
    ).values_list("player_id", "partner_id", "partner_accepted_at"):
        found.add(player)
        if partner is not None and accepted is not None:
            found.add(partner)
    return sorted(found)


def rules_of(season: Season) -> dict[str, Any]:
    """A season's rules as stored (the audit's before and after)."""
    return {
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "game": season.game,
        "stage_kind": season.stage_kind,
        "placement_points": list(season.placement_points),
        "win_points": season.win_points,
        "draw_points": season.draw_points,
        "attendance_points": season.attendance_points,
        "best_of": season.best_of,
        "team_events": season.team_events,
        "qualifiers": season.qualifiers,
    }


def registered_names(tournament_id: int) -> list[str]:
    """A tournament's entrants' names in the order they were registered (the finals: the
    season's order)."""
    return list(
        Registration.objects.filter(tournament_id=tournament_id)
        .order_by("registered_at", "pk")
        .values_list("player__display_name", flat=True)
    )


def current_standings_of(player_id: int, today: date) -> list[SeasonStanding]:
    """A player's rows in the seasons under way (``today`` within their dates, in any
    club), each with its season and club and the season's field (``field``: its players
    in the standings), newest season first: one statement."""
    field = (
        SeasonStanding.objects.filter(season_id=OuterRef("season_id"))
        .order_by()
        .values("season_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return list(
        SeasonStanding.objects.filter(
            player_id=player_id, season__starts_on__lte=today, season__ends_on__gte=today
        )
        .select_related("season__club")
        .only(
            "place",
            "points",
            "counted",
            "played",
            "season__name",
            "season__qualifiers",
            "season__starts_on",
            "season__ends_on",
            "season__club__name",
            "season__club__slug",
        )
        .annotate(field=Subquery(field))
        .order_by("-season__starts_on", "season_id")
    )
