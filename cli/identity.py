"""The person's identity as the commands use it."""

from __future__ import annotations

import contextlib

from lancards.cli.session import DEFAULT_NICK
from lancards.p2p.net.identity_file import (
    default_nick,
    identity_path,
    load_or_create_identity,
    save_nickname,
)
from lancards.p2p.protocol.errors import IdentityError
from lancards.p2p.protocol.identity import Identity


def kept_identity() -> Identity:
    """The user's identity as its file keeps it (an Ed25519 key created on first use in the
    config folder, under the login name: :func:`lancards.p2p.net.identity_file.
    load_or_create_identity`).

    A file whose nickname is :data:`~lancards.cli.session.DEFAULT_NICK` (``You``, a ``lancards
    play`` table's own mark for the person, which ``play`` stored there when it made the
    identity until the new-user trial of 2026-12-07: a host/join table then showed the person as
    ``You`` to everyone) holds no nickname of the person's: the login name is written in its
    place, and used even when the file cannot be written.

    Raises:
        IdentityError: the identity file cannot be read, created or trusted.
    """
    me = load_or_create_identity()
    if me.nick != DEFAULT_NICK:
        return me
    repaired = me.with_nick(default_nick())
    with contextlib.suppress(IdentityError, OSError):  # read-only: repaired for this command
        repaired = save_nickname(identity_path(), repaired.nick)
    return repaired


def player_identity(name: str | None = None) -> Identity:
    """The user's identity (:func:`kept_identity`), shown as ``name`` at this table when one is
    given (``--name``, or ``lancards play``'s ``You``); the file keeps its own nickname.

    Raises:
        IdentityError: the identity file cannot be read, created or trusted.
    """
    me = kept_identity()
    return me.with_nick(name) if name and me.nick != name else me
