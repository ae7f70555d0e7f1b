"""The games night across namespaces (``docs/protocol.md`` 6.1, "Another game";
``docs/client.md``, "Another game at a host/join table"): ann hosts 8s Rule! with a bot, bob
joins from his laptop; both play it by keys to its end. At the game-over panel ann presses the
number of Level 8: her panel says whom she waits for, bob's says what ann chose; bob presses
the same number, the host's bot follows the people, and Level 8 starts at once on both screens,
without a new lobby, the same three players in their places."""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.peers import seat_peers
from tests.e2e.test_persona import on, play_until, terminals, words

pytestmark = pytest.mark.e2e

OVER = r"or another game with them: 1: Level 8 Master · 2: Level 8 · 3:"


@pytest.mark.long  # a whole 8s Rule! game by keys across namespaces (a few minutes)
@pytest.mark.timeout(900)
def test_eights_then_level8_at_a_host_join_table_chosen_by_number(lan, tmp_path):
    peers = seat_peers(lan, tmp_path, 2)
    with terminals(lan, peers) as (ann, bob):
        ann.run(f"host --game eights --players 3 --bots 1 --bot-delay 0 {on(ann)}")
        ann.wait(r"waiting for 1 player", 30)
        bob.run(f"join {on(bob)}")
        bob.wait(r"8s Rule! +ann ", 30)
        bob.keys("Enter")
        for person in (ann, bob):
            screen = person.wait(r"your hand \([1-9]", 60, what="the deal")
            assert "8s Rule! · round 1" in screen, screen
        play_until(lambda: all(re.search(OVER, words(p.capture())) for p in (ann, bob)),
                   [ann, bob], 700, "the game's end on both screens")
        ann.keys("2")
        screen = ann.wait(r"you chose Level 8; waiting for bob", 20)
        assert "or another game with them" not in screen, screen
        screen = bob.wait(r"(?m)^ ann wants Level 8$", 20, what="ann's choice on bob's panel")
        assert "play again with the same players? a: 8s Rule! again · q: leave" in screen, screen
        bob.keys("2")
        for person in (ann, bob):
            screen = person.wait(r"(?m)^ Level 8 · round 1", 60, what="Level 8 on the screen")
            assert "8s Rule!" not in screen.splitlines()[0], screen
        datas = [json.loads(p.read_text()) for p in ann.peer.home.glob("tables/*/table.json")]
        tables = [d["statement"] for d in datas]
        [nxt] = [t for t in tables if t["game"] == "level8"]
        [old] = [t for t in tables if t["game"] == "eights"]
        # ann's seat keeps the evening before the new series (the 8s Rule! game), unsigned:
        # its evening line counts both games, as at lancards play
        [evening] = [d.get("evening") for d in datas if d["statement"]["game"] == "level8"]
        assert [(g["game"], g["games"], g["table"]) for g in evening] == [
            ("eights", 1, old["tbl"])], evening
        assert "evening" not in nxt
        assert (nxt["follows"]["tbl"], nxt["follows"]["game"], nxt["follows"]["seating"]) == (
            old["tbl"], 1, old["tbl"])
        assert [s["pk"] for s in nxt["seats"]] == [s["pk"] for s in old["seats"]]
        assert [a.get("game") for a in nxt["follows"]["accepts"]] == ["level8"] * 3
