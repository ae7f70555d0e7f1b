"""Lines printed once the full-screen table closed (the new-user trial of 2026-12-06): to a
terminal they wrap at its width at a space, not mid-word at the last column (``Cleo: 0 wins,
8`` / ``5 points``, German ``zu wenige Spieler ü`` / ``brig``); into a pipe they stay whole.
The evening line wraps between the players' entries only (the trial of 2026-12-07 read ``...
Ada: 0 wins,`` / ``   465 points``), and its no-break spaces print as spaces."""

from __future__ import annotations

import io
import os

import pytest

from lancards.cli.i18n import _, ngettext
from lancards.cli.play_again import evening_line
from lancards.cli.tui import fit
from lancards.cli.tui.fit import echo

TOTALS = [{"pk": "aa", "nick": "You", "won": 1, "score": 40},
          {"pk": "bb", "nick": "Ada", "won": 0, "score": 120},
          {"pk": "cc", "nick": "Cleo", "won": 0, "score": 85},
          {"pk": "dd", "nick": "Bram", "won": 0, "score": 95}]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _printed(text: str, tty: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr(fit.shutil, "get_terminal_size",
                        lambda *a, **k: os.terminal_size((80, 24)))
    out = _Terminal() if tty else io.StringIO()
    echo(text, out)
    return out.getvalue().splitlines()


def _farewell() -> str:
    ended = ngettext("the game ended early: after {names} went, too few players were left to "
                     "play on", "the game ended early: after {names} went, too few players "
                     "were left to play on", 1).format(names="Ada")
    return "\n".join([_("the game went on without you:"), ended,
                      evening_line(TOTALS, "eights", "aa")])


def test_a_farewell_wraps_at_80_columns_at_a_space_in_a_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert _printed(_farewell(), True, monkeypatch) == [
        "the game went on without you:",
        "the game ended early: after Ada went, too few players were left to play on",
        "evening so far: You: 1 win, 40 points · Ada: 0 wins, 120 points ·",
        "   Cleo: 0 wins, 85 points · Bram: 0 wins, 95 points"]


def test_a_farewell_into_a_pipe_stays_one_line_each(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _printed(_farewell(), False, monkeypatch) == [
        "the game went on without you:",
        "the game ended early: after Ada went, too few players were left to play on",
        "evening so far: You: 1 win, 40 points · Ada: 0 wins, 120 points · Cleo: 0 wins, "
        "85 points · Bram: 0 wins, 95 points"]


@pytest.mark.usefixtures("german")
def test_a_german_farewell_wraps_at_a_space_too(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _printed(_farewell(), True, monkeypatch) == [
        "das Spiel ging ohne dich weiter:",
        "das Spiel endete vorzeitig: nachdem Ada gegangen war, waren zu wenige Spieler",
        "   übrig",
        "der Abend bisher: Du: 1 Sieg, 40 Punkte · Ada: 0 Siege, 120 Punkte ·",
        "   Cleo: 0 Siege, 85 Punkte · Bram: 0 Siege, 95 Punkte"]


def test_the_evening_line_wraps_between_entries_at_the_game_over_panel() -> None:
    """The panel's wrap (:func:`fit.wrap_text`, as the game-over panel draws at 80 columns) of
    the trial's evening: ``Ada: 0 wins, 465 points`` stays on one line."""
    totals = [{"pk": "aa", "nick": "You", "won": 2, "score": 150},
              {"pk": "bb", "nick": "Bram", "won": 0, "score": 390},
              {"pk": "cc", "nick": "Cleo", "won": 1, "score": 215},
              {"pk": "dd", "nick": "Ada", "won": 0, "score": 465}]
    assert fit.wrap_text(evening_line(totals, "eights", "aa"), 80) == [
        "evening so far: You: 2 wins, 150 points · Bram: 0 wins, 390 points ·",
        "   Cleo: 1 win, 215 points · Ada: 0 wins, 465 points"]
