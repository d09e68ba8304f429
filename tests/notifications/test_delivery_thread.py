"""The embedded default's delivery thread (no worker: ``NOTIFICATIONS_IN_THREAD``): one at a
time, and a kick that finds it busy is never dropped (its rows would wait for the sweep)."""

from __future__ import annotations

import threading

import pytest

from notifications.services import delivery


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch):
    """``deliver_due`` replaced: each pass waits for the test's go, and is counted."""
    state = {"calls": 0, "go": threading.Semaphore(0), "started": threading.Semaphore(0)}

    def fake_deliver_due(*args, **kwargs) -> int:
        state["calls"] += 1
        state["started"].release()
        assert state["go"].acquire(timeout=10), "the test never let the pass finish"
        return 0

    monkeypatch.setattr(delivery, "deliver_due", fake_deliver_due)
    monkeypatch.setattr(delivery, "close_old_connections", lambda: None)
    yield state
    # Whatever happens, no thread is left holding the lock for the next test.
    for _ in range(5):
        state["go"].release()
    assert _wait_free(), "the delivery thread never ended"


def _wait_free() -> bool:
    if delivery._background.acquire(timeout=10):
        delivery._background.release()
        return True
    return False


@pytest.mark.parametrize("kicks", [1, 5], ids=["one kick", "five kicks"])
def test_kicks_while_the_thread_delivers_make_it_deliver_once_more(passes, kicks: int) -> None:
    """Rows committed after the thread's claim go out now, and however many kicks came
    meanwhile cost one more pass, not one each."""
    delivery.deliver_in_background()
    assert passes["started"].acquire(timeout=10)  # the first pass has claimed its rows
    for _ in range(kicks):
        delivery.deliver_in_background()  # rows committed after that claim: the thread is busy
    passes["go"].release()
    assert passes["started"].acquire(timeout=10), "the second kick was dropped"
    passes["go"].release()
    assert _wait_free()
    assert passes["calls"] == 2


def test_one_kick_one_pass(passes) -> None:
    delivery.deliver_in_background()
    assert passes["started"].acquire(timeout=10)
    passes["go"].release()
    assert _wait_free()
    assert passes["calls"] == 1
