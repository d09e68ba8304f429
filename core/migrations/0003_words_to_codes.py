"""The old rows' sentences read back into parameters, where a sentence is one the code's
words make (the templates below, frozen as the words were when the codes came): its words
are then made at display like a new row's. A sentence no template reads (a result's score,
a pairing's figures, words since edited) stays in ``text`` and is shown as it was.

Backwards: the words of each converted row are made again from the same templates."""

from __future__ import annotations

import re
from typing import Any

from django.db import migrations

#: code -> (template, constant parameters), tried in order: the first that reads wins.
Templates = dict[str, list[tuple[str, dict[str, Any]]]]

AUDIT: Templates = {
    "tournament.created": [("%(tournament)s created", {})],
    "tournament.updated": [("%(tournament)s edited", {})],
    "tournament.published": [("%(tournament)s opened", {})],
    "tournament.finished": [("%(tournament)s finished", {})],
    "tournament.announcement": [
        ("%(tournament)s: announcement cleared", {"announcement": ""}),
        ("%(tournament)s: announcement set: %(announcement)s", {}),
    ],
    "stage.completed": [("%(tournament)s: %(stage)s complete", {})],
    "round.swapped": [("%(tournament)s: round %(round)d, swapped %(a)s and %(b)s", {})],
    "judge.called": [("%(tournament)s: table %(table)d called a judge", {})],
    "registration.added": [("%(entrant)s registered for %(tournament)s", {})],
    "registration.added_by_organiser": [
        ("%(entrant)s registered for %(tournament)s (added from a list)", {"from_list": True}),
        ("%(entrant)s registered for %(tournament)s", {}),
    ],
    "registration.withdrawn": [("%(entrant)s withdrew from %(tournament)s", {})],
    "registration.checked_in": [
        ("%(member)s checked in for %(entrant)s", {}),
        ("%(entrant)s checked in", {}),
    ],
    "registration.not_playing": [("%(entrant)s did not check in", {})],
    "registration.dropped": [("%(entrant)s dropped after round %(round)d", {})],
    "registration.readded": [("%(entrant)s is back in", {})],
    "registration.late_entry": [("%(entrant)s joined late, from round %(round)d", {})],
    "registration.fixed_table_set": [
        ("%(tournament)s: %(entrant)s has no fixed table any more", {"table": None}),
        ("%(tournament)s: %(entrant)s always plays at table %(table)d", {}),
    ],
    "team.invited": [("%(team)s invited %(player)s", {})],
    "team.joined": [("%(player)s joined %(team)s", {})],
    "team.declined": [("%(player)s declined to join %(team)s", {})],
    "team.left": [("%(player)s left %(team)s", {})],
    "team.teammate_removed": [("%(player)s is no longer in %(team)s", {})],
    "team.assigned": [("%(player)s put in %(team)s", {})],
    "team.renamed": [("%(old)s is now %(new)s", {})],
    "player.renamed": [("%(old)s is now %(new)s", {})],
    "player.claimed": [("%(user)s claimed the guest %(guest)s", {})],
    "club.created": [("%(club)s created", {})],
    "club.time_zone_set": [("%(club)s: times in %(time_zone)s", {})],
    "membership.added": [
        ("%(user)s joined %(club)s as %(role)s", {"joined": True}),
        ("%(user)s added to %(club)s as %(role)s", {}),
    ],
    "membership.role_set": [
        ("%(user)s is now %(role)s in %(club)s", {}),
        ("%(user)s is owner", {}),
    ],
    "membership.removed": [("%(user)s left %(club)s", {})],
    "invitation.sent": [("%(email)s invited to %(club)s as %(role)s", {})],
    "webhook.added": [("Webhook to %(url)s added", {})],
    "webhook.changed": [
        ("Webhook to %(url)s changed (new secret)", {"new_secret": True}),
        ("Webhook to %(url)s changed", {"new_secret": False}),
    ],
    "webhook.removed": [("Webhook to %(url)s removed", {})],
    "table.opened": [("round %(round)d, table %(table)d: live table opened", {})],
    "table.settings": [("live table settings changed", {})],
    "draft.started": [("%(tournament)s: pod %(pod)d draft started", {})],
    "draft.paused": [("%(tournament)s: pod %(pod)d paused", {})],
    "draft.resumed": [("%(tournament)s: pod %(pod)d resumed", {})],
    "draft.ended": [("%(tournament)s: pod %(pod)d ended by the organiser", {})],
    "draft.seat_auto": [("%(tournament)s: pod %(pod)d seat %(seat)d (%(name)s) on auto-pick", {})],
    "draft.seat_returned": [
        ("%(tournament)s: pod %(pod)d seat %(seat)d (%(name)s) back to the player", {})
    ],
    "result.reported": [
        ("round %(round)d, pod %(pod)d: result reported", {}),
        ("round %(round)d, table %(table)d: %(a)s v bye: result reported, waiting for the opponent", {"b": ""}),
        ("round %(round)d, table %(table)d: %(a)s v %(b)s: result reported, waiting for the opponent", {}),
    ],
    "result.disputed": [
        ("round %(round)d, pod %(pod)d: the reports differ", {}),
        ("round %(round)d, table %(table)d: %(a)s v %(b)s: the players' reports differ, a judge will decide", {}),
    ],
}

EVENT: Templates = {
    "stage.started": [("%(stage)s started: %(players)d players", {})],
    "round.started": [
        ("Round %(round)d started: 1 minute", {"minutes": 1}),
        ("Round %(round)d started: %(minutes)d minutes", {}),
    ],
    "round.extended": [
        ("Round %(round)d extended by 1 minute", {"minutes": 1}),
        ("Round %(round)d extended by %(minutes)d minutes", {}),
    ],
    "round.time_warning": [
        ("Round %(round)d: 1 minute left", {"minutes": 1}),
        ("Round %(round)d: %(minutes)d minutes left", {}),
    ],
    "round.complete": [("Round %(round)d complete", {}), ("%(name)s complete", {})],
    "round.paired": [
        ("%(name)s: %(pods)d pods, %(byes)d byes", {}),
        ("%(name)s: %(pods)d pods", {"byes": 0}),
        ("%(name)s: %(matches)d matches", {}),
    ],
    "bracket.match_ready": [("%(name)s, table %(table)d is ready", {})],
    "result.reported": AUDIT["result.reported"],
    "result.disputed": AUDIT["result.disputed"],
    "judge.on_the_way": [("Table %(table)d: a judge is on the way", {})],
    "judge.call_closed": [("Table %(table)d: the judge call is closed", {})],
    "draft.started": [("%(tournament)s: draft pod %(pod)d has started", {})],
    "tournament.started": [("%(tournament)s has started", {})],
    "tournament.finished": [("%(tournament)s is over: final standings are up", {})],
}

#: Sentences a template above would misread: a Swiss round's figures ("Round 2 paired: 4
#: matches" is not a round robin's round named "Round 2 paired").
NEVER = {"round.paired": re.compile(r"Round \d+ paired: ")}

_FIELD = re.compile(r"%\((\w+)\)([sd])")


def _pattern(template: str) -> re.Pattern[str]:
    parts, at = [], 0
    for found in _FIELD.finditer(template):
        parts.append(re.escape(template[at : found.start()]))
        name, kind = found.groups()
        parts.append(rf"(?P<{name}>\d+)" if kind == "d" else rf"(?P<{name}>.+?)")
        at = found.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


def read(templates: Templates, code: str, text: str) -> dict[str, Any] | None:
    """The parameters ``text`` was made from by one of the code's templates, or None."""
    never = NEVER.get(code)
    if never is not None and never.match(text):
        return None
    for template, constants in templates.get(code, []):
        found = _pattern(template).match(text)
        if found is None:
            continue
        params: dict[str, Any] = dict(constants)
        for name, value in found.groupdict().items():
            params[name] = int(value) if f"%({name})d" in template else value
        return params
    return None


def write(templates: Templates, code: str, params: dict[str, Any]) -> str | None:
    """The sentence the first template whose constants the parameters have makes."""
    for template, constants in templates.get(code, []):
        if all(params.get(k) == v for k, v in constants.items()):
            try:
                return template % params
            except (KeyError, TypeError):
                continue
    return None


def forwards(apps: Any, schema_editor: Any) -> None:
    for name, code_field, templates in (("AuditEntry", "action", AUDIT), ("Event", "kind", EVENT)):
        model = apps.get_model("core", name)
        for row in model.objects.exclude(text="").iterator(chunk_size=2000):
            params = read(templates, getattr(row, code_field), row.text)
            if params is not None:
                model.objects.filter(pk=row.pk).update(params=params, text="")


def backwards(apps: Any, schema_editor: Any) -> None:
    for name, code_field, templates in (("AuditEntry", "action", AUDIT), ("Event", "kind", EVENT)):
        model = apps.get_model("core", name)
        for row in model.objects.filter(text="").iterator(chunk_size=2000):
            text = write(templates, getattr(row, code_field), row.params) or getattr(row, code_field)
            model.objects.filter(pk=row.pk).update(text=text[:255])


class Migration(migrations.Migration):
    dependencies = [("core", "0002_words_as_codes")]

    operations = [migrations.RunPython(forwards, backwards)]
