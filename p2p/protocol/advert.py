"""A table's mDNS advertisement as data: its fields, its TXT record and the order a joiner
tries its addresses in (RFC 6763 sections 6.1-6.4 for TXT; the service itself is run by
:mod:`lancards.p2p.net.discovery`, which re-exports every name here)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from lancards.p2p.protocol.errors import LocalProtocolError, MessageError, Reason
from lancards.p2p.protocol.identity import MAX_NICK_CHARS
from lancards.p2p.protocol.wire import PROTOCOL_VERSION, TABLE_ID

SERVICE_TYPE: Final = "_lancards._tcp.local."
"""The DNS-SD service type of a table."""

RECORD_TTL: Final = 120
"""Seconds every record of an advertisement lives without a refresh (RFC 6762 section 10)."""

MAX_TXT_BYTES: Final = 1300
"""The longest TXT record read, in bytes ("Using TXT records larger than 1300 bytes is NOT
RECOMMENDED", RFC 6763 section 6.2)."""

MAX_SEATS: Final = 6
"""The most seats a table has (``p1`` to ``p6``)."""

MAX_ADDRESSES_TRIED: Final = 8
"""The most addresses of one table a joiner tries (an advert may list many)."""

MAX_TABLES: Final = 256
"""The most tables a browser keeps; adverts beyond are ignored (a flood of adverts)."""

RESCUE_TRADE_OFF: Final = ("rescue on: a player who vanishes can be voted out by all the "
                           "others, but all the other players together could open one "
                           "player's hand")
"""What the lobby says of a table with the option ``rescue`` on (ruling D-5)."""

_GAME = re.compile(r"[a-z0-9][a-z0-9\-]{0,31}")
_PK = re.compile(r"[0-9a-f]{64}")
_BOTS = re.compile(r"[1-6](,[1-6]){0,5}")
_KEY = re.compile(r"[\x20-\x3c\x3e-\x7e]+")
"""A TXT key: printable US-ASCII except ``=`` (RFC 6763 section 6.4)."""
_TYPE_A, _TYPE_TXT, _TYPE_AAAA, _TYPE_SRV, _CLASS_IN = 1, 16, 28, 33, 1
"""DNS record types (RFC 1035, RFC 3596, RFC 2782) and the Internet class."""


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
        addresses: the host's addresses as text (``"10.213.0.1"``, ``"fe80::1%eth0"``), in
            the order to try them.
        size: the table's seat count (0: not advertised).
        players: nicknames of the players seated so far, in seat order.
        rescue: the table's option ``rescue`` is on (TXT ``rescue=on``; ruling D-5): a player
            who vanishes can be voted out, at the price that all the other players together
            could open one player's hand (:data:`RESCUE_TRADE_OFF`).
        started: the game has started (TXT ``state=started``): nobody can join, anyone may
            watch (``lancards watch``; ``docs/protocol.md`` 11.11).
        bots: the positions in ``players`` (from 0, ascending) of the seats a bot plays, as
            their joins said (TXT ``bots=2,3``: the numbers of their ``p`` keys); a hint for
            the lobby's list, like the nicknames (the LAN trial of 2026-12-06: a joiner could
            not tell a host's bots from people before joining).
        partners: the 8s Rule! option ``partners`` is on (TXT ``partners=on``; ruling E-10):
            the lobby and ``join`` warn that any removal ends the game at once (a team cannot
            play on without a member), as the host's screen does.
    """

    table: str
    game: str
    free_seats: int
    nick: str
    public_key: bytes
    port: int = 0
    addresses: tuple[str, ...] = ()
    size: int = 0
    players: tuple[str, ...] = ()
    rescue: bool = False
    started: bool = False
    bots: tuple[int, ...] = ()
    partners: bool = False

    @property
    def instance_name(self) -> str:
        """The DNS-SD service instance name."""
        return f"{self.table}-{self.public_key.hex()[:8]}.{SERVICE_TYPE}"

    @property
    def host_name(self) -> str:
        """The mDNS host name of this table's addresses (one per table)."""
        return f"lancards-{self.table}-{self.public_key.hex()[:8]}.local."


def advert_to_txt(advert: TableAdvert) -> dict[str, str]:
    """The TXT keys of an advertisement, in the order they are sent.

    Raises:
        LocalProtocolError: a value that would not parse back (bad id, game, seats, nickname,
            more players than seats).
    """
    txt = {
        "v": str(PROTOCOL_VERSION),
        "tbl": advert.table,
        "game": advert.game,
        "seats": str(advert.free_seats),
        "nick": advert.nick,
        "pk": advert.public_key.hex(),
    }
    if advert.size:
        txt["size"] = str(advert.size)
    txt.update({f"p{i}": nick for i, nick in enumerate(advert.players, 1)})
    if advert.rescue:
        txt["rescue"] = "on"
    if advert.started:
        txt["state"] = "started"
    if advert.bots:
        txt["bots"] = ",".join(str(i + 1) for i in advert.bots)
    if advert.partners:
        txt["partners"] = "on"
    try:
        txt_to_advert({k.encode(): v.encode() for k, v in txt.items()})
    except MessageError as exc:
        raise LocalProtocolError(f"cannot advertise: {exc.detail}") from None
    return txt


def parse_txt(record: bytes, name: str = "mDNS advert") -> dict[bytes, bytes | None]:
    """The keys of a raw TXT record (RFC 6763 section 6), keys lowercased.

    Length-prefixed strings ``key=value``; ``key`` alone is a key without a value (``None``,
    section 6.4); an empty string or one starting with ``=`` is skipped (6.1, 6.4); the first of
    a repeated key (in any case) wins (6.4).

    Raises:
        MessageError: ``oversized``: longer than :data:`MAX_TXT_BYTES`; ``malformed``: a string
            that runs past the end, a key with a character outside printable US-ASCII.
    """
    if len(record) > MAX_TXT_BYTES:
        raise MessageError(name, Reason.OVERSIZED,
                           f"TXT record of {len(record)} bytes is over {MAX_TXT_BYTES} "
                           "(RFC 6763 section 6.2)").with_code("txt-size", size=len(record),
                                                               limit=MAX_TXT_BYTES)
    keys: dict[bytes, bytes | None] = {}
    at = 0
    while at < len(record):
        size = record[at]
        item = record[at + 1 : at + 1 + size]
        if len(item) != size:
            raise MessageError(name, Reason.MALFORMED, "TXT string runs past the record's end"
                               ).with_code("txt-runs-past")
        at += 1 + size
        key, eq, value = item.partition(b"=")
        if not key:
            continue
        try:
            text = key.decode("ascii")
        except UnicodeDecodeError:
            text = ""
        if not _KEY.fullmatch(text):
            raise MessageError(name, Reason.MALFORMED,
                               f"TXT key {key[:20]!r} is not printable US-ASCII "
                               "(RFC 6763 section 6.4)").with_code("txt-key-ascii",
                                                                   key=repr(key[:20]))
        keys.setdefault(key.lower(), value if eq else None)
    return keys


def txt_to_advert(
    properties: Mapping[bytes, bytes | None],
    name: str = "mDNS advert",
    port: int = 0,
    addresses: Sequence[str] = (),
) -> TableAdvert:
    """Parse the TXT keys of an advertisement (keys in any case; the first of a repeat wins).

    Raises:
        MessageError: ``malformed`` (a missing or bad key, another protocol version), naming
            ``name``.
    """
    lowered: dict[bytes, bytes | None] = {}
    for raw_key, raw_value in properties.items():
        lowered.setdefault(raw_key.lower(), raw_value)

    def get(key: str, default: str | None = None) -> str:
        if key.encode() not in lowered:
            if default is not None:
                return default
            raise MessageError(name, Reason.MALFORMED, f"TXT key {key!r} is missing"
                               ).with_code("txt-missing", key=key)
        value = lowered[key.encode()]
        if value is None:
            raise MessageError(name, Reason.MALFORMED, f"TXT key {key!r} has no value"
                               ).with_code("txt-no-value", key=key)
        try:
            text = value.decode("utf-8")  # strict: refuses over-long forms and surrogates
        except UnicodeDecodeError as exc:
            raise MessageError(name, Reason.MALFORMED,
                               f"TXT key {key!r} is not UTF-8 at byte {exc.start}").with_code(
                                   "txt-utf8", key=key, byte=exc.start) from None
        if "\x00" in text:
            raise MessageError(name, Reason.MALFORMED,
                               f"TXT key {key!r} holds NUL (U+0000) at character "
                               f"{text.index(chr(0))}").with_code(
                                   "txt-nul", key=key, at=text.index(chr(0)))
        return text

    if get("v") != str(PROTOCOL_VERSION):
        raise MessageError(name, Reason.MALFORMED, f"protocol version {get('v')[:10]!r} is not 1"
                           ).with_code("version", version=get("v")[:10])
    table, game, seats, nick, pk = get("tbl"), get("game"), get("seats"), get("nick"), get("pk")
    size = get("size", "0")
    rescue = get("rescue", "off")
    state = get("state", "open")
    bots = get("bots", "")
    partners = get("partners", "off")
    players: list[str] = []
    for i in range(1, MAX_SEATS + 2):
        player = get(f"p{i}", "")
        if not player:
            break
        players.append(player)

    def good_nick(text: str) -> bool:
        return 0 < len(text) <= MAX_NICK_CHARS and text.isprintable()

    sized = size.isdigit() and len(size) == 1 and (size == "0" or 2 <= int(size) <= MAX_SEATS)
    problems = [
        (not TABLE_ID.fullmatch(table), f"table id {table[:20]!r}"),
        (not _GAME.fullmatch(game), f"game {game[:40]!r}"),
        (not (seats.isdigit() and len(seats) == 1 and int(seats) <= MAX_SEATS),
         f"seats {seats[:10]!r}"),
        (not good_nick(nick), f"nick {nick[:30]!r}"),
        (not _PK.fullmatch(pk), f"pk {pk[:70]!r}"),
        (not sized, f"size {size[:10]!r}"),
        (len(players) > MAX_SEATS, "players: more than 6"),
        (rescue not in ("on", "off"), f"rescue {rescue[:10]!r}"),
        (state not in ("open", "started"), f"state {state[:10]!r}"),
        (not _good_bots(bots, len(players)), f"bots {bots[:20]!r}"),
        (partners not in ("on", "off"), f"partners {partners[:10]!r}"),
    ]
    problems += [(not good_nick(p), f"player {p[:30]!r}") for p in players]
    if sized and int(size) and not problems[2][0]:
        problems.append((len(players) + int(seats) > int(size),
                         f"seats {seats!r}: {len(players)} seated and {seats} free exceed "
                         f"size {size}"))
    for bad, what in problems:
        if bad:
            raise MessageError(name, Reason.MALFORMED, f"TXT {what} is invalid").with_code(
                "txt-invalid", what=what)
    return TableAdvert(table, game, int(seats), nick, bytes.fromhex(pk), port, tuple(addresses),
                       int(size), tuple(players), rescue == "on", state == "started",
                       tuple(int(n) - 1 for n in bots.split(",")) if bots else (),
                       partners == "on")


def _good_bots(text: str, players: int) -> bool:
    """Whether TXT ``bots`` is absent (``""``) or ascending numbers ``1`` to ``players`` with
    commas between (``"2,3"``), none repeated."""
    if not text:
        return True
    if not _BOTS.fullmatch(text):
        return False
    numbers = [int(n) for n in text.split(",")]
    return numbers == sorted(set(numbers)) and numbers[-1] <= players
