"""Another game with the same players at a ``lancards play`` table's end (``cli/play_again.py``,
``cli/session_series.py``, ``cli/tui/other_game.py``): "play again" offered the same game only;
the game-over panel now offers the other rule sets too (keys ``1``, ``2``...), those the same
number of players may play, and a pick opens a new table of that game with the same player,
the same bots (keys, names) and each bot's level."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest

from lancards.cli import play_again
from lancards.cli.net_session import NetworkSession
from lancards.cli.play_again import PlayAgain, other_games, others_words
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.rematch import Finished
from lancards.p2p.protocol.table import start_local
from tests.p2p.core_harness import identities

pytestmark = pytest.mark.timeout(120)

ME = Identity(b"\x0c" * 32, "Ann")


def test_the_other_rule_sets_the_same_players_may_play() -> None:
    assert other_games("level8-master", 4) == {"1": "level8", "2": "level8-en", "3": "eights"}
    assert other_games("eights", 3) == {"1": "level8-master", "2": "level8", "3": "level8-en"}
    assert other_games("level8", 2) == {"1": "level8-master", "2": "level8-en"}  # 8s Rule!: 3+
    nb = "\u00a0"  # no-break spaces: a wrap cuts between the games only (fit.NO_BREAK)
    assert others_words(other_games("level8", 3)) == (
        f"or another game with them: 1:{nb}Level{nb}8{nb}Master{nb}· "
        f"2:{nb}Level{nb}8{nb}(English){nb}· 3:{nb}8s{nb}Rule!")
    assert others_words({}) == ""


@pytest.mark.parametrize("game,players,offered", [
    ("level8-master", 4, {"1": "level8", "2": "level8-en", "3": "eights"}),
    ("level8", 2, {"1": "level8-master", "2": "level8-en"}),
])
def test_play_again_offers_the_other_games_until_the_player_answers(
        monkeypatch: pytest.MonkeyPatch, game: str, players: int,
        offered: dict[str, str]) -> None:
    people = identities(players)
    table = start_local(people, game, {}, table="00000000000000aa")
    done = Finished(table, "ab" * 32, (0,), tuple(range(players)), 0)
    monkeypatch.setattr(play_again, "finished_of", lambda core: done)
    cores = [SimpleNamespace(me=p, next_envelope_seq=0) for p in people]
    again = PlayAgain(cores, cores[0])  # type: ignore[arg-type]
    status = again.status()
    assert status["asked"] and status["others"] == offered
    again.answer(True)
    assert "others" not in again.status()


def test_another_game_starts_with_the_same_players_and_levels(tmp_path: Path) -> None:
    async def go() -> tuple[tuple, tuple, dict, dict, str, str]:
        first = await NetworkSession.create("level8-master", {}, ME, 3, home=tmp_path,
                                            bot_delay=0, seed=7,
                                            bot_levels=["easy", "hard", "greedy"])
        try:
            first.choose_other("eights")  # the game is not over: nothing to say "no" to
            other = await first.other_session()
        finally:
            await first.close()
        try:
            def levels(s: NetworkSession) -> dict[str, str]:
                return {s.core.players[seat].nick: level for seat, level in s.bot_seats.items()}

            return (first.names, other.names, levels(first), levels(other),
                    other.game.name, other.names[other.seat])
        finally:
            await other.close()

    names, names2, levels, levels2, game, me = asyncio.run(go())
    assert game == "eights" and me == "Ann"
    # each in the place they had (the new-user trial of 2026-12-07: Level 8 Master's
    # 1 Bram, 2 Ada, 3 Cleo, 4 You became 1 Cleo, 2 Ada, 3 Bram, 4 You at Level 8)
    assert names == names2 == ("Ann", "Bram", "Cleo", "Ada")
    assert levels2 == levels and sorted(levels.values()) == ["easy", "greedy", "hard"]


def test_a_new_table_id_keeps_six_players_in_their_places() -> None:
    from lancards.cli.session_series import same_places_table

    people = identities(6)
    order = [people[i] for i in (4, 1, 5, 0, 3, 2)]
    for label in (None, "table-7-eights-2"):
        table = start_local(people, "eights", {}, table=same_places_table(order, label))
        assert [m.nick for m in table.seats] == [m.nick for m in order]
    assert same_places_table(order, "table-7-eights-2") == same_places_table(
        order, "table-7-eights-2")  # a seeded demo table stays the same
