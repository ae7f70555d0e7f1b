"""The zeroconf adapter: advertise tables by mDNS / DNS-SD and browse for them.

A table is a DNS-SD service (RFC 6763) of type ``_lancards._tcp.local.`` named
``"<tbl>-<first 8 hex of pk>._lancards._tcp.local."`` with the TXT keys (RFC 6763 section 6):

=======  ============================================================
``v``    protocol version (``1``)
``tbl``  table id, 16 lowercase hex digits
``game`` rule set name (``level8-master``...)
``seats`` free seats, ``0`` to ``6``
``nick`` the host's nickname (at most 24 characters)
``pk``   the host's Ed25519 public key, 64 lowercase hex digits
=======  ============================================================

mDNS is only a hint, never proof: anyone on the network can advertise anything. The Ed25519 key
is the identity, proven in the transport's hello handshake. Malformed adverts are ignored (they
are reported as :class:`Ignored` events, never raised).

The TXT parsing and formatting are pure functions; :class:`Advertiser` and :class:`Browser`
only move them to and from ``zeroconf.asyncio.AsyncZeroconf``. Both take an explicit list of
interface addresses (needed inside network namespaces; default: every interface).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from lancards.p2p.errors import LocalProtocolError, MessageError, Reason
from lancards.p2p.identity import MAX_NICK_CHARS
from lancards.p2p.wire import PROTOCOL_VERSION, TABLE_ID

SERVICE_TYPE: Final = "_lancards._tcp.local."
"""The DNS-SD service type of a table."""

_GAME = re.compile(r"[a-z0-9][a-z0-9\-]{0,31}")
_PK = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class TableAdvert:
    """What a table's advertisement says (a hint).

    Attributes:
        table: table id.
        game: rule set name.
        free_seats: seats still free, 0 to 6.
        nick: the host's nickname.
        public_key: the host's Ed25519 key, 32 bytes.
        port: the host's transport port.
        addresses: the host's addresses as text (``"10.213.0.1"``).
    """

    table: str
    game: str
    free_seats: int
    nick: str
    public_key: bytes
    port: int = 0
    addresses: tuple[str, ...] = ()

    @property
    def instance_name(self) -> str:
        """The DNS-SD service instance name."""
        return f"{self.table}-{self.public_key.hex()[:8]}.{SERVICE_TYPE}"


def advert_to_txt(advert: TableAdvert) -> dict[str, str]:
    """The TXT keys of an advertisement.

    Raises:
        LocalProtocolError: a value that would not parse back (bad id, game, seats, nickname).
    """
    txt = {
        "v": str(PROTOCOL_VERSION),
        "tbl": advert.table,
        "game": advert.game,
        "seats": str(advert.free_seats),
        "nick": advert.nick,
        "pk": advert.public_key.hex(),
    }
    try:
        txt_to_advert({k.encode(): v.encode() for k, v in txt.items()})
    except MessageError as exc:
        raise LocalProtocolError(f"cannot advertise: {exc.detail}") from None
    return txt


def txt_to_advert(
    properties: Mapping[bytes, bytes | None],
    name: str = "mDNS advert",
    port: int = 0,
    addresses: Sequence[str] = (),
) -> TableAdvert:
    """Parse the TXT keys of an advertisement.

    Raises:
        MessageError: ``malformed`` (a missing or bad key, another protocol version), naming
            ``name``.
    """

    def get(key: str) -> str:
        value = properties.get(key.encode())
        if value is None:
            raise MessageError(name, Reason.MALFORMED, f"TXT key {key!r} is missing")
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise MessageError(name, Reason.MALFORMED, f"TXT key {key!r} is not UTF-8") from None

    if get("v") != str(PROTOCOL_VERSION):
        raise MessageError(name, Reason.MALFORMED, f"protocol version {get('v')!r} is not 1")
    table, game, seats, nick, pk = get("tbl"), get("game"), get("seats"), get("nick"), get("pk")
    problems = [
        (not TABLE_ID.fullmatch(table), f"table id {table!r}"),
        (not _GAME.fullmatch(game), f"game {game!r}"),
        (not (seats.isdigit() and len(seats) == 1 and int(seats) <= 6), f"seats {seats!r}"),
        (not (0 < len(nick) <= MAX_NICK_CHARS and nick.isprintable()), f"nick {nick!r}"),
        (not _PK.fullmatch(pk), f"pk {pk[:70]!r}"),
    ]
    for bad, what in problems:
        if bad:
            raise MessageError(name, Reason.MALFORMED, f"TXT {what} is invalid")
    return TableAdvert(table, game, int(seats), nick, bytes.fromhex(pk), port, tuple(addresses))


def _ip_version(interfaces: Sequence[str] | None) -> IPVersion:
    if not interfaces:
        return IPVersion.V4Only
    versions = {ipaddress.ip_address(a).version for a in interfaces}
    if versions == {4}:
        return IPVersion.V4Only
    return IPVersion.V6Only if versions == {6} else IPVersion.All


def _zeroconf(interfaces: Sequence[str] | None) -> AsyncZeroconf:
    if interfaces is None:
        return AsyncZeroconf()
    if not interfaces:
        raise LocalProtocolError("an explicit interface list must not be empty")
    return AsyncZeroconf(interfaces=list(interfaces), ip_version=_ip_version(interfaces))


class Advertiser:
    """Advertises one table; :meth:`withdraw` (or leaving ``async with``) sends the goodbye.

    Args:
        advert: the table (its ``port`` and ``addresses`` are what peers dial).
        interfaces: the addresses of the interfaces to use (``None``: all interfaces).
    """

    def __init__(self, advert: TableAdvert, interfaces: Sequence[str] | None = None) -> None:
        if not advert.addresses or not advert.port:
            raise LocalProtocolError("an advertised table needs addresses and a port")
        advert_to_txt(advert)
        self.advert = advert
        self._interfaces = interfaces
        self._azc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    def _service_info(self, name: str | None = None) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name or self.advert.instance_name,
            port=self.advert.port,
            properties=advert_to_txt(self.advert),
            server=f"lancards-{self.advert.public_key.hex()[:12]}.local.",
            parsed_addresses=list(self.advert.addresses),
        )

    async def start(self, timeout: float = 5.0) -> None:
        """Register the service (probing, then announcing), waiting at most ``timeout`` s."""
        self._azc = _zeroconf(self._interfaces)
        self._info = self._service_info()
        async with asyncio.timeout(timeout):
            await (await self._azc.async_register_service(self._info, allow_name_change=True))

    async def update(self, *, free_seats: int, timeout: float = 5.0) -> None:
        """Publish a new free-seat count.

        Raises:
            LocalProtocolError: not started, or a bad count.
        """
        if self._azc is None or self._info is None:
            raise LocalProtocolError("the advertiser is not started")
        a = self.advert
        self.advert = TableAdvert(
            a.table, a.game, free_seats, a.nick, a.public_key, a.port, a.addresses
        )
        info = self._service_info(self._info.name)  # keep a name chosen on a conflict
        self._info = info
        async with asyncio.timeout(timeout):
            await (await self._azc.async_update_service(info))

    async def withdraw(self, timeout: float = 5.0) -> None:
        """Send the goodbye and close the sockets (idempotent)."""
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
    """A table was withdrawn (or its advertisement expired)."""

    name: str


@dataclass(frozen=True, slots=True)
class Ignored:
    """An advertisement that could not be used: ``error`` says why."""

    name: str
    error: MessageError


DiscoveryEvent = TableFound | TableUpdated | TableRemoved | Ignored


class Browser:
    """Browses for tables; events arrive on :attr:`events` (bounded; excess are dropped).

    Args:
        interfaces: the addresses of the interfaces to use (``None``: all interfaces).
        resolve_timeout: bound on resolving one advertisement, in seconds.
        event_cap: the most events kept waiting.
    """

    def __init__(
        self,
        interfaces: Sequence[str] | None = None,
        *,
        resolve_timeout: float = 3.0,
        event_cap: int = 256,
    ) -> None:
        self.events: asyncio.Queue[DiscoveryEvent] = asyncio.Queue(event_cap)
        self.tables: dict[str, TableAdvert] = {}
        self._interfaces = interfaces
        self._resolve_timeout = resolve_timeout
        self._azc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Start browsing."""
        self._azc = _zeroconf(self._interfaces)
        self._browser = AsyncServiceBrowser(
            self._azc.zeroconf, SERVICE_TYPE, handlers=[self._on_change]
        )

    async def next_event(self, timeout: float) -> DiscoveryEvent:
        """The next event, waiting at most ``timeout`` seconds (raises ``TimeoutError``)."""
        async with asyncio.timeout(timeout):
            return await self.events.get()

    async def close(self) -> None:
        """Stop browsing and close the sockets."""
        for task in self._tasks:
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

    def _on_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
        **_: Any,
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            if self.tables.pop(name, None) is not None:
                self._emit(TableRemoved(name))
            return
        task = asyncio.ensure_future(self._resolve(zeroconf, name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(zeroconf, int(self._resolve_timeout * 1000)):
            return
        try:
            advert = txt_to_advert(info.properties, name, info.port or 0, info.parsed_addresses())
        except MessageError as exc:
            self._emit(Ignored(name, exc))
            return
        known = self.tables.get(name)
        self.tables[name] = advert
        if known is None:
            self._emit(TableFound(advert))
        elif known != advert:
            self._emit(TableUpdated(advert))
