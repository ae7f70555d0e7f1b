"""Table formation before the game starts, as a sans-I/O state machine.

One peer creates a table and *hosts its lobby*: it takes joins and leaves and sends the roster
(the members) to everyone. When the host proposes the start, every seated peer checks the start
statement against its own view and signs it; the table has started when every seated peer's
signature is on it. Nobody can be seated, or held to a game or options, without their signature.
After the start the host has no special role: the started table is the record's genesis.

Seat order (``docs/protocol.md``, "Seat order"): members sorted by
``SHA-256(b"lancards/v1/seat\\x00" + table id (ASCII) + Ed25519 key)``. It depends on nobody's
join time, so every peer computes the same order; the first dealer is then drawn from the joint
randomness (ruling L8-2).

Messages (bodies in :data:`lancards.p2p.protocol.schemas.MESSAGE_SCHEMAS`): ``table.join`` (guest to
host), ``table.port`` (member to host: its listening port; only members' ports are kept),
``table.leave`` (either way; from the host it closes the lobby), ``table.roster`` (host to all),
``table.start`` (host to all: the statement), ``table.sign`` (each seat to the host),
``table.started`` (host to all: statement and every signature), ``table.addrs`` (host to every
seat once started: the seated members' addresses, nobody else's), ``table.told`` (a resumed host
to a guest that signed and asked, :mod:`lancards.p2p.protocol.start_fetch`: taken as the start, or
as the address book when ``table.started`` came but ``table.addrs`` did not).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from lancards.p2p.protocol.bot_names import bot_name, give_way
from lancards.p2p.protocol.errors import LocalProtocolError, Reason, TableError
from lancards.p2p.protocol.identity import (
    Identity,
    PublicIdentity,
    describe,
    distinct_nick,
    verify_signature,
)
from lancards.p2p.protocol.local_table import start_local
from lancards.p2p.protocol.schemas import TableAddrs, TablePort, TableRefused, TableTold, conform
from lancards.p2p.protocol.statement import (
    SEAT_TAG,
    START_TAG,
    OptionValue,
    RulesCheck,
    StartedTable,
    TableSpec,
    _is_hex,
    check_record_genesis,
    member_from_dict,
    member_to_dict,
    new_table_id,
    registry_rules_check,
    seat_order,
    sign_statement,
    start_statement,
    statement_hash,
    verify_started,
)
from lancards.p2p.protocol.wire import Envelope, canonical, sign_envelope


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message to send: ``envelope`` to each key in ``to`` (Ed25519 keys, 32 bytes)."""

    to: tuple[bytes, ...]
    envelope: Envelope


class Lobby:
    """One peer's view of a table before it starts (host or guest).

    Use :meth:`create` (host) or :meth:`join` (guest). Feed every verified ``table.*`` envelope
    (after :func:`lancards.p2p.protocol.wire.decode_envelope` and a
    :class:`lancards.p2p.protocol.wire.ReplayGuard`) to :meth:`receive`; send what it returns.

    Attributes:
        spec: the table's spec (a guest's is provisional until the first roster).
        members: everyone in the lobby, host first, then in join order.
        started: the started table once every seat has signed, else ``None``.
        closed: the host closed the lobby, or this peer left.
    """

    def __init__(self, me: Identity, spec: TableSpec, rules_check: RulesCheck) -> None:
        self.me = me
        self.spec = spec
        self.rules_check = rules_check
        self.members: list[PublicIdentity] = [me.public()] if spec.host == me.public_key else []
        self.roster_version = 0
        self.started: StartedTable | None = None
        self.closed = False
        self._statement: dict[str, Any] | None = None
        self._sigs: dict[str, str] = {}
        self._seq = 0
        self.ports: dict[bytes, int] = {}
        """Host: the listening port each member announced (``table.port``); members only."""
        self.address_book: dict[bytes, tuple[str, int]] = {}
        """Guest: the seated members' addresses from the host's ``table.addrs``."""
        self.refused: tuple[str, str] | None = None
        """Guest: the host's ``table.refused`` (reason, the host's game), once it came."""
        self.refusals: list[tuple[str, str]] = []
        """Host: every join refused (the joiner's name, the reason), oldest first."""
        self.own_bots: set[bytes] = set()
        """Host: the keys of the bots it runs itself (``host --bots``): before the start, one
        of them gives its name up to a joiner who asks for it (:mod:`.bot_names`)..."""
        self.spare_bot_names: tuple[str, ...] = ()
        """... and takes the first of these that nobody has."""

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        me: Identity,
        game: str,
        options: Mapping[str, OptionValue] | None = None,
        *,
        table: str | None = None,
        rules_check: RulesCheck = registry_rules_check,
        bot: str = "",
    ) -> Lobby:
        """Host a new table (``bot``: the level of the bot that plays the host's seat, said
        in its member; ``""``: a person).

        Raises:
            LocalProtocolError: the game or options are refused by ``rules_check``.
        """
        try:
            values, lo, hi = rules_check(game, dict(options or {}))
        except Exception as exc:
            raise LocalProtocolError(f"cannot create a {game!r} table: {exc}") from exc
        spec = TableSpec(table or new_table_id(), game, values, me.public_key, lo, min(hi, 6))
        lobby = cls(me, spec, rules_check)
        if bot:
            lobby.members = [member_from_dict({**member_to_dict(me.public()), "bot": bot},
                                              "local")]
        return lobby

    @classmethod
    def join(
        cls,
        me: Identity,
        table: str,
        host: bytes,
        game: str,
        *,
        rules_check: RulesCheck = registry_rules_check,
        bot: str = "",
    ) -> tuple[Lobby, Outgoing]:
        """Ask to join a table (found by mDNS or at ``host:port``): the lobby and the join
        (``bot``: the level of the bot that plays this seat, said to the table; ``""``: a
        person)."""
        lobby = cls(me, TableSpec(table, game, {}, host, 2, 6), rules_check)
        body = {"nick": me.nick, "xpk": me.x25519_public.hex(), "game": game}
        if bot:
            body["bot"] = bot
        return lobby, lobby._out((host,), "table.join", body)

    # -- local actions -----------------------------------------------------------------------

    @property
    def is_host(self) -> bool:
        return self.spec.host == self.me.public_key

    @property
    def free_seats(self) -> int:
        """Seats still free (the mDNS TXT key ``seats``)."""
        return max(0, self.spec.max_seats - len(self.members))

    def seats(self) -> tuple[PublicIdentity, ...]:
        """The current members in seat order."""
        return seat_order(self.spec.table, self.members)

    def leave(self) -> list[Outgoing]:
        """Leave before the start (a host closes the lobby for everyone).

        Raises:
            LocalProtocolError: the table has started already.
        """
        self._require_open("leave")
        self.closed = True
        if self.is_host:
            return [self._out(self._others(), "table.leave", {})]
        return [self._out((self.spec.host,), "table.leave", {})]

    def propose_start(self) -> list[Outgoing]:
        """Host: send the start statement (and sign it first).

        Raises:
            LocalProtocolError: not the host, the lobby is closed or started, or too few seats.
        """
        self._require_open("start")
        if not self.is_host:
            raise LocalProtocolError("only the table's host proposes the start")
        if len(self.members) < self.spec.min_seats:
            raise LocalProtocolError(
                f"{self.spec.game} needs at least {self.spec.min_seats} players "
                f"(currently {len(self.members)})"
            )
        self._statement = start_statement(self.spec, self.seats())
        self._sigs = {self.me.public_key.hex(): sign_statement(self.me, self._statement).hex()}
        return [self._out(self._others(), "table.start", {"statement": self._statement})]

    @property
    def signed_statement(self) -> dict[str, Any] | None:
        """The start statement proposed and signed by this peer (a guest: the last one it
        answered with ``table.sign``), else ``None``; a guest makes it durable before its
        signature leaves (``docs/protocol.md``, "Resuming a seat signed but not started")."""
        return None if self._statement is None else dict(self._statement)

    @property
    def proposed(self) -> bool:
        """Whether a start statement is proposed (and not withdrawn)."""
        return self._statement is not None

    def unsigned(self) -> tuple[PublicIdentity, ...]:
        """Host: the members whose start signature is still missing (all while not proposed)."""
        return tuple(m for m in self.seats() if m.public_key.hex() not in self._sigs)

    def catch_up(self, key: bytes) -> list[Outgoing]:
        """Host: what a guest whose link came back may have missed while it was down (frames
        written into a link that was already dead are lost: e.g. the host's address changed,
        issue 24 situation 4): the roster and, when the start is proposed and this guest has
        not signed it, the proposal again.

        Returns:
            Nothing when the start is not proposed, ``key`` is no guest or has signed.

        Raises:
            LocalProtocolError: not the host.
        """
        if not self.is_host:
            raise LocalProtocolError("only the table's host catches a guest up")
        if (self._statement is None or self.closed or self.started is not None
                or key == self.me.public_key or key.hex() in self._sigs
                or all(m.public_key != key for m in self.members)):
            return []
        roster = self._roster()
        return [Outgoing((key,), roster.envelope),
                self._out((key,), "table.start", {"statement": self._statement})]

    def drop(self, key: bytes) -> list[Outgoing]:
        """Host: free the seat of a guest whose link dropped and did not come back within the
        grace period; a proposed start is withdrawn (it named the dropped guest).

        Returns:
            The new roster for the others (nothing when ``key`` is not a guest here).

        Raises:
            LocalProtocolError: not the host, or the lobby has closed or started.
        """
        self._require_open("free a seat")
        if not self.is_host:
            raise LocalProtocolError("only the table's host frees seats")
        if key == self.me.public_key or all(m.public_key != key for m in self.members):
            return []
        self.members = [m for m in self.members if m.public_key != key]
        self.ports.pop(key, None)
        self._statement, self._sigs = None, {}
        return [self._roster()]

    # -- receiving ---------------------------------------------------------------------------

    def receive(self, env: Envelope) -> list[Outgoing]:
        """Handle one verified ``table.*`` envelope.

        Returns:
            The messages to send in answer (possibly none).

        Raises:
            TableError: the message breaks table formation (reason ``wrong-table``,
                ``wrong-sender``, ``table-rules``, ``malformed``, ``bad-signature``); the
                lobby is unchanged.
        """
        who = self.name(env.sender)
        if self.is_host and env.type == "table.join":
            refusal = self._join_refusal(env)
            if refusal is not None:  # the joiner is told why (issue 25, item 5)
                nick = "".join(c for c in str(env.body.get("nick", "")) if c.isprintable())
                self.refusals.append((f"{nick} {describe(env.sender)}".strip(), refusal))
                refused = sign_envelope(self.me, "table.refused", env.table, self._seq,
                                        {"reason": refusal, "game": self.spec.game})
                self._seq += 1
                return [Outgoing((env.sender,), refused)]
        if env.table != self.spec.table:
            raise TableError(who, Reason.WRONG_TABLE, f"message for table {env.table}"
                             ).with_code("other-table", table=env.table)
        if env.type == "table.addrs":
            return self._on_addrs(env, who)
        if env.type == "table.ask" and self.is_host and self.started is None:
            return []  # not started: nothing to tell yet (the seat asks again)
        if (env.type == "table.told" and not self.is_host and env.sender == self.spec.host
                and self.started is not None and not self.address_book):
            return self._on_told(env, who)  # started, but the host died before 'table.addrs'
        if self.closed or self.started is not None:
            raise TableError(
                who,
                Reason.TABLE_RULES,
                f"{env.type!r} after the lobby {'closed' if self.closed else 'started'}",
            ).with_code("after-lobby-closed" if self.closed else "after-lobby-started",
                        type=env.type)
        from_host = env.sender == self.spec.host
        handlers: dict[tuple[str, bool], Callable[[Envelope, str], list[Outgoing]]] = {
            ("table.join", True): self._on_join,
            ("table.leave", True): self._on_leave,
            ("table.sign", True): self._on_sign,
            ("table.port", True): self._on_port,
            ("table.roster", False): self._on_roster,
            ("table.start", False): self._on_start,
            ("table.started", False): self._on_started,
            ("table.told", False): self._on_told,
            ("table.refused", False): self._on_refused,
        }
        if env.type == "table.leave" and from_host and not self.is_host:
            self.closed = True
            return []
        handler = handlers.get((env.type, self.is_host))
        if handler is None or (not self.is_host and not from_host):
            raise TableError(
                who,
                Reason.WRONG_SENDER,
                f"{env.type!r} is not expected by a {'host' if self.is_host else 'guest'}"
                " from this peer",
            ).with_code("unexpected-at-host" if self.is_host else "unexpected-at-guest",
                        type=env.type)
        return handler(env, who)

    def name(self, key: bytes) -> str:
        """A member's name for errors and screens."""
        for m in self.members:
            if m.public_key == key:
                return str(m)
        return describe(key)

    def _join_refusal(self, env: Envelope) -> str | None:
        """Host: why the join ``env`` is refused (a :data:`lancards.p2p.protocol.schemas.
        REFUSALS` word), or ``None`` when it is taken: another table id (a stale one), a
        closed or started lobby, a start proposed (unless the key rejoins), another game, no
        free seat."""
        rejoin = any(m.public_key == env.sender for m in self.members)
        if env.table != self.spec.table:
            return "wrong-table"
        if self.closed:
            return "closed"
        if self.started is not None or (self._statement is not None and not rejoin):
            return "started"
        if env.body.get("game") != self.spec.game:
            return "wrong-game"
        if not rejoin and self.free_seats == 0:
            return "full"
        return None

    def _on_refused(self, env: Envelope, who: str) -> list[Outgoing]:
        body = conform(env.body, TableRefused, who, "table.refused", error=TableError)
        self.refused = (body.reason, body.game)
        return []

    def _on_join(self, env: Envelope, who: str) -> list[Outgoing]:
        body = env.body
        said = {"bot": body["bot"]} if body.get("bot") else {}
        member = member_from_dict(
            {"pk": env.sender.hex(), "xpk": body["xpk"], "nick": body["nick"], **said}, who
        )
        spare = self.spare_bot_names  # a person keeps its name: the host's own bot yields
        if env.sender in self.own_bots:
            member = replace(member, nick=bot_name(member.nick, [
                m.nick for m in self.members if m.public_key != env.sender], spare))
        else:
            self.members = give_way(self.members, member.nick, self.own_bots, spare)
        # A nickname another member has (any case) is shown with a number: "root 2".
        nick = distinct_nick(member.nick, [m.nick for m in self.members
                                           if m.public_key != env.sender])
        member = replace(member, nick=nick)
        if any(m.public_key == env.sender for m in self.members):
            # The same key joining again (its program restarted): it keeps its seat; a start
            # proposed meanwhile is withdrawn, since the new program never saw it.
            self.members = [member if m.public_key == env.sender else m for m in self.members]
            self._statement, self._sigs = None, {}
            return [self._roster()]
        self.members.append(member)
        return [self._roster()]

    def _on_port(self, env: Envelope, who: str) -> list[Outgoing]:
        if not any(m.public_key == env.sender for m in self.members):
            raise TableError(who, Reason.NOT_SEATED, "announces a port but is not at the table"
                             ).with_code("port-not-seated")
        self.ports[env.sender] = conform(env.body, TablePort, who, "table.port",
                                         error=TableError).port
        return []

    def _on_addrs(self, env: Envelope, who: str) -> list[Outgoing]:
        if self.is_host or env.sender != self.spec.host or self.started is None:
            raise TableError(who, Reason.WRONG_SENDER, "'table.addrs' comes from the host "
                             "once the table has started").with_code("addrs-not-host")
        book = conform(env.body, TableAddrs, who, "table.addrs", error=TableError).addrs
        seated = {m.public_key for m in self.started.seats}
        keys = {bytes.fromhex(k): v for k, v in book.items()}
        if set(keys) - seated:
            raise TableError(who, Reason.NOT_SEATED, "address book names a peer not seated"
                             ).with_code("addrs-unseated")
        self.address_book = {k: (host, port) for k, (host, port) in keys.items()}
        return []

    def address_book_message(
        self, hosts: Mapping[bytes, str], public_host: str, own: tuple[str, int]
    ) -> Outgoing:
        """Host, once started: ``table.addrs`` to every other seat, with the address of every
        seated member that announced its port (``hosts``: where each connected from; loopback
        addresses are replaced by ``public_host``). Nobody else is in it.

        Raises:
            LocalProtocolError: not the host, or the table has not started.
        """
        if not self.is_host or self.started is None:
            raise LocalProtocolError("only the host sends the address book, once started")
        book: dict[str, list[Any]] = {}
        for member in self.started.seats:
            key = member.public_key
            if key == self.me.public_key:
                host, port = own
            elif key in self.ports:
                host, port = hosts.get(key, "127.0.0.1"), self.ports[key]
            else:
                continue
            book[key.hex()] = [public_host if host.startswith("127.") else host, port]
        return self._out(self._others(), "table.addrs", {"addrs": book})

    def _on_leave(self, env: Envelope, who: str) -> list[Outgoing]:
        if self._statement is not None:
            raise TableError(who, Reason.TABLE_RULES, "cannot leave once the start is proposed"
                             ).with_code("leave-after-proposal")
        before = len(self.members)
        self.members = [m for m in self.members if m.public_key != env.sender]
        if len(self.members) == before:
            raise TableError(who, Reason.TABLE_RULES, "is not at the table").with_code(
                "leave-not-seated")
        return [self._roster()]

    def _on_roster(self, env: Envelope, who: str) -> list[Outgoing]:
        version = env.body["version"]
        if version <= self.roster_version:
            raise TableError(who, Reason.TABLE_RULES, f"stale roster version {version}"
                             ).with_code("stale-roster", version=version)
        spec = TableSpec.from_dict(env.body["spec"], who)
        members = [member_from_dict(m, who) for m in env.body["members"]]
        if (
            spec.table != self.spec.table
            or spec.host != self.spec.host
            or (spec.game != self.spec.game)
        ):
            raise TableError(who, Reason.TABLE_RULES, "roster changes the table, host or game"
                             ).with_code("roster-changes")
        if len({m.public_key for m in members}) != len(members) or len(members) > spec.max_seats:
            raise TableError(who, Reason.MALFORMED, "roster repeats a member or overfills"
                             ).with_code("roster-repeats")
        self._check_rules(spec, who)
        self.spec, self.members, self.roster_version = spec, members, version
        return []

    def _on_start(self, env: Envelope, who: str) -> list[Outgoing]:
        statement = env.body["statement"]
        expected = start_statement(self.spec, self.seats())
        if statement != expected:
            raise TableError(
                who,
                Reason.TABLE_RULES,
                "start statement differs from this peer's view of the table",
            ).with_code("statement-differs")
        if not any(m.public_key == self.me.public_key for m in self.members):
            raise TableError(who, Reason.TABLE_RULES, "start proposed to a peer not seated"
                             ).with_code("proposed-unseated")
        self._statement = expected
        sig = sign_statement(self.me, expected).hex()
        body = {"statement_hash": statement_hash(expected), "sig": sig}
        return [self._out((self.spec.host,), "table.sign", body)]

    def _on_sign(self, env: Envelope, who: str) -> list[Outgoing]:
        if self._statement is None:
            raise TableError(who, Reason.TABLE_RULES, "signature before any start proposal"
                             ).with_code("sign-before-proposal")
        if env.body["statement_hash"] != statement_hash(self._statement):
            raise TableError(who, Reason.TABLE_RULES, "signed another start statement"
                             ).with_code("signed-other")
        if not any(m.public_key == env.sender for m in self.members):
            raise TableError(who, Reason.TABLE_RULES, "is not seated").with_code(
                "sign-not-seated")
        sig = env.body["sig"]
        if not (
            len(sig) == 128
            and _is_hex(sig)
            and verify_signature(
                env.sender, bytes.fromhex(sig), START_TAG + canonical(self._statement)
            )
        ):
            raise TableError(who, Reason.BAD_SIGNATURE, "start signature does not verify"
                             ).with_code("start-signature")
        self._sigs[env.sender.hex()] = sig
        if len(self._sigs) < len(self.members):
            return []
        self.started = verify_started(self._statement, self._sigs, "self")
        body = {"statement": self._statement, "sigs": dict(self._sigs)}
        return [self._out(self._others(), "table.started", body)]

    def _on_started(self, env: Envelope, who: str) -> list[Outgoing]:
        started = verify_started(env.body["statement"], env.body["sigs"], who)
        if self._statement is None or started.statement != self._statement:
            raise TableError(who, Reason.TABLE_RULES, "started a statement this peer never signed"
                             ).with_code("started-unsigned")
        self.started = started
        return []

    def _on_told(self, env: Envelope, who: str) -> list[Outgoing]:
        # A resumed host answering this guest's 'table.ask' (lancards.p2p.protocol.start_fetch).
        from lancards.p2p.protocol.start_fetch import check_told

        if self._statement is None:
            raise TableError(who, Reason.TABLE_RULES, "'table.told' before any start proposal"
                             ).with_code("told-before-proposal")
        body = conform(env.body, TableTold, who, "table.told", error=TableError)
        self.started, self.address_book = check_told(
            {"statement": body.statement, "sigs": body.sigs,
             "addrs": {k: list(v) for k, v in body.addrs.items()}}, self._statement, who)
        return []

    # -- helpers -----------------------------------------------------------------------------

    def _check_rules(self, spec: TableSpec, who: str) -> None:
        try:
            values, _, _ = self.rules_check(spec.game, spec.options)
        except Exception as exc:
            raise TableError(who, Reason.TABLE_RULES, f"rules refused: {exc}").with_code(
                "rules-refused-table", error=exc) from None
        if values != spec.options:
            raise TableError(who, Reason.TABLE_RULES, "options are not complete and valid"
                             ).with_code("options-incomplete")

    def _require_open(self, what: str) -> None:
        if self.closed or self.started is not None:
            raise LocalProtocolError(f"cannot {what}: the lobby has closed or started")

    def _others(self) -> tuple[bytes, ...]:
        return tuple(m.public_key for m in self.members if m.public_key != self.me.public_key)

    def _roster(self) -> Outgoing:
        self.roster_version += 1
        body = {
            "version": self.roster_version,
            "spec": self.spec.to_dict(),
            "members": [member_to_dict(m) for m in self.members],
        }
        return self._out(self._others(), "table.roster", body)

    def _out(self, to: tuple[bytes, ...], type: str, body: dict[str, Any]) -> Outgoing:
        env = sign_envelope(self.me, type, self.spec.table, self._seq, body)
        self._seq += 1
        return Outgoing(to, env)


__all__ = [
    "SEAT_TAG",
    "START_TAG",
    "Lobby",
    "OptionValue",
    "Outgoing",
    "RulesCheck",
    "StartedTable",
    "TableSpec",
    "check_record_genesis",
    "member_from_dict",
    "member_to_dict",
    "new_table_id",
    "registry_rules_check",
    "seat_order",
    "sign_statement",
    "start_local",
    "start_statement",
    "statement_hash",
    "verify_started",
]
