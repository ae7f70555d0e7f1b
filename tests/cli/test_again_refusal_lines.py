"""The messages about the next game that a seat refuses are said on its table, in words and
naming the sender (``RemoteAgain.refusal_lines``). The LAN trial of 2026-12-08 with a seated
attacker (h1): dora sent an answer about an earlier game, an answer with a bad signature, one
in another player's name, one about another table, and statements of her own; each was
refused (``RematchLink.refused``) and none was shown: neither the screens nor ``--autoplay``
printed a word."""

from __future__ import annotations

import copy
from types import SimpleNamespace

from lancards.cli.i18n import set_language
from lancards.cli.notice_lines import RefusalLimit
from lancards.cli.remote_again import RemoteAgain
from lancards.p2p.protocol.errors import RemoteProtocolError
from lancards.p2p.protocol.series import sign_answer
from lancards.p2p.protocol.statement import sign_statement
from lancards.p2p.protocol.table import Outgoing
from tests.p2p.core_harness import identities
from tests.p2p.test_rematch import HEAD, Bus, finished, peers


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
