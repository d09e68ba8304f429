"""Clubs, people, tournaments, registrations, stages, rounds, matches and results.

Vocabulary (``docs/architecture.md``): a *club* runs *tournaments*; a *member* of a club has
a role (owner, organiser, judge, member); a *player* is a user's profile (display name);
an *entrant* is what gets paired: a registration of one player now, a team of two later
(``Tournament.entrant_type`` leaves room for it). Tournament > stage > round > match >
game > game round.

Models hold fields, choices and the database constraints that make bad states impossible;
who may do what and when lives in ``selectors/policies.py`` and ``services/``. The audit
log and the event feed are ``core.models``.

The models live by subject (``clubs``, ``tournaments``, ``stages``, ``rounds``), each
re-exported here: ``from tournaments.models import Tournament`` is the way to import them.
"""

from tournaments.models.clubs import (
    JUDGING_ROLES,
    MANAGING_ROLES,
    AccountName,
    Club,
    Invitation,
    Membership,
    Player,
    Role,
    role_word,
)
from tournaments.models.rounds import (
    MATCH_ENTRANTS,
    SEAT_LETTERS,
    JudgeCall,
    Match,
    MatchSeat,
    MatchStatus,
    ReportSide,
    ResultReport,
    Round,
    RoundStatus,
    Winner,
)
from tournaments.models.stages import (
    BRACKET_KINDS,
    DEFAULT_TIEBREAKERS,
    POD_KINDS,
    SCHEDULED_KINDS,
    SWISS_SETTING_WORDS,
    BracketSettings,
    FirstRoundPairing,
    GrandFinal,
    LateEntry,
    OverduePolicy,
    PodFill,
    PodScoring,
    PodSettings,
    Stage,
    StageKind,
    StageStatus,
    SwissSettings,
)
from tournaments.models.tournaments import (
    EntrantType,
    Game,
    Registration,
    RegistrationStatus,
    Tournament,
    TournamentStatus,
)

__all__ = [
    "BRACKET_KINDS",
    "DEFAULT_TIEBREAKERS",
    "JUDGING_ROLES",
    "MANAGING_ROLES",
    "MATCH_ENTRANTS",
    "POD_KINDS",
    "SCHEDULED_KINDS",
    "SEAT_LETTERS",
    "SWISS_SETTING_WORDS",
    "AccountName",
    "BracketSettings",
    "Club",
    "EntrantType",
    "FirstRoundPairing",
    "Game",
    "GrandFinal",
    "Invitation",
    "JudgeCall",
    "LateEntry",
    "Match",
    "MatchSeat",
    "MatchStatus",
    "Membership",
    "OverduePolicy",
    "Player",
    "PodFill",
    "PodScoring",
    "PodSettings",
    "Registration",
    "RegistrationStatus",
    "ReportSide",
    "ResultReport",
    "Role",
    "Round",
    "RoundStatus",
    "Stage",
    "StageKind",
    "StageStatus",
    "SwissSettings",
    "Tournament",
    "TournamentStatus",
    "Winner",
    "role_word",
]
