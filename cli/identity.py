"""The person's identity as the commands use it."""

from __future__ import annotations

import json

from lancards.p2p.net.identity_file import load_or_create_identity
from lancards.p2p.protocol.identity import Identity


def player_identity(name: str | None = None) -> Identity:
    """The user's identity (an Ed25519 key created on first use in the config folder, see
    :func:`lancards.p2p.net.identity_file.load_or_create_identity`), shown as ``name`` when one is
    given.

    Raises:
        OSError: the config folder cannot be read or written.
    """
    me = load_or_create_identity(nick=name) if name else load_or_create_identity()
    if name and me.nick != name:
        me = Identity(bytes.fromhex(json.loads(me.to_json())["ed25519_seed"]), name)
    return me
