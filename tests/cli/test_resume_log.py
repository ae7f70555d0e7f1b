"""``lancards resume`` rebuilds the same log as before the crash (issue 25, item 10): round
headers where they were, chat lines, the cards of this seat's draws, 8s Rule!'s trick lines;
a torn or damaged saved log keeps the lines before the damage and never stops a resume."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.net_session import NetworkSession
from lancards.cli.saved_log import FILE
from lancards.p2p.net.node import drive_bot, game_bot
from lancards.p2p.protocol.identity import Identity
from tests.cli.tui.harness import close_session

pytestmark = pytest.mark.timeout(180)

ME = Identity(b"\x0b" * 32, "Ann")


async def bots_play_until(session: NetworkSession, done: Callable[[], bool],
                          steps: int = 2400, on_step: Callable[[], None] = lambda: None) -> None:
    """Every seat of ``session`` played by a bot, its log told after every change (as the
    screen does), until ``done()`` (checked every 20 ms, ``on_step`` after each check); then
    the session is closed and its tasks ended.

    Raises:
        AssertionError: not within ``steps`` checks.
    """
    session.subscribe(session.snapshot)
    runner = asyncio.create_task(session.run())
    person = asyncio.create_task(drive_bot(session.node, game_bot(session.core)))
    try:
        for _ in range(steps):
            if done():
                break
            on_step()
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the table did not play on")
    finally:
        await close_session(session, runner, person)


async def played(home: Path, game: str, actions: int) -> tuple[Path, list[str]]:
    """A table of Ann and two bots, every seat played by a bot, until ``actions`` moves (a
    chat line after the third); returns its folder and log."""
    session = await NetworkSession.create(game, {}, ME, 2, home=home, bot_delay=0, seed=11)

    def moves() -> int:
        return sum(1 for e in session.core.record.entries if e.payload.get("t") == "action")

    chatted: list[bool] = []

    def chat() -> None:
        if moves() >= 3 and not chatted:
            session.send_chat("hello 山田")
            chatted.append(True)

    await bots_play_until(session, lambda: moves() >= actions, on_step=chat)
    session.snapshot()  # tell what came last, as a last redraw would
    assert session.node.store is not None
    return session.node.store.folder, [line.text for line in session.snapshot().log]


async def resumed_log(folder: Path) -> tuple[list[str], Any]:
    session = await NetworkSession.resume(folder, ME, bot_delay=0)
    try:
        return [line.text for line in session.snapshot().log], session
    finally:
        await session.close()


@pytest.mark.parametrize("game,actions,words", [
    ("eights", 70, ("takes trick", "── round 2")),
    ("level8-master", 40, ("You drew ", "── round 1")),
])
def test_resume_shows_the_log_as_it_was(tmp_path: Path, game: str, actions: int,
                                        words: tuple[str, ...]) -> None:
    folder, before = asyncio.run(played(tmp_path, game, actions))
    assert "Ann: hello 山田" in before and all(any(w in t for t in before) for w in words)
    if game == "level8-master":  # the card turned at the round's start (the trial of 12-05)
        mark = next(i for i, t in enumerate(before) if t.startswith("── round 1 · dealer "))
        assert re.fullmatch(r"(J\S+|[ROYGBP]\d+|TAKE|SWAP|KEEP) is face up on (your|\w+'s) "
                            r"discard pile", before[mark + 1]), before[mark:mark + 3]
    after, _ = asyncio.run(resumed_log(folder))
    assert after == before


def test_a_torn_saved_log_keeps_the_lines_before_the_tear(tmp_path: Path) -> None:
    folder, before = asyncio.run(played(tmp_path, "eights", 20))
    raw = (folder / FILE).read_bytes().splitlines(keepends=True)
    (folder / FILE).write_bytes(b"".join(raw[:10]) + raw[10][:7])  # a crash mid-line
    after, _ = asyncio.run(resumed_log(folder))
    assert after[:10] == before[:10] and len(after) > 10  # the rest is told from the record
    assert any("takes trick" in t or " played " in t or " led " in t for t in after[10:])


def test_the_card_drawn_in_place_of_one_taken_is_named_and_resumed(tmp_path: Path) -> None:
    """The trial of 2026-12-06: after "bot took your O15 (I'll take that!)" the log said "You
    drew a card from the draw pile in its place" for good (the card is revealed to this seat
    only after the move is told); the line is now completed like an own draw's. Seed 11: a
    bot takes Ann's card at move 14, the replacement is G12."""
    folder, before = asyncio.run(played(tmp_path, "level8-master", 20))
    taken = [i for i, t in enumerate(before) if "took your " in t]
    assert taken and before[taken[0] + 1] == "You drew G12 from the draw pile in its place", \
        before
    assert not any(t == "You drew a card from the draw pile in its place" for t in before)
    after, _ = asyncio.run(resumed_log(folder))
    assert after == before


def test_a_resume_at_a_rounds_start_tells_the_face_up_card_once(tmp_path: Path) -> None:
    """A new-user trial read ``P13 is face up on Cleo's discard pile`` twice in a row after
    ``lancards resume``: the saved log held the line and the resumed session, at the same
    round's start, told it again. Seed 11: Bram deals, Ann plays first; nobody plays Ann."""

    async def dealt() -> tuple[Path, list[str]]:
        session = await NetworkSession.create("level8-master", {}, ME, 2, home=tmp_path,
                                              bot_delay=0, seed=11)
        session.subscribe(session.snapshot)
        runner = asyncio.create_task(session.run())
        try:
            for _ in range(500):
                log = [line.text for line in session.snapshot().log]
                if any("face up" in t for t in log):
                    break
                await asyncio.sleep(0.02)
        finally:
            await close_session(session, runner)
        assert session.node.store is not None
        return session.node.store.folder, log

    folder, before = asyncio.run(dealt())
    assert before[-2:] == ["── round 1 · dealer Bram ──", "P15 is face up on Bram's discard pile"]
    after, _ = asyncio.run(resumed_log(folder))
    assert after == before


def test_a_table_resumed_in_german_shows_its_whole_log_in_german(tmp_path: Path,
                                                                  german: None) -> None:
    """The re-check trial of session 27: a table played in English and resumed with ``--lang
    de`` showed its old lines in English and the new ones in German. Every line is now kept
    in each language when it is told (``said`` in ``log.jsonl``) and read back in the
    resuming session's language; resumed in English again it is the English log it was.
    Seed 11 as above (the chat line's place depends on timing: left out of the comparison)."""
    i18n.set_language("en")
    folder, before = asyncio.run(played(tmp_path, "level8-master", 20))
    i18n.set_language("de")
    after, _ = asyncio.run(resumed_log(folder))
    assert len(after) == len(before) and "Ann: hello 山田" in after
    assert [t for t in after if not t.startswith("Ann: ")][:16] == [
        "── Runde 1 · Bram gibt ──",
        "P15 liegt offen auf dem Ablagestapel von Bram",
        "Du: O12 vom Nachziehstapel gezogen",
        "Du: SWAP gespielt („Die tausch’ ich!“)",
        "Du: G14 auf den eigenen Ablagestapel gelegt („Die tausch’ ich!“)",
        "Du: G10 auf den eigenen Ablagestapel gelegt („Die tausch’ ich!“)",
        "Du: O9 auf den eigenen Ablagestapel gelegt („Die tausch’ ich!“)",
        "Du: 3 Karten gezogen („Die tausch’ ich!“)",
        "Ada: vom Nachziehstapel gezogen",
        "Ada: TAKE gespielt („Die nehm’ ich!“)",
        "Bram: R12 O10 O14 gezeigt",
        "Du: G6 P2 P3 gezeigt",
        "Ada: deine P3 genommen („Die nehm’ ich!“)",
        "Du hast G12 als Ersatz vom Nachziehstapel gezogen",
        "Bram: vom Nachziehstapel gezogen",
        "Bram: Y15 abgelegt",
    ]
    same = [a for b, a in zip(before, after, strict=True) if a == b]
    assert same == ["Ann: hello 山田"]
    i18n.set_language("en")
    again, _ = asyncio.run(resumed_log(folder))
    assert again == before
