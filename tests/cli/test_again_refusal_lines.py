"""The messages about the next game that a seat refuses are said on its table, in words and
naming the sender (``RemoteAgain.refusal_lines``). The LAN trial of 2026-12-08 with a seated
attacker (h1): dora sent an answer about an earlier game, an answer with a bad signature, one
in another player's name, one about another table, and statements of her own; each was
refused (``RematchLink.refused``) and none was shown: neither the screens nor ``--autoplay``
printed a word."""

from __future__ import annotations

import copy
from types import SimpleNamespace

from lancards.cli.i18n import _, set_language
from lancards.cli.notice_lines import RefusalLimit
from lancards.cli.peer_errors import rematch_words
from lancards.cli.rejection_details import DETAIL_WORDS, detail_values
from lancards.cli.remote_again import RemoteAgain
from lancards.p2p.protocol.errors import RemoteProtocolError
from lancards.p2p.protocol.series import sign_answer
from lancards.p2p.protocol.statement import sign_statement
from lancards.p2p.protocol.table import Outgoing
from tests.p2p.core_harness import identities
from tests.p2p.test_rematch import HEAD, Bus, finished, peers
from tests.p2p.test_rematch_games import _seated, _send


def _refused() -> tuple[list[RemoteProtocolError], str, str]:
    """What ann (the proposer) and bram refuse of dora's messages at the end of a game."""
    people = identities(3)
    done = finished(people, "eights")
    order = [m.public_key for m in done.table.seats]
    rematches = peers(sorted(people, key=lambda p: order.index(p.public_key)), done)
    bus = Bus(rematches)
    proposer, evil, victim = rematches
    table = done.table.spec.table
    old = sign_answer(evil.me, "00000000000000aa", HEAD, True)  # about another game
    bad = {**sign_answer(evil.me, table, HEAD, True), "sig": "11" * 64}
    forged = {**sign_answer(evil.me, table, HEAD, False), "by": proposer.me.public_key.hex()}
    for answer in (old, bad, forged):
        bus.post(evil.me.public_key, [Outgoing((victim.me.public_key,), evil._out(
            (), "rematch.answer", {"answer": answer}).envelope)])
    bus.post(evil.me.public_key, evil.answer(True))
    bus.mute.add(evil.me.public_key)  # dora never signs: the next game waits for her
    bus.post(proposer.me.public_key, proposer.answer(True))
    bus.post(victim.me.public_key, victim.answer(True))
    bus.run()
    statement = copy.deepcopy(victim.statement)
    assert statement is not None
    statement["host"] = evil.me.public_key.hex()  # dora proposes, though ann is the proposer
    bus.post(evil.me.public_key, [Outgoing((victim.me.public_key,), evil._out(
        (), "rematch.sign", {"statement": statement, "sigs": {
            evil.me.public_key.hex(): sign_statement(evil.me, statement).hex()}}).envelope)])
    bus.run()
    return (bus.refused[victim.me.public_key], victim.name(evil.me.public_key),
            victim.name(proposer.me.public_key))


def _lines(refusals: list[RemoteProtocolError]) -> list[dict[str, list[str]]]:
    again = RemoteAgain.__new__(RemoteAgain)
    again.link = SimpleNamespace(refusals=refusals)
    again._shown, again._limit = 0, RefusalLimit(window=0.0)
    first = again.refusal_lines()
    assert again.refusal_lines() == []  # each told once
    return first


def test_each_refused_message_about_the_next_game_is_one_line_naming_its_sender() -> None:
    refusals, dora, ann = _refused()
    set_language("en")
    assert [said["en"] for said in _lines(refusals)] == [
        [f"! message from {dora} refused: for another table: the answer of {dora} is about "
         f"table 00000000000000aa (entry {HEAD[:12]}), not the game that ended here"],
        [f"! message from {dora} refused: its signature does not verify: the answer of {dora}"],
        [f"! message from {dora} refused: its signature does not verify: the answer of {ann}"],
        [f"! message from {dora} refused: it breaks the rules of forming a table: the next "
         f"game is proposed by {dora}, not by {ann}"],
    ]


def test_a_flood_of_one_kind_is_one_line_a_minute_and_german_is_said_too() -> None:
    refusals, dora, _ = _refused()
    again = RemoteAgain.__new__(RemoteAgain)
    again.link = SimpleNamespace(refusals=[refusals[1]] * 30)  # the same bad signature
    again._shown, again._limit = 0, RefusalLimit()
    [said] = again.refusal_lines()
    assert said["de"] == [f"! Nachricht von {dora} abgelehnt: die Signatur stimmt nicht: die "
                          f"Antwort von {dora}"]


def test_a_player_who_chose_two_games_is_named_on_both_tables_with_the_games_names() -> None:
    """The attack of the games night: dora signs "yes, 8s Rule!" for ann and "yes, Level 8"
    for bram after Level 8 Master; each passes the answer it took on to the other, so both
    name dora on the table, the games by their names (the line said ``(eights and level8)``,
    and ``-`` for a "yes" to the same game)."""
    done, (dora, ann, bram) = _seated(3)
    bus = Bus([dora, ann, bram])
    bus.mute.add(dora.me.public_key)
    table = done.table.spec.table
    _send(bus, dora, sign_answer(dora.me, table, HEAD, True, (), "eights"), ann)
    _send(bus, dora, sign_answer(dora.me, table, HEAD, True, (), "level8"), bram)
    bus.run()
    for seat, games, spiele in ((ann, "8s Rule! and Level 8", "8s Rule! und Level 8"),
                                (bram, "Level 8 and 8s Rule!", "Level 8 und 8s Rule!")):
        name = seat.name(dora.me.public_key)
        set_language("de")
        assert rematch_words(seat.failed_code, "") == f"{name} hat zwei verschiedene Spiele gewählt"
        set_language("en")
        assert rematch_words(seat.failed_code, "") == f"{name} chose two different games"
        [said] = _lines(bus.refused[seat.me.public_key])
        assert said == {
            "en": [f"! message from {name} refused: {name} chose two different games "
                   f"({games})"],
            "de": [f"! Nachricht von {name} abgelehnt: {name} hat zwei verschiedene Spiele "
                   f"gewählt ({spiele})"]}


def test_a_yes_to_the_same_game_and_one_to_another_are_said_by_both_names() -> None:
    done, (dora, ann, bram) = _seated(3)
    bus = Bus([dora, ann, bram])
    bus.mute.add(dora.me.public_key)
    table = done.table.spec.table
    _send(bus, dora, sign_answer(dora.me, table, HEAD, True), ann)
    _send(bus, dora, sign_answer(dora.me, table, HEAD, True, (), "eights"), bram)
    bus.run()
    set_language("en")
    [said] = _lines(bus.refused[ann.me.public_key])
    assert said["en"][0].endswith("chose two different games (Level 8 Master and 8s Rule!)")


def test_a_statement_of_another_game_and_different_choices_name_the_games() -> None:
    set_language("en")
    other = {"game": "eights", "chose": "level8-en"}
    assert _(DETAIL_WORDS["statement-other-game"]).format(
        **detail_values(other) or {}, reason="R") == (
        "R: the next game plays 8s Rule!, but the answers chose Level 8 (English)")
    pairs = {"choices": "Ada: eights, Bram: level8", "pairs": (("Ada", "eights"),
                                                                ("Bram", "level8"))}
    assert _(DETAIL_WORDS["premature-games"]).format(**detail_values(pairs) or {}, reason="R") == (
        "R: the players chose different games (Ada: 8s Rule!, Bram: Level 8)")
