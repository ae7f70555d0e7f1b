"""What was wrong with a refused message, in the player's language, where the peer layer's
English sentence says it (``RemoteProtocolError.code`` and ``params``): the kind of message
that broke its schema (``schema``, its ``where``), a sealed message's impossible length, a
removal vote or withdrawal signed by someone who is not at the table, a player's vote on their
own removal. German lines said only
the reason (``abgelehnt: fehlerhaft aufgebaut``) where English said what was wrong
(``malformed: ciphertext of 1 bytes``; the LAN trial with a seated attacker)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from lancards.cli.i18n import N_, _
from lancards.p2p.protocol.errors import RemoteProtocolError

KIND_WORDS: Mapping[str, str] = {
    "envelope": N_("a message"),
    "record.entry": N_("an entry of the game record"),
    "record entry": N_("an entry of the game record"),
    "entry payload": N_("an entry of the game record"),
    "record.evidence": N_("evidence of a cheat"),
    "record.sync": N_("a question about the game record"),
    "record.ack": N_("a confirmation of an entry of the game record"),
    "record.check": N_("a request to check a shuffle"),
    "record.vote": N_("a removal vote"),
    "vote": N_("a removal vote"),
    "removal vote": N_("a removal vote"),
    "record.unvote": N_("a no to a removal"),
    "unvote": N_("a no to a removal"),
    "withdrawal": N_("a no to a removal"),
    "sealed": N_("a sealed message"),
    "sealed payload": N_("a sealed message"),
    "chat": N_("a chat message"),
    "presence": N_("a pause or return message"),
    "links": N_("a report of its connections"),
}
"""The kind of message a ``schema`` refusal names (its ``where``: ``'chat' body`` is
``chat``)."""

DETAIL_WORDS: Mapping[str, str] = {
    "ciphertext-size": N_("not well formed: a sealed message whose encrypted part is {size} "
                          "bytes long"),
    "unseated-vote": N_("a removal vote signed by someone who is not at the table"),
    "unseated-withdrawal": N_("a no to a removal signed by someone who is not at the table"),
    "own-vote": N_("{name} voted to remove themselves"),
}
"""A refusal's whole reason, by its code (values from its ``params``)."""

_BODY = re.compile(r"'([a-z.]+)' body")


def why_refused(exc: RemoteProtocolError, reason: str) -> str:
    """``reason`` (the :class:`~lancards.p2p.protocol.errors.Reason` in words) with what was
    wrong where the error's code says it: ``"fehlerhaft aufgebaut (eine Chat-Nachricht)"``,
    ``"eine Stimme zum Entfernen, signiert von jemandem, der nicht am Tisch ist"``."""
    if exc.code in DETAIL_WORDS:
        return _(DETAIL_WORDS[exc.code]).format(**exc.params)
    if exc.code == "schema":
        where = str(exc.params.get("where", ""))
        body = _BODY.fullmatch(where)
        kind = KIND_WORDS.get(body.group(1) if body else where)
        if kind is not None:
            return _("{reason} ({kind})").format(reason=reason, kind=_(kind))
    return reason


__all__ = ["DETAIL_WORDS", "KIND_WORDS", "why_refused"]
