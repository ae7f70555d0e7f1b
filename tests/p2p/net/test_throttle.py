"""The window behind the log's limits (p2p/net/throttle.py)."""

from __future__ import annotations

from lancards.p2p.net.throttle import Throttle


def test_a_key_passes_once_a_window_and_other_keys_at_once() -> None:
    throttle = Throttle(60.0)
    assert [throttle.allow("a", t) for t in (0.0, 1.0, 59.9, 60.0, 61.0)] == [
        True, False, False, True, False]
    assert throttle.allow("b", 61.0) is True


def test_past_most_keys_only_those_whose_window_is_over_are_forgotten() -> None:
    throttle = Throttle(60.0, most=3)
    assert all(throttle.allow(k, 0.0) for k in "abc")
    assert throttle.allow("d", 30.0) is True  # full: a, b and c are still in their window
    assert throttle.allow("a", 30.0) is False
    assert throttle.allow("e", 61.0) is True  # full: a, b and c are over and forgotten
    assert throttle.allow("d", 61.0) is False  # d's window runs until 90
    assert throttle.allow("a", 61.0) is True
