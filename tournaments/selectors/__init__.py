"""Every non-trivial read (docs/architecture.md, "Layers"), by subject:

- ``policies``: who may do what (pages' buttons and services' refusals ask the same);
- ``clubs``, ``tournaments``, ``rounds``, ``standings``, ``home``: lists and pages' data,
  each with a query count that does not grow with rows (asserted in the tests);
- ``matches`` (a match for its page, the player's match now), ``timer`` (the round clock
  as shown), ``judges`` (the judges' grid), ``results`` (a result's state, the reports a
  judge compares, what a correction touches), ``result_words`` (a result in words);
- ``clock``: the deadlines the sweepers look for;
- ``exports``: pairings and standings as rows for CSV, JSON and printing.

The common reads are re-exported here (``selectors.visible_tournaments(...)``); a selector
never imports a service.
"""

from tournaments.selectors.clock import (
    WARNING_MINUTES,
    due_round_clocks,
    due_tournament_starts,
    rounds_waiting_for_pairing,
)
from tournaments.selectors.clubs import club_list, club_members, invitation_by_token
from tournaments.selectors.home import home_page
from tournaments.selectors.judges import matches_for_judge
from tournaments.selectors.matches import (
    current_match_id_of,
    current_match_of,
    match_for_page,
    with_current_reports,
)
from tournaments.selectors.result_words import score_line
from tournaments.selectors.rounds import current_round, round_matches, tournament_rounds
from tournaments.selectors.standings import (
    StandingsTable,
    confirmed_results,
    standings_entrants,
    swiss_field,
    tournament_standings,
)
from tournaments.selectors.tournaments import (
    active_registration_count,
    audit_log,
    current_stage,
    feed_events,
    final_placements,
    game_options,
    match_visible_to,
    registrations_by_id,
    registrations_of,
    registrations_panel,
    stage_visible_to,
    swiss_settings_of,
    swiss_settings_or_defaults,
    swiss_stage,
    tournament_by_pk,
    tournament_events,
    tournament_is_visible,
    tournament_registrations,
    tournament_search,
    tournament_stages,
    visible_tournaments,
)

__all__ = [
    "WARNING_MINUTES",
    "StandingsTable",
    "active_registration_count",
    "audit_log",
    "club_list",
    "club_members",
    "confirmed_results",
    "current_match_id_of",
    "current_match_of",
    "current_round",
    "current_stage",
    "due_round_clocks",
    "due_tournament_starts",
    "feed_events",
    "final_placements",
    "game_options",
    "home_page",
    "invitation_by_token",
    "match_for_page",
    "match_visible_to",
    "matches_for_judge",
    "registrations_by_id",
    "registrations_of",
    "registrations_panel",
    "round_matches",
    "rounds_waiting_for_pairing",
    "score_line",
    "stage_visible_to",
    "standings_entrants",
    "swiss_field",
    "swiss_settings_of",
    "swiss_settings_or_defaults",
    "swiss_stage",
    "tournament_by_pk",
    "tournament_events",
    "tournament_is_visible",
    "tournament_registrations",
    "tournament_rounds",
    "tournament_search",
    "tournament_stages",
    "tournament_standings",
    "visible_tournaments",
    "with_current_reports",
]
