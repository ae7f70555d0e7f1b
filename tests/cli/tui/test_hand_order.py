"""The hand's sort order (``s``) is kept per table across a pause or a crash (the new-user
trial: after ``q`` and ``lancards resume`` the hand came back sorted by number)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lancards.cli.net_session import NetworkSession
from lancards.cli.tui.hand_order import FILE, load_by_colour, save_by_colour
from lancards.cli.tui.level8_keys import Level8Controller
from lancards.p2p.protocol.identity import Identity

ME = Identity(b"\x0c" * 32, "Ann")


def test_the_choice_is_saved_and_read_back(tmp_path: Path) -> None:
    assert load_by_colour(tmp_path) is False  # no file: by number
    save_by_colour(tmp_path, True)
    assert (tmp_path / FILE).read_text("utf-8") == '{"by": "colour"}\n'
    assert load_by_colour(tmp_path) is True
    save_by_colour(tmp_path, False)
    assert (tmp_path / FILE).read_text("utf-8") == '{"by": "number"}\n'
    assert load_by_colour(tmp_path) is False
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE]  # no temporary file left


@pytest.mark.parametrize("damage", [b'{"by": "col', b"", b'["colour"]', b'{"by": 1}',
                                    b"\xff\xfe", b'{"by": "COLOUR"}'])
def test_a_damaged_file_means_by_number(tmp_path: Path, damage: bytes) -> None:
    (tmp_path / FILE).write_bytes(damage)
    assert load_by_colour(tmp_path) is False


def test_no_folder_keeps_nothing_and_a_failed_write_is_dropped(tmp_path: Path) -> None:
    save_by_colour(None, True)
    assert load_by_colour(None) is False
    gone = tmp_path / "gone"  # the folder vanished: the write fails, quietly
    save_by_colour(gone, True)
    assert not gone.exists() and load_by_colour(gone) is False


def test_a_resumed_table_starts_with_the_saved_order(tmp_path: Path) -> None:
    async def go() -> tuple[bool, bool, str, str]:
        session = await NetworkSession.create("level8-master", {}, ME, 2, home=tmp_path,
                                              bot_delay=0, seed=7)
        try:
            controller = Level8Controller(session)
            assert controller.by_colour is False
            controller.handle("s", session.snapshot())  # the person sorts by colour, pauses
            assert session.node.store is not None
            folder = session.node.store.folder
        finally:
            await session.close()
        saved = (folder / FILE).read_text("utf-8")
        resumed = await NetworkSession.resume(folder, ME, bot_delay=0)
        try:
            again = Level8Controller(resumed)
            first = again.by_colour
            again.handle("s", resumed.snapshot())  # and back to numbers, kept too
            return first, load_by_colour(folder), saved, again.message
        finally:
            await resumed.close()

    first, stored, saved, message = asyncio.run(go())
    assert saved == '{"by": "colour"}\n'
    assert first is True
    assert stored is False and message == "hand sorted by number"
