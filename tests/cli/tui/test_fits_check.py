"""The 80-column check itself (``tests/cli/tui/fits.py``): a screen's last line may fill the 80th
column only as the key line ending in one of its extras whole; any other text there reads as
cut at the edge."""

from __future__ import annotations

import pytest

from tests.cli.tui.fits import check_fits

KEYS = " Leertaste markiert 3 Karten (0 markiert) · Enter zeigt sie · q beenden · h Tipp"


def test_a_full_key_line_at_the_bottom_fits() -> None:
    assert len(KEYS) == 80
    check_fits("\n".join([" Level 8 Master", KEYS]), "the show phase")


@pytest.mark.parametrize("last", [
    (" your hand (10 cards): R4 B5 G7 R8 G8 R11 P15 J6-10 J11-15 TAKE and then what is cut "
     "at the edge of the window")[:80],
    (" Leertaste markiert 3 Karten (0 markiert) · Enter zeigt sie · q beenden und mehr Worte "
     "danach")[:80],  # an extra, then words cut at the edge
])
def test_text_cut_at_the_edge_of_the_last_line_is_caught(last: str) -> None:
    assert len(last) == 80
    with pytest.raises(AssertionError, match="fills the 80 columns"):
        check_fits("\n".join([" Level 8 Master", last]), "a cut line")


PAUSE_DE = " j oder p: Pause: das Spiel wartet auf dich (lancards resume bringt dich zurück)"
LEAVE_DE = [" Den Tisch verlassen?", PAUSE_DE,
            " l: endgültig gehen: das Spiel geht ohne dich weiter", " n: bleiben"]
SKIP_TITLE = " put the Skip card in front of   (its number, or up/down and Enter; Esc cancels)"
SKIP = [SKIP_TITLE, " > 2. skip Ada", "   3. skip Bram"]


@pytest.mark.parametrize(("lines", "full"), [(LEAVE_DE, PAUSE_DE), (SKIP, SKIP_TITLE)])
def test_a_whole_line_that_fills_the_80_columns_fits_when_its_text_is_known(
        lines: list[str], full: str) -> None:
    """The German leave dialog's pause line and the English Skip target picker's title are 80
    columns, whole, the next line at the screen's margin: read as cut at the edge before."""
    assert len(full) == 80
    with pytest.raises(AssertionError, match="goes on unindented"):
        check_fits("\n".join(lines), "not said whole")
    check_fits("\n".join(lines), "the dialog", whole=[full])


@pytest.mark.parametrize("lines", [LEAVE_DE, SKIP])
def test_a_line_cut_or_wrapped_mid_word_is_caught_though_a_whole_line_is_expected(
        lines: list[str]) -> None:
    """The expected whole line cut at the edge differs from its text; the same text wrapped by
    the terminal mid-word goes on at column 1 of the next line."""
    full = lines[1] if lines is LEAVE_DE else lines[0]
    at = lines.index(full)
    cut = [*lines[:at], full[:-3] + "xyz", *lines[at + 1:]]  # other words cut at the edge
    with pytest.raises(AssertionError, match="goes on unindented"):
        check_fits("\n".join(cut), "a cut line", whole=[full])
    wrapped = [*lines[:at], (full[:-3] + " waits")[:80], "its", *lines[at + 1:]]
    with pytest.raises(AssertionError, match="at column 1"):
        check_fits("\n".join(wrapped), "a wrapped line", whole=[wrapped[at]])
