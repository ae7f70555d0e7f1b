"""A watcher's screen says a refused message as the seated table's log does (``cli/refusal_words``
through :func:`~lancards.cli.notice_lines.notice_line`), once per sender and reason a minute:
the last session's trials read it the old way on the watcher's screen, ``refused: message from
eve [...] refused (seat 1, entry 12): ...``, beside ``! eve sent step 12 of the game again, ...``
on the seated screens."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from lancards.cli import i18n
from lancards.cli.lobby.watch_refusals import WatchRefusals
from lancards.cli.lobby.watch_table import PlainTeller
from lancards.p2p.protocol.errors import Reason, RecordError
from lancards.p2p.protocol.watching import Event

EVE = "eve [6J4G-VXMG-NOVI-RZH4] (seat 1)"


def _again(seq: int) -> Event:
    error = RecordError(EVE, Reason.REPLAYED, f"entry {seq} is already in the record", seq - 1
                        ).with_code("entry-again", seq=seq)
    return Event("rejected", str(error), error=error)


def _forged() -> Event:
    error = RecordError(EVE + " (unverified)", Reason.BAD_SIGNATURE,
                        f"signature by {EVE} does not verify", 11
                        ).with_code("entry-signature", name=EVE)
    return Event("rejected", str(error), error=error)


def _teller(marked: bool) -> tuple[PlainTeller, list[str], list[float]]:
    said: list[str] = []
    now = [100.0]
    teller = PlainTeller(SimpleNamespace(core=None), said.append, marked=marked)  # type: ignore[arg-type]
    teller._refusals = WatchRefusals(clock=lambda: now[0])
    return teller, said, now


@pytest.mark.parametrize(("language", "lines"), [
    ("en", ["! eve sent step 12 of the game again, which the table already has: ignored",
            "! a message said to be eve's does not carry eve's signature: ignored",
            "! eve sent step 14 of the game again, which the table already has: ignored"]),
    ("de", ["! eve hat Schritt 12 des Spiels noch einmal geschickt, den der Tisch schon hat: "
            "ignoriert",
            "! eine Nachricht, angeblich von eve, trägt nicht die Signatur von eve: ignoriert",
            "! eve hat Schritt 14 des Spiels noch einmal geschickt, den der Tisch schon hat: "
            "ignoriert"]),
])
def test_the_watchers_screen_says_refusals_as_the_seated_table_once_a_minute(
        language: str, lines: list[str]) -> None:
    teller, said, now = _teller(marked=True)
    i18n.set_language(language)
    try:
        teller.tell(_again(12))
        teller.tell(_forged())  # another reason: told
        now[0] += 30
        teller.tell(_again(13))  # the same sender and reason within the minute: not told
        now[0] += 31
        teller.tell(_again(14))  # a minute after the first: told again
    finally:
        i18n.set_language("en")
    assert said == lines


def test_printed_watch_lines_keep_their_refused_prefix_with_the_same_words() -> None:
    teller, said, _now = _teller(marked=False)
    teller.tell(_again(12))
    teller.tell(Event("rejected", "entry 5 again"))  # the watcher's own: as before
    teller.tell(Event("rejected", "entry 6 again"))  # the same within the minute
    assert said == [
        "refused: eve sent step 12 of the game again, which the table already has: ignored",
        "refused: entry 5 again"]
