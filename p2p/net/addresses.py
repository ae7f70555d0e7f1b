"""Which of this machine's addresses a table uses: read from its interfaces, never guessed.

:func:`local_addresses` lists every IPv4 and IPv6 address of every interface (``ifaddr``, which
python-zeroconf itself uses). :func:`choose_addresses` turns the ``--interface`` arguments (an
interface name such as ``eth0``, or one of this machine's addresses) into the addresses a table
advertises and listens on:

- no argument: every address of every interface except loopback; an IPv6 link-local address
  (``fe80::/10``) is kept with its scope (``fe80::1%eth0``, RFC 4007 section 11), since it
  means nothing without its interface;
- an interface name: every address of that interface (loopback too when ``lo`` is named);
- an address: that address only (loopback only this way or by naming ``lo``).

:class:`FollowedAddresses` reads them again as the machine's addresses change (a new DHCP
lease, Wi-Fi back, a cable plugged in): no argument follows every interface, an interface name
follows that interface's addresses, an explicit address stays as given.

Every problem is one :class:`AddressError` whose text names it (an unknown interface, an
address this machine does not have, a link-local address without its interface).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import ifaddr


class AddressError(ValueError):
    """An ``--interface`` argument that names nothing usable here (the text says why)."""


@dataclass(frozen=True, slots=True)
class LocalAddress:
    """One address of one interface of this machine.

    Attributes:
        interface: the interface name (``"eth0"``).
        index: the interface index (``if_nametoindex``), the scope id of a link-local address.
        ip: the address without scope (``"10.0.0.2"``, ``"fe80::1"``).
        version: 4 or 6.
        prefix: the network prefix length (``24`` for a /24).
    """

    interface: str
    index: int
    ip: str
    version: int
    prefix: int = 0

    def on_link(self, address: str) -> bool:
        """Whether ``address`` (text, scope allowed) lies in this address's network."""
        try:
            other = ipaddress.ip_address(address.partition("%")[0])
            net = ipaddress.ip_network(f"{self.ip}/{self.prefix}", strict=False)
        except ValueError:
            return False
        return self.prefix > 0 and other.version == self.version and other in net

    @property
    def link_local(self) -> bool:
        """An IPv6 link-local address (``fe80::/10``): usable only with its interface."""
        return self.version == 6 and ipaddress.ip_address(self.ip).is_link_local

    @property
    def loopback(self) -> bool:
        """``127.0.0.0/8`` or ``::1``."""
        return ipaddress.ip_address(self.ip).is_loopback

    @property
    def text(self) -> str:
        """The address as peers dial it: ``"10.0.0.2"``, ``"fd00::2"``, ``"fe80::1%eth0"``."""
        return f"{self.ip}%{self.interface}" if self.link_local else self.ip

    @property
    def zeroconf_interface(self) -> str | int:
        """What python-zeroconf's ``interfaces=`` takes for it: the IPv4 address, or the
        interface index for IPv6 (``IPV6_JOIN_GROUP`` works per interface)."""
        return self.ip if self.version == 4 else self.index


def local_addresses(adapters: Sequence[ifaddr.Adapter] | None = None) -> list[LocalAddress]:
    """Every address of every interface of this machine, IPv4 first, in interface order.

    Args:
        adapters: ``ifaddr.get_adapters()`` (the default; tests pass their own).
    """
    found: list[LocalAddress] = []
    for adapter in ifaddr.get_adapters() if adapters is None else adapters:
        for ip in adapter.ips:
            if isinstance(ip.ip, tuple):
                address = LocalAddress(adapter.nice_name, int(adapter.index or ip.ip[2]),
                                       ip.ip[0].split("%")[0], 6, int(ip.network_prefix))
            else:
                address = LocalAddress(adapter.nice_name, int(adapter.index or 0), ip.ip, 4,
                                       int(ip.network_prefix))
            if address not in found:
                found.append(address)
    return sorted(found, key=lambda a: a.version)


def _listing(addresses: Sequence[LocalAddress]) -> str:
    return ", ".join(a.text for a in addresses) or "none"


def choose_addresses(
    wanted: Sequence[str] | None,
    adapters: Sequence[ifaddr.Adapter] | None = None,
) -> list[LocalAddress]:
    """The addresses to advertise and listen on for the ``--interface`` arguments ``wanted``.

    Args:
        wanted: interface names or addresses (``None`` or empty: every non-loopback address).
        adapters: as for :func:`local_addresses`.

    Returns:
        At least one address, without repeats, IPv4 first.

    Raises:
        AddressError: an argument is neither an interface of this machine nor one of its
            addresses, a link-local address lacks its interface or names the wrong one, or
            (without arguments) no interface but loopback has an address.
    """
    every = local_addresses(adapters)
    if not wanted:
        usable = [a for a in every if not a.loopback]
        if not usable:
            raise AddressError(
                "no network interface has an address (only loopback): connect to a network, "
                "or use --interface 127.0.0.1 to play on this machine only")
        return usable
    chosen: list[LocalAddress] = []
    names = sorted({a.interface for a in every})
    for item in wanted:
        if item in names:
            picked = [a for a in every if a.interface == item]
        else:
            picked = _by_address(item, every, names)
        chosen.extend(a for a in picked if a not in chosen)
    return sorted(chosen, key=lambda a: a.version)


def _by_address(item: str, every: Sequence[LocalAddress],
                names: Sequence[str]) -> list[LocalAddress]:
    text, _, scope = item.strip("[]").partition("%")
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        raise AddressError(
            f"--interface {item}: neither an interface of this machine "
            f"({', '.join(names) or 'none'}) nor an IP address") from None
    same = [a for a in every if ipaddress.ip_address(a.ip) == ip]
    if not same:
        raise AddressError(
            f"--interface {item}: no interface of this machine has this address "
            f"(its addresses: {_listing(every)})")
    if scope:
        scoped = [a for a in same if scope in (a.interface, str(a.index))]
        if not scoped:
            raise AddressError(
                f"--interface {item}: {text} is on {', '.join(a.interface for a in same)}, "
                f"not on {scope}")
        return scoped[:1]
    if ip.version == 6 and ip.is_link_local and len(same) > 1:
        raise AddressError(
            f"--interface {item}: a link-local address needs its interface, one of "
            f"{', '.join(a.text for a in same)}")
    return same[:1]


def _is_address(item: str) -> bool:
    try:
        ipaddress.ip_address(item.strip("[]").partition("%")[0])
    except ValueError:
        return False
    return True


class FollowedAddresses:
    """The addresses of the ``--interface`` arguments ``wanted``, read again on :meth:`read`.

    Args:
        wanted: as for :func:`choose_addresses`.
        adapters: as for :func:`local_addresses` (tests pass their own).

    Attributes:
        current: the addresses chosen last (IPv4 first, no repeats, never empty).

    Raises:
        AddressError: as :func:`choose_addresses`, for the addresses at construction.
    """

    def __init__(self, wanted: Sequence[str] | None,
                 adapters: Sequence[ifaddr.Adapter] | None = None) -> None:
        self.wanted = tuple(wanted or ())
        self.current = choose_addresses(self.wanted, adapters)
        self._fixed = {item: choose_addresses([item], adapters)
                       for item in self.wanted if _is_address(item)}
        """An explicit address stays as given, whatever the interfaces do."""

    def read(self, adapters: Sequence[ifaddr.Adapter] | None = None) -> bool:
        """Read this machine's addresses again; whether :attr:`current` changed.

        No argument: every address but loopback now; an interface name: that interface's
        addresses now (none while it is down); an explicit address: as given. When this gives
        no address at all (the Wi-Fi is down), :attr:`current` is kept: nothing reaches this
        machine meanwhile, and a returning interface is read on the next call.
        """
        every = local_addresses(adapters)
        if not self.wanted:
            now = [a for a in every if not a.loopback]
        else:
            now = []
            for item in self.wanted:
                picked = self._fixed.get(item)
                if picked is None:
                    picked = [a for a in every if a.interface == item]
                now.extend(a for a in picked if a not in now)
        now.sort(key=lambda a: a.version)
        if not now or now == self.current:
            return False
        self.current = now
        return True


def mdns_interfaces(addresses: Sequence[LocalAddress],
                    every: Sequence[LocalAddress] | None = None) -> tuple[str | int, ...]:
    """What python-zeroconf's ``interfaces=`` is given for an mDNS stack on the interfaces of
    ``addresses``: an IPv4 address as itself; an IPv6 interface once, as its link-local address
    (text without scope), or as its index when it has none or shares it with another interface.

    python-zeroconf binds the socket it sends from to the address it is given, and for an
    interface index to that interface's first IPv6 address, often a ULA or global one
    (``fd00:1::11``). Such an address goes when the prefix changes, and the stack then sends
    nothing; and answers from it carry no scope, so a browser lists the host's link-local
    address without its interface and cannot dial it (RFC 4007 section 6). The link-local
    address stays while the interface is up (RFC 4291 section 2.5.6) and scopes the answers.

    Args:
        addresses: the chosen addresses (IPv4 first).
        every: this machine's addresses (default :func:`local_addresses`), where each IPv6
            interface's link-local address is looked up.

    Returns:
        Each item once, in the order of ``addresses``.
    """
    every = local_addresses() if every is None else every
    found: list[str | int] = []
    for address in addresses:
        item: str | int = address.ip if address.version == 4 else address.index
        if address.version == 6:
            own = [a.ip for a in every if a.index == address.index and a.link_local]
            if own and sum(a.link_local and a.ip == own[0] for a in every) == 1:
                item = own[0]
        if item not in found:
            found.append(item)
    return tuple(found)


def any_address() -> str:
    """Where a peer listens when no one address is given: ``""`` (every IPv4 and every IPv6
    address, link-local included: python's asyncio binds ``0.0.0.0`` and ``::``) when this
    machine can open IPv6 sockets, else ``"0.0.0.0"``.

    Both families whatever the interfaces have now, since they change while a table lives: a
    host with IPv4 only that gets only IPv6 (a new network, IPv4 gone) is still reached
    (issue 24). Never raises.
    """
    if not socket.has_ipv6:
        return "0.0.0.0"
    try:
        socket.socket(socket.AF_INET6, socket.SOCK_STREAM).close()
    except OSError:
        return "0.0.0.0"
    return ""


def free_port(host: str) -> int:
    """A TCP port free on IPv4 and IPv6 at once for a listener on ``host`` ``""`` (it binds
    both families with one port; asyncio would give each its own ephemeral port); ``0`` (any
    port) for any other ``host``, or when 50 tries found none."""
    if host != "":
        return 0
    for _ in range(50):
        with socket.socket(socket.AF_INET) as four:
            four.bind(("", 0))
            port = int(four.getsockname()[1])
            try:
                with socket.socket(socket.AF_INET6) as six:
                    six.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                    six.bind(("::", port))
            except OSError as exc:
                if exc.errno == 98:  # EADDRINUSE: try another
                    continue
            return port
    return 0


def scope_name(address: str) -> str:
    """``"fe80::1%3"`` as ``"fe80::1%eth0"`` (an interface index made its name); other
    addresses unchanged."""
    text, sep, scope = address.partition("%")
    if sep and scope.isdigit():
        try:
            return f"{text}%{socket.if_indextoname(int(scope))}"
        except OSError:
            return address
    return address


def link_host(peer: Sequence[object]) -> str:
    """The host of a socket's peer address as it can be dialled again: an IPv6 link-local one
    with its scope (``("fe80::12", 40688, 0, 2)`` is ``"fe80::12%eth0"``), since the text of
    ``getpeername`` leaves the scope id out and ``fe80::12`` alone cannot be dialled (issue
    24: a host's bot dialled a joiner at the address the host saw it come from)."""
    host = str(peer[0])
    scope = peer[3] if len(peer) >= 4 else 0
    if "%" in host or not isinstance(scope, int) or not scope:
        return host
    return scope_name(f"{host}%{scope}")


def rescope(address: str, reached: str) -> str:
    """``address`` (from another peer's address book) with the scope of ``reached``.

    A link-local address's scope names an interface of the machine that wrote it; on this
    machine the same link has the interface over which the table's host was ``reached``. So
    ``rescope("fe80::12%wlan0", "fe80::11%enp3s0")`` is ``"fe80::12%enp3s0"``. Any other
    address is returned unchanged (RFC 4007 section 6: zone indexes are local to a node).
    """
    text, _, _ = address.partition("%")
    _, sep, zone = reached.partition("%")
    try:
        link_local = ipaddress.ip_address(text).version == 6 and \
            ipaddress.ip_address(text).is_link_local
    except ValueError:
        return address
    return f"{text}%{zone}" if link_local and sep and zone else address


def book_addresses(book: Mapping[bytes, tuple[str, int]], host: bytes,
                   reached: str) -> dict[bytes, tuple[str, int]]:
    """The host's address book (``table.addrs``) as this peer dials it, having ``reached`` the
    host (key ``host``) at that address: a seat the book puts at the host's own address runs
    on the host's machine (its bots, which dial the host over loopback: the host writes its
    own public address for them) and is dialled at ``reached`` too, since that address
    answered and a host's bots listen where it does; the host's first advertised address may
    be one this peer cannot reach (a joiner on 10.33.0.0/24 and a host at 169.254.10.1 and
    ``fe80::11``, both on one link). Every other link-local address gets the scope of
    ``reached`` (:func:`rescope`)."""
    own = book.get(host, ("", 0))[0]
    return {key: (reached if own and address == own else rescope(address, reached), port)
            for key, (address, port) in book.items()}


def order_addresses(addresses: Sequence[str],
                    local: Sequence[LocalAddress] = ()) -> tuple[str, ...]:
    """The order a joiner tries a table's addresses in: those in a network of one of its
    ``local`` addresses first, then IPv4, then IPv6, link-local last (a link-local address
    works only on its own link); repeats dropped, the order kept otherwise."""

    def rank(text: str) -> tuple[int, int]:
        try:
            ip = ipaddress.ip_address(text.partition("%")[0])
        except ValueError:
            return 1, 3
        near = 0 if any(a.on_link(text) for a in local) and not ip.is_link_local else 1
        return near, 0 if ip.version == 4 else (2 if ip.is_link_local else 1)

    return tuple(sorted(dict.fromkeys(addresses), key=rank))
