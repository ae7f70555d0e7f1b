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
