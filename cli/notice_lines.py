"""A peer's notices as lines of the table's log (``NetworkSession``'s log): a chat line with its
author, a pause or a return, a cheat or a refused message, each in the player's language; a void
vote against a player who is here at most once a minute per voters and player
(:class:`VoidVoteLimit`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from lancards.cli.i18n import _
from lancards.cli.peer_errors import error_words
from lancards.cli.peer_words import notice_words
from lancards.cli.refusal_words import move_refused, plain_refusal
from lancards.cli.removal_words import void_vote_words
from lancards.cli.visible import visible
from lancards.p2p.net.failure_words import log as net_log
from lancards.p2p.net.throttle import Throttle


def notice_line(core: Any, notice: Any, names: Sequence[str], shown: Sequence[str],
                here: Callable[[int], bool] = lambda seat: False) -> str | None:
    """``notice`` (a ``p2p.protocol`` ``Notice`` of ``core``) as one log line: ``"Ann: hi"``,
    ``"Ann paused; the game waits for them"``, ``"Ann is back"`` (issue 25, item 9; a resume),
    ``"! ..."`` for a cheat or a refused message (``"! eve sent an earlier message again,
    one already received: ignored"``: :func:`~lancards.cli.refusal_words.plain_refusal`);
    ``None`` for the notices that the banners say instead (votes, leaves, the game's end).
    ``names``: the seats' nicknames; ``shown``: the
    same as the screen shows them (the viewer's default nickname in the player's language);
    ``here(seat)``: whether ``seat`` is connected to this peer (a void vote against a seat that
    is here is told: :func:`~lancards.cli.removal_words.void_vote_words`)."""
    seat = notice.seat
    who = shown[seat] if seat is not None and 0 <= seat < len(shown) else "?"
    if notice.kind == "chat":
        return f"{who}: {visible(notice.text)}"  # no control character reaches the screen
    if notice.kind == "presence" or notice.code == "back":
        return (_("{name} paused; the game waits for them") if notice.text == "paused"
                else _("{name} is back")).format(name=who)
    if notice.code == "move-dropped":  # entries taken while its cards came changed the table
        return _("your move no longer fits the table, which changed meanwhile: choose again")
    if notice.code == "vote-void":  # once per round; only a seat that is here was wronged
        here_now = seat is not None and (seat == core.seat or here(seat))
        return void_vote_words(seat, notice.voters, core.seat, shown) if here_now else None
    plain = plain_refusal(notice.error) if notice.kind == "rejected" else None
    if plain is not None:  # an old message sent again, a bad signature: said as a person would
        net_log.debug("%s", notice.error)  # the peer layer's sentence, for --verbose
        return f"! {plain}"
    if notice.kind in ("cheat", "rejected"):
        text = error_words(notice.error, move_refused) if notice.error is not None else \
            notice_words(core, notice, names) if notice.kind == "cheat" else notice.text
        return f"! {text}"
    return None


VOID_VOTE_WINDOW_S = 60.0
"""Seconds during which the same voters' further void votes against the same player are not
told again."""


class VoidVoteLimit:
    """The void votes told in the log: the first of each (voters, player) pair, then at most one
    a minute per pair. The LAN re-check trial with a seated attacker: eve sent 30 votes against
    cyd, who was connected, each a new round, and ann and cyd read 30 identical lines ``eve
    asked to remove cyd, who is here: nothing happens``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 window: float = VOID_VOTE_WINDOW_S) -> None:
        self.clock = clock
        self._pairs = Throttle(window)  # by (voters, player)

    def tell(self, notice: Any) -> bool:
        """Whether a ``vote-void`` notice's line is told now (any other notice: always)."""
        return notice.code != "vote-void" or \
            self._pairs.allow((tuple(notice.voters), notice.seat), self.clock())


REFUSAL_WINDOW_S = 60.0
"""Seconds during which a seat's further messages refused for the same reason are not told
again."""


class RefusalLimit:
    """The refused messages of the seats told in the log: the first of each (sender, reason),
    then at most one a minute each. The LAN trial with a seated attacker: eve sent 14 of her
    old messages again and ann's log read 14 lines ``! message from eve [...] refused (seat 2,
    message N): received before: ...``, which pushed the game's moves out of sight (any seat
    could send thousands). Every refusal still goes to ``--verbose``; a cheat is always told."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 window: float = REFUSAL_WINDOW_S) -> None:
        self.clock = clock
        self._keys = Throttle(window)  # by (sender, reason)

    def tell(self, notice: Any) -> bool:
        """Whether a ``rejected`` notice's line is told now (any other notice: always)."""
        error = getattr(notice, "error", None)
        sender, reason = getattr(error, "sender", None), getattr(error, "reason", None)
        if notice.kind != "rejected" or sender is None or reason is None:
            return True
        return self._keys.allow((str(sender), str(reason)), self.clock())


__all__ = ["REFUSAL_WINDOW_S", "VOID_VOTE_WINDOW_S", "RefusalLimit", "VoidVoteLimit",
           "notice_line"]
