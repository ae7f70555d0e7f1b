"""The full-screen terminal client (prompt-toolkit): the table screens and the lobby.

``run_table(session)`` shows a :class:`lancards.cli.session.Session` until the game ends or the user
leaves; :class:`LobbyScreen` lists tables for the networked part to feed. See ``docs/client.md``
for the screens and every key.
"""

from lancards.cli.tui.app import TableScreen, run_table
from lancards.cli.tui.lobby import LobbyScreen, TableEntry

__all__ = ["LobbyScreen", "TableEntry", "TableScreen", "run_table"]
