"""A statement this seat signed and then dropped (a "no" came after it) leaves no game to
resume: its folder is marked never started once the agreement ends (the LAN trial of
2026-12-08 with a seated attacker, h1)."""

from __future__ import annotations

from types import SimpleNamespace

from lancards.cli.remote_again import RemoteAgain
from lancards.p2p.net.store import TableStore
from tests.p2p.core_harness import identities
from tests.p2p.test_rematch import Bus, finished, peers
from tests.p2p.test_rematch_two_answers import _bots_answer, _two_faced


def test_the_folder_of_a_dropped_statement_is_marked_never_started(tmp_path) -> None:
    """The proposer wrote the next table's folder for its first statement before it signed
    it; once the game starts without the two-faced player, that folder is marked
    ``not-started`` (``RemoteAgain.over``): ``lancards history`` listed it as an unfinished
    game, ``lancards resume T`` (h1's trial)."""
    people = identities(4)
    done = finished(people, "eights")
    order = [m.public_key for m in done.table.seats]
    rematches = peers(sorted(people, key=lambda p: order.index(p.public_key)), done)
    bus = Bus(rematches)
    evil, honest = rematches[3], rematches[:3]
    _two_faced(bus, evil, honest, [])
    _bots_answer(bus, honest)
    first = honest[0].statement
    assert first is not None
    bus.mute.discard(evil.me.public_key)
    _two_faced(bus, evil, [], honest[1:])
    bus.run()
    _bots_answer(bus, honest)
    nxt = honest[0].started
    assert nxt is not None
    tables = tmp_path / "tables"
    again = RemoteAgain.__new__(RemoteAgain)
    again.rematch, again.folder = honest[0], tables / done.table.spec.table
    again.node = SimpleNamespace(store=TableStore(again.folder))
    again._saved = {first["tbl"], nxt.spec.table}
    for table in again._saved:
        (tables / table).mkdir(parents=True)
    again.over()
    assert (tables / first["tbl"] / "not-started").exists()
    assert not (tables / nxt.spec.table / "not-started").exists()
    assert (again.folder / "again-over").exists()
