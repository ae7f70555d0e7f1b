"""Rows of the log under the table (below :data:`lancards.cli.tui.app.WIDE` columns).

A new-user trial at 80x24 saw only two or three log lines once the melds were on the table:
the bots' ten moves between two of the person's turns scrolled away and the person paged back
with PgUp to learn that Ada had taken their card. The log keeps a mark line and six lines; a
table taller than what is left scrolls with ``<`` / ``>`` instead. While a panel is open (the
lay-down builder) the log keeps a mark line and three lines, so the panel fits at 80x24; so does
the 8s Rule! table, whose trick lines at the table's end must stay in sight.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.layout.dimension import Dimension

from lancards.cli.tui.controller import BaseController
from lancards.cli.tui.level8_keys import Level8Controller

LOG_ROWS = 7
"""The least rows of the log under the table: a mark line and six lines."""

LOG_ROWS_OTHER = 4
"""The least rows of the log while a panel (the lay-down builder) is open, and at the 8s Rule!
table: a mark line and three lines (issue 25, item 6)."""


def log_rows(controller: BaseController, snap: Any) -> Dimension:
    """The log's rows: at least :data:`LOG_ROWS` at a Level 8 table with no panel open (else
    :data:`LOG_ROWS_OTHER`), and whatever the table leaves."""
    level8 = isinstance(controller, Level8Controller) and not controller.panel(snap, 12)
    least = LOG_ROWS if level8 else LOG_ROWS_OTHER
    return Dimension(min=least, preferred=least, max=1000)
