"""How Level 8 refuses an action: the error raised, its English sentence and its code.

Every refusal carries a stable ``code`` and its ``params`` (:class:`~lancards.engine.core.Coded`)
beside the sentence: the seat, the card, the count it names, and always the refused ``action``
itself. The command line says a refusal in the player's language from these (a cheat that
halts a networked table: ``cli/refusal_words.py``); the sentence, ruling and all, is for logs,
``--verbose`` and ``lancards audit``. The codes are listed in ``docs/engine.md``.
"""

from __future__ import annotations

from typing import NoReturn

from lancards.engine.core import CHANCE, IllegalActionError, InvalidActionError, SlotId
from lancards.engine.level8.actions import Action
from lancards.engine.level8.cards import Card, deck_counts
from lancards.engine.level8.state import Level8State


def fail(state: Level8State, action: Action, reason: str, ruling: str, code: str = "",
         **params: object) -> NoReturn:
    """Raise IllegalActionError naming seat, action and ruling, with ``code`` and ``params``
    (``action`` added)."""
    who = "chance" if action.seat == CHANCE else f"seat {action.seat}"
    raise IllegalActionError(f"{who}: illegal {str(action)!r}: {reason} (ruling {ruling})"
                             ).with_code(code, action=action, **params)


def malformed(action: Action, reason: str, code: str = "", **params: object) -> NoReturn:
    """Raise InvalidActionError naming the action, with ``code`` and ``params`` (``action``
    added)."""
    raise InvalidActionError(f"malformed {str(action)!r}: {reason}").with_code(
        code, action=action, **params)


def claim_refusal(state: Level8State, slot: SlotId, card: Card
                  ) -> tuple[str, str, dict[str, object]] | None:
    """Why claiming that ``slot`` is ``card`` contradicts what ``state`` knows, as (sentence,
    code, params), or None: ``wrong-card`` (the slot is known to hold ``known``),
    ``no-such-card`` (the edition has no such card), ``card-elsewhere`` (every copy is known
    to be in other slots)."""
    known = state.cards.get(slot)
    if known is not None:
        return None if known == card else (f"slot #{slot} is {known}, not {card}",
                                           "wrong-card", {"card": card, "known": known})
    total = deck_counts(state.rules.edition).get(card, 0)
    if total == 0:
        return f"{card} is not a card of {state.rules.edition}", "no-such-card", {"card": card}
    if sum(1 for c in state.cards.values() if c == card) >= total:
        return f"every {card} of the deck is known to be elsewhere", "card-elsewhere", {
            "card": card}
    return None


def claim_error(state: Level8State, slot: SlotId, card: Card) -> str | None:
    """Why claiming that ``slot`` is ``card`` contradicts what ``state`` knows, or None."""
    refusal = claim_refusal(state, slot, card)
    return None if refusal is None else refusal[0]


__all__ = ["claim_error", "claim_refusal", "fail", "malformed"]
