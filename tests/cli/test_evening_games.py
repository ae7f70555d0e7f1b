"""An evening counts its games of any rule set (the new-user trial of 2026-12-07: after Level 8
Master, then Level 8 chosen at its end, the second game-over panel had no evening line, while
``a``, the same game again, showed ``game 2 of the evening ...``): the games won summed per
player over every game; the points only where every game was 8s Rule! (the others' figures are
levels, which do not add up)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from types import SimpleNamespace

from lancards.cli import session_series
from lancards.cli.i18n import NO_BREAK
from lancards.cli.play_again import evening_of, series_words
from lancards.cli.session_series import evening_after, keep_evening
from tests.cli.test_evening_line import _game


def _shown(line: str | None) -> str | None:
    """``line`` as it prints: its no-break spaces (inside each player's entry) as spaces."""
    return None if line is None else line.replace(NO_BREAK, " ")


def _before(game: str) -> list[dict[str, object]]:
    first = _game(1, [])  # Cyd 40, Ben 20 and the win, Ann 60 (seats Cyd, Ben, Ann)
    return [{"game": game, "games": 1, "totals": first.totals()}]


def test_the_evening_after_another_game_counts_both(german: None) -> None:
    second = _game(2, [])  # a first game of its own series: Ben 40, Ann 20 and the win, Cyd 60
    second = dataclasses.replace(second, table=dataclasses.replace(
        second.table, statement={k: v for k, v in second.table.statement.items()
                                 if k != "follows"}))
    assert second.number == 1 and evening_of(second, "eights") is None
    me = second.table.seats[0].public_key.hex()  # Ben
    assert _shown(evening_of(second, "eights", me, _before("level8-master"))) == (
        "der Abend bisher: Cyd: 0 Siege · Du: 1 Sieg · Ann: 1 Sieg")
    assert _shown(evening_of(second, "eights", me, _before("eights"))) == (
        "der Abend bisher: Cyd: 0 Siege, 100 Punkte · Du: 1 Sieg, 60 Punkte · Ann: 1 Sieg, "
        "80 Punkte")


def test_the_evening_after_another_game_in_english() -> None:
    second = _game(2, [])
    second = dataclasses.replace(second, table=dataclasses.replace(
        second.table, statement={k: v for k, v in second.table.statement.items()
                                 if k != "follows"}))
    me = second.table.seats[0].public_key.hex()
    assert _shown(evening_of(second, "level8", me, _before("level8-master"))) == (
        "evening so far: Cyd: 0 wins · You: 1 win · Ann: 1 win")
    assert _shown(evening_of(second, "eights", me, _before("level8"))) == (
        "evening so far: Cyd: 0 wins · You: 1 win · Ann: 1 win")
    # "a" then: the next game of that series is game 3 of the evening, the evening before it
    # both games
    third = _game(3, second.totals())
    ben = third.table.seats[[m.nick for m in third.table.seats].index("Ben")].public_key
    lines = series_words(third.table, "eights", ben, _before("level8-master"))
    assert lines[0].startswith("game 4 of the evening: ")  # 1 before, this series' 1 and 2
    assert _shown(lines[1]) == "evening so far: Cyd: 0 wins · You: 1 win · Ann: 1 win"
    assert series_words(third.table, "eights", ben)[0].startswith("game 3 of the evening: ")


def test_another_game_takes_the_evening_on(monkeypatch) -> None:
    first = _game(1, [])
    monkeypatch.setattr(session_series, "finished_of", lambda core: first)
    old = SimpleNamespace(core=None, game=SimpleNamespace(name="level8-master"),
                          evening_before=())
    after = evening_after(old)
    assert after == ({"game": "level8-master", "games": 1, "totals": first.totals(),
                      "table": first.table.spec.table},)
    second = _game(2, [])
    new = SimpleNamespace(core=SimpleNamespace(table=second.table, me=second.table.seats[0]),
                          game=SimpleNamespace(name="level8"), series=[])
    keep_evening(new, after)
    assert new.evening_before == after
    assert new.series[0].startswith("game 3 of the evening: ")  # game 2 of its series


def test_the_new_table_s_first_write_holds_the_evening(monkeypatch, tmp_path) -> None:
    """The evening is in the new table's ``table.json`` from its first write on: written after
    it, a kill -9 between the two writes (the crash test in tests/e2e/test_persona_evening.py)
    left a table that resumed with no evening, and its game-over panel said none."""
    import asyncio

    from lancards.cli.net_session import NetworkSession
    from lancards.p2p.net.store import TableStore
    from lancards.p2p.protocol.identity import Identity

    written: list[tuple[str, dict[str, object]]] = []
    save = TableStore.save_table

    def saving(store: TableStore, data: dict[str, object],
               torn: Callable[[], bool] | None = None) -> None:
        written.append((store.folder.name, json.loads(json.dumps(data))))
        save(store, data, torn)

    first = _game(1, [])

    async def go() -> tuple[str, tuple[dict[str, object], ...]]:
        old = await NetworkSession.create("level8-master", {}, Identity(b"\x0c" * 32, "Ann"),
                                          2, home=tmp_path, bot_delay=0, seed=7)
        try:
            old.choose_other("eights")
            monkeypatch.setattr(session_series, "finished_of", lambda core: first)
            monkeypatch.setattr(TableStore, "save_table", saving)
            new = await old.other_session()
        finally:
            await old.close()
        await new.close()
        return new.core.table.spec.table, new.evening_before

    table, before = asyncio.run(go())
    evening = [{"game": "level8", "games": 1, "totals": first.totals(),  # the game's name
                "table": first.table.spec.table}]
    assert list(before) == evening
    ours = [data for folder, data in written if folder == table]
    assert ours and all(data["evening"] == evening for data in ours)
    assert json.loads((tmp_path / "tables" / table / "table.json").read_text())["evening"] \
        == evening  # for a resume
