"""The stage recorder of ``lancards bench play --stages``: exclusive times, and every wrapped
function put back."""

from __future__ import annotations

from lancards.cli.bench.stages import STAGES, StageRecorder, as_ms, difference
from lancards.p2p.crypto import coordinator
from lancards.p2p.protocol.core import GameCore


def test_nested_stages_count_exclusive_time_and_calls():
    recorder = StageRecorder()
    ticks = iter([0.0, 1.0, 3.0, 10.0])  # outer starts, inner starts, inner ends, outer ends
    import lancards.cli.bench.stages as module

    clock = module.time.perf_counter
    module.time.perf_counter = lambda: next(ticks)  # type: ignore[assignment]
    try:  # the wrapper takes the clock when it is made
        inner = recorder._timed(lambda: "in", "inner")
        outer = recorder._timed(lambda: inner(), "outer")
    finally:
        module.time.perf_counter = clock  # type: ignore[assignment]
    assert outer() == "in"
    assert recorder.snapshot() == {"inner": 2.0, "outer": 8.0}  # 10 - 2
    assert dict(recorder.calls) == {"inner": 1, "outer": 1}
    assert difference({"inner": 2.0, "outer": 7.0}, {"inner": 2.0, "outer": 5.0}) == {"outer": 2.0}
    assert as_ms({"outer": 0.007}, 0.010) == {
        "outer": 7.0, "other (event loop, websockets, waiting)": 3.0, "wall": 10.0}


def test_install_wraps_every_stage_and_remove_puts_them_back():
    before = (GameCore.receive, coordinator.check_shuffle_proof)
    recorder = StageRecorder()
    recorder.install()
    try:
        assert GameCore.receive is not before[0]
        assert coordinator.check_shuffle_proof is not before[1]
        assert len(recorder._undo) == len(STAGES)
    finally:
        recorder.remove()
    assert (GameCore.receive, coordinator.check_shuffle_proof) == before
