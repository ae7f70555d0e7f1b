"""An 8s Rule! round abandoned by a removal is dealt again, and the log says so as after a leave
(ruling D-1, ruling D-5; ``cli/net_log.py``, ``cli/record_tools.py``).

The LAN trial: ann's log read ``── round 3 · dealer bob ──``, three plays, ``bob was removed from
the table by the others' votes (no answer for the table's patience)``, then her hand jumped from
14 cards to 20 and the header said ``you deal``: no ``round 3 is dealt again ...`` line and no
new round marker (``redeal_lines`` was used for a leave only)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from lancards.cli.net_log import NetLogMixin
from lancards.cli.saved_log import SavedLog
from lancards.p2p.net.record_file import write_record
from lancards.p2p.protocol.core import GameCore
from tests.p2p.core_harness import Network, make_cores
from tests.p2p.test_rescue import _vanish, _vote_out


class Log(NetLogMixin):
    """The log of a networked session over one in-memory core (nothing saved)."""

    def __init__(self, core: GameCore) -> None:
        self.node = SimpleNamespace(notices=[], store=None)
        self.core, self.game, self.seat, self.series = core, core.game, core.seat, []
        self.names = tuple(core.players[s].nick for s in range(core.n))
        self._saved, self._log, self._logged = SavedLog(None), [], 0

    def texts(self) -> list[str]:
        self._update_log()
        return [line.text for line in self._log]


def _removed_mid_round() -> tuple[list[GameCore], Network, Log, Log]:
    """4 seats of 8s Rule!, rescue on: seat 1 vanishes at its turn in round 1 and the three
    others vote it out. Seat 0's log told once at the end, seat 2's after every message."""
    cores, net = make_cores(4, "eights", seed="redeal", options={"rescue": "on",
                                                                 "patience": 10})
    cut: set[bytes] = set()
    net.tamper = lambda sender, to, data: None if sender in cut or to in cut else data
    net.cut = cut  # type: ignore[attr-defined]
    net.start()
    for core in cores:
        net.play_bot(core.me.public_key)
    gone, state = cores[1], cores[0].state
    while net.queue and not (state.round == 1 and state.trick and cores[0].to_act() == 1):
        net.step()
        state = cores[0].state
    _vanish(net, gone)
    net.run()
    voters = [cores[0], cores[2], cores[3]]
    once, every = Log(cores[0]), Log(cores[2])
    once.texts()
    for voter in voters:
        net.bots.pop(voter)  # nobody plays on: the log ends with the removal
    _vote_out(net, voters, gone.seat)
    while net.queue:
        net.step()
        every.texts()
    assert cores[0].left_seats() == (1,)
    return cores, net, once, every


@pytest.mark.timeout(60)
def test_a_removal_that_abandons_a_round_says_it_is_dealt_again(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]
                                                                ) -> None:
    cores, _net, once, every = _removed_mid_round()
    name = cores[0].players[1].nick
    assert (name, cores[0].state.round, cores[0].state.dealer) == ("ann", 1, 3)
    tail = [f"{name} was removed from the table by the others' votes (no answer for the "
            "table's patience)",
            f"round 1 is dealt again without {name}; nobody scores the cards played",
            "── round 1 · dealer dee ──"]
    for log in (once, every):
        texts = log.texts()
        assert texts[-3:] == tail
        assert texts.count(tail[1]) == 1
    from lancards.cli.net_log import removal_ends

    rescues = [e.seq for e in cores[0].record.entries if e.payload.get("t") == "rescue"]
    assert len(rescues) == 3 and [removal_ends(cores[0].record.entries, s)
                                  for s in rescues] == [False, False, True]
    path = tmp_path / "game.jsonl"  # lancards replay of the same record says it too
    write_record(cores[0].record, path)
    from lancards.cli.main import main

    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    at = lines.index(f"{name} is removed from the table (the hand goes out of play unopened)")
    assert lines[at + 1:at + 3] == tail[1:]
