"""A mixed table (issue 28): three ``lancards`` peers in three network namespaces, the host in
English, one joiner German by its environment (``LANG=de_DE.UTF-8``) and one by ``--lang de``.
Each prints its own language (the lobby's lines, the result); the records are byte for byte one
record (but for the closing line each peer signs itself), and it audits."""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.peers import finish, join_args, logs, open_table, seat_peers

pytestmark = pytest.mark.e2e


@pytest.mark.timeout(300)
def test_a_mixed_table_each_reads_its_language_and_the_record_is_one(lan, tmp_path):
    # the suite sets LANGUAGE=en (tests/conftest.py): an empty one lets LANG speak, as in a
    # terminal where only LANG is set
    peers = seat_peers(lan, tmp_path, 3, env={0: {"LANGUAGE": "", "LANG": "C.UTF-8"},
                                              1: {"LANGUAGE": "", "LANG": "de_DE.UTF-8"},
                                              2: {"LANGUAGE": "", "LANG": "en_GB.UTF-8"}})
    ann, bob, cyd = peers
    open_table(peers, "level8", joins=[])
    bob.start(join_args(bob))
    cyd.start([*join_args(cyd), "--lang", "de"])
    codes = finish(peers, 240)
    assert codes == [0, 0, 0], logs(peers)
    records = [p.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in peers]
    assert records[1] == records[0] and records[2] == records[0], "the records differ"
    verdict = ann.audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict
    nicks = json.loads(records[0].split(b"\n", 1)[0])["nicks"]
    winners = " and ".join(nicks[s] for s in verdict["winners"])  # type: ignore[union-attr]
    assert "waiting for 2 players" in ann.output()
    assert f"\nLevel 8: {winners} win" in ann.output(), ann.output()[-500:]  # names its game
    sieger = " und ".join(nicks[s] for s in verdict["winners"])  # type: ignore[union-attr]
    for german in (bob, cyd):
        out = german.output()
        assert re.search(r"^Tisch [0-9a-f]{16} \(Level 8\) von ann gefunden: "
                         r"(2 freie Plätze|1 freier Platz) unter [\d.]+ Port \d+$", out,
                         re.M), out[:800]
        assert "Gastgeber: ann [" in out
        assert re.search(rf"^Level 8: {sieger} gewinn(t|en) nach \d+ Runden?$", out,
                         re.M), out[-500:]
        assert "Ergebnis: " not in out and "result: " not in out, out[-500:]
        assert "waiting for" not in out and "found table" not in out
