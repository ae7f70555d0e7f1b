"""The zeroconf adapter: advertise tables by mDNS / DNS-SD and browse for them.

A table is a DNS-SD service (RFC 6763) of type ``_lancards._tcp.local.`` named
``"<tbl>-<first 8 hex of pk>._lancards._tcp.local."`` on the host name
``"lancards-<tbl>-<first 8 hex of pk>.local."`` (one host name per table, so that a dead
table's records never resolve to a live table's address), with the TXT keys (RFC 6763
section 6):

=========  ============================================================
``v``      protocol version (``1``)
``tbl``    table id, 16 lowercase hex digits
``game``   rule set name (``level8-master``...)
``seats``  free seats, ``0`` to ``6``
``nick``   the host's nickname (at most 24 characters)
``pk``     the host's Ed25519 public key, 64 lowercase hex digits
``size``   the table's seat count, ``2`` to ``6`` (optional: unknown when absent)
``p1``...  the nicknames of the players seated so far, in seat order (optional)
=========  ============================================================

The TXT record is read as RFC 6763 section 6 says: keys are compared without regard to case
(section 6.4), only the first of a repeated key counts (6.4), a string that starts with ``=``
is ignored (6.4), and a record longer than :data:`MAX_TXT_BYTES` is refused (6.2).

Addresses: every address of the chosen interfaces is advertised (A and AAAA records); a
browser keeps IPv6 link-local addresses with the scope of the interface they arrived on
(``fe80::1%eth0``) and lists IPv4 first, then IPv6, link-local last, the order in which a
joiner tries them (:func:`reachable_address`). An advertiser given a
:class:`~lancards.p2p.net.addresses.FollowedAddresses` reads the machine's addresses again every
:data:`FOLLOW_EVERY_S` seconds and, when they changed (a new DHCP lease, Wi-Fi back), publishes
the new address records (:meth:`Advertiser.move`); a browser resolves an updated table again
:data:`FLUSH_S` seconds later, once the old records are flushed, so it lists only the new ones.

Lifetime: every record has a TTL of :data:`RECORD_TTL` seconds (RFC 6762 section 10 uses 120 s
for host records); the advertiser answers queries while the table lives, and the browser asks
again for a table's SRV and TXT records once they are half-way through their TTL (RFC 6762
section 5.2) and drops a table whose SRV record expired, so a table whose host was killed
leaves within about two minutes even where the PTR record lives longer (python-zeroconf keeps
PTR records at least 1125 s). A goodbye (TTL 0, RFC 6762 section 10.1) removes a table at
once, also when it arrives while the table is still being resolved.

mDNS is only a hint, never proof: anyone on the network can advertise anything. The Ed25519 key
is the identity, proven in the transport's hello handshake. Malformed adverts are ignored (they
are reported as :class:`Ignored` events, never raised).

The TXT parsing and formatting are pure functions; :class:`Advertiser` and :class:`Browser`
only move them to and from ``zeroconf.asyncio.AsyncZeroconf``. Both take the ``--interface``
arguments (interface names or addresses, see :mod:`lancards.p2p.net.addresses`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from zeroconf import IPVersion, ServiceStateChange, Zeroconf, current_time_millis
from zeroconf._dns import DNSQuestion
from zeroconf._protocol.outgoing import DNSOutgoing
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from lancards.p2p.net.addresses import (
    FollowedAddresses,
    LocalAddress,
    choose_addresses,
    local_addresses,
    mdns_interfaces,
    order_addresses,
    scope_name,
)
from lancards.p2p.net.failure_words import Failure, failure
from lancards.p2p.protocol.advert import (  # the advert's data and its TXT form (RFC 6763)
    _CLASS_IN,
    _TYPE_A,
    _TYPE_AAAA,
    _TYPE_SRV,
    _TYPE_TXT,
    MAX_ADDRESSES_TRIED,
    MAX_SEATS,
    MAX_TABLES,
    MAX_TXT_BYTES,
    RECORD_TTL,
    RESCUE_TRADE_OFF,
    SERVICE_TYPE,
    TableAdvert,
    advert_to_txt,
    parse_txt,
    txt_to_advert,
)
from lancards.p2p.protocol.errors import (
    LocalProtocolError,
    MessageError,
    PeerError,
    Reason,
    unexpected,
)

__all__ = [
    "FOLLOW_EVERY_S",
    "MAX_ADDRESSES_TRIED",
    "MAX_SEATS",
    "MAX_TABLES",
    "MAX_TXT_BYTES",
    "RECORD_TTL",
    "RESCUE_TRADE_OFF",
    "SERVICE_TYPE",
    "Advertiser",
    "Browser",
    "DiscoveryEvent",
    "Ignored",
    "TableAdvert",
    "TableFound",
    "TableRemoved",
    "TableUpdated",
    "advert_to_txt",
    "order_addresses",
    "parse_txt",
    "reachable_address",
    "txt_to_advert",
]


async def reachable_address(
    advert: TableAdvert,
    probe: Callable[[str, int], Awaitable[bytes]],
    tried: list[tuple[str, Failure | None]] | None = None,
) -> tuple[str, list[str]]:
    """The first of ``advert``'s addresses where the advertised key answers.

    Args:
        advert: the table (its ``addresses`` in the order to try).
        probe: ``probe(host, port)`` returns the key that answers there (the transport's signed
            hello) or raises :class:`~lancards.p2p.protocol.errors.PeerError` (or ``OSError``).
        tried: when given, each address tried before the one that answered is appended to it
            with its :class:`~lancards.p2p.net.failure_words.Failure` (``None``: another key
            answered there), for words in the player's language.

    Returns:
        The address that answered, and one line per address tried before it (why it failed).
        At most :data:`MAX_ADDRESSES_TRIED` addresses are tried.

    Raises:
        LocalProtocolError: no address answered with the advertised key (the text lists why
            for each; code ``no-address-answers``, with ``table``, ``nick`` and ``tried``: each
            address with its :class:`~lancards.p2p.net.failure_words.Failure`, or ``None``
            where another key answered).
    """
    failed: list[str] = []
    tried = [] if tried is None else tried
    for address in advert.addresses[:MAX_ADDRESSES_TRIED]:
        try:
            key = await probe(address, advert.port)
        except (PeerError, OSError, TimeoutError) as exc:
            why = failure(exc)
            tried.append((address, why))
            failed.append(f"{address}: {why.english()}")
            continue
        if key == advert.public_key:
            return address, failed
        tried.append((address, None))
        failed.append(f"{address}: answered with another key than the advertised one")
    raise LocalProtocolError(
        f"table {advert.table} of {advert.nick} answers at none of its addresses "
        f"({'; '.join(failed) or 'none advertised'})").with_code(
            "no-address-answers", table=advert.table, nick=advert.nick, tried=tried)


def _stack(addresses: Sequence[LocalAddress]
           ) -> tuple[tuple[str | int, ...], IPVersion, tuple[str, ...]]:
    """What an mDNS stack on exactly the interfaces of ``addresses`` is made of: python-zeroconf's
    ``interfaces=`` (:func:`~lancards.p2p.net.addresses.mdns_interfaces`), its IP version, and
    the IPv6 addresses its sockets bind to where an interface is given by index (the
    interface's first IPv6 address: when that one goes, the stack is made again)."""
    if not addresses:
        raise LocalProtocolError("an explicit interface list must not be empty")
    versions = {a.version for a in addresses}
    ip_version = (IPVersion.V4Only if versions == {4} else
                  IPVersion.V6Only if versions == {6} else IPVersion.All)
    every = local_addresses()
    interfaces = mdns_interfaces(addresses, every)
    bound = tuple(next((a.ip for a in every if a.index == i and a.version == 6), "")
                  for i in interfaces if isinstance(i, int))
    return interfaces, ip_version, bound


def _zeroconf(addresses: Sequence[LocalAddress]) -> AsyncZeroconf:
    """An mDNS stack on exactly the interfaces of ``addresses``."""
    interfaces, ip_version, _ = _stack(addresses)
    return AsyncZeroconf(interfaces=list(interfaces), ip_version=ip_version)


def _addresses(interfaces: Sequence[str | LocalAddress] | None) -> list[LocalAddress]:
    if interfaces is not None and all(isinstance(i, LocalAddress) for i in interfaces):
        return [i for i in interfaces if isinstance(i, LocalAddress)]
    return choose_addresses([str(i) for i in interfaces or ()])


FLUSH_S = 1.2
"""Seconds after a table's records changed when a :class:`Browser` resolves it again: cached
records flushed by a newer unique record live one more second (RFC 6762 section 10.2)."""

FOLLOW_EVERY_S = 2.0
"""Seconds between two readings of this machine's addresses by an :class:`Advertiser` that
follows them (issue 24, situation 4)."""


class Advertiser:
    """Advertises one table; :meth:`withdraw` (or leaving ``async with``) sends the goodbye.

    Args:
        advert: the table (its ``port`` and ``addresses`` are what peers dial; the addresses
            are published without their scope, an AAAA record has none).
        interfaces: ``--interface`` arguments (names or addresses) or chosen addresses
            (``None``: every interface but loopback); ignored when ``follow`` is given.
        ttl: seconds the records live (:data:`RECORD_TTL`; tests shorten it).
        follow: the machine's addresses to follow: every ``follow_every`` seconds they are read
            again (:meth:`FollowedAddresses.read`) and, when they changed, the advert lists the
            new ones (:meth:`move`) and ``on_move`` is called with it.
        follow_every: seconds between readings (:data:`FOLLOW_EVERY_S`).
        on_move: called with the new advert after each move (errors in it are not caught).

    Raises:
        LocalProtocolError: no addresses or port, or values that cannot be advertised.
        AddressError: an ``interfaces`` item names nothing of this machine.
    """

    def __init__(self, advert: TableAdvert,
                 interfaces: Sequence[str | LocalAddress] | None = None,
                 *, ttl: int = RECORD_TTL, follow: FollowedAddresses | None = None,
                 follow_every: float = FOLLOW_EVERY_S,
                 on_move: Callable[[TableAdvert], None] | None = None) -> None:
        if not advert.addresses or not advert.port:
            raise LocalProtocolError("an advertised table needs addresses and a port")
        advert_to_txt(advert)
        self.advert = advert
        self._addresses = list(follow.current) if follow is not None else _addresses(interfaces)
        self._ttl = ttl
        self._azc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._follow = follow
        self._follow_every = follow_every
        self.on_move = on_move
        """Called with the new advert after each move (may be set after the start)."""
        self._watch: asyncio.Task[None] | None = None

    def _service_info(self, name: str | None = None) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name or self.advert.instance_name,
            port=self.advert.port,
            properties=advert_to_txt(self.advert),
            server=self.advert.host_name,
            host_ttl=self._ttl,
            other_ttl=self._ttl,
            parsed_addresses=list(dict.fromkeys(a.partition("%")[0]
                                                for a in self.advert.addresses)),
        )

    async def start(self, timeout: float = 5.0) -> None:
        """Register the service (probing, then announcing), waiting at most ``timeout`` s.

        Raises:
            TimeoutError: not registered in time (the sockets are closed again).
            OSError, zeroconf.Error: mDNS could not start on the interfaces (likewise).
        """
        self._azc = _zeroconf(self._addresses)
        self._info = self._service_info()
        try:
            async with asyncio.timeout(timeout):
                await (await self._azc.async_register_service(self._info,
                                                              allow_name_change=True))
        except BaseException:
            azc, self._azc, self._info = self._azc, None, None
            await azc.async_close()
            raise
        if self._follow is not None:
            self._watch = asyncio.ensure_future(self._follow_loop())

    async def _follow_loop(self) -> None:
        assert self._follow is not None
        while self._azc is not None:
            await asyncio.sleep(self._follow_every)
            with contextlib.suppress(OSError, TimeoutError, PeerError):
                if self._follow.read():
                    await self.move(self._follow.current)

    async def move(self, addresses: Sequence[LocalAddress], timeout: float = 5.0) -> None:
        """Advertise the table at ``addresses`` instead (this machine's addresses changed).

        The mDNS stack is made again when the interfaces it runs on changed (a socket on an
        IPv4 address that is gone sends nothing), without a goodbye for the table; the new
        address records go out with the cache-flush bit (python-zeroconf marks host records
        unique), so a browser drops the old ones within a second (RFC 6762 section 10.2).

        Raises:
            LocalProtocolError: not started, or ``addresses`` is empty.
            TimeoutError, OSError, zeroconf.Error: the new records could not be published.
        """
        if self._azc is None or self._info is None:
            raise LocalProtocolError("the advertiser is not started")
        if not addresses:
            raise LocalProtocolError("an advertised table needs addresses")
        moved = _stack(addresses) != _stack(self._addresses)
        self._addresses = list(addresses)
        self.advert = replace(self.advert, addresses=tuple(a.text for a in addresses))
        info = self._service_info(self._info.name)
        self._info = info
        if moved:
            old, self._azc = self._azc, _zeroconf(self._addresses)
            # Out of the old stack's registry first: closing it then sends no goodbye.
            old.zeroconf.registry.async_remove(old.zeroconf.registry.async_get_service_infos())
            await old.async_close()
            async with asyncio.timeout(timeout):
                await (await self._azc.async_register_service(info, allow_name_change=True))
        else:
            async with asyncio.timeout(timeout):
                await (await self._azc.async_update_service(info))
        if self.on_move is not None:
            self.on_move(self.advert)

    async def update(self, *, free_seats: int, players: Sequence[str] | None = None,
                     started: bool | None = None, bots: Sequence[int] | None = None,
                     timeout: float = 5.0) -> None:
        """Publish a new free-seat count (and the players seated, when given, with the
        positions among them that bots play, ``bots``; ``started``: the game began, TXT
        ``state=started``, so watchers find it).

        Raises:
            LocalProtocolError: not started, or a bad count.
        """
        if self._azc is None or self._info is None:
            raise LocalProtocolError("the advertiser is not started")
        advert = replace(self.advert, free_seats=free_seats,
                         started=self.advert.started if started is None else started,
                         players=self.advert.players if players is None else tuple(players),
                         bots=self.advert.bots if bots is None else tuple(bots))
        advert_to_txt(advert)
        self.advert = advert
        info = self._service_info(self._info.name)  # keep a name chosen on a conflict
        self._info = info
        async with asyncio.timeout(timeout):
            await (await self._azc.async_update_service(info))

    async def withdraw(self, timeout: float = 5.0) -> None:
        """Send the goodbye and close the sockets (idempotent)."""
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        azc, info = self._azc, self._info
        self._azc = self._info = None
        if azc is None:
            return
        try:
            if info is not None:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(timeout):
                        await (await azc.async_unregister_service(info))
        finally:
            await azc.async_close()

    async def __aenter__(self) -> Advertiser:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.withdraw()


@dataclass(frozen=True, slots=True)
class TableFound:
    """A table appeared."""

    advert: TableAdvert


@dataclass(frozen=True, slots=True)
class TableUpdated:
    """A known table's advertisement changed (e.g. its free seats)."""

    advert: TableAdvert


@dataclass(frozen=True, slots=True)
class TableRemoved:
    """A table was withdrawn (or its advertisement expired): ``name`` is its instance name."""

    name: str
    advert: TableAdvert | None = None


@dataclass(frozen=True, slots=True)
class Ignored:
    """An advertisement that could not be used: ``error`` says why."""

    name: str
    error: MessageError


DiscoveryEvent = TableFound | TableUpdated | TableRemoved | Ignored


@dataclass(frozen=True, slots=True)
class Resolved:
    """What resolving one instance name gave: its raw TXT record, port and addresses."""

    text: bytes
    port: int
    addresses: tuple[str, ...]


class Browser:
    """Browses for tables; events arrive on :attr:`events` (bounded; excess are dropped).

    :attr:`tables` maps instance names to the latest advert; an instance name holds the table
    id and the start of the host's key, so two tables with one id are two entries. At most
    :data:`MAX_TABLES` are kept; further adverts are reported as :class:`Ignored`.

    Args:
        interfaces: ``--interface`` arguments or chosen addresses (``None``: every interface
            but loopback).
        resolve_timeout: bound on resolving one advertisement, in seconds.
        event_cap: the most events kept waiting.
        sweep_interval: seconds between checks of the known tables' records (refresh queries,
            expiry).

    Raises:
        AddressError: an ``interfaces`` item names nothing of this machine.
    """

    def __init__(
        self,
        interfaces: Sequence[str | LocalAddress] | None = None,
        *,
        resolve_timeout: float = 3.0,
        event_cap: int = 256,
        sweep_interval: float = 5.0,
    ) -> None:
        self.events: asyncio.Queue[DiscoveryEvent] = asyncio.Queue(event_cap)
        self.tables: dict[str, TableAdvert] = {}
        self._addresses = _addresses(interfaces)
        self._resolve_timeout = resolve_timeout
        self._sweep_interval = sweep_interval
        self._azc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._generation: dict[str, int] = {}
        """Per instance name, how many goodbyes were seen: a resolution started before the
        latest goodbye is dropped when it ends."""

    async def start(self) -> None:
        """Start browsing."""
        self._azc = _zeroconf(self._addresses)
        self._browser = AsyncServiceBrowser(
            self._azc.zeroconf, SERVICE_TYPE, handlers=[self._on_change]
        )
        self._spawn(self._sweep_loop())

    async def next_event(self, timeout: float) -> DiscoveryEvent:
        """The next event, waiting at most ``timeout`` seconds (raises ``TimeoutError``)."""
        async with asyncio.timeout(timeout):
            return await self.events.get()

    async def close(self) -> None:
        """Stop browsing and close the sockets."""
        for task in list(self._tasks):
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._azc is not None:
            await self._azc.async_close()
        self._browser = self._azc = None

    async def __aenter__(self) -> Browser:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _emit(self, event: DiscoveryEvent) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self.events.put_nowait(event)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _remove(self, name: str) -> None:
        self._generation[name] = self._generation.get(name, 0) + 1
        advert = self.tables.pop(name, None)
        if advert is not None:
            self._emit(TableRemoved(name, advert))

    def _on_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
        **_: Any,
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            self._remove(name)
            return
        self._spawn(self._resolve(zeroconf, name))
        if state_change is ServiceStateChange.Updated:
            # New address records flush the old ones one second later (RFC 6762 section
            # 10.2): resolve once more after that, so a moved table lists only its new ones.
            self._spawn(self._resolve_later(zeroconf, name, FLUSH_S))

    async def _resolve_later(self, zeroconf: Zeroconf, name: str, delay: float) -> None:
        await asyncio.sleep(delay)
        await self._resolve(zeroconf, name)

    async def _request(self, zeroconf: Zeroconf, name: str) -> Resolved | None:
        """Resolve ``name`` (SRV, TXT, A/AAAA), or ``None`` when it does not resolve in time."""
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(zeroconf, int(self._resolve_timeout * 1000)):
            return None
        return Resolved(info.text or b"", info.port or 0,
                        tuple(scope_name(a) for a in info.parsed_scoped_addresses()))

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        generation = self._generation.get(name, 0)
        resolved = await self._request(zeroconf, name)
        if resolved is None or self._generation.get(name, 0) != generation:
            return  # nothing, or a goodbye arrived meanwhile: the goodbye wins
        try:
            advert = txt_to_advert(parse_txt(resolved.text, name), name, resolved.port,
                                   order_addresses(resolved.addresses, self._addresses))
            if not advert.addresses or not advert.port:
                raise MessageError(name, Reason.MALFORMED, "no address or port").with_code(
                    "txt-no-address")
        except MessageError as exc:
            self._emit(Ignored(name, exc))
            return
        except Exception as exc:
            self._emit(Ignored(name, unexpected(name, exc)))
            return
        known = self.tables.get(name)
        if known is None and len(self.tables) >= MAX_TABLES:
            self._emit(Ignored(name, MessageError(
                name, Reason.OVERSIZED, f"more than {MAX_TABLES} tables advertised").with_code(
                    "too-many-tables", limit=MAX_TABLES)))
            return
        self.tables[name] = advert
        if known is None:
            self._emit(TableFound(advert))
        elif known != advert:
            self._emit(TableUpdated(advert))

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self._sweep_interval)
            if self._azc is not None:
                self.sweep(self._azc.zeroconf)

    def sweep(self, zeroconf: Zeroconf) -> None:
        """Drop every known table whose SRV record expired; ask again for the SRV, TXT and
        address records of those past half their TTL (RFC 6762 section 5.2)."""
        now = current_time_millis()  # python-zeroconf's record clock (monotonic)
        ask: list[tuple[str, int]] = []
        for name, advert in list(self.tables.items()):
            cached: list[Any] = zeroconf.cache.async_all_by_details(name, _TYPE_SRV, _CLASS_IN)
            records = [r for r in cached if not r.is_expired(now)]
            if not records:
                self._remove(name)
            elif any(r.is_stale(now) for r in records):
                ask += [(name, _TYPE_SRV), (name, _TYPE_TXT),
                        (advert.host_name, _TYPE_A), (advert.host_name, _TYPE_AAAA)]
        if ask:
            out = DNSOutgoing(0)  # a query (RFC 6762 section 18.2: QR bit clear)
            for name, rtype in ask:
                out.add_question(DNSQuestion(name, rtype, _CLASS_IN))
            zeroconf.async_send(out)
