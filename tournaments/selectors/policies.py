"""Who may do what: the one set of predicates that decides both what a page offers (its
buttons: ``tournament_actions``, ``entrant_actions``, ``match_actions``, each a set of
action names a template asks with ``{% if "pair" in actions %}``) and what a service
refuses (``require_*``, and the state checks ``may_*`` that mirror the services' own).

Roles (``tournaments.models.Role``): owners run the club and its members; owners and
organisers run its tournaments; judges (and those two) enter and override results.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import QuerySet
from django.dispatch import Signal
from django.utils.translation import gettext, gettext_noop

from core.compiled import rows
from core.errors import NotAllowed
from tournaments import formats
from tournaments.models import (
    JUDGING_ROLES,
    MANAGING_ROLES,
    Club,
    FirstRoundPairing,
    Match,
    MatchStatus,
    Membership,
    Registration,
    ReportSide,
    Role,
    Round,
    RoundStatus,
    Tournament,
    TournamentStatus,
)

if TYPE_CHECKING:
    from core.auth import AnyUser


#: The attribute of the request's user object that memoises its roles (club id -> role).
_ROLES_MEMO = "_club_roles"


def _role_in_club(club_id: int, user_id: int) -> QuerySet[Membership, str]:
    return Membership.objects.filter(club_id=club_id, user_id=user_id).values_list(
        "role", flat=True
    )[:1]


def role_in_club(user: AnyUser, club: Club) -> str | None:
    """The user's role in the club, or None for non-members and anonymous users (cached on
    the user object for the request: a page asks several questions about one club)."""
    if not user.is_authenticated:
        return None
    cache: dict[int, str | None] | None = getattr(user, _ROLES_MEMO, None)
    if cache is None:
        cache = {}
        setattr(user, _ROLES_MEMO, cache)
    if club.pk not in cache:
        found = rows("policies.role_in_club", _role_in_club, club.pk, user.pk)
        cache[club.pk] = found[0] if found else None
    return cache[club.pk]


def remember_role(user: AnyUser, club_id: int, role: str | None) -> None:
    """The user's role in the club, read with something else (a page's first query):
    :func:`role_in_club` answers it for the rest of the request without asking."""
    if not user.is_authenticated:
        return
    cache: dict[int, str | None] | None = getattr(user, _ROLES_MEMO, None)
    if cache is None:
        cache = {}
        setattr(user, _ROLES_MEMO, cache)
    cache[club_id] = role


def can_manage_club(user: AnyUser, club: Club) -> bool:
    """Owners and organisers create and run the club's tournaments."""
    return role_in_club(user, club) in MANAGING_ROLES


def can_judge(user: AnyUser, club: Club) -> bool:
    """Judges, organisers and owners enter and override results."""
    return role_in_club(user, club) in JUDGING_ROLES


def is_club_owner(user: AnyUser, club: Club) -> bool:
    return role_in_club(user, club) == Role.OWNER


#: The refusal of each thing only a club's organisers do, by what the services pass as
#: ``doing``: whole sentences, so each language words the club and the doing together.
_MANAGERS_ONLY = {
    "manage its tournaments": gettext_noop(
        "Only the owners and organisers of %(club)s can manage its tournaments."
    ),
    "run its rounds": gettext_noop(
        "Only the owners and organisers of %(club)s can run its rounds."
    ),
    "change its stages": gettext_noop(
        "Only the owners and organisers of %(club)s can change its stages."
    ),
    "set the projector's announcement": gettext_noop(
        "Only the owners and organisers of %(club)s can set the projector's announcement."
    ),
    "give players fixed tables": gettext_noop(
        "Only the owners and organisers of %(club)s can give players fixed tables."
    ),
    "change its webhooks": gettext_noop(
        "Only the owners and organisers of %(club)s can change its webhooks."
    ),
    "see its webhooks": gettext_noop(
        "Only the owners and organisers of %(club)s can see its webhooks."
    ),
    "change its live tables": gettext_noop(
        "Only the owners and organisers of %(club)s can change its live tables."
    ),
    "run its drafts": gettext_noop(
        "Only the owners and organisers of %(club)s can run its drafts."
    ),
    "manage its seasons": gettext_noop(
        "Only the owners and organisers of %(club)s can manage its seasons."
    ),
}


def require_manager(actor: AnyUser, club: Club, *, doing: str = "manage its tournaments") -> None:
    """Refuses (``not_organiser``) anyone but the club's owners and organisers. ``doing``:
    one of :data:`_MANAGERS_ONLY`'s keys (a new one gets its sentence there; unknown, it
    is said in English)."""
    if not can_manage_club(actor, club):
        sentence = _MANAGERS_ONLY.get(doing)
        if sentence is None:
            detail = f"Only the owners and organisers of {club.name} can {doing}."
        else:
            detail = gettext(sentence) % {"club": club.name}
        raise NotAllowed(detail, code="not_organiser")


def require_owner(actor: AnyUser, club: Club) -> None:
    if not is_club_owner(actor, club):
        raise NotAllowed(
            gettext("Only an owner of %(club)s can change its members.") % {"club": club.name},
            code="not_owner",
        )


# --- what a page offers: allowed actions ------------------------------------------------
#
# Pages ask ``{% if "pair" in actions %}``; the predicates below are the state checks the
# services make before they act (each names the service that refuses otherwise), so a
# button is shown exactly when pressing it can work. Some refusals depend on rows a page
# does not load (a full tournament, results already entered in a paired round, a pairing
# engine that finds too few players): the page then shows the service's message.


def tournament_is_full(tournament: Tournament, playing: int) -> bool:
    """Whether a tournament with ``playing`` active registrations takes no one more
    (``services.entrants`` refuses them; the page offers no form to fill in vain)."""
    return playing >= tournament.capacity


def tournament_in_setup(tournament: Tournament) -> bool:
    """Players are added, removed and checked in by hand before the start
    (``entrants.add_player`` / ``remove_player`` / ``check_in_player``)."""
    return tournament.status in (TournamentStatus.DRAFT, TournamentStatus.REGISTRATION)


def tournament_is_running(tournament: Tournament) -> bool:
    return tournament.status == TournamentStatus.RUNNING


def tournament_has_started(tournament: Tournament) -> bool:
    """Pairings, standings and the history exist once the tournament has started."""
    return tournament.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED)


def tournament_is_finished(tournament: Tournament) -> bool:
    return tournament.status == TournamentStatus.FINISHED


def may_publish(tournament: Tournament) -> bool:
    """``lifecycle.publish_tournament``: a draft opens registration."""
    return tournament.status == TournamentStatus.DRAFT


def may_start(tournament: Tournament) -> bool:
    """``lifecycle.start_tournament_now``: only from registration."""
    return tournament.status == TournamentStatus.REGISTRATION


def may_pair_next(tournament: Tournament, current_round: Round | None) -> bool:
    """``swiss.pair_next_round``: a running tournament whose latest round is complete (a
    bracket's rounds come from its results, never from a pairing)."""
    return tournament_is_running(tournament) and (
        current_round is None
        or (current_round.status == RoundStatus.COMPLETE and not is_scheduled_round(current_round))
    )


def may_add_stage(user: AnyUser, tournament: Tournament) -> bool:
    """``brackets.add_stage``: the club's organisers, until the tournament is over (the
    service checks the rest: where the stage goes, the cut)."""
    return can_manage_club(user, tournament.club) and not tournament_is_finished(tournament)


def is_scheduled_round(rnd: Round) -> bool:
    """A round of a stage played from a schedule (a bracket, a round robin): its matches
    follow from it, so it is never paired, paired again or changed by a swap
    (``rnd.stage`` read with it)."""
    return formats.format_of(rnd.stage).scheduled


def may_finish(tournament: Tournament, current_round: Round | None) -> bool:
    """``lifecycle.finish_tournament``: running, and no round open."""
    return tournament_is_running(tournament) and (
        current_round is None or current_round.status == RoundStatus.COMPLETE
    )


def may_change_pairings(current_round: Round | None) -> bool:
    """``round_clock.start_round``, ``repair_round``, ``swap_players``: the round is paired and
    its clock has not started (re-pairing and swaps also need no results yet)."""
    return current_round is not None and current_round.status == RoundStatus.PAIRED


def pair_again_draws_anew(*, number: int, first_round: str) -> bool:
    """``swiss.pair_round_again``: round 1 paired at random is drawn anew (a fresh seed);
    any other round is the engine's pairing of the standings, recomputed."""
    return number == 1 and first_round == FirstRoundPairing.RANDOM


@dataclass(frozen=True)
class RoundBlocker:
    """Why a round may not be paired or started now (``code`` for the API)."""

    code: str
    detail: str


#: Asked before a round is paired or its clock started: ``send(sender=Tournament,
#: tournament=..., number=...)``; each receiver answers None or a ``RoundBlocker``.
#: Other apps answer it (the gameplay app: a draft before the round has not finished,
#: ``gameplay.selectors.gates``), connected in their ``AppConfig.ready``; so this app
#: never imports them, and the arrow stays ``gameplay -> tournaments``.
round_may_begin = Signal()


def round_blockers(tournament: Tournament, number: int) -> list[RoundBlocker]:
    """What keeps round ``number`` of the tournament from being paired or started
    (``swiss.pair_next_round``, ``round_clock.start_round``); empty when nothing does."""
    blockers: list[RoundBlocker] = []
    for _, reply in round_may_begin.send(sender=Tournament, tournament=tournament, number=number):
        if isinstance(reply, RoundBlocker):
            blockers.append(reply)
    return blockers


#: The round controls that begin a round: pairing the next one, starting the paired one.
BEGIN_ROUND = frozenset({"pair", "start_round"})


def hold_round_controls(
    tournament: Tournament, actions: frozenset[str], *, current_round: Round | None
) -> tuple[frozenset[str], RoundBlocker | None]:
    """The round page's controls less those a blocker holds, and the blocker to show in
    their place. Asks the hook only when the page would offer to pair or start a round."""
    offered = actions & BEGIN_ROUND
    if not offered:
        return actions, None
    if "pair" in offered:
        number = 1 if current_round is None else current_round.number + 1
    else:
        assert current_round is not None  # may_change_pairings: a paired round
        number = current_round.number
    blockers = round_blockers(tournament, number)
    if not blockers:
        return actions, None
    return actions - BEGIN_ROUND, blockers[0]


def may_extend(current_round: Round | None) -> bool:
    """``round_clock.extend_round``: the round's clock runs and time was not called."""
    return (
        current_round is not None
        and current_round.status == RoundStatus.IN_PROGRESS
        and current_round.ends_at is not None
        and current_round.time_handled_at is None
    )


def may_seat_drafts(tournament: Tournament) -> bool:
    """``gameplay.services.drafts.create_pods``: from registration until the end."""
    return tournament.status in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING)


#: The round controls of the pairings page (a card shown when any of them is allowed).
ROUND_CONTROLS = frozenset({"start", "pair", "finish", "start_round", "repair", "swap", "extend"})


def tournament_actions(
    user: AnyUser, tournament: Tournament, *, current_round: Round | None = None
) -> frozenset[str]:
    """What this user may do to the tournament now (organisers and judges):

    - ``edit``, ``audit``, ``settings``: the organisers' pages;
    - ``publish``, ``start``, ``finish``: the tournament's life;
    - ``run_rounds``, ``pair``, ``start_round``, ``repair``, ``swap``, ``extend``: rounds
      (``current_round`` is the tournament's latest round: the one these act on);
    - ``add_player``, ``remove_player``, ``check_in_player``: players by hand before the
      start; ``drop_player``, ``readd_player``, ``late_entrant`` while it runs;
    - ``seat_drafts``: seat the checked-in players in draft pods;
    - ``judge``: the results grid (enter and override results).

    The user's own entry (register, withdraw, check in) is ``entrant_actions``.
    """
    allowed: set[str] = set()
    if can_manage_club(user, tournament.club):
        allowed |= {"edit", "audit", "settings"}
        if may_publish(tournament):
            allowed.add("publish")
        if may_start(tournament):
            allowed.add("start")
        if may_pair_next(tournament, current_round):
            allowed.add("pair")
        if may_finish(tournament, current_round):
            allowed.add("finish")
        if tournament_is_running(tournament):
            allowed |= {"run_rounds", "drop_player", "readd_player", "late_entrant"}
            if may_change_pairings(current_round):
                allowed.add("start_round")
                if current_round is not None and not is_scheduled_round(current_round):
                    allowed |= {"repair", "swap"}
        if tournament_in_setup(tournament):
            allowed |= {"add_player", "remove_player", "check_in_player"}
        if may_seat_drafts(tournament):
            allowed.add("seat_drafts")
    if can_judge(user, tournament.club):
        allowed.add("judge")
        if tournament_is_running(tournament) and may_extend(current_round):
            allowed.add("extend")
    return frozenset(allowed)


def entrant_actions(
    user: AnyUser,
    tournament: Tournament,
    registration: Registration | None,
    *,
    now: datetime | None = None,
) -> frozenset[str]:
    """What the user may do about their own entry (``registration``: theirs, if any):

    - ``register`` (``entrants.register``): registration is open and they are not in it
      (anonymous users too: the page asks them to log in first);
    - ``withdraw`` (``entrants.unregister``): before the start (a team: who registered it);
    - ``check_in`` (``entrants.check_in``): during the check-in window (a team: once it
      has two players, each member for themselves);
    - teams (``services.teams``), before the start: ``invite_teammate`` and
      ``remove_teammate`` for who registered the team, ``leave_team`` for the teammate;
      ``rename_team`` for either until the end.
    """
    allowed: set[str] = set()
    active = registration is not None and registration.is_active
    if not active and tournament.registration_is_open(now):
        allowed.add("register")
    if active and user.is_authenticated:
        assert registration is not None
        captain = registration.player.user_id == user.pk
        in_registration = tournament.status == TournamentStatus.REGISTRATION
        if in_registration:
            allowed.add("withdraw" if captain else "leave_team")
        mine_checked = (
            registration.checked_in
            or (captain and registration.player_checked_in_at is not None)
            or (not captain and registration.partner_checked_in_at is not None)
        )
        if not mine_checked and registration.team_complete and tournament.check_in_is_open(now):
            allowed.add("check_in")
        if registration.is_team:
            if not tournament_is_finished(tournament):
                allowed.add("rename_team")
            if in_registration and captain:
                if registration.partner_accepted_at is None:
                    allowed.add("invite_teammate")
                if registration.partner_id is not None:
                    allowed.add("remove_teammate")
    return frozenset(allowed)


def side_in_match(user: AnyUser, match: Match) -> str | None:
    """``ReportSide.A`` or ``B`` when the user plays in the match (for a team, either
    member), else None. Reads the entrants' players and partners: load them with it."""
    if not user.is_authenticated:
        return None
    if match.a.has_member(user.pk):
        return ReportSide.A
    if match.b is not None and match.b.has_member(user.pk):
        return ReportSide.B
    return None


def match_actions(user: AnyUser, match: Match) -> frozenset[str]:
    """What the user may do with the match's result (``services.results``):

    - ``report`` (``report_result``): a player of the match, not a bye, its round not
      complete and its result not confirmed;
    - ``confirm`` (``confirm_result``): the opponent reported a final result this player
      has not answered;
    - ``judge`` (``judge_result``): judges and organisers, any match but a bye, any time.

    Reads the match's current reports from ``match.reports.all()`` (prefetched by
    ``selectors.match_for_page``).
    """
    if match.is_bye:
        return frozenset()
    allowed: set[str] = set()
    if can_judge(user, match.round.tournament.club):
        allowed.add("judge")
    side = side_in_match(user, match)
    if (
        side is not None
        and match.round.status != RoundStatus.COMPLETE
        and match.status != MatchStatus.CONFIRMED
    ):
        allowed.add("report")
        current = {r.side: r for r in match.reports.all() if r.current}
        theirs = current.get(ReportSide.B if side == ReportSide.A else ReportSide.A)
        mine = current.get(side)
        if (
            match.status == MatchStatus.REPORTED
            and theirs is not None
            and theirs.complete
            and not (mine is not None and mine.complete)
        ):
            allowed.add("confirm")
    return frozenset(allowed)
