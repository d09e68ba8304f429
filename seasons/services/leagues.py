"""Seasons of a club (issue 26): organisers create, edit and delete them, leave events out,
and create the finals event from the leaderboard; the standings are recomputed from the
results, never edited.

Entry points (keyword-only; each public one a durable transaction):

- :func:`create_season`, :func:`update_season`, :func:`delete_season`,
  :func:`leave_out` (an event left out of the season, or counted again): the club's
  organisers (``policies.require_manager``), audited; a season's rules out of bounds
  (``seasons.points.rule_problems``) are refused naming the field, nothing saved. A
  change of rules or events queues the season's recompute at once (after the commit);
- :func:`recompute` (one season) and :func:`recompute_for_tournament` (every season that
  counts a tournament; the Celery task's entry point after each confirmed result, a
  judge's correction included, and after the tournament finishes): the season's row is
  locked, so two recomputes never interleave; the facts and rules are digested into a
  mark, and a recompute that finds the stored mark does nothing. After a finish each
  season that counts the tournament records one ``season.standings`` event on it (once);
- :func:`create_finals`: a tournament of the club with the season's top N registered.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import record_audit, record_event
from core.auth import AnyUser
from core.errors import Conflict, DomainError, InvalidInput
from core.events import EventKind, SeasonStandings
from core.locks import lock_one
from core.models import Event
from core.queue import enqueue_on_commit
from seasons import points
from seasons.models import Season, SeasonStanding
from seasons.selectors import leagues as selectors
from tournaments import formats
from tournaments.models import Club, Game, Tournament
from tournaments.selectors import policies
from tournaments.services import guests, lifecycle

RECOMPUTE_SEASON = "seasons.tasks.recompute_season"
RECOMPUTE_FOR_TOURNAMENT = "seasons.tasks.recompute_seasons"
BATCH = 2000

#: What an organiser sets (the form's and the API's fields).
RULE_FIELDS = (
    "name",
    "starts_on",
    "ends_on",
    "game",
    "stage_kind",
    "placement_points",
    "win_points",
    "draw_points",
    "attendance_points",
    "best_of",
    "team_events",
    "qualifiers",
)


# --- the rules -------------------------------------------------------------------------------


def _label(field: str) -> str:
    return str(getattr(Season._meta.get_field(field), "verbose_name", field)).capitalize()


def _problem_words(problem: points.Problem) -> str:
    label = _label(problem.field)
    if problem.code == "negative":
        return gettext("%(field)s cannot be negative.") % {"field": label}
    if problem.code == "too_small":
        return gettext("%(field)s is at least %(limit)d.") % {
            "field": label,
            "limit": problem.limit,
        }
    if problem.code == "too_large":
        return gettext("%(field)s is at most %(limit)d.") % {
            "field": label,
            "limit": problem.limit,
        }
    if problem.code == "blank":
        return gettext("%(field)s cannot be empty.") % {"field": label}
    if problem.code == "ends_before_start":
        return gettext("The season's last day comes before its first day.")
    if problem.code == "no_points":
        return gettext(
            "These rules give no points: give points for a place, a match won or drawn, "
            "or for playing."
        )
    # too_long
    if problem.field == "ends_on":
        return gettext("A season lasts at most %(limit)d days.") % {"limit": problem.limit}
    if problem.field == "placement_points":
        return gettext("The points per place name at most %(limit)d places.") % {
            "limit": problem.limit
        }
    return gettext("%(field)s is at most %(limit)d characters long.") % {
        "field": label,
        "limit": problem.limit,
    }


def _check(season: Season) -> None:
    """Refuse the season's rules by the first field out of bounds (nothing is saved)."""
    if season.game and season.game not in Game.values:
        raise InvalidInput(
            gettext("%(value)s is not a game here.") % {"value": repr(season.game)},
            code="invalid_choice",
            field="game",
        )
    if season.stage_kind and formats.find(season.stage_kind) is None:
        raise InvalidInput(
            gettext("%(value)s is not a format here.") % {"value": repr(season.stage_kind)},
            code="invalid_choice",
            field="stage_kind",
        )
    table = season.placement_points
    if not isinstance(table, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in table
    ):
        raise InvalidInput(
            gettext("The points per place are whole numbers, 1st place's first."),
            code="invalid_table",
            field="placement_points",
        )
    problems = points.rule_problems(
        name=season.name,
        starts_on=season.starts_on,
        ends_on=season.ends_on,
        rules=season.rules(),
        qualifiers=season.qualifiers,
    )
    if problems:
        first = problems[0]
        raise InvalidInput(_problem_words(first), code=f"season_{first.code}", field=first.field)


def _apply(season: Season, values: Mapping[str, Any]) -> None:
    unknown = sorted(set(values) - set(RULE_FIELDS))
    if unknown:
        raise InvalidInput(
            gettext("These fields cannot be changed: %(fields)s.") % {"fields": ", ".join(unknown)},
            code="unknown_field",
            field=unknown[0],
        )
    for field, value in values.items():
        if field == "name":
            value = " ".join(str(value).split())
        elif field == "placement_points":
            if not isinstance(value, (list, tuple)):
                raise InvalidInput(
                    gettext("The points per place are whole numbers, 1st place's first."),
                    code="invalid_table",
                    field="placement_points",
                )
            value = list(value)
        setattr(season, field, value)


@transaction.atomic(durable=True)
def create_season(
    *,
    actor: AnyUser,
    club: Club,
    name: str,
    starts_on: date,
    ends_on: date,
    game: str = "",
    stage_kind: str = "",
    placement_points: Sequence[int] = (),
    win_points: int = 0,
    draw_points: int = 0,
    attendance_points: int = 0,
    best_of: int | None = None,
    team_events: bool = True,
    qualifiers: int | None = None,
) -> Season:
    """An organiser creates a season of the club; its standings are computed at once
    (after the commit)."""
    policies.require_manager(actor, club, doing="manage its seasons")
    season = Season(club=club, starts_on=starts_on, ends_on=ends_on)
    _apply(
        season,
        {
            "name": name,
            "game": game,
            "stage_kind": stage_kind,
            "placement_points": placement_points,
            "win_points": win_points,
            "draw_points": draw_points,
            "attendance_points": attendance_points,
            "best_of": best_of,
            "team_events": team_events,
            "qualifiers": qualifiers,
        },
    )
    _check(season)
    season.save()
    record_audit(
        actor=actor,
        action="season.created",
        params={"season": season.name},
        obj=season,
        club=club,
        after=selectors.rules_of(season),
    )
    enqueue_on_commit(RECOMPUTE_SEASON, season.pk)
    return season


@transaction.atomic(durable=True)
def update_season(*, actor: AnyUser, season: Season, changes: Mapping[str, Any]) -> Season:
    """An organiser changes a season's name, dates, events or rules (any of
    :data:`RULE_FIELDS`); the standings are recomputed at once (after the commit)."""
    policies.require_manager(actor, season.club, doing="manage its seasons")
    locked = lock_one(Season.objects.select_related("club"), pk=season.pk)
    if locked is None:
        raise Conflict(gettext("This season was deleted."), code="season_deleted")
    before = selectors.rules_of(locked)
    _apply(locked, changes)
    _check(locked)
    locked.save()
    record_audit(
        actor=actor,
        action="season.updated",
        params={"season": locked.name},
        obj=locked,
        club=locked.club,
        before=before,
        after=selectors.rules_of(locked),
    )
    enqueue_on_commit(RECOMPUTE_SEASON, locked.pk)
    return locked


@transaction.atomic(durable=True)
def delete_season(*, actor: AnyUser, season: Season) -> None:
    """An organiser deletes a season and its standings (the events stay as they are)."""
    policies.require_manager(actor, season.club, doing="manage its seasons")
    locked = lock_one(Season.objects.select_related("club"), pk=season.pk)
    if locked is None:
        return  # deleted already: a second click finds what it asked for
    record_audit(
        actor=actor,
        action="season.deleted",
        params={"season": locked.name},
        obj=locked,
        club=locked.club,
        before=selectors.rules_of(locked),
    )
    locked.delete()


@transaction.atomic(durable=True)
def leave_out(*, actor: AnyUser, season: Season, tournament: Tournament, left_out: bool) -> Season:
    """An organiser leaves one of the club's events out of the season (``left_out``), or
    counts it again; the standings are recomputed at once (after the commit)."""
    policies.require_manager(actor, season.club, doing="manage its seasons")
    locked = lock_one(Season.objects.select_related("club"), pk=season.pk)
    if locked is None:
        raise Conflict(gettext("This season was deleted."), code="season_deleted")
    if tournament.club_id != locked.club_id:
        raise InvalidInput(
            gettext("%(tournament)s is not an event of this club.")
            % {"tournament": tournament.name},
            code="not_this_club",
            field="tournament",
        )
    if left_out:
        locked.excluded.add(tournament)
    else:
        locked.excluded.remove(tournament)
    Season.objects.filter(pk=locked.pk).update(updated_at=timezone.now())
    record_audit(
        actor=actor,
        action="season.event_left_out" if left_out else "season.event_counted",
        params={"season": locked.name, "tournament": tournament.name},
        obj=locked,
        club=locked.club,
        tournament=tournament,
    )
    enqueue_on_commit(RECOMPUTE_SEASON, locked.pk)
    return locked


# --- the standings ---------------------------------------------------------------------------


def _mark(season: Season, found: list[points.EventFacts], names: Mapping[int, str]) -> str:
    """A digest of what the standings are computed from: the rules, every fact, the names
    (the last tiebreak)."""
    text = repr((season.rules(), found, sorted(names.items())))
    return hashlib.sha256(text.encode()).hexdigest()[:64]


def _recompute_locked(season: Season) -> bool:
    found, names = selectors.facts(season)
    mark = _mark(season, found, names)
    if season.mark == mark:
        return False
    ordered = points.standings(season.rules(), found, names)
    SeasonStanding.objects.filter(season=season).delete()
    SeasonStanding.objects.bulk_create(
        [
            SeasonStanding(
                season=season,
                player_id=row.player,
                place=row.place,
                points=row.points,
                counted=row.counted,
                played=row.played,
                events_won=row.events_won,
                best_place=row.best_place,
                wins=row.wins,
                draws=row.draws,
                losses=row.losses,
            )
            for row in ordered
        ],
        batch_size=BATCH,
    )
    season.mark = mark
    season.computed_at = timezone.now()
    season.save(update_fields=["mark", "computed_at"])
    return True


@transaction.atomic(durable=True)
def recompute(*, season_id: int) -> bool:
    """The season's standings from its events' results under its rules; False when they
    were computed from the same already (nothing written) or the season is gone."""
    season = lock_one(Season.objects.select_related("club"), pk=season_id)
    return season is not None and _recompute_locked(season)


def _announced(tournament_id: int, season_id: int) -> bool:
    return Event.objects.filter(
        tournament_id=tournament_id,
        kind=EventKind.SEASON_STANDINGS,
        payload__season=season_id,
    ).exists()


@transaction.atomic(durable=True)
def _recompute_and_announce(*, season_id: int, tournament: Tournament) -> bool:
    """A season's recompute after one of its events finished, then the event's players'
    season places and points in the event's feed (once per season and event)."""
    season = lock_one(Season.objects.select_related("club"), pk=season_id)
    if season is None:
        return False
    changed = _recompute_locked(season)
    if _announced(tournament.pk, season.pk):
        return changed
    players = selectors.event_players(tournament.pk)
    found = selectors.places_of(season.pk, players)
    shown = [p for p in players if p in found]
    payload: SeasonStandings = {
        "season": season.pk,
        "name": season.name,
        "players": shown,
        "places": [found[p][0] for p in shown],
        "points": [found[p][1] for p in shown],
    }
    record_event(
        tournament=tournament,
        kind=EventKind.SEASON_STANDINGS,
        payload=payload,
        params={"season": season.name, "tournament": tournament.name},
    )
    return changed


def recompute_for_tournament(*, tournament_id: int, finished: bool = False) -> int:
    """Every season that counts the tournament, recomputed (each in its own transaction);
    with ``finished``, also each season's standings announced on the tournament once.
    The number of seasons whose standings changed."""
    changed = 0
    tournament = Tournament.objects.filter(pk=tournament_id).only("pk", "name", "status").first()
    if tournament is None or tournament.status not in selectors.STARTED:
        return 0  # not counted (yet): no season has anything new from it
    for season_id in selectors.seasons_counting(tournament_id):
        if finished:
            changed += _recompute_and_announce(season_id=season_id, tournament=tournament)
        else:
            changed += recompute(season_id=season_id)
    return changed


def on_event_recorded(sender: object, *, event: Event, **_: object) -> None:
    """``core.audit.event_recorded``: a confirmed result (a correction included) queues
    the recompute of every season that counts its tournament; a finish, the recompute
    and the standings' announcement."""
    if event.kind == EventKind.RESULT_CONFIRMED:
        enqueue_on_commit(RECOMPUTE_FOR_TOURNAMENT, event.tournament_id, False)
    elif event.kind == EventKind.TOURNAMENT_FINISHED:
        enqueue_on_commit(RECOMPUTE_FOR_TOURNAMENT, event.tournament_id, True)


# --- the finals ------------------------------------------------------------------------------


def _entry_line(standing: SeasonStanding) -> str:
    player = standing.player
    user = player.user
    if user is not None:
        return "@" + user.get_username()
    return player.display_name


def create_finals(
    *, actor: AnyUser, season: Season, name: str, scheduled_start: datetime, game: str = ""
) -> Tournament:
    """A tournament of the club (a draft, single players, the season's game unless
    ``game`` names one) with the season's top N registered (``qualifiers``).

    Three transactions of the tournaments app's services, one after another: the
    tournament made (``lifecycle.create_tournament``), its players added all at once or
    none (``guests.add_players_by_name``: an account by ``@user name``, a guest of the
    club by their name), the audit. Should the second fail (a qualifier's name a paste
    cannot hold), the draft tournament stays and the refusal says so."""
    policies.require_manager(actor, season.club, doing="manage its seasons")
    if not season.qualifiers:
        raise Conflict(
            gettext("Set how many players go to the finals first."),
            code="no_qualifiers",
            field="qualifiers",
        )
    top = selectors.qualified(season)
    if not top:
        raise Conflict(gettext("Nobody has points in this season yet."), code="no_standings")
    game = game or season.game
    if not game:
        raise InvalidInput(
            gettext("Choose the finals' game: this season counts every game."),
            code="required",
            field="game",
        )
    lines = [_entry_line(standing) for standing in top]
    unlisted = [
        line
        for line, standing in zip(lines, top, strict=True)
        if "," in line or (standing.player.user is None and line.startswith("@"))
    ]
    if unlisted:
        raise Conflict(
            gettext(
                "These names cannot be added from a list: %(names)s. Create the event and "
                "add its players by hand."
            )
            % {"names": ", ".join(unlisted)},
            code="names_unlisted",
        )
    tournament = lifecycle.create_tournament(
        actor=actor,
        club=season.club,
        name=name,
        game=game,
        capacity=max(len(top), 2),
        scheduled_start=scheduled_start,
    )
    try:
        guests.add_players_by_name(actor=actor, tournament=tournament, names=lines)
    except DomainError as error:
        raise Conflict(
            gettext("%(tournament)s was created, but its players could not be added: %(reason)s")
            % {"tournament": tournament.name, "reason": error.detail},
            code="finals_players_not_added",
        ) from error
    _audit_finals(actor=actor, season=season, tournament=tournament, players=len(top))
    return tournament


@transaction.atomic(durable=True)
def _audit_finals(*, actor: AnyUser, season: Season, tournament: Tournament, players: int) -> None:
    record_audit(
        actor=actor,
        action="season.finals_created",
        params={"season": season.name, "tournament": tournament.name, "players": players},
        obj=season,
        club=season.club,
        tournament=tournament,
    )
