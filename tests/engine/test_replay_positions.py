"""``lancards replay --positions``: the public position after every move, readable back."""

from __future__ import annotations

from lancards.cli.main import main
from lancards.engine.core import ALL_SEATS
from lancards.engine.position import HEADER, read_position, write_position
from lancards.p2p.net.record_file import write_record
from tests.p2p.core_harness import make_cores


def test_replay_prints_a_readable_public_position_after_every_move(tmp_path, capsys):
    cores, net = make_cores(2, "level8-en", seed="replay-positions")
    net.start()
    net.run()
    path = tmp_path / "game.jsonl"
    write_record(cores[0].record, path)
    core = cores[0]
    assert main(["replay", "--positions", str(path)]) == 0
    out = capsys.readouterr().out
    actions = [e.payload["a"] for e in core.record.entries if e.payload["t"] == "action"]
    blocks = out.split(HEADER + "\n")[1:]
    assert len(blocks) == len(actions)
    last = HEADER + "\n" + blocks[-1].split("\n\n")[0] + "\n"
    assert last == write_position(core.game, core.game.view(core.state, None))
    game, state = read_position(last)
    assert game is core.game and game.outcome(state) == core.game.outcome(core.state)
    for block in blocks[:: max(1, len(blocks) // 10)]:
        text = HEADER + "\n" + block.split("\n\n")[0] + "\n"
        public = read_position(text)[1]
        assert write_position(game, public) == text
        assert all(public.known[slot] == ALL_SEATS for slot in public.cards)  # nothing private
