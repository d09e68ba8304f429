"""Pairing notes become codes: ``Match.notes`` held English sentences ("paired down from 6
to 3 points"); it now holds small JSON objects (``{"code": "pair_down", "from": 6, "to":
3}``) worded at display by ``tournaments.pairing.swiss.describe``. No schema change.

Forward: each known sentence becomes its code with its numbers; any other string is kept
as ``{"code": "text", "text": ...}``, so nothing is lost; notes that are already codes are
left as they are (running it twice changes nothing). Backward: codes become the sentences
again (a code this migration does not know is left as it is).

The sentences are frozen here, as they were written before this migration, on purpose:
the labels in ``swiss.LABELS`` may change later, the stored history may not.
"""

import re

from django.db import migrations

#: Code -> the sentence the engine wrote, ``{name}`` for an integer parameter.
SENTENCES = {
    "first_random": "round 1: random",
    "first_rating": "round 1 by rating: #{seed_a} meets #{seed_b}",
    "same_group": "same score group ({points} points)",
    "pair_down": "paired down from {from} to {to} points",
    "rematch": "rematch: no pairing without one exists",
    "bye_random": "bye: drawn at random",
    "bye_lowest_rated": "bye: lowest-rated (round 1)",
    "bye_lowest_ranked": "bye: lowest-ranked without a bye",
    "bye_lower_would_rematch": (
        "bye: lower-ranked entrants without a bye could not sit out without a rematch"
    ),
    "bye_second": "bye: a second bye, since every entrant without one would force a rematch",
    "bye_everyone_had_one": "bye: everybody has had one, so the lowest-ranked",
    "bye_counts_as_win": "bye: counts as a 2-0 match win (3 match points)",
    "swapped": "changed by the organiser",
}
#: Round-1 byes said so when everybody already had one.
EVERYONE_HAD_ONE = ", everybody has had one"
SUFFIXED = ("bye_random", "bye_lowest_rated")


def _pattern(sentence, suffix=""):
    escaped = re.escape(sentence + suffix)
    # Integers as the engine wrote them (no sign, no leading zero), so the way back is exact.
    return re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>0|[1-9][0-9]*)", escaped))


PATTERNS = [(code, _pattern(s), False) for code, s in SENTENCES.items()] + [
    (code, _pattern(SENTENCES[code], EVERYONE_HAD_ONE), True) for code in SUFFIXED
]


def note_from_text(text):
    """One stored note as a code: a known sentence, else a ``text`` note."""
    for code, pattern, everyone_had_one in PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            note = {"code": code, **{k: int(v) for k, v in found.groupdict().items()}}
            if everyone_had_one:
                note["everyone_had_one"] = True
            return note
    return {"code": "text", "text": text}


def text_from_note(note):
    """One stored note as its sentence again (an unknown code: unchanged)."""
    code = note.get("code")
    if code == "text" and isinstance(note.get("text"), str):
        return note["text"]
    if code not in SENTENCES:
        return note
    try:
        text = SENTENCES[code].format_map(note)
    except (KeyError, IndexError, ValueError):
        return note
    if note.get("everyone_had_one"):
        text += EVERYONE_HAD_ONE
    return text


def to_codes(notes):
    if not isinstance(notes, list):
        return notes
    return [note_from_text(n) if isinstance(n, str) else n for n in notes]


def to_text(notes):
    if not isinstance(notes, list):
        return notes
    return [text_from_note(n) if isinstance(n, dict) else n for n in notes]


def _convert(apps, convert):
    Match = apps.get_model("tournaments", "Match")
    changed = []
    for match in Match.objects.only("id", "notes").order_by("pk").iterator(chunk_size=2000):
        notes = convert(match.notes)
        if notes != match.notes:
            match.notes = notes
            changed.append(match)
        if len(changed) >= 1000:
            Match.objects.bulk_update(changed, ["notes"])
            changed = []
    if changed:
        Match.objects.bulk_update(changed, ["notes"])


def forward(apps, schema_editor):
    _convert(apps, to_codes)


def backward(apps, schema_editor):
    _convert(apps, to_text)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0007_stages")]

    operations = [migrations.RunPython(forward, backward)]
