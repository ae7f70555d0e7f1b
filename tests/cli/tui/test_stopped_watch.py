"""A seat voted out while away (issue 24) at a table that then halted on a proven cheat: its
screen still read ``NOTE: you were voted out while away; watch the rest, or q to quit`` (nothing
was left to watch) over an empty ``your hand (0 cards):`` heading. It now shows the halt as the
seated screens do (the cheat's banner, ``game stopped`` in the title), without the note, and a
watcher's heading where the hand was (cli/tui/stopped_watch.py); before the halt a watcher's
heading too, with whose move it is."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.net_session import NetworkSession
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.eights_screen import EightsController
from lancards.cli.tui.level8_keys import Level8Controller
from lancards.p2p.protocol.identity import Identity
from tests.cli.tui.harness import driven

pytestmark = pytest.mark.timeout(60)

CAUGHT = "Cleo signed a move the rules do not allow: discard R5 (Cleo must draw first)"


def _removed(home: Path, monkeypatch: pytest.MonkeyPatch) -> list[TableSnapshot]:
    """A networked 8s Rule! table (Ann and three bots) whose own seat was voted out: its
    snapshot while the table runs, then once it halted (at the deal, as a bad proof of shuffle
    halts it)."""

    async def run() -> list[TableSnapshot]:
        me = Identity(b"\x09" * 32, "Ann")
        session = await NetworkSession.create("eights", {}, me, 3, home=home, bot_delay=60,
                                              seed=7)
        try:
            monkeypatch.setattr("lancards.cli.net_session.removed_seats",
                                lambda core: (session.seat,))
            monkeypatch.setattr(session.node, "waiting", lambda: None)  # no WAITING banner
            running = session.snapshot()
            monkeypatch.setattr(session.core, "_halted", CAUGHT)
            return [running, session.snapshot()]
        finally:
            await session.close()

    return asyncio.run(run())


class _Frozen(LocalSession):
    """A screen showing one snapshot (the seat's own hand gone out of play)."""

    snap: TableSnapshot

    def snapshot(self) -> TableSnapshot:
        snap = self.snap
        view = dataclasses.replace(snap.view, hands=tuple(
            () if seat == snap.seat else hand for seat, hand in enumerate(snap.view.hands)))
        return dataclasses.replace(snap, view=view)


def test_a_seat_voted_out_at_a_halted_table_sees_the_halt_not_the_note(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    running, halted = _removed(tmp_path, monkeypatch)
    assert [(b.kind, b.text) for b in running.banners] == [
        ("info", "you were voted out while away; watch the rest, or q to quit")]
    assert [(b.kind, b.text) for b in halted.banners] == [("cheat", CAUGHT)]
    assert halted.extra["removed_me"] and halted.to_act is None
    session = _Frozen("eights", seed=7, bot_delay=60)
    session.snap = halted
    with driven(session, 80, 24) as d:
        lines = d.text().splitlines()
        assert lines == [
            " CHEATER CAUGHT: Cleo signed a move the rules do not allow: discard R5 (Cleo",
            "   must draw first)",
            " 8s Rule!   game stopped",
            " cutting for the first dealer",
            "   # player     hand tricks total",
            "   1 Bram          0      0     0  bot, greedy",
            "   2 Cleo          0      0     0  bot, greedy",
            "   3 Ada           0      0     0  bot, greedy",
            "   4 Ann (you)     0      0     0",
            " (the log of moves and chat)",
            *[""] * 11,
            " watching: no seat, the public cards only",
            "",
            " watching: public cards only · PgUp/PgDn the log · ? keys · q quit · o goal"]
        assert not [line for line in lines if "voted out" in line or "your hand" in line]
        d.press("q")
        d.settle(lambda: d.done)
        assert d.finish() == 0  # nothing waits for this seat


def test_the_hand_panel_of_a_seat_voted_out_is_a_watchers_heading_once_halted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    running, halted = _removed(tmp_path, monkeypatch)
    session = _Frozen("eights", seed=7, bot_delay=60)
    heading = " watching: no seat, the public cards only\n"
    for controller in (EightsController(session), Level8Controller(session=None)):  # type: ignore[arg-type]
        assert "".join(t for _s, t in controller.hand_view(halted, 80)) == heading
    session.snap = running  # before the halt: a watcher's, whose move it is too (it read
    # "your hand (0 cards):", a hand the seat no longer has)
    assert "".join(t for _s, t in EightsController(session).hand_view(
        session.snapshot(), 80)) == heading + "  the deck at work; q quits\n"


@pytest.mark.usefixtures("german")
def test_the_watchers_heading_of_a_seat_voted_out_in_german(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    running, halted = _removed(tmp_path, monkeypatch)
    session = _Frozen("eights", seed=7, bot_delay=60)
    assert "".join(t for _s, t in EightsController(session).hand_view(halted, 80)) == \
        " Zuschauen: kein Platz, nur offene Karten\n"
    assert "".join(t for _s, t in EightsController(session).hand_view(running, 80)) == \
        " Zuschauen: kein Platz, nur offene Karten\n  die Karten werden gemischt und verteilt; q " \
        "beenden\n"


COME_BACK = {
    "en": [" NOTE: you were voted out while away; watch the rest, or q to quit",
           " 8s Rule!   shuffling, dealing or opening hands...",
           " cutting for the first dealer",
           "   # player     hand tricks total",
           "   1 Bram          0      0     0  bot, greedy",
           "   2 Cleo          0      0     0  bot, greedy",
           "   3 Ada           0      0     0  bot, greedy",
           "   4 Ann (you)     0      0     0",
           " (the log of moves and chat)",
           *[""] * 11,
           " watching: no seat, the public cards only",
           "  the deck at work; q quits",
           "",
           " watching: public cards only · PgUp/PgDn the log · ? keys · q quit · o goal"],
    "de": [" HINWEIS: du wurdest in deiner Abwesenheit hinausgestimmt; schau weiter zu, oder",
           "   q zum Beenden",
           " 8s Rule!   mischen, geben oder Hände aufdecken...",
           " Abheben für den ersten Geber",
           "   # Spieler   Hand Stiche Summe",
           "   1 Bram         0      0     0  Bot, gierig",
           "   2 Cleo         0      0     0  Bot, gierig",
           "   3 Ada          0      0     0  Bot, gierig",
           "   4 Ann (du)     0      0     0",
           " (der Verlauf der Züge und der Chat)",
           *[""] * 10,
           " Zuschauen: kein Platz, nur offene Karten",
           "  die Karten werden gemischt und verteilt; q beenden",
           "",
           " Zuschauen: nur offene Karten · Bild↑/↓ Verlauf · ? Tasten · q beenden · o Ziel"],
}
"""The screen of a seat voted out while away that comes back while the deck is at work, by
language."""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_seat_voted_out_while_away_comes_back_to_a_watchers_screen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """The whole screen at 80x24 of a seat that comes back (``lancards resume``) to a table
    that voted it out while it was away and plays on: the note, the table, and a watcher's
    heading with what the table does where its hand was (no ``your hand (0 cards):``); q
    quits at once (nothing waits for it). A screen-level test with a built state (the
    persona suite's network evening would need a seat voted out and resumed: some minutes)."""
    from lancards.cli import i18n

    i18n.set_language(lang)
    try:
        running, _halted = _removed(tmp_path, monkeypatch)
        session = _Frozen("eights", seed=7, bot_delay=60)
        session.snap = running
        with driven(session, 80, 24) as d:
            lines = d.text().splitlines()
            assert lines == COME_BACK[lang]
            d.press("q")
            d.settle(lambda: d.done)
            assert d.finish() == 0
    finally:
        i18n.set_language("en")
