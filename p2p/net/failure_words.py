"""Network failures in words: what a person reads when a probe, a link or mDNS fails.

The transport (websockets), the sockets and python-zeroconf raise exceptions whose class names
and errno numbers mean nothing to a person at a table (issue 25: "(ConnectionClosedOK)" in a
join error). :func:`failure_words` says what happened in a sentence part, and logs the exception
itself (class and text) on the ``lancards.net`` logger at DEBUG level, which ``--verbose``
shows (:func:`verbose_logging`).
"""

from __future__ import annotations

import errno
import logging
import socket
import sys

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from lancards.p2p.protocol.errors import PeerError

log = logging.getLogger("lancards.net")
"""Where the exceptions behind the words go, and a lobby's refused messages as the protocol
says them (``cli.lobby.common.report_on_stderr``); DEBUG level, ``--verbose`` shows them."""

_ERRNO_WORDS = {
    errno.ECONNREFUSED: "{who} refused the connection: nothing listens at that port",
    errno.ECONNRESET: "{who} dropped the connection",
    errno.EHOSTUNREACH: "{who} cannot be reached from this machine (no route)",
    errno.ENETUNREACH: "the network of {who} cannot be reached from this machine",
    errno.EADDRNOTAVAIL: "this machine has no such address",
    errno.EADDRINUSE: "the port is in use by another program",
    errno.EACCES: "this machine does not allow it (permission denied)",
    errno.ENODEV: "there is no such network device",
}


def failure_words(exc: BaseException, who: str = "the host",
                  timeout: float | None = None) -> str:
    """What ``exc`` (a network failure) means, in words, without its class name or errno.

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
    words = _words(exc, who, timeout)
    log.debug("%s (%s: %s)", words, type(exc).__name__, exc)
    return words


def _words(exc: BaseException, who: str, timeout: float | None) -> str:
    if isinstance(exc, PeerError):
        return str(exc)
    if isinstance(exc, ConnectionClosed):
        return f"{who} closed the connection"
    if isinstance(exc, TimeoutError):
        return (f"{who} did not answer within {timeout:g} s" if timeout is not None
                else f"{who} did not answer in time")
    if isinstance(exc, InvalidURI):
        return f"{who} is not an address this machine can dial"
    if isinstance(exc, InvalidHandshake):
        return f"{who} did not answer as a lancards table does"
    zeroconf = sys.modules.get("zeroconf")  # not imported here: `lancards node` never loads it
    if zeroconf is not None and isinstance(exc, zeroconf.Error):
        return "multicast DNS (mDNS) failed on this network"
    if isinstance(exc, socket.gaierror):
        return f"the name of {who} is not known on this network"
    if isinstance(exc, OSError):
        if exc.errno in _ERRNO_WORDS:
            return _ERRNO_WORDS[exc.errno].format(who=who)
        if exc.strerror:  # the system's own words, without the errno number
            return f"cannot reach {who}: {exc.strerror[:1].lower()}{exc.strerror[1:]}"
        return f"the network failed on the way to {who}"
    return f"an unexpected failure on the way to {who}"


def verbose_logging() -> None:
    """Show the :data:`log` lines on stderr, each starting ``lancards: `` (``--verbose``; by
    default they go nowhere)."""
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("lancards: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.DEBUG)
