"""The words of the tournaments app's audit entries and feed events (``core.presenters``
collects ``AUDIT`` and ``EVENT``): made at display from a code and its parameters, never
stored. The parameters are names (players, teams, tournaments, clubs: data), numbers and
codes; a function below makes the words a template cannot (counts, a result, "how").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_noop as _

from core.languages import own_name
from core.presenters import Present, said
from tournaments.models import SWISS_SETTING_WORDS, OverduePolicy, SwissSettings, role_word
from tournaments.presenters.notes import describe_stats
from tournaments.selectors.brackets import cut_words
from tournaments.selectors.clock import minutes_text
from tournaments.selectors.names import round_name, stage_name
from tournaments.selectors.result_words import result_words

P = Mapping[str, Any]


# --- counts ---------------------------------------------------------------------------------


def _players(count: int) -> str:
    return ngettext("%(count)d player", "%(count)d players", count) % {"count": count}


def _setting_label(name: str) -> str:
    """A Swiss setting by its label ("round minutes"), as the settings page names it."""
    words = SWISS_SETTING_WORDS.get(name)
    if words is not None:
        return str(words)
    try:
        field = SwissSettings._meta.get_field(name)
    except Exception:  # a setting renamed since: its code
        return name
    return str(getattr(field, "verbose_name", name))


# --- stages and rounds ----------------------------------------------------------------------


def _staged(p: P) -> dict[str, Any]:
    """The parameters with the stage named (``selectors.names.stage_name``: its number,
    name and kind, or the words a row from before stored)."""
    return {**p, "stage": stage_name(p)}


def _stage_started(p: P) -> str:
    if "players" not in p:
        return gettext("%(tournament)s: %(stage)s started") % _staged(p)
    return gettext("%(tournament)s: %(stage)s started with %(players)s") % {
        **_staged(p),
        "players": _players(p["players"]),
    }


def _stage_added(p: P) -> str:
    if "rounds" in p:  # pods
        return gettext("%(tournament)s: %(stage)s (%(rounds)d rounds)") % _staged(p)
    cut = p["cut"] if "cut" in p else cut_words(p)  # "cut": the words a row from before stored
    return gettext("%(tournament)s: %(stage)s added (%(cut)s)") % {**_staged(p), "cut": cut}


def _named(p: P) -> dict[str, Any]:
    """The parameters with the round's code (``name``) in words ("losers:2": "Losers round
    2"; a name stored before the codes as it is)."""
    return {**p, "name": round_name(p["name"])}


def _round_complete(p: P) -> str:
    if "name" in p:
        return gettext("%(name)s complete") % _named(p)
    return gettext("Round %(round)d complete") % p


def _round_paired_event(p: P) -> str:
    if "pods" in p:
        text = ngettext("%(name)s: %(pods)d pod", "%(name)s: %(pods)d pods", p["pods"]) % _named(p)
        if p.get("byes"):
            text += ngettext(", %(byes)d bye", ", %(byes)d byes", p["byes"]) % p
        return text
    if "matches" in p:  # a round robin's round
        return ngettext(
            "%(name)s: %(matches)d match", "%(name)s: %(matches)d matches", p["matches"]
        ) % _named(p)
    return gettext("Round %(round)d paired: %(figures)s") % {
        "round": p["round"],
        "figures": describe_stats(p["stats"], zeros=False),
    }


def _match_ready(p: P) -> str:
    return gettext("%(name)s, table %(table)d is ready") % _named(p)


def _round_paired_audit(p: P) -> str:
    return gettext("%(tournament)s: %(said)s") % {
        "tournament": p["tournament"],
        "said": _round_paired_event(p),
    }


def _round_repaired(p: P) -> str:
    if p["redrawn"]:
        how = gettext("a new random pairing (seed %(seed)d)") % p
        if p["same"]:
            how += gettext(", the same as before: no other pairing is possible")
    elif p["same"]:
        how = gettext("the engine's pairing recomputed: the same pairing")
    else:
        how = gettext("the engine's pairing recomputed: a different pairing")
    return gettext("%(tournament)s: round %(round)d paired again, %(how)s") % {**p, "how": how}


def _settings_changed(p: P) -> str:
    return gettext("%(tournament)s: Swiss settings changed (%(labels)s)") % {
        "tournament": p["tournament"],
        "labels": ", ".join(_setting_label(name) for name in p["settings"]),
    }


def _clock(template: str) -> Present:
    """A round clock's words: ``minutes`` said as "1 minute", "50 minutes"."""

    def present(p: P) -> str:
        return gettext(template) % {**p, "minutes": minutes_text(p["minutes"])}

    return present


def time_called_words(number: int, policy: str, *, unfinished: int, decided: int) -> str:
    """What time being called means now, for players and judges, by the event's overdue
    policy: what was decided, what is left and what to do about it."""
    head = gettext("Time in round %(round)d") % {"round": number}
    if not unfinished:
        return gettext("%(head)s: every match had finished.") % {"head": head}
    left = unfinished - decided
    parts = []
    if decided and policy == OverduePolicy.DRAW:
        parts.append(
            ngettext(
                "%(count)d unfinished match was recorded as a draw",
                "%(count)d unfinished matches were recorded as draws",
                decided,
            )
            % {"count": decided}
        )
    elif decided:
        parts.append(
            ngettext(
                "the player ahead in game rounds won %(count)d unfinished match",
                "the player ahead in game rounds won %(count)d unfinished matches",
                decided,
            )
            % {"count": decided}
        )
    if left and policy == OverduePolicy.AHEAD:
        parts.append(
            ngettext(
                "%(count)d match with no game round recorded waits for a judge: its players "
                "report what they played",
                "%(count)d matches with no game round recorded wait for a judge: their players "
                "report what they played",
                left,
            )
            % {"count": left}
        )
    elif left:
        parts.append(
            ngettext(
                "%(count)d match is unfinished: finish the game round you are playing and "
                "report; a judge decides it",
                "%(count)d matches are unfinished: finish the game round you are playing and "
                "report; a judge decides each",
                left,
            )
            % {"count": left}
        )
    if len(parts) == 1:
        return gettext("%(head)s: %(first)s.") % {"head": head, "first": parts[0]}
    return gettext("%(head)s: %(first)s; %(second)s.") % {
        "head": head,
        "first": parts[0],
        "second": parts[1],
    }


def time_called(p: P) -> str:
    """``round.time``: the round's number, its overdue policy and its counts."""
    return time_called_words(
        p["round"], p["policy"], unfinished=p["unfinished"], decided=p["decided"]
    )


# --- results --------------------------------------------------------------------------------

#: How a result came to be confirmed, by its code.
HOW = {
    "both_reported": _("both players reported it"),
    "opponent_confirmed": _("confirmed by the opponent"),
    "judge": _("entered by a judge"),
    "time_draw": _("time: recorded as a draw"),
    "time_ahead": _("time: the player ahead in game rounds wins"),
    "two_reported": _("two players reported it"),
    "at_table": _("confirmed at the table"),
}


def _where(p: P) -> str:
    if "pod" in p:
        return gettext("round %(round)d, pod %(pod)d") % p
    b = p["b"] or gettext("bye")
    return gettext("round %(round)d, table %(table)d: %(a)s v %(b)s") % {**p, "b": b}


def _result(what: str, in_pod: str) -> Present:
    """A result reported or disputed: ``in_pod`` the words at a pod's table."""

    def present(p: P) -> str:
        return gettext("%(where)s: %(what)s") % {
            "where": _where(p),
            "what": gettext(in_pod if "pod" in p else what),
        }

    return present


def _result_confirmed(p: P) -> str:
    how = gettext(HOW.get(p["how"]) or str(p["how"]))
    if "pod" in p:
        score = gettext("%(winner)s won") % p
    elif p.get("bye"):
        score = gettext("bye")
    else:
        games = (p["games"][0], p["games"][1])
        score = result_words(p["winner"] or None, games, p.get("drawn", 0))
    return gettext("%(where)s: %(score)s (%(how)s)") % {
        "where": _where(p),
        "score": score,
        "how": how,
    }


# --- people, entrants and clubs -------------------------------------------------------------


def _registered(p: P) -> str:
    if p.get("from_list"):
        return gettext("%(entrant)s registered for %(tournament)s (added from a list)") % p
    return gettext("%(entrant)s registered for %(tournament)s") % p


def _checked_in(p: P) -> str:
    if "member" in p:
        return gettext("%(member)s checked in for %(entrant)s") % p
    return gettext("%(entrant)s checked in") % p


def _fixed_table(p: P) -> str:
    if p["table"] is None:
        return gettext("%(tournament)s: %(entrant)s has no fixed table any more") % p
    return gettext("%(tournament)s: %(entrant)s always plays at table %(table)d") % p


def _announcement(p: P) -> str:
    if p["announcement"]:
        return gettext("%(tournament)s: announcement set: %(announcement)s") % p
    return gettext("%(tournament)s: announcement cleared") % p


def _tournament_started(p: P) -> str:
    return gettext("%(tournament)s started: registration closed, %(no_shows)s") % {
        "tournament": p["tournament"],
        "no_shows": ngettext("%(count)d no-show", "%(count)d no-shows", p["no_shows"])
        % {"count": p["no_shows"]},
    }


def _role(p: P) -> dict[str, Any]:
    """The parameters with the role (a code) as a sentence says it ("organiser")."""
    return {**p, "role": role_word(str(p["role"]))}


def _role_set(p: P) -> str:
    if "club" not in p:  # the founder of a new club
        return gettext("%(user)s is owner") % p
    return gettext("%(user)s is now %(role)s in %(club)s") % _role(p)


def _member_added(p: P) -> str:
    if p.get("joined"):
        return gettext("%(user)s joined %(club)s as %(role)s") % _role(p)
    return gettext("%(user)s added to %(club)s as %(role)s") % _role(p)


def _renamed() -> Present:
    return said(_("%(old)s is now %(new)s"))


AUDIT: dict[str, Present] = {
    # tournaments
    "tournament.created": said(_("%(tournament)s created")),
    "tournament.updated": said(_("%(tournament)s edited")),
    "tournament.published": said(_("%(tournament)s opened")),
    "tournament.started": _tournament_started,
    "tournament.finished": said(_("%(tournament)s finished")),
    "tournament.announcement": _announcement,
    "tournament.seeded": lambda p: (
        gettext(
            "%(tournament)s: seeds set from the club's ratings (rated: %(rated)d, "
            "unrated: %(unrated)d)"
        )
        % p
    ),
    # stages and rounds
    "stage.added": _stage_added,
    "stage.started": _stage_started,
    "stage.completed": lambda p: gettext("%(tournament)s: %(stage)s complete") % _staged(p),
    "round.paired": _round_paired_audit,
    "round.repaired": _round_repaired,
    "round.swapped": said(_("%(tournament)s: round %(round)d, swapped %(a)s and %(b)s")),
    "round.started": _clock(_("%(tournament)s: round %(round)d started (%(minutes)s)")),
    "round.extended": _clock(_("%(tournament)s: round %(round)d extended by %(minutes)s")),
    "round.time": lambda p: (
        gettext("%(tournament)s: %(said)s")
        % {"tournament": p["tournament"], "said": time_called(p)}
    ),
    "swiss.settings_changed": _settings_changed,
    # results and judges
    "result.reported": _result(
        _("result reported, waiting for the opponent"), _("result reported")
    ),
    "result.disputed": _result(
        _("the players' reports differ, a judge will decide"), _("the reports differ")
    ),
    "result.confirmed": _result_confirmed,
    "result.overridden": _result_confirmed,
    "judge.called": said(_("%(tournament)s: table %(table)d called a judge")),
    # entrants and teams
    "registration.added": _registered,
    "registration.added_by_organiser": _registered,
    "registration.withdrawn": said(_("%(entrant)s withdrew from %(tournament)s")),
    "registration.checked_in": _checked_in,
    "registration.not_playing": said(_("%(entrant)s did not check in")),
    "registration.dropped": said(_("%(entrant)s dropped after round %(round)d")),
    "registration.readded": said(_("%(entrant)s is back in")),
    "registration.late_entry": said(_("%(entrant)s joined late, from round %(round)d")),
    "registration.fixed_table_set": _fixed_table,
    "team.invited": said(_("%(team)s invited %(player)s")),
    "team.joined": said(_("%(player)s joined %(team)s")),
    "team.declined": said(_("%(player)s declined to join %(team)s")),
    "team.left": said(_("%(player)s left %(team)s")),
    "team.teammate_removed": said(_("%(player)s is no longer in %(team)s")),
    "team.assigned": said(_("%(player)s put in %(team)s")),
    "team.renamed": _renamed(),
    "player.renamed": _renamed(),
    "player.language_set": lambda p: (
        gettext("reads the site in %(language)s") % {"language": own_name(p["language"])}
        if p["language"]
        else gettext("reads the site in their browser's language")
    ),
    "player.claimed": said(_("%(user)s claimed the guest %(guest)s")),
    "player.claim_undone": said(_("The claim of the guest %(guest)s by %(user)s was undone")),
    "player.profile_hidden": said(_("hid their player page")),
    "player.profile_shown": said(_("made their player page public")),
    # clubs
    "club.created": said(_("%(club)s created")),
    "club.time_zone_set": said(_("%(club)s: times in %(time_zone)s")),
    "club.language_set": lambda p: (
        gettext("%(club)s: pages in %(language)s")
        % {"club": p["club"], "language": own_name(p["language"])}
    ),
    "membership.added": _member_added,
    "membership.role_set": _role_set,
    "membership.removed": said(_("%(user)s left %(club)s")),
    "invitation.sent": lambda p: gettext("%(email)s invited to %(club)s as %(role)s") % _role(p),
}

EVENT: dict[str, Present] = {
    "stage.started": lambda p: (
        gettext("%(stage)s started: %(players)s")
        % {"stage": stage_name(p), "players": _players(p["players"])}
    ),
    "round.paired": _round_paired_event,
    "round.started": _clock(_("Round %(round)d started: %(minutes)s")),
    "round.extended": _clock(_("Round %(round)d extended by %(minutes)s")),
    "round.time_warning": _clock(_("Round %(round)d: %(minutes)s left")),
    "round.time": time_called,
    "round.complete": _round_complete,
    "bracket.match_ready": _match_ready,
    "result.reported": AUDIT["result.reported"],
    "result.disputed": AUDIT["result.disputed"],
    "result.confirmed": _result_confirmed,
    "judge.called": lambda p: (
        gettext("Table %(table)d: a judge is called (%(players)s)")
        % {
            "table": p["table"],
            "players": gettext("%(a)s v %(b)s") % p if p["b"] else p["a"],
        }
    ),
    "judge.on_the_way": said(_("Table %(table)d: a judge is on the way")),
    "judge.call_closed": said(_("Table %(table)d: the judge call is closed")),
    "tournament.started": said(_("%(tournament)s has started")),
    "tournament.finished": said(_("%(tournament)s is over: final standings are up")),
}
