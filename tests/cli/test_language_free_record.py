"""Nothing a table writes depends on the players' language (issue 28): the same seeded game
played by ``lancards play --autoplay`` in German and in English writes byte-identical
records, journals and outcomes (only the screen's words differ; the saved log, ``log.jsonl``,
is what this seat's screen showed and so is in its language)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lancards.p2p.net.identity_file import load_or_create_identity

FILES = ("record.jsonl", "journal.jsonl", "outcome.json", "table.json", "bots/1/journal.jsonl")


def played(home: Path, language: str) -> tuple[dict[str, bytes], str]:
    env = {**os.environ, "LANCARDS_HOME": str(home), "LANGUAGE": language}
    done = subprocess.run(
        [sys.executable, "-m", "lancards", "play", "--autoplay", "--seed", "3", "--bots", "1",
         "--game", "level8", "--bot-delay", "0", "--record", str(home / "game.jsonl")],
        env=env, capture_output=True, text=True, timeout=300, check=True)
    (table,) = (home / "tables").iterdir()
    files = {name: (table / name).read_bytes() for name in FILES}
    files["--record"] = (home / "game.jsonl").read_bytes()
    return files, done.stdout


@pytest.mark.long  # two whole networked games (about 10 s each)
def test_a_seeded_game_writes_the_same_bytes_in_german_and_in_english(tmp_path: Path) -> None:
    german, english = tmp_path / "de", tmp_path / "en"
    german.mkdir()
    english.mkdir()
    # the German and the English player have the same key
    load_or_create_identity(german / "identity.json", nick="You")
    shutil.copy(german / "identity.json", english / "identity.json")
    de_files, de_out = played(german, "de")
    en_files, en_out = played(english, "en")
    # the same round in each language's words (the seats' order follows the drawn key), "Du"
    # as the table says: "round 1: Ada level 2, You level 3", "Runde 1 – Ada: Stufe 2, Du: Stufe 3"
    english = en_out.splitlines()[0]
    seats = re.fullmatch(r"round 1: (Ada|You) level (\d), (Ada|You) level (\d)", english)
    assert seats is not None and {seats[1], seats[3]} == {"Ada", "You"}, english
    du = {"Ada": "Ada", "You": "Du"}
    assert de_out.splitlines()[0] == (f"Runde 1 – {du[seats[1]]}: Stufe {seats[2]}, "
                                      f"{du[seats[3]]}: Stufe {seats[4]}")
    for name in (*FILES, "--record"):
        assert de_files[name] == en_files[name], name
