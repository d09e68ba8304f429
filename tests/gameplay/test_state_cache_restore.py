"""The parsed-state cache never serves a state the database no longer has.

It was keyed by (pod id, version) alone. After the database was restored from a backup
under running web processes, a pod came back with the same id and version but other
packs (the backup's, or picks made since the restore), and every process that had parsed
the old state kept serving it. The key now also holds the pod's ``state_token``, written
with every state, which a restore brings back with the state it belongs to.
"""

from __future__ import annotations

import pytest

from gameplay.models import DraftPod
from gameplay.selectors import drafts as selectors
from gameplay.services import drafts as services
from rules import draft as engine
from tests.factories import draft_pods

pytestmark = pytest.mark.django_db

#: What identifies a pod in its tournament (a restore brings back the same ones).
_IDENTITY = {"id", "tournament", "stage", "before_round", "number"}


def _packs(snapshot: dict) -> list[list[str] | None]:
    return [seat["pack"] and seat["pack"]["cards"] for seat in snapshot["seats"]]


def _restore_row(pod: DraftPod, backup: DraftPod) -> None:
    """The database restored under the running process: ``pod``'s row now holds what the
    backup's row held (every column but the pod's identity), as ``pg_restore`` would."""
    values = {
        f.attname: getattr(backup, f.attname)
        for f in DraftPod._meta.concrete_fields
        if f.name not in _IDENTITY
    }
    DraftPod.objects.filter(pk=pod.pk).update(**values)


def test_a_restored_pod_with_the_same_id_and_version_shows_the_restored_packs() -> None:
    pods, organiser, _ = draft_pods(8, pod_size=4)
    mine, backup = (services.start_pod(actor=organiser, pod=p) for p in pods)
    assert mine.version == backup.version
    before = selectors.full_snapshot(mine.pk)
    assert before is not None
    restored_packs = _packs(selectors.full_snapshot(backup.pk) or {})
    assert _packs(before) != restored_packs  # two pods, two shuffles

    _restore_row(mine, DraftPod.objects.get(pk=backup.pk))

    after = selectors.full_snapshot(mine.pk)
    assert after is not None
    assert after["version"] == before["version"]
    assert _packs(after) == restored_packs


def test_an_unchanged_pod_is_parsed_once(monkeypatch) -> None:
    pods, organiser, _ = draft_pods(4, pod_size=4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    parsed = []
    real = engine.DraftState.from_dict

    def counting(data):
        parsed.append(1)
        return real(data)

    monkeypatch.setattr(engine.DraftState, "from_dict", staticmethod(counting))
    first = selectors.full_snapshot(pod.pk)
    second = selectors.full_snapshot(pod.pk)
    assert first is not None and second is not None
    assert _packs(first) == _packs(second)
    assert len(parsed) <= 1
