"""Another game at a host/join table's end (``RemoteAgain.status``, ``again_words`` and
``follow_answer`` in ``cli/play_again.py``; ``docs/protocol.md`` 6.1, "Another game"): the
game-over panel offers the other games by number as ``lancards play`` does (the LAN trial of
2026-12-07 was offered the same game alone; then it said to quit and host a new lobby); the
number answers "yes" naming that game over the links, and while the others have not chosen the
panel says who chose what ("Ada wants 8s Rule!; waiting for Cyd"). A host's bots follow the
people's choice."""

from __future__ import annotations

from typing import Any

import pytest

from lancards.cli.i18n import NO_BREAK, set_language
from lancards.cli.play_again import again_words, follow_answer
from lancards.cli.remote_again import RemoteAgain
from lancards.cli.tui.fit import wrap_indented
from lancards.p2p.protocol.rematch import Finished, Rematch
from lancards.p2p.protocol.table import start_local
from tests.cli.tui.harness import driven
from tests.cli.tui.test_play_again_screen import _over
from tests.p2p.core_harness import identities


def _agreements(game: str, players: int, bots: int = 0) -> list[Rematch]:
    """Every seat's agreement at the end of a ``game`` of ``players`` (the last ``bots`` of
    them bots), in the identities' order (ann first)."""
    people = identities(players)
    table = start_local(people, game, {}, table="00000000000000bb",
                        bots={p.public_key: "normal" for p in people[players - bots:]})
    done = Finished(table, "ab" * 32, (0,), tuple(range(players)), 0)
    return [Rematch(p, done) for p in people]


def _remote(r: Rematch) -> RemoteAgain:
    """A host/join seat's RemoteAgain (no links: only its status is asked)."""
    again = RemoteAgain.__new__(RemoteAgain)
    again.rematch = r
    again.alone_text = ""
    return again


def _tell(to: Rematch, by: Rematch, yes: bool, game: str | None = None) -> None:
    """``by`` answers; ``to`` takes it through the envelope codec."""
    for out in by.answer(yes, game):
        if to.me.public_key in out.to:
            to.receive_bytes(by.me.public_key, out.envelope.encode())


def test_a_host_join_seat_is_offered_the_other_games_by_number_until_it_answers() -> None:
    ann = _agreements("level8-master", 5)[0]
    status = _remote(ann).status()
    assert status["asked"] and status["choose"]
    assert status["others"] == {"1": "level8", "2": "level8-en", "3": "eights"}
    ann.answer(True, "eights")
    assert "others" not in _remote(ann).status()
    assert _remote(_agreements("level8", 2)[0]).status()["others"] == {
        "1": "level8-master", "2": "level8-en"}  # 8s Rule! needs 3


@pytest.mark.parametrize(("lang", "lines"), [
    ("en", ["you chose 8s Rule!; waiting for bob and cyd",
            "you chose 8s Rule!; bob wants 8s Rule!; waiting for cyd",
            "no next game: the players chose different games: ann: 8s Rule!, bob: 8s Rule!, "
            "cyd: Level 8 Master; q to leave"]),
    ("de", ["du hast 8s Rule! gewählt; wartet auf bob und cyd",
            "du hast 8s Rule! gewählt; bob möchte 8s Rule!; wartet auf cyd",
            "kein nächstes Spiel: die Spieler haben verschiedene Spiele gewählt: ann: 8s Rule!, "
            "bob: 8s Rule!, cyd: Level 8 Master; q zum Gehen"]),
])
def test_the_panel_says_who_chose_what_while_the_others_choose(lang: str,
                                                                lines: list[str]) -> None:
    ann, bob, cyd = _agreements("level8-master", 3)
    said = []
    set_language(lang)
    try:
        ann.answer(True, "eights")
        said.append(again_words(_remote(ann).status()))
        _tell(ann, bob, True, "eights")
        said.append(again_words(_remote(ann).status()))
        _tell(ann, cyd, True)  # the same game: they chose differently
        said.append(again_words(_remote(ann).status()))
    finally:
        set_language("en")
    assert [line.replace(NO_BREAK, " ") for line in said] == lines


def test_a_number_answers_yes_naming_that_game_and_the_panel_waits_at_80_columns() -> None:
    session = _over()  # Ann's Level 8 Master is over; Ben and Cyd choose at their screens
    chosen: list[tuple[bool, Any]] = []

    def play_again(yes: bool, game: str | None = None) -> None:
        chosen.append((yes, game))
        session.again = {**session.again, "asked": False, "waiting": ["Ben", "Cyd"],
                         "mine": game or "", "wants": []}
        session._changed()

    session.play_again = play_again  # type: ignore[method-assign]
    session.again = {**session.again, "choose": True,
                     "others": {"1": "level8", "2": "level8-en", "3": "eights"}}
    with driven(session, 80, 24) as d:
        assert [row.rstrip() for row in d.text().rstrip().splitlines()[-2:]] == [
            " play again with the same players? a: play again · q: leave",
            " or another game with them: 1: Level 8 · 2: Level 8 (English) · 3: 8s Rule!"]
        screen = d.press("3")
        assert chosen == [(True, "eights")] and not d.done  # the screen stays: they choose
        assert "you chose 8s Rule!; waiting for Ben and Cyd" in screen
        session.again = {**session.again, "waiting": ["Cyd"], "wants": [("Ben", "eights")]}
        session._changed()
        d.settle(lambda: "Ben wants 8s Rule!; waiting for Cyd" in d.text())
        assert "you chose 8s Rule!; Ben wants 8s Rule!; waiting for Cyd" in d.text()
        assert "another game with them" not in d.text()


def test_before_answering_the_panel_says_what_the_others_chose() -> None:
    session = _over()  # Ann has not answered; Ben chose 8s Rule! at his screen
    session.again = {**session.again, "choose": True, "wants": [("Ben", "eights")],
                     "ended": "level8-master",
                     "others": {"1": "level8", "2": "level8-en", "3": "eights"}}
    with driven(session, 80, 24) as d:  # a is Level 8 Master again, said (the trial of
        # 2026-12-08 read "a: play again", pressed a and ended the evening)
        assert [row.rstrip() for row in d.text().rstrip().splitlines()[-3:]] == [
            " play again with the same players? a: Level 8 Master again · q: leave",
            " Ben wants 8s Rule!",
            " or another game with them: 1: Level 8 · 2: Level 8 (English) · 3: 8s Rule!"]


def test_a_hosts_bots_wait_for_the_people_and_follow_their_game() -> None:
    ann, bob, bot1, _ = _agreements("level8-master", 4, bots=2)
    assert follow_answer(bot1) is None  # ann and bob have not answered
    _tell(bot1, ann, True, "eights")
    assert follow_answer(bot1) is None
    _tell(bot1, bob, True, "eights")
    assert follow_answer(bot1) == (True, "eights")
    # people who chose differently: the bot says the same game (it cannot mend it)
    ann, bob, bot1, _ = _agreements("level8-master", 4, bots=2)
    _tell(bot1, ann, True, "eights")
    _tell(bot1, bob, True, "level8")
    assert follow_answer(bot1) == (True, "")
    # the waiting line names the people, not the bots that follow them
    ann, _, _, _ = _agreements("level8-master", 4, bots=2)
    ann.answer(True, "eights")
    assert _remote(ann).status()["waiting"] == ["bob"]


def test_an_autoplayed_seat_of_a_person_answers_at_once_and_never_waits() -> None:
    _, bob, bot1, _ = _agreements("level8-master", 4, bots=2)
    assert follow_answer(bob) == (True, "")  # bob's seat is a person's: the bots wait for it
    assert follow_answer(bot1) is None


def test_too_few_for_the_game_that_ended_a_does_nothing_and_a_number_chooses() -> None:
    """An 8s Rule! table with 2 players left (``too_few_for``): the panel offers the Level 8
    games without "a: play again"; ``a`` answers nothing, a number answers "yes" to its game."""
    session = _over()
    chosen: list[tuple[bool, Any]] = []

    def play_again(yes: bool, game: str | None = None) -> None:
        chosen.append((yes, game))

    session.play_again = play_again  # type: ignore[method-assign]
    session.again = {**session.again, "choose": True, "too_few_for": "eights",
                     "others": {"1": "level8-master", "2": "level8", "3": "level8-en"}}
    with driven(session, 80, 24) as d:
        assert [row.rstrip() for row in d.text().rstrip().splitlines()[-2:]] == [
            " too few players left for 8s Rule!: another game with them? · q: leave",
            " another game with them: 1: Level 8 Master · 2: Level 8 · 3: Level 8 (English)"]
        d.press("a")
        assert chosen == [] and not d.done
        d.press("2")
        assert chosen == [(True, "level8")]


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "you chose Level 8 Master; ann wants 8s Rule!; waiting for cyd"),
    ("de", "du hast Level 8 Master gewählt; ann möchte 8s Rule!; wartet auf cyd"),
])
def test_a_after_another_players_other_game_says_the_game_it_chose(lang: str,
                                                                    line: str) -> None:
    """The trial of 2026-12-08 (h9): ann chose another game by number, bob pressed a; his
    panel said 'ann wants ...; waiting for Ada' and not that a had chosen the game that ended,
    while ann's said 'you chose ...'."""
    ann, bob, _cyd = _agreements("level8-master", 3)
    _tell(bob, ann, True, "eights")
    bob.answer(True)  # a: the same game
    set_language(lang)
    try:
        said = again_words(_remote(bob).status())
    finally:
        set_language("en")
    assert said == line


def test_a_alone_says_only_whom_it_waits_for() -> None:
    ann, bob, _cyd = _agreements("level8-master", 3)
    _tell(bob, ann, True)
    bob.answer(True)
    assert again_words(_remote(bob).status()) == "play again: waiting for cyd to answer"


@pytest.mark.parametrize(("lang", "lines"), [
    ("en", ["no next game: the players chose different games: Ada: Level 8,",
            "   ann: Level 8 Master, bob: Level 8; q to leave"]),
    ("de", ["kein nächstes Spiel: die Spieler haben verschiedene Spiele gewählt:",
            "   Ada: Level 8, ann: Level 8 Master, bob: Level 8; q zum Gehen"]),
])
def test_different_choices_wrap_between_the_players_only(lang: str, lines: list[str]) -> None:
    """The trial of 2026-12-08 (h9) read 'Ada: Level' / '8' on the game-over panel at 80
    columns, in both languages."""
    status = {"failed": "x", "failed_code": ("games-differ", {"pairs": (
        ("Ada", "level8"), ("ann", "level8-master"), ("bob", "level8"))})}
    set_language(lang)
    try:
        said = wrap_indented(again_words(status), 79)  # the panel's line after its space
    finally:
        set_language("en")
    assert [line.replace(NO_BREAK, " ") for line in said] == lines


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "play again with the same players? a: 8s Rule! again · q: leave"),
    ("de", "noch einmal mit denselben Spielern? a: noch einmal 8s Rule! · q: gehen"),
])
def test_once_another_player_chose_another_game_a_names_the_game_it_plays(lang: str,
                                                                           line: str) -> None:
    """bob has not answered; ann chose Level 8 at the end of 8s Rule!: ``a`` is 8s Rule! again,
    said on its key (a person read ``a: play again`` as "yes, with them", pressed it and the
    evening ended on different games: the second reading of 2026-12-08)."""
    ann, bob, _cyd = _agreements("eights", 3)
    _tell(bob, ann, True, "level8")
    set_language(lang)
    try:
        said = again_words(_remote(bob).status())
    finally:
        set_language("en")
    assert said == line
