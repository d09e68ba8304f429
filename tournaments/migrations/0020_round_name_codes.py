"""``Round.name`` stores a code ("losers:2"), no longer the English words ("Losers round
2"): the words are made at display (``tournaments.selectors.names``). This reads each old
name back into its code with the names of that day (frozen here) and keeps any name it
cannot read as it is (the pages show such a name as it was). Going back writes the words
again."""

from __future__ import annotations

import re

from django.db import migrations

#: The names written before the codes, frozen: a fixed name -> its code.
FIXED = {
    "Final": "final",
    "Semifinals": "semifinals",
    "Quarterfinals": "quarterfinals",
    "Grand final": "grand_final",
    "Grand final reset": "grand_final:reset",
    "Third place": "third_place",
    "Winners final": "winners:final",
    "Winners semifinals": "winners:semifinals",
    "Losers final": "losers:final",
}

#: A numbered name -> the first part of its code (its numbers follow).
NUMBERED = [
    (re.compile(r"^Round (\d+)$"), "round"),
    (re.compile(r"^Winners round (\d+)$"), "winners"),
    (re.compile(r"^Losers round (\d+)$"), "losers"),
    (re.compile(r"^Round robin, round (\d+) of (\d+)$"), "round_robin"),
    (re.compile(r"^Pods, round (\d+) of (\d+)$"), "pods"),
]

WORDS = {code: name for name, code in FIXED.items()}
TEMPLATES = {
    "round": "Round {0}",
    "winners": "Winners round {0}",
    "losers": "Losers round {0}",
    "round_robin": "Round robin, round {0} of {1}",
    "pods": "Pods, round {0} of {1}",
}


def code_of(name: str) -> str:
    """An old name's code; a name it cannot read as it is."""
    if name in FIXED:
        return FIXED[name]
    for pattern, head in NUMBERED:
        found = pattern.match(name)
        if found:
            return ":".join([head, *found.groups()])
    return name


def name_of(code: str) -> str:
    """A code's old words; anything else as it is."""
    if code in WORDS:
        return WORDS[code]
    head, _, rest = code.partition(":")
    numbers = rest.split(":") if rest else []
    template = TEMPLATES.get(head)
    if template is None or not numbers or not all(n.isdigit() for n in numbers):
        return code
    if template.count("{") != len(numbers):
        return code
    return template.format(*numbers)


def _rewrite(apps, change):
    Round = apps.get_model("tournaments", "Round")
    for rnd in Round.objects.exclude(name="").only("pk", "name").iterator():
        new = change(rnd.name)
        if new != rnd.name:
            Round.objects.filter(pk=rnd.pk).update(name=new)


def forward(apps, schema_editor):
    _rewrite(apps, code_of)


def backward(apps, schema_editor):
    _rewrite(apps, name_of)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0019_judge_calls")]

    operations = [migrations.RunPython(forward, backward)]
