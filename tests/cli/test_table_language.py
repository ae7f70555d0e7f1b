"""``lancards resume`` without ``--lang`` goes on in the language the table was shown in
(cli/table_language.py). The new-user trial of session 27 played ``lancards --lang de play``,
pressed Ctrl-C, ran ``lancards resume`` and read German lines with English ones under them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from lancards.cli import i18n
from lancards.cli.main import main
from lancards.cli.table_language import FILE, recalled, remember, resume_language
from tests.cli.test_resume_log import played


@pytest.fixture(autouse=True)
def english() -> object:
    i18n.set_language("en")
    yield None
    i18n.set_language("en")


def test_the_remembered_language_is_used_unless_one_is_asked(tmp_path: Path) -> None:
    i18n.set_language("de")
    remember(tmp_path)
    assert (tmp_path / FILE).read_text() == "de\n" and recalled(tmp_path) == "de"
    i18n.set_language("en")
    resume_language(tmp_path, "en")  # --lang en given: it stays
    assert i18n.language() == "en"
    resume_language(tmp_path, None)
    assert i18n.language() == "de"
    assert i18n._("table {name} is finished: nothing to resume") != \
        "table {name} is finished: nothing to resume"


@pytest.mark.parametrize("text", ["", "fr\n", "\xff\xfe", "en de\n"])
def test_a_word_that_is_no_language_is_ignored(tmp_path: Path, text: str) -> None:
    (tmp_path / FILE).write_bytes(text.encode("latin-1"))
    assert recalled(tmp_path) is None
    resume_language(tmp_path, None)
    assert i18n.language() == "en"


def test_a_folder_that_cannot_be_written_is_no_fault(tmp_path: Path) -> None:
    remember(tmp_path / "gone")  # no such folder: nothing written, nothing raised
    assert not (tmp_path / "gone").exists() and recalled(tmp_path / "gone") is None


def test_a_table_played_in_german_is_resumed_in_german(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The session that shows a table writes its language; ``lancards resume TABLE`` (no
    ``--lang``, an English environment) then speaks German, here in its refusal of a finished
    table; ``--lang en`` on either side of the command still wins."""
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    monkeypatch.setenv("LANG", "C.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    i18n.set_language("de")
    folder, _log = asyncio.run(played(tmp_path, "eights", 5))
    assert recalled(folder) == "de"
    (folder / "finished").write_text("")
    table = folder.name
    assert json.loads((folder / "table.json").read_text())["statement"]["tbl"] == table
    assert main(["resume", "--autoplay", table]) == 2
    assert capsys.readouterr().err == (
        f"lancards resume: Fehler: Tisch {table} ist beendet: nichts fortzusetzen\n")
    for words in (["resume", "--autoplay", "--lang", "en", table],
                  ["--lang", "en", "resume", "--autoplay", table]):
        assert main(words) == 2
        assert capsys.readouterr().err == (
            f"lancards resume: error: table {table} is finished: nothing to resume\n")
