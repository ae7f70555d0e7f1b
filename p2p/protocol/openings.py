"""The check that a move's claimed cards are the cards its openings show.

A move that makes hidden cards public (a discard, a lay-down) names them, and carries their
openings (decryption shares with proofs, ``docs/mental-poker.md``). The engine takes the claim
when it knows no better; the opening then shows the real card, and a claim it contradicts is a
cheat (``LANCARDS_TEST_CHEAT=swap-claim`` plays one). The refusal carries a ``code`` and its
``params`` (:class:`~lancards.engine.core.Coded`), the move among them, for words in the
player's language (``cli/refusal_words.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from lancards.engine.core import Coded, SlotId
from lancards.p2p.crypto.errors import DeckError, ProofError


class OpeningError(Coded, DeckError):
    """A move's claim that its openings contradict (code ``no-opening`` or ``claim-differs``,
    params ``action``, ``card``: the claim, ``opened``: the card shown), or an opening whose
    proof does not hold (code ``opening-proof``, params ``action``)."""


def accept_openings(deck: Any, author: int, action: Any, messages: Iterable[Any]) -> None:
    """Give the deck each opening ``author``'s ``action`` carries.

    Raises:
        OpeningError: an opening's proof does not hold (code ``opening-proof``: the LAN trial's
            tables read only "eve signed a move the rules do not allow", neither the move nor
            why, for a discard whose opening carried a bad decryption share proof); the deck's
            :class:`~lancards.p2p.crypto.errors.ProofError` is its cause.
        DeckError: the deck refused an opening otherwise.
    """
    for message in messages:
        try:
            deck.accept(author, message)
        except ProofError as exc:
            raise OpeningError(str(exc)).with_code("opening-proof", action=action) from exc


def check_openings(deck: Any, game: Any, state: Any, faces: Sequence[Any], author: int,
                   action: Any, revealed: Iterable[SlotId]) -> None:
    """Each slot of ``revealed`` (made public by ``author``'s ``action``) has been opened by the
    deck, to the card the engine's ``state`` says was claimed.

    Raises:
        OpeningError: a slot was made public without an opening, or opened to another card.
    """
    for slot in revealed:
        card = deck.card(slot) if deck.is_public(slot) else None
        claimed = game.identity(state, slot)
        if card is None:
            raise OpeningError(f"card #{slot} was made public without an opening").with_code(
                "no-opening", action=action, card=claimed)
        if claimed != faces[card]:
            raise OpeningError(f"seat {author + 1} claimed #{slot} is {claimed}, "
                               f"but the opening shows {faces[card]}").with_code(
                "claim-differs", action=action, card=claimed, opened=faces[card])


__all__ = ["OpeningError", "accept_openings", "check_openings"]
