"""A tampering peer is caught by every honest peer, named with evidence; records stay intact.

``cyd`` runs with ``LANCARDS_TEST_CHEAT=swap-claim``: on its first discard it claims a card
other than the one it holds; the opening (decryption shares with Chaum-Pedersen proofs) shows
the real card, so every honest peer's engine rejects the entry (design: "Between peers"); when
the claimed card is one every peer already knows to be elsewhere, the engine rejects the claim
before the opening is even compared (ruling L8-3).
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.peers import finish, logs, open_table, seat_peers

pytestmark = pytest.mark.e2e

CHEATER = 2  # cyd, a joiner


def test_swap_claim_is_caught_by_every_honest_peer(lan, tmp_path):
    peers = seat_peers(lan, tmp_path, 4, env={CHEATER: {"LANCARDS_TEST_CHEAT": "swap-claim"}})
    open_table(peers, "level8")
    codes = finish(peers, 120, fail_fast=False)
    assert codes == [1, 1, 1, 1], logs(peers)
    cheater = peers[CHEATER]
    honest = [p for p in peers if p is not cheater]
    records = {p.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in honest}
    assert len(records) == 1, "the honest peers' records differ"
    for peer in honest:
        verdict = peer.audit()
        # Verified up to the halt: UNFINISHED (exit 3).
        assert (verdict["exit"], verdict["ok"], verdict["finished"]) == (3, True, False), verdict
        assert verdict["entries"] > 0
        cheat_lines = [line for line in peer.output().splitlines() if line.startswith("cheat:")]
        assert len(cheat_lines) == 1, peer.output()
        line = cheat_lines[0]
        # In words (the peer layer's sentence, with its seat and entry, is --verbose's): the
        # claimed move and the evidence, the opening showing another card or every copy of the
        # claimed card known to be elsewhere.
        assert re.fullmatch(r"cheat: cyd signed a move the rules do not allow: \S.* \((that "
                            r"card is \S+, not \S+|every \S+ of the deck is known to be "
                            r"elsewhere)\)", line), line
        assert "rejected message" not in line and "ruling" not in line, line
        assert "\nLevel 8: the table halted: cyd signed a move the rules do not allow" in \
            peer.output()  # in words; the evidence is on the cheat line
    assert "cheat:" not in cheater.output()
    assert "the table halted: this peer cheated" in cheater.output()
