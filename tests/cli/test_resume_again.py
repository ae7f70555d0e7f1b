"""A host's ``--bots`` seats inside "play again" (issue 27; ``cli/lobby/resume_again.py``), the
fast parts: which bot seats a host's ``lancards resume`` brings back, the seed their
``table.json`` keeps, and the ``again`` marker a bot seat that answers first leaves in its host's
folder (over real links on 127.0.0.1). The whole kill and resume across namespaces is
``tests/e2e/test_rematch_resume.py`` (long)."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

import pytest

from lancards.cli.lobby.resume_again import bot_seats
from lancards.cli.lobby.started_table import table_data
from lancards.cli.play_again import pending_again
from lancards.cli.remote_again import mark_host_again
from lancards.p2p.net.node import PeerAddress
from lancards.p2p.net.rematch_link import RematchLink
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.rematch import Finished, Rematch
from tests.p2p.core_harness import listening_nodes

SEED = "07" * 32


def _seat(folder: Path, *markers: str, seed: bool = True) -> Path:
    folder.mkdir(parents=True)
    data = {"mode": "remote", "me": "ab" * 32, **({"seed": SEED} if seed else {})}
    (folder / "table.json").write_text(json.dumps(data))
    for marker in markers:
        (folder / marker).touch()
    return folder


def test_the_bot_seats_brought_back_are_the_seeded_ones_still_inside_the_agreement(
        tmp_path: Path) -> None:
    bots = tmp_path / "tables" / "0123456789abcdef" / "bots"
    answered = _seat(bots / "a1", "finished", "again")
    over = _seat(bots / "b2", "finished")  # its game written, nothing of the agreement yet
    _seat(bots / "c3", "finished", "again", "again-over")  # the next game holds it
    _seat(bots / "d4", "finished", seed=False)  # kept by an older version: no seed, no resume
    early = _seat(bots / "e5", "again")  # answered before its record was written
    last = _seat(bots / "f6")  # killed in its game's last second: it catches up first
    (bots / "g7").mkdir()  # no table.json at all
    assert bot_seats(bots.parent) == [answered, over, early, last]
    assert bot_seats(tmp_path / "tables" / "fedcba9876543210") == []  # no bots/ folder


def test_a_host_bot_seat_keeps_its_seed_in_table_json_and_nobody_else_does() -> None:
    me = Identity(bytes.fromhex(SEED), "bot1")
    peers = {b"\x01" * 32: PeerAddress("127.0.0.1", 47800)}
    data = table_data({"tbl": "0123456789abcdef"}, me, ("127.0.0.1", 47801), peers, seed=SEED)
    assert data["seed"] == SEED and Identity(bytes.fromhex(data["seed"]), "bot1").public_key \
        == me.public_key
    assert "seed" not in table_data({"tbl": "0123456789abcdef"}, me, ("127.0.0.1", 47801), peers)


def test_only_a_host_bot_seat_marks_its_host_folder(tmp_path: Path) -> None:
    host = _seat(tmp_path / "tables" / "0123456789abcdef", seed=False)
    joiner = _seat(tmp_path / "tables" / "fedcba9876543210", seed=False)
    mark_host_again(joiner)  # a joiner's own folder: nobody above it to mark
    assert sorted(p.name for p in tmp_path.rglob("again")) == []
    mark_host_again(host / "bots" / "a1")
    assert (host / "again").exists() and pending_again(host)  # no `finished` needed
    (host / "again-over").touch()
    mark_host_again(host / "bots" / "b2")  # marked already: the agreement's end stands
    assert not pending_again(host)


@pytest.mark.timeout(60)
def test_a_bot_seat_answering_first_marks_its_host_folder_before_its_own(tmp_path: Path) -> None:
    """Two seats on 127.0.0.1 whose journals are a host's bot seats (``bots/peer0``,
    ``bots/peer1``): the first agreement line of each marks the host's folder ``again`` (once)
    before its own folder's marker."""
    host = _seat(tmp_path / "tables" / "0123456789abcdef", seed=False)
    head = hashlib.sha256(b"the last entry of the finished game").hexdigest()

    def finished(core: GameCore) -> Finished:
        return Finished(core.table, head, (0,), (0, 0), 0,
                        tuple(m.public_key for m in core.players))

    seen: list[tuple[str, bool, bool]] = []

    async def main() -> None:
        nodes = await listening_nodes(2, "level8", "bot-marks", folder=host / "bots")
        ids = iter(["00000000000000d1", "00000000000000d2"])
        links = []
        for node in nodes:
            assert node.store is not None
            folder = node.store.folder

            def first(folder: Path = folder) -> None:
                seen.append((folder.name, (host / "again").exists(),
                             (folder / "again").exists()))
                mark_host_again(folder)

            links.append(RematchLink(node, Rematch(node.core.me, finished(node.core),
                                                   new_table=lambda: next(ids)),
                                     mark_first=first))
        try:
            runs = [asyncio.create_task(link.run(30)) for link in links]
            await asyncio.sleep(0)
            for link in links:  # peer0 first
                link.answer(True)
            await asyncio.gather(*runs)
        finally:
            for node in nodes:
                await node.close()
        assert links[0].rematch.started is not None
        assert links[0].rematch.started == links[1].rematch.started

    asyncio.run(main())
    # peer0 answered first: the host's folder was unmarked, then marked; peer1 once, later
    assert seen == [("peer0", False, False), ("peer1", True, False)]
    assert (host / "again").exists() and pending_again(host)
    assert all((host / "bots" / f"peer{i}" / "again").exists() for i in range(2))
