"""``lancards history`` marks the other seats that left the table for good (the new-user trial:
an unfinished game listed a seat that had left among the players as if it still played)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lancards.cli import i18n
from lancards.cli.history import gone_seats
from lancards.cli.main import main
from lancards.cli.net_session import NetworkSession
from lancards.p2p.net.store import encode_line
from lancards.p2p.protocol.identity import Identity
from tests.cli.tui.harness import close_session

T0 = 1_796_000_000  # 2026-11-30 00:53:20 UTC
ME = Identity(b"\x0d" * 32, "Ann")


@pytest.fixture(scope="module")
def left_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with one paused Level 8 Master table of Ann and three bots (seeded: Ann,
    Bram, Cleo, Ada in seat order) where Cleo left for good after six moves."""
    home = tmp_path_factory.mktemp("gone")

    async def play() -> None:
        session = await NetworkSession.create("level8-master", {}, ME, 3, home=home,
                                              bot_delay=0, seed=7, autoplay=True)
        task = asyncio.create_task(session.run())
        try:
            for _ in range(1500):
                if sum(1 for e in session.core.record.entries
                       if e.payload.get("t") == "action") >= 6:
                    break
                await asyncio.sleep(0.02)
            leaver = session.nodes[2]
            assert (leaver.core.me.nick, leaver.core.seat) == ("Cleo", 2)
            leaver.leave()
            for _ in range(1500):
                if session.core.left_seats():
                    break
                await asyncio.sleep(0.02)
            assert session.core.left_seats() == (2,)
        finally:
            await close_session(session, task)

    asyncio.run(play())
    return home


@pytest.fixture
def home(left_game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    shutil.copytree(left_game, tmp_path, dirs_exist_ok=True)
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    for f in table(tmp_path).iterdir():
        os.utime(f, (T0, T0))
    yield tmp_path
    monkeypatch.delenv("TZ")
    time.tzset()


def table(home: Path) -> Path:
    (folder,) = list((home / "tables").iterdir())
    return folder


def history(capsys: pytest.CaptureFixture[str], *lang: str) -> list[str]:
    capsys.readouterr()
    try:
        assert main([*lang, "history"]) == 0
    finally:
        i18n.set_language("en")
    return capsys.readouterr().out.splitlines()


def test_an_unfinished_game_marks_the_seat_that_left(home: Path, capsys) -> None:
    name = table(home).name
    assert history(capsys) == [
        "  1  2026-11-30 00:53  Level 8 Master: unfinished",
        f"     Ann, Bram, Cleo (left the table), Ada · lancards resume {name}"]
    assert history(capsys, "--lang", "de")[1] == \
        f"     Ann, Bram, Cleo (vom Tisch gegangen), Ada · lancards resume {name}"
    assert main(["history", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["players"], row["left_seats"], row["removed_seats"], row["left"]) == (
        ["Ann", "Bram", "Cleo", "Ada"], [2], [], False)


def test_an_unfinished_game_in_play_now_says_so_instead_of_how_to_resume(home: Path,
                                                                        capsys) -> None:
    """The new-user trial of 2026-12-06: history offered ``lancards resume`` for the table a
    running host was playing, which the folder's lock then refused. A live holder (this
    test's own process) is named in the row's result; a dead one's ``holder.json`` (kill -9)
    is not believed."""
    from lancards.p2p.net.folder_lock import HOLDER_NAME, proc_start

    folder = table(home)
    holder = {"command": "lancards host", "pid": os.getpid(),
              "proc_start": proc_start(os.getpid()), "since": T0}
    (folder / HOLDER_NAME).write_text(json.dumps(holder))
    os.utime(folder / HOLDER_NAME, (T0, T0))
    assert history(capsys)[:2] == [  # the row says so (the LAN trial of 2026-12-07 read
        # "unfinished" for a table played in another window), its id kept
        f"  1  2026-11-30 00:53  Level 8 Master: being played now (lancards host, process "
        f"{os.getpid()})", f"     Ann, Bram, Cleo (left the table), Ada · table {folder.name}"]
    assert history(capsys, "--lang", "de")[0].endswith(
        f"Level 8 Master: wird gerade gespielt (lancards host, Prozess {os.getpid()})")
    (folder / HOLDER_NAME).write_text(json.dumps({**holder, "pid": 2**22 + 7}))  # gone
    os.utime(folder / HOLDER_NAME, (T0, T0))
    assert history(capsys)[1].endswith(f"· lancards resume {folder.name}")


def test_a_finished_game_marks_it_by_its_score(home: Path, capsys) -> None:
    folder = table(home)
    finish(folder, {})
    assert history(capsys) == [
        "  1  2026-11-30 00:53  Level 8 Master: Bram won",
        f"     Ann level 3, Bram WIN, Cleo (left the table) level 2, Ada level 4 · table "
        f"{folder.name[:8]}"]
    # the engine's outcome names who left: where it says nobody, the record is not read
    (folder / "outcome.json").write_text(json.dumps(
        {"winners": [1], "scores": [3, 9, 2, 4], "detail": {"left": []}}))
    os.utime(folder / "outcome.json", (T0, T0))
    assert history(capsys)[1].startswith("     Ann level 3, Bram WIN, Cleo level 2, ")
    (folder / "outcome.json").write_text(json.dumps(
        {"winners": [1], "scores": [3, 9, 2, 4], "detail": {"left": [2]}}))
    os.utime(folder / "outcome.json", (T0, T0))
    assert history(capsys)[1].startswith("     Ann level 3, Bram WIN, Cleo (left the table) ")


def test_this_user_s_own_leave_is_said_once(home: Path, capsys) -> None:
    """Cleo's folder seen as Cleo's own: "you left the table", her name not marked again."""
    folder = table(home)
    data = json.loads((folder / "table.json").read_text("utf-8"))
    data["me"] = data["statement"]["seats"][2]["pk"]
    (folder / "table.json").write_text(json.dumps(data))
    (folder / "left").touch()
    (folder / "finished").touch()
    for f in folder.iterdir():
        os.utime(f, (T0, T0))
    assert history(capsys) == [
        "  1  2026-11-30 00:53  Level 8 Master: you left the table",
        f"     Ann, Bram, Cleo, Ada · table {folder.name[:8]}"]


def test_this_user_s_own_removal_by_vote_is_said(home: Path, capsys) -> None:
    """The re-check trial of 2026-12-09: bob, voted out and watching the game to its end,
    read ``bob, cyd, ann, eve`` in his own history where ann's said ``bob (removed by
    vote)``. Cleo's folder seen as Cleo's own, its record holding her removal."""
    folder = table(home)
    data = json.loads((folder / "table.json").read_text("utf-8"))
    data["me"] = data["statement"]["seats"][2]["pk"]
    (folder / "table.json").write_text(json.dumps(data))
    removal = entry({"t": "rescue", "seat": 2, "votes": [{"voter": 0}], "msg": {}})
    (folder / "record.jsonl").write_text(json.dumps({"kind": "entry", "entry": removal},
                                                    separators=(",", ":")) + "\n")
    finish(folder, {"left": [2]})
    assert history(capsys) == [
        "  1  2026-11-30 00:53  Level 8 Master: Bram won",
        f"     Ann level 3, Bram WIN, Cleo (removed by vote) level 2, Ada level 4 · table "
        f"{folder.name[:8]}"]
    assert history(capsys, "--lang", "de")[1] == \
        f"     Ann: Stufe 3, Bram: Sieg, Cleo (per Abstimmung entfernt): Stufe 2, Ada: Stufe 4 · " \
        f"Tisch {folder.name[:8]}"


def finish(folder: Path, detail: dict[str, object]) -> None:
    """Mark ``folder``'s game finished, Bram the winner (levels 3, 9, 2, 4; the outcome's
    ``detail``), every file dated :data:`T0`."""
    (folder / "outcome.json").write_text(json.dumps(
        {"winners": [1], "scores": [3, 9, 2, 4], "detail": detail}))
    (folder / "finished").touch()
    for f in folder.iterdir():
        os.utime(f, (T0, T0))


def entry(payload: dict[str, object]) -> dict[str, object]:
    return {"tbl": "t", "seq": 0, "author": "00", "prev": "00", "payload": payload,
            "state": "00", "sig": "00"}


def test_leaves_and_removals_are_read_from_a_journal_or_a_record(tmp_path: Path) -> None:
    vote = {"voter": 0}
    journal = b"".join([
        encode_line("entry", entry({"t": "action", "a": "0: draw"})),
        encode_line("entry", entry({"t": "leave", "seat": 1, "msg": {}})),
        encode_line("entry", entry({"t": "rescue", "seat": 3, "votes": [vote, vote],
                                    "msg": {}})),
        encode_line("entry", entry({"t": "rescue", "seat": 3, "votes": [], "msg": {}})),
        encode_line("vote", {"t": "leave", "seat": 2}),  # not an entry
        b'{"kind":"entry","line":{"payload":{"t":"leave","seat":0', b"\n",  # torn
    ])
    (tmp_path / "journal.jsonl").write_bytes(journal)
    assert list(gone_seats(tmp_path, "journal.jsonl").items()) == [(1, "left"), (3, "removed")]
    record = b"\n".join(json.dumps({"kind": "entry", "entry": entry(p)},
                                   separators=(",", ":")).encode() for p in (
        {"t": "rescue", "seat": 2, "votes": [vote], "msg": {}},
        {"t": "leave", "seat": 0, "msg": {}})) + b"\n"
    (tmp_path / "record.jsonl").write_bytes(record)
    assert gone_seats(tmp_path, "record.jsonl", "journal.jsonl") == {2: "removed", 0: "left"}
    assert gone_seats(tmp_path, "missing.jsonl") == {}


def test_resume_names_the_players_still_at_the_table(home: Path) -> None:
    """The new-user trial of 2026-12-06: ``lancards resume`` said ``(8s Rule!, with bot1, ann,
    bob)`` though bob had left for good; the seats that left (or were removed) are not named."""
    from lancards.cli.play import chosen_words

    folder = table(home)
    assert chosen_words(folder, 1) == \
        f"resuming table {folder.name[:8]} (Level 8 Master, with Bram, Ada)"


def test_german_says_your_win_with_a_colon_not_du_sieg(home: Path, capsys) -> None:
    """The last session's trial read ``Du Sieg`` in a German history (the winner's seat under
    the default nickname): German puts a colon after each name, ``Du: Sieg``."""
    folder = table(home)
    data = json.loads((folder / "table.json").read_text("utf-8"))
    data["me"] = data["statement"]["seats"][1]["pk"]  # the winner's own folder, under
    data["statement"]["seats"][1]["nick"] = "You"  # the default nickname (history verifies
    (folder / "table.json").write_text(json.dumps(data))  # nothing: no signature checked)
    finish(folder, {})
    assert history(capsys) == [
        "  1  2026-11-30 00:53  Level 8 Master: You won",
        f"     Ann level 3, You WIN, Cleo (left the table) level 2, Ada level 4 · table "
        f"{folder.name[:8]}"]
    assert history(capsys, "--lang", "de") == [
        "  1  2026-11-30 00:53  Level 8 Master: Du hast gewonnen",
        f"     Ann: Stufe 3, Du: Sieg, Cleo (vom Tisch gegangen): Stufe 2, Ada: Stufe 4 · "
        f"Tisch {folder.name[:8]}"]
