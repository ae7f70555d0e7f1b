"""The lines ``lancards watch`` prints on the terminal wrap at its width at a space (the trial
of 2026-12-08, h9, at 80 columns: ``watching table ... at 10.239.0.11:599`` / ``97`` and
``... that peer plays another tabl`` / ``e``); into a pipe each stays one line."""

from __future__ import annotations

import io
import os
from types import SimpleNamespace

import pytest

from lancards.cli.i18n import _, set_language
from lancards.cli.lobby import watch_table
from lancards.cli.lobby.watch_table import DROPPED_WORDS, PlainTeller
from lancards.cli.tui import fit

PEER = "[AUMQ-VIRS-Z6HP-BELJ]"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _printed(monkeypatch: pytest.MonkeyPatch, out: io.StringIO) -> list[str]:
    monkeypatch.setattr(fit.shutil, "get_terminal_size",
                        lambda *a, **k: os.terminal_size((80, 24)))
    monkeypatch.setattr("sys.stdout", out)
    set_language("en")
    watch_table.echo(_("watching table {table} through {peer} at {address}").format(
        table="daf8f6ca4ce31114", peer=PEER, address="10.239.0.11:59997"))
    lost = _("{peer} stopped serving this watcher: {why}").format(
        peer=PEER, why=_(DROPPED_WORDS["wrong-table"]))
    PlainTeller(SimpleNamespace(core=None, cheat=None),  # type: ignore[arg-type]
                watch_table.echo).finish(SimpleNamespace(lost=lost))  # type: ignore[arg-type]
    return out.getvalue().splitlines()


def test_the_watchers_lines_wrap_at_a_space_at_80_columns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert _printed(monkeypatch, _Terminal()) == [
        f"watching table daf8f6ca4ce31114 through {PEER} at",
        "   10.239.0.11:59997",
        f"{PEER} stopped serving this watcher: that peer plays another",
        "   table"]


def test_into_a_pipe_each_stays_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _printed(monkeypatch, io.StringIO()) == [
        f"watching table daf8f6ca4ce31114 through {PEER} at 10.239.0.11:59997",
        f"{PEER} stopped serving this watcher: that peer plays another table"]
