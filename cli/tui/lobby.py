"""The lobby screen: tables found on the network, create, join, a manual address.

The networked part feeds it: it builds :class:`TableEntry` values from the mDNS browser (only
tables whose advertised key answered at one of their addresses, see
:func:`lancards.cli.lobby.join.lobby_choice`), calls :meth:`LobbyScreen.set_tables` whenever the
list changes, and receives the user's choice through the callbacks. Keys: Up/Down select a
table, Enter joins it, ``w`` watches a started one (listed as ``watch``: ``lancards watch``),
``n`` creates a table, ``a`` types a ``TABLE-ID@HOST:PORT`` address, ``q`` (or Ctrl-C, Ctrl-D)
leaves. The screen never waits on the network: callbacks return at
once, then the lobby closes with the choice's name (``"join"``, ``"watch"``, ``"create"``,
``"manual"``) as
its result, or ``None`` when the user left.

Rows are keyed by table id and host key together: two tables that advertise one id (one of
them an impostor, or a coincidence) are both listed, each marked ``!``. The selected row's host
is shown with its full key fingerprint before Enter joins it.
"""

from __future__ import annotations

import contextlib
import re
import textwrap
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import ConditionalContainer, HSplit, Layout, Window
from prompt_toolkit.output import Output
from prompt_toolkit.widgets import TextArea

from lancards.cli.game_titles import game_title
from lancards.cli.i18n import NO_BREAK, _
from lancards.cli.removal_words import advert_rescue_lines
from lancards.cli.tui.fit import FitControl, to_lines
from lancards.cli.tui.style import STYLE
from lancards.cli.tui.width import cut, pad, text_width
from lancards.engine.rulesets import rule_set
from lancards.p2p.net.discovery import TableAdvert
from lancards.p2p.protocol.identity import fingerprint

CREATE_GAMES = ("level8-master", "level8", "level8-en", "eights")
"""The games ``n`` offers, in its order."""


_TARGET = re.compile(r"[0-9a-f]{16}@(\S+):(\d{1,5})")
"""What the host prints for a join by address: ``TABLE-ID@HOST:PORT``."""


@dataclass(frozen=True, slots=True)
class TableEntry:
    """One table seen on the network (or typed in).

    Attributes:
        table_id: the table's id (as advertised).
        game: the rule-set name (``level8-master``...).
        host: the host's nickname.
        fingerprint: the host key's fingerprint (``ABCD-EFGH-IJKL-MNOP``).
        address: ``HOST:PORT`` (the address that answered).
        seats: the seat count of the table.
        taken: seats taken (the host's among them).
        players: nicknames of the players seated so far (length <= taken).
        started: whether the game has started (nobody can join then).
        name: the key of the row: the advert's instance name (table id and host key).
        duplicate: another row advertises the same table id (with another key).
        rescue: the table's option ``rescue`` is on (its trade-off is shown when selected).
        bots: the positions in ``players`` (from 0) of the seats bots play (TXT ``bots``).
        partners: the 8s Rule! option ``partners`` is on (TXT ``partners``): any removal ends
            the game, said with the rescue trade-off.
    """

    table_id: str
    game: str
    host: str
    fingerprint: str
    address: str
    seats: int
    taken: int
    players: tuple[str, ...] = ()
    started: bool = False
    name: str = ""
    duplicate: bool = False
    rescue: bool = False
    bots: tuple[int, ...] = ()
    partners: bool = False

    def player_words(self) -> str:
        """``ann, Ada (bot), bob``: the players seated so far, a bot's seat marked."""
        return ", ".join(_("{name} (bot)").format(name=name) if i in self.bots else name
                         for i, name in enumerate(self.players))

    @property
    def joinable(self) -> bool:
        """Whether a seat is free and the game has not started."""
        return not self.started and self.taken < self.seats


def entry_from(advert: TableAdvert, address: str) -> TableEntry:
    """The row of a table whose key answered at ``address``.

    The seat count is the advertised ``size`` (else seated plus free); the seats taken are
    ``size`` minus the free seats, so a host's own seat counts.
    """
    seats = advert.size or (len(advert.players) + advert.free_seats)
    host = f"[{address}]" if ":" in address else address
    return TableEntry(advert.table, advert.game, advert.nick, fingerprint(advert.public_key),
                      f"{host}:{advert.port}", seats, seats - advert.free_seats,
                      advert.players, started=advert.started, name=advert.instance_name,
                      rescue=advert.rescue, bots=advert.bots, partners=advert.partners)


def entries_from(answered: Mapping[str, tuple[TableAdvert, str]]) -> list[TableEntry]:
    """The rows for the tables that answered (instance name -> advert, address), sorted by
    table id then host; rows sharing a table id are marked ``duplicate``."""
    rows = sorted((entry_from(advert, address) for advert, address in answered.values()),
                  key=lambda e: (e.table_id, e.host, e.fingerprint))
    count = Counter(e.table_id for e in rows)
    return [replace(e, duplicate=count[e.table_id] > 1) for e in rows]


class LobbyScreen:
    """The lobby (see the module docstring).

    Args:
        tables: the tables known now.
        identity: the user's nickname and key fingerprint, shown at the top.
        on_join: called with the chosen table.
        on_create: called with the game (a rule-set name) and the seat count when the user
            creates a table (``n`` asks both).
        on_manual: called with a typed ``HOST:PORT``.
        on_watch: called with a started table the user chose to watch (``w``).
        input: a prompt-toolkit input (tests); default the terminal.
        output: a prompt-toolkit output (tests); default the terminal.
    """

    def __init__(self, tables: Sequence[TableEntry], identity: str,
                 on_join: Callable[[TableEntry], None], on_create: Callable[[str, int], None],
                 on_manual: Callable[[str], None], *, input: Input | None = None,
                 output: Output | None = None,
                 on_watch: Callable[[TableEntry], None] | None = None) -> None:
        self.tables = list(tables)
        self.on_watch = on_watch
        self.identity = identity
        self.on_join, self.on_create, self.on_manual = on_join, on_create, on_manual
        self.index = 0
        self.message = ""
        self.typing = False
        self.creating: list[str] = []
        """While ``n`` asks what to create: ``[]`` the game is asked, ``[GAME]`` the seats."""
        self.asking = False
        self.address = TextArea(height=1, prompt=_("address (TABLE-ID@HOST:PORT)> "),
                                multiline=False,
                                accept_handler=self._accept_address)
        body = HSplit([
            # long lines wrap at a space, continued indented (German is longer: issue 28)
            Window(FitControl(lambda width: to_lines(self._render()))),
            ConditionalContainer(self.address, filter=Condition(lambda: self.typing)),
        ])
        self.app: Application[str | None] = Application(
            layout=Layout(body), key_bindings=self._bindings(), style=STYLE, full_screen=True,
            input=input, output=output)
        self.app.ttimeoutlen = 0.05

    def set_tables(self, tables: Sequence[TableEntry]) -> None:
        """Replace the list of tables (from the network browser) and redraw."""
        self.tables = list(tables)
        self.index = min(self.index, max(0, len(self.tables) - 1))
        with contextlib.suppress(Exception):
            self.app.invalidate()

    def _columns(self) -> int:
        """The terminal's width (80 when it cannot be read)."""
        try:
            return int(self.app.output.get_size().columns)
        except Exception:
            return 80

    def _render(self) -> StyleAndTextTuples:
        out: StyleAndTextTuples = [("class:title", " " + _("lancards lobby") + " "),
                                   ("", "  " + _("you are {identity}").format(
                                       identity=self.identity) + "\n\n")]
        # The address column only where it fits (issue 25, item 14): the line under the
        # list names the selected table's address anyway. The seats column is as wide as its
        # widest word in the player's language ("gestartet").
        states = [_("watch") if t.started else (
            _("full") if not t.joinable else f"{t.taken}/{t.seats}") for t in self.tables]
        seats = max([7, text_width(_("seats")), *map(text_width, states)])
        # the game by its title, not its rule-set id (the trial of 2026-12-06 read "eights")
        games = [game_title(t.game) for t in self.tables]
        game = max([15, *map(text_width, games)])
        width = self._columns()
        wide = all(51 + game + seats + text_width(t.address) <= width for t in self.tables)
        heads = [_("game"), _("host"), _("seats"), _("players")]
        address = " " + _("address") if wide else ""
        out.append(("class:header", f"   {pad(heads[0], game)} {pad(heads[1], 18)} "
                                    f"{pad(heads[2], seats)} {pad(heads[3], 26)}{address}\n"))
        if not self.tables:
            out.append(("class:dim", "   " + _("no tables found yet on this network (looking...)")
                        + "\n"))
        for i, table in enumerate(self.tables):
            mark = ">" if i == self.index else " "
            flag = "!" if table.duplicate else " "
            style = "class:picker.selected" if i == self.index else (
                "" if table.joinable else "class:dim")
            host = f"{cut(table.host, 12)} {table.fingerprint[:4]}"
            players = table.player_words()
            out.append((style, f" {mark}{flag}{pad(games[i], game)} {pad(host, 18)} "
                               f"{pad(states[i], seats)} "
                               f"{pad(players, 26)}{' ' + table.address if wide else ''}\n"))
        out.append(("", "\n"))
        if self.tables:
            table = self.tables[self.index]
            out.append(("", " " + _(
                "host {host} [{fingerprint}], table {table} at {address}").format(
                host=table.host, fingerprint=table.fingerprint, table=table.table_id,
                address=table.address) + "\n"))
            if table.bots:  # the row may cut the names: here they are whole, bots marked
                out.append(("", textwrap.indent(textwrap.fill(_("at the table: {names}").format(
                    names=table.player_words()), 76), " ") + "\n"))
            if table.rescue:  # and whether any one removal ends the game (its partners)
                for words in advert_rescue_lines(table.game, table.seats, table.partners):
                    out.append(("", textwrap.indent(textwrap.fill(words, 76), " ") + "\n"))
            if table.started:
                out.append(("", " " + _("its game has started: w watches it (no seat, public "
                                        "cards only)") + "\n"))
            if table.duplicate:
                out.append(("class:error", " ! " + _(
                    "two tables use the id {table}: compare the fingerprint with the host's "
                    "before joining").format(table=table.table_id) + "\n"))
        if self.message:
            out.append(("class:error", f" {self.message}\n"))
        if self.asking:
            out.append(("", f" {self._question()}\n"))
            out.append(("class:hints", " " + _("the number · Esc back")))
            return out
        started = bool(self.tables) and self.tables[self.index].started
        out.append(("class:hints", " " + (
            _("Up/Down select · w watch · n create a table · a type an address · q quit")
            if started else _("Up/Down select · Enter join · n create a table · "
                              "a type an address · q quit"))))
        return out

    def _question(self) -> str:
        """What ``n`` asks now: the game, then the seats (issue 25, item 14)."""
        if not self.creating:
            # each key and name unbroken, as the game-over offer's (the German lobby at 80
            # columns wrapped "3 Level 8" then "(English)")
            games = f"{NO_BREAK}· ".join(f"{i + 1} {game_title(g)}".replace(" ", NO_BREAK)
                                         for i, g in enumerate(CREATE_GAMES))
            return _("create a table: which game? {games}").format(games=games)
        spec = rule_set(self.creating[0])
        return _("create a {game} table: how many seats, yours counted? {least} to "
                 "{most}").format(game=game_title(spec.name), least=spec.min_players,
                                  most=spec.max_players)

    def _answer(self, key: str) -> None:
        if not self.creating:
            if key.isdigit() and 1 <= int(key) <= len(CREATE_GAMES):
                self.creating = [CREATE_GAMES[int(key) - 1]]
                self.message = ""
            return
        spec = rule_set(self.creating[0])
        if key.isdigit() and spec.min_players <= int(key) <= spec.max_players:
            self.asking = False
            self.on_create(spec.name, int(key))
            self.app.exit(result="create")

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        idle = Condition(lambda: not self.typing and not self.asking)
        asking = Condition(lambda: self.asking)

        @kb.add(Keys.Any, filter=asking)
        def _digit(event: KeyPressEvent) -> None:
            self._answer(event.data)

        @kb.add(Keys.Escape, filter=asking, eager=True)
        def _back(event: KeyPressEvent) -> None:
            self.asking, self.creating = False, []

        @kb.add(Keys.Up, filter=idle)
        def _up(event: KeyPressEvent) -> None:
            self.index = max(0, self.index - 1)

        @kb.add(Keys.Down, filter=idle)
        def _down(event: KeyPressEvent) -> None:
            self.index = min(max(0, len(self.tables) - 1), self.index + 1)

        @kb.add(Keys.ControlM, filter=idle)
        def _join(event: KeyPressEvent) -> None:
            if not self.tables:
                self.message = _("no table to join; press n to create one or a for an address")
                return
            table = self.tables[self.index]
            if not table.joinable:
                self.message = (_("the table of {host} [{fingerprint}] has started: w "
                                  "watches it") if table.started else
                                _("the table of {host} [{fingerprint}] has no free seat")).format(
                    host=table.host, fingerprint=table.fingerprint)
                return
            self.on_join(table)
            self.app.exit(result="join")

        @kb.add("w", filter=idle)
        def _watch(event: KeyPressEvent) -> None:
            table = self.tables[self.index] if self.tables else None
            if table is None or not table.started or self.on_watch is None:
                self.message = "w watches a table whose game has started (listed as watch)"
                return
            self.on_watch(table)
            self.app.exit(result="watch")

        @kb.add("n", filter=idle)
        def _create(event: KeyPressEvent) -> None:
            self.asking, self.creating = True, []  # the game, then the seats

        @kb.add("a", filter=idle)
        def _manual(event: KeyPressEvent) -> None:
            self.typing = True
            self.app.layout.focus(self.address)

        @kb.add("q", filter=idle)
        @kb.add(Keys.ControlC)
        @kb.add(Keys.ControlD, filter=idle)
        def _quit(event: KeyPressEvent) -> None:
            self.app.exit(result=None)

        @kb.add(Keys.Escape, filter=Condition(lambda: self.typing), eager=True)
        def _cancel(event: KeyPressEvent) -> None:
            self.typing = False
            self.address.text = ""

        return kb

    def _accept_address(self, buffer: Any) -> bool:
        text = buffer.text.strip()
        match = _TARGET.fullmatch(text)
        if match is None or not 0 < int(match.group(2)) < 65536:
            self.message = _("{text!r} is not TABLE-ID@HOST:PORT as the host prints it (for "
                             "example 00112233aabbccdd@192.0.2.7:48100)").format(text=text)
            return True
        self.typing = False
        self.on_manual(text)
        self.app.exit(result="manual")
        return False

    async def run(self) -> str | None:
        """Show the lobby until a choice is made or the user leaves (``q``, Ctrl-C, Ctrl-D).

        Keys typed before it shows are dropped, and so are keys typed after the choice that
        the next screen has not read yet (:func:`lancards.cli.tui.typeahead.flush_typeahead`).
        """
        from lancards.cli.tui.typeahead import flush_typeahead

        flush_typeahead()
        try:
            # handle_sigint=False: prompt-toolkit would replace the event loop's SIGINT
            # handler (lancards.cli.lobby.common.run_lobby's) and remove it on exit, leaving
            # a SIGINT that does nothing for the rest of the command.
            return await self.app.run_async(handle_sigint=False)
        finally:
            flush_typeahead()
