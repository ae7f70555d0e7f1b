"""The log under a Level 8 table at 80x24 keeps a mark line and six lines once the melds are
on the table (cli/tui/log_room.py): a new-user trial saw two or three lines and paged back with
PgUp to learn what the bots did between two of their turns."""

from __future__ import annotations

from tests.cli.tui.harness import driven
from tests.cli.tui.test_golden_screens import level8_mid_round, played_until


def test_level8_log_keeps_six_lines_at_80x24() -> None:
    session = played_until("level8-master", 5, level8_mid_round)
    with driven(session, 80, 24) as d:
        rows = d.text().splitlines()
    start = next(i for i, row in enumerate(rows) if "more above (PgUp/PgDn)" in row)
    assert rows[start - 1] == " ▼ 4 more below (< >)"
    assert rows[start + 1:start + 7] == [
        " Bram drew B8 from Ada's discard pile",
        " Bram laid down level 3 (triplet + 4 of one colour): R8 B8 P8 | Y4 Y5 Y6 Y14",
        " Bram added Y15 to combination 6 (Bram's colour group Y)",
        " Bram discarded O15",
        " Cleo drew from the draw pile",
        " Cleo played KEEP (I'll keep that!)",
    ]
    assert rows[start + 7].startswith(" your hand (1 card")
