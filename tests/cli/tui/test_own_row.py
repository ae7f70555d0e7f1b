"""The own row of the players list is marked at a networked table as at ``lancards play``: the
new-user trial found no mark on "ann" at a host/join table, where ``play`` reads "You". A
nickname gets "(you)" (German "(du)", as the ``o`` panel and the pickers say it); the default
nickname "You" / "Du" is the mark itself."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.net_session import NetworkSession
from lancards.cli.session import TableSnapshot
from lancards.cli.tui import level8_view
from lancards.cli.tui.eights_screen import EightsController
from lancards.p2p.protocol.identity import Identity

pytestmark = pytest.mark.timeout(60)


def _rows(session: object, snap: TableSnapshot) -> list[str]:
    """The players list's rows of ``snap`` at 80 columns (the table's first lines)."""
    if snap.game.name == "eights":
        table = EightsController(session).table(snap, 80)  # type: ignore[arg-type]
    else:
        table = level8_view.table(snap, 80)
    text = "".join(fragment[1] for fragment in table)
    return [line.rstrip() for line in text.splitlines() if line[3:4].isdigit()]


def _networked(game: str, home: Path) -> list[str]:
    async def run() -> list[str]:
        me = Identity(b"\x09" * 32, "hana")
        session = await NetworkSession.create(game, {}, me, 3, home=home, bot_delay=60,
                                              seed=7)
        try:
            return _rows(session, session.snapshot())
        finally:
            await session.close()

    return asyncio.run(run())


def test_the_own_row_is_marked_at_a_networked_table(tmp_path: Path) -> None:
    assert _networked("eights", tmp_path / "a") == [
        "   1 Bram           0      0     0  bot, greedy",
        "   2 Cleo           0      0     0  bot, greedy",
        "   3 Ada            0      0     0  bot, greedy",
        "   4 hana (you)     0      0     0"]
    assert _networked("level8-master", tmp_path / "b") == [
        "   1 Bram          1 4 pairs     no      0 -              bot, greedy",
        "   2 Cleo          1 4 pairs     no      0 -              bot, greedy",
        "   3 Ada           1 4 pairs     no      0 -              bot, greedy",
        "   4 hana (you)    1 4 pairs     no      0 -"]


def test_the_own_row_in_german(tmp_path: Path, german: None) -> None:
    assert _networked("eights", tmp_path)[3] == "   4 hana (du)     0      0     0"


def test_the_default_nickname_is_its_own_mark() -> None:
    session = LocalSession("eights", names=("You", "Ada", "Bram"), seed=3, bot_delay=60)
    rows = _rows(session, session.snapshot())
    assert [row.split()[1] for row in rows] == ["You", "Ada", "Bram"]
    assert "(you)" not in "\n".join(rows)


def test_level8_keeps_the_mark_beside_a_long_requirement(german: None) -> None:
    """German at 80 columns: "Drilling + 4 Karten einer Farbe" keeps its column whole beside
    "hana (du)" (the front column as wide as its cards; the laid-down column's word ``gelegt``
    written out as the rules say it, where ``ausg.`` had to be guessed); narrower, the
    requirement goes on at the next line and the mark stays (a LAN trial: the mark went
    first). The mark is left out only where one component is too wide (``test_hint``, 56
    columns)."""
    from lancards.engine.level8.state import Phase
    from tests.level8.scenario import build

    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], levels=(3, 3, 3), turn=0,
                  phase=Phase.DRAW, discards=[["G1"], ["G2"], ["G3"]])
    session = LocalSession("level8-master", names=("hana", "Ada", "Bram"), state=state,
                           bot_delay=60)
    snap = session.snapshot()
    rows = [r for r in _rows(session, snap) if r]
    assert rows[0] == " > 1 hana (du)     3 Drilling + 4 Karten einer Farbe nein      1 G1(1)"
    narrow = "".join(f[1] for f in level8_view.table(snap, 72)).splitlines()
    assert [row.rstrip() for row in narrow[1:3]] == [
        " > 1 hana (du)     3 Drilling +           nein      1 G1(1)",
        "                     4 Karten einer Farbe"]
