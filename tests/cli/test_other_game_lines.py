"""Another game with the same players (``lancards play``, the game-over panel's numbers) opens
its table saying which game of the evening it is, as ``a`` at its end does (``game 3 of the
evening: ...``): ``game 2 of the evening: Level 8`` on top of the new table and first in its
log. It said nothing: the new table is a first game of its own series, and its first lines were
told before the evening before it was known (``series_words``, ``NetworkSession(...,
evening_before=...)``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lancards.cli import i18n, session_series
from lancards.cli.i18n import NO_BREAK
from lancards.cli.net_session import NetworkSession
from lancards.cli.play_again import series_words
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.rematch import Finished
from lancards.p2p.protocol.table import start_local
from tests.p2p.core_harness import identities

pytestmark = pytest.mark.timeout(120)

ME = Identity(b"\x0c" * 32, "Ann")


def _before(games: list[str]) -> list[dict[str, object]]:
    """Games of the evening before a new table (``play_again.Evening``): ann won each."""
    people = identities(3)
    totals = [{"pk": p.public_key.hex(), "nick": p.nick, "won": int(i == 0), "score": 10 * i}
              for i, p in enumerate(people)]
    return [{"game": game, "games": 1, "totals": totals} for game in games]


@pytest.mark.parametrize(("lang", "first", "third"), [
    ("en", "game 2 of the evening: Level 8 (English)", "game 3 of the evening: 8s Rule!"),
    ("de", "Spiel 2 des Abends: Level 8 (englisch)", "Spiel 3 des Abends: 8s Rule!")])
def test_a_first_game_after_other_games_says_which_game_of_the_evening(
        german, lang: str, first: str, third: str) -> None:
    i18n.set_language(lang)
    people = identities(3)
    me = people[1].public_key
    second = start_local(people, "level8-en", {}, table="00000000000000e1")
    assert series_words(second, "level8-en", me, _before(["level8-master"])) == [first]
    assert series_words(second, "level8-en", me) == []  # the evening's first game: nothing
    eights = start_local(people, "eights", {}, table="00000000000000e2")
    lines = series_words(eights, "eights", me, _before(["level8-master", "level8-en"]))
    evening = {"en": "evening so far: ann: 2 wins · You: 0 wins · cyd: 0 wins",
               "de": "der Abend bisher: ann: 2 Siege · Du: 0 Siege · cyd: 0 Siege"}
    # from game 3 on, the evening before it
    assert [line.replace(NO_BREAK, " ") for line in lines] == [third, evening[lang]]


def test_another_game_opens_saying_game_2_of_the_evening(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    async def go() -> tuple[list[str], list[str]]:
        first = await NetworkSession.create("level8-master", {}, ME, 3, home=tmp_path,
                                            bot_delay=0, seed=7)
        try:  # its game over (as the game-over panel's number finds it)
            done = Finished(first.core.table, "ab" * 32, (1,), (3, 5, 2, 4), 0)
            monkeypatch.setattr(session_series, "finished_of", lambda core: done)
            first.choose_other("level8")
            other = await first.other_session()
        finally:
            await first.close()
        try:
            return other.series, [line.text for line in other._log[:2]]
        finally:
            await other.close()

    series, log = asyncio.run(go())
    assert series == ["game 2 of the evening: Level 8"]  # the top of the new table
    assert log[0] == "game 2 of the evening: Level 8"  # and its log's first line
