"""Network failures as codes and English words: what a person reads when a probe, a link or
mDNS fails.

The transport (websockets), the sockets and python-zeroconf raise exceptions whose class names
and errno numbers mean nothing to a person at a table (issue 25: "(ConnectionClosedOK)" in a
join error). :func:`failure` gives what happened as a :class:`Failure` (a stable code and its
values), which the command line says in the player's language (``cli/net_words.py``, issue 28);
:func:`failure_words` is its English sentence part, for the peer layer's own exception texts
(logs, ``--verbose``). Both log the exception itself (class and text) on the ``lancards.net``
logger at DEBUG level, which ``--verbose`` shows (:func:`verbose_logging`).
"""

from __future__ import annotations

import errno
import logging
import socket
import sys
from dataclasses import dataclass

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from lancards.p2p.protocol.errors import PeerError

log = logging.getLogger("lancards.net")
"""Where the exceptions behind the words go, and a lobby's refused messages as the protocol
says them (``cli.lobby.common.report_on_stderr``); DEBUG level, ``--verbose`` shows them."""

_ERRNO_CODES = {
    errno.ECONNREFUSED: "refused",
    errno.ECONNRESET: "reset",
    errno.EHOSTUNREACH: "no-route",
    errno.ENETUNREACH: "net-unreachable",
    errno.EADDRNOTAVAIL: "no-such-address",
    errno.EADDRINUSE: "port-in-use",
    errno.EACCES: "denied",
    errno.ENODEV: "no-device",
}

WHO_HOST = "the host"
"""The other end of a probe or a link when the sentence has no address to name."""
WHO_NETWORK = "the network"
"""The other end of an mDNS failure (a browser or an advert that cannot start)."""

ENGLISH: dict[str, str] = {
    "peer": "{detail}",
    "closed": "{who} closed the connection",
    "timeout-after": "{who} did not answer within {timeout} s",
    "timeout": "{who} did not answer in time",
    "bad-uri": "{who} is not an address this machine can dial",
    "handshake": "{who} did not answer as a lancards table does",
    "mdns": "multicast DNS (mDNS) failed on this network",
    "unknown-name": "the name of {who} is not known on this network",
    "refused": "{who} refused the connection: nothing listens at that port",
    "reset": "{who} dropped the connection",
    "no-route": "{who} cannot be reached from this machine (no route)",
    "net-unreachable": "the network of {who} cannot be reached from this machine",
    "no-such-address": "this machine has no such address",
    "port-in-use": "the port is in use by another program",
    "denied": "this machine does not allow it (permission denied)",
    "no-device": "there is no such network device",
    "system": "cannot reach {who}: {detail}",
    "network": "the network failed on the way to {who}",
    "unexpected": "an unexpected failure on the way to {who}",
}
"""The English sentence part of each :attr:`Failure.code` (``str.format`` with its fields)."""


@dataclass(frozen=True, slots=True)
class Failure:
    """A network failure as a code and its values (issue 28: the words are the command line's).

    Attributes:
        code: one of the keys of :data:`ENGLISH` (``"closed"``, ``"refused"``, ...).
        who: the other end as the sentence names it (:data:`WHO_HOST`, :data:`WHO_NETWORK`,
            or an address such as ``"10.0.0.2:4000"``).
        timeout: the seconds waited (``"timeout-after"``), else ``None``.
        detail: the system's own words for ``"system"`` (lowercase first letter, no errno
            number), a :class:`PeerError`'s text for ``"peer"``, else ``""``.
        error: the :class:`PeerError` itself for ``"peer"`` (its own code says it), else
            ``None``.
    """

    code: str
    who: str = WHO_HOST
    timeout: float | None = None
    detail: str = ""
    error: PeerError | None = None

    def english(self) -> str:
        """The English sentence part (:data:`ENGLISH`): ``"the host closed the connection"``."""
        timeout = "" if self.timeout is None else f"{self.timeout:g}"
        return ENGLISH[self.code].format(who=self.who, timeout=timeout, detail=self.detail)


def failure(exc: BaseException, who: str = WHO_HOST, timeout: float | None = None) -> Failure:
    """What ``exc`` (a network failure) means, as a :class:`Failure`, without its class name or
    errno; the exception's class and text are logged on :data:`log` (with the English words).

    Args:
        exc: the exception caught (websockets' ``ConnectionClosed``, ``InvalidHandshake``,
            ``InvalidURI``; ``TimeoutError``; ``OSError`` and ``socket.gaierror``;
            python-zeroconf's ``Error``; our own ``PeerError``, whose text is already words).
        who: the other end as the sentence names it (:data:`WHO_HOST`, ``"10.0.0.2:4000"``).
        timeout: the seconds waited, for a timeout's words.
    """
    found = _failure(exc, who, timeout)
    log.debug("%s (%s: %s)", found.english(), type(exc).__name__, exc)
    return found


def failure_words(exc: BaseException, who: str = WHO_HOST,
                  timeout: float | None = None) -> str:
    """What ``exc`` (a network failure) means, in English words (:func:`failure`'s
    :meth:`Failure.english`), without its class name or errno.

    Args:
        exc: the exception caught (websockets' ``ConnectionClosed``, ``InvalidHandshake``,
            ``InvalidURI``; ``TimeoutError``; ``OSError`` and ``socket.gaierror``;
            python-zeroconf's ``Error``; our own ``PeerError``, whose text is already words).
        who: the other end as the sentence names it (``"the host"``, ``"10.0.0.2:4000"``).
        timeout: the seconds waited, for a timeout's words.

    Returns:
        A sentence part such as ``"the host closed the connection"`` or ``"the host did not
        answer within 15 s"``. The exception's class and text are logged on :data:`log`.
    """
    return failure(exc, who, timeout).english()


def _failure(exc: BaseException, who: str, timeout: float | None) -> Failure:
    if isinstance(exc, PeerError):
        return Failure("peer", who, detail=str(exc), error=exc)
    if isinstance(exc, ConnectionClosed):
        return Failure("closed", who)
    if isinstance(exc, TimeoutError):
        return (Failure("timeout-after", who, timeout) if timeout is not None
                else Failure("timeout", who))
    if isinstance(exc, InvalidURI):
        return Failure("bad-uri", who)
    if isinstance(exc, InvalidHandshake):
        return Failure("handshake", who)
    zeroconf = sys.modules.get("zeroconf")  # not imported here: `lancards node` never loads it
    if zeroconf is not None and isinstance(exc, zeroconf.Error):
        return Failure("mdns", who)
    if isinstance(exc, socket.gaierror):
        return Failure("unknown-name", who)
    if isinstance(exc, OSError):
        if exc.errno in _ERRNO_CODES:
            return Failure(_ERRNO_CODES[exc.errno], who)
        if exc.strerror:  # the system's own words, without the errno number
            return Failure("system", who,
                           detail=f"{exc.strerror[:1].lower()}{exc.strerror[1:]}")
        return Failure("network", who)
    return Failure("unexpected", who)


def verbose_logging() -> None:
    """Show the :data:`log` lines on stderr, each starting ``lancards: `` (``--verbose``; by
    default they go nowhere)."""
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("lancards: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.DEBUG)
