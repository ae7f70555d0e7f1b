"""The one interface every game engine offers, and the pieces all games share.

Design (see ``docs/engine.md``): a game is a set of pure functions over immutable states.
A state is a function of (rules, log of actions). Randomness never happens inside the engine:
whenever the game needs chance (a shuffle, a card turned face up, a random seat), the seat to
act is :data:`CHANCE` and :meth:`Game.chance_request` says what is needed; the driver (a seeded
shuffle in self-play and tests, the mental-poker deck between peers) answers with a chance
action. Hidden information is first class: cards live in *slots*; a slot's identity is known
to some seats and unknown to others, and an engine may hold a state in which it does not know
some identities at all (a peer's own engine). :meth:`Game.learn` adds knowledge that reaches a
peer outside the shared log (its own dealt and drawn cards).

Models: OpenSpiel (chance events in the history, observer views), pokerkit (frozen records),
python-chess (``InvalidMoveError`` vs ``IllegalMoveError``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, Self, TypeVar, runtime_checkable

Seat = int
"""A seat number, 0-based, in clockwise (seat) order."""

SlotId = int
"""The id of one card slot. Ids are never reused within a game."""

CHANCE: Final[Seat] = -1
"""The pseudo-seat that acts for chance events."""


class Coded:
    """A stable ``code`` of what went wrong (``""`` when the raising site gives none) and
    ``params``, its values, beside an error's English text: the command line says the error in
    the player's language from these; the English text (``str``) is for logs, ``--verbose``
    and English. Shared by :class:`EngineError` and the peer layer's ``PeerError``."""

    code: str = ""
    params: Mapping[str, object] = {}

    def with_code(self, code: str, **params: object) -> Self:
        """This error with its ``code`` and ``params`` set (``raise X(text).with_code(...)``)."""
        self.code = code
        self.params = params
        return self


class EngineError(Coded, Exception):
    """Root of every error the engine raises.

    Attributes:
        code: a stable code of what went wrong (``"unknown-option"``, ``"invalid-choice"``;
            ``""`` when the raising site gives none), with ``params``, its values (the option's
            name, the value given, the choices): worded by ``cli/rules_errors.py``
            (:class:`Coded`).
    """


class InvalidActionError(EngineError):
    """An action that is malformed: bad notation, an unknown slot or card, a wrong shape."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow in this state.

    The message names the seat, the action and the ruling (``ruling L8-7``).
    """


class RulesError(EngineError):
    """An unknown game, an unknown rule option, an invalid option value or a bad rules file."""


class KnowledgeError(EngineError):
    """Knowledge given to :meth:`Game.learn` that contradicts what the engine already knows."""


# ---------------------------------------------------------------------------------------------
# Chance requests: what the driver must supply when the seat to act is CHANCE.


@dataclass(frozen=True, slots=True)
class ShuffleRequest:
    """Shuffle these slots into a new face-down pile.

    Attributes:
        slots: the input list, in the order every peer uses (ascending slot id).
        first_new_slot: the slot id the first card of the shuffled pile will get; the pile's
            card ``i`` (0 = top) becomes slot ``first_new_slot + i``.
    """

    slots: tuple[SlotId, ...]
    first_new_slot: SlotId


@dataclass(frozen=True, slots=True)
class RevealRequest:
    """Turn one face-down slot face up for everyone (public reveal)."""

    slot: SlotId


@dataclass(frozen=True, slots=True)
class RandomIntRequest:
    """A uniformly random integer in ``range(n)`` from the table's joint randomness."""

    n: int
    purpose: str


ChanceRequest = ShuffleRequest | RevealRequest | RandomIntRequest


# ---------------------------------------------------------------------------------------------
# Chance actions: the answers to chance requests; every game accepts them (seat CHANCE).


@dataclass(frozen=True, slots=True)
class Shuffle:
    """The result of a :class:`ShuffleRequest`.

    Attributes:
        order: a permutation of ``range(len(request.slots))``: the new pile's card ``i`` (0 =
            top) is the input slot ``request.slots[order[i]]``. ``None`` when nobody knows the
            permutation (the mental-poker deck): the new slots' identities are then unknown.
    """

    order: tuple[int, ...] | None
    seat: Seat = CHANCE

    def __str__(self) -> str:
        body = "?" if self.order is None else " ".join(map(str, self.order))
        return f"*: shuffle {body}"


@dataclass(frozen=True, slots=True)
class Reveal:
    """The result of a :class:`RevealRequest`: ``slot`` is ``card``, now public."""

    slot: SlotId
    card: Any
    seat: Seat = CHANCE

    def __str__(self) -> str:
        return f"*: reveal {self.card}#{self.slot}"


@dataclass(frozen=True, slots=True)
class RandomInt:
    """The result of a :class:`RandomIntRequest`: ``value`` in ``range(n)``."""

    value: int
    n: int
    seat: Seat = CHANCE

    def __str__(self) -> str:
        return f"*: random {self.value}/{self.n}"


ChanceAction = Shuffle | Reveal | RandomInt


def parse_chance(tokens: Sequence[str], parse_card: Any) -> ChanceAction:
    """Parse the tokens after ``*:`` of a chance action.

    Args:
        tokens: e.g. ``["shuffle", "2", "0", "1"]``, ``["reveal", "R7#17"]``,
            ``["random", "2/4"]``.
        parse_card: the game's card parser (raises ``InvalidActionError``).

    Raises:
        InvalidActionError: the tokens are not a chance action.
    """
    if not tokens:
        raise InvalidActionError("empty chance action")
    verb, args = tokens[0], tokens[1:]
    try:
        if verb == "shuffle":
            if args == ["?"]:
                return Shuffle(None)
            order = tuple(int(a) for a in args)
            if sorted(order) != list(range(len(order))):
                raise InvalidActionError(f"shuffle order {' '.join(args)!r} is not a permutation")
            return Shuffle(order)
        if verb == "reveal" and len(args) == 1:
            card_text, sep, slot_text = args[0].rpartition("#")
            if not sep:
                raise InvalidActionError(f"reveal needs CARD#SLOT, got {args[0]!r}")
            return Reveal(int(slot_text), parse_card(card_text))
        if verb == "random" and len(args) == 1:
            value_text, sep, n_text = args[0].partition("/")
            value, n = int(value_text), int(n_text)
            if not sep or not 0 <= value < n:
                raise InvalidActionError(
                    f"random needs VALUE/N with 0 <= VALUE < N, got {args[0]!r}"
                )
            return RandomInt(value, n)
    except ValueError:
        raise InvalidActionError(f"malformed chance action {' '.join(tokens)!r}") from None
    raise InvalidActionError(f"unknown chance action {' '.join(tokens)!r}")


# ---------------------------------------------------------------------------------------------
# Leaving a table for good: a player action every game accepts (rulings D-1 to D-4).


@dataclass(frozen=True, slots=True)
class Leave:
    """Seat ``seat`` leaves the table for good (rulings D-1 to D-4). Notation ``3: leave``.

    The action comes from the peer layer (a signed leave entry, or a removal under ruling D-5),
    never from a move choice: ``legal_actions`` never offers it, and ``check``/``apply`` accept it
    at any moment of a game that is not over, whoever is to act (chance included), for a seat
    that is at the table and has not left. Each game applies D-1 to D-4 (see its ``apply``) and
    answers :meth:`Game.left_seats`.

    The engine never asks chance to reveal a card of the leaver's hand after this action, and a
    pending reveal of one is dropped; the peer layer relies on this (the leaver's decryption
    share of its own hand is never published, design "Leaving for good").
    """

    seat: Seat

    def __str__(self) -> str:
        return f"{self.seat}: leave"


LEAVE_VERB: Final[str] = "leave"
"""The verb of :class:`Leave` in action notation."""


# ---------------------------------------------------------------------------------------------
# Card knowledge helpers shared by games.

ALL_SEATS: Final[int] = (1 << 16) - 1
"""Bit mask meaning "known to every seat" (public)."""


def seat_bit(seat: Seat) -> int:
    """The bit of ``seat`` in a knowledge mask."""
    return 1 << seat


_TOKEN = re.compile(r"\S+")


def is_digits(text: str) -> bool:
    """Whether ``text`` is a whole number in notation: ASCII digits only, at most 18 of them
    (so ``int(text)`` never fails: no ``'²'``, no 5000-digit numbers)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def split_tokens(text: str) -> list[str]:
    """Split action notation into whitespace-separated tokens."""
    return _TOKEN.findall(text)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    Attributes:
        winners: the winning seats, ascending (more than one only for a shared win).
        scores: per seat, the game's final figure (Level 8: the level reached, 9 = WIN;
            8s Rule!: the total penalty points).
        detail: game-specific extra facts (teams, tie-breaks), JSON-serialisable.
    """

    winners: tuple[Seat, ...]
    scores: tuple[int, ...]
    detail: Mapping[str, Any]


S = TypeVar("S")
A = TypeVar("A")


@runtime_checkable
class Game(Protocol[S, A]):
    """The interface of every game engine (``engine.level8.LEVEL8``, ``engine.eights.EIGHTS``).

    Every method is pure: it never mutates its arguments, never does I/O and never draws
    randomness.
    """

    name: str

    def new_game(self, rules: Any, n_seats: int) -> S:
        """The state before the first chance event.

        Raises:
            RulesError: the seat count is not allowed by the rules.
        """
        ...

    def to_act(self, state: S) -> Seat | None:
        """The seat to act, :data:`CHANCE`, or ``None`` when the game is over."""
        ...

    def chance_request(self, state: S) -> ChanceRequest:
        """What chance must supply now. Raises ``EngineError`` if chance is not to act."""
        ...

    def legal_actions(self, state: S, seat: Seat) -> Sequence[A]:
        """Every legal action of ``seat`` now, in a deterministic order (empty if not to act)."""
        ...

    def check(self, state: S, action: A) -> None:
        """Raise ``InvalidActionError`` or ``IllegalActionError`` unless ``action`` is legal."""
        ...

    def apply(self, state: S, action: A) -> S:
        """Check ``action``, then return the state after it."""
        ...

    def view(self, state: S, seat: Seat | None) -> S:
        """``state`` with every identity ``seat`` may not know removed (``None``: a spectator)."""
        ...

    def learn(self, state: S, slot: SlotId, card: Any) -> S:
        """Record that the identity of ``slot`` is ``card`` (private knowledge of this engine).

        Raises:
            KnowledgeError: ``card`` contradicts a known identity or the deck's contents.
        """
        ...

    def public_action(self, action: A) -> A:
        """The form of ``action`` that goes into the shared record (private parts removed)."""
        ...

    def identity(self, state: S, slot: SlotId) -> Any:
        """The identity of ``slot`` if this state knows it, else ``None``."""
        ...

    def knowledge(self, state: S) -> Mapping[SlotId, int]:
        """For every slot in play, the bit mask of seats that know its identity (public
        knowledge: it follows from the actions alone)."""
        ...

    def canonical_deck(self, rules: Any) -> Sequence[Any]:
        """The game's cards in canonical order: card index ``i`` is ``canonical_deck[i]``;
        the initial slots ``0..len-1`` hold them in this order (the mental-poker deck encodes
        card index ``i``)."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""
        ...

    def invariant_violations(self, state: S) -> list[str]:
        """Every broken invariant (a card in two places, a lost card...); empty when sound."""
        ...

    def parse_action(self, text: str) -> A:
        """Parse action notation. Raises ``InvalidActionError``."""
        ...

    def format_action(self, action: A) -> str:
        """Format an action as notation; ``parse_action`` round-trips it."""
        ...

    def write_position(self, state: S) -> str:
        """The position text of ``state``: the whole position, with ``?`` for identities this
        state does not know (notation in ``docs/engine.md``, :mod:`lancards.engine.position`)."""
        ...

    def read_position(self, text: str) -> S:
        """The state of a position text; slots are numbered afresh in the order written.

        Raises:
            PositionError: the message names the line and what is wrong.
        """
        ...

    def describe_action(self, state: S, action: A) -> str:
        """Action notation with card names, ``#SLOT`` left out where the name alone picks the
        card in ``state``; :meth:`read_action` reads it back."""
        ...

    def read_action(self, state: S, text: str) -> A:
        """Parse action notation in ``state``, with or without slots.

        Raises:
            InvalidActionError: malformed, or a name ``state`` cannot place.
            IllegalActionError: the actor holds no such card.
        """
        ...

    def left_seats(self, state: S) -> tuple[Seat, ...]:
        """The seats that have left the table for good, in the order they left (ruling D-2);
        ``seat in game.left_seats(state)`` asks whether ``seat`` has left."""
        ...

    def leaving_slots(self, state: S, seat: Seat) -> tuple[SlotId, ...]:
        """The slots that go out of play face down with ``seat`` if it leaves now (ruling
        D-1): its hand, and whatever else only it knows that is still hidden (Level 8: the
        cards of its hand gathered at a round end and not yet shuffled). The peer layer never
        publishes the leaver's decryption share of these (``docs/mental-poker.md``, "Leaving
        for good"); ``apply`` of the leave takes exactly these out of play."""
        ...

S_contra = TypeVar("S_contra", contravariant=True)


class Rng(Protocol):
    """A bot's own source of randomness: a seeded ``random.Random`` made by the caller and
    passed in (the engine never imports ``random`` and never draws from the deck's chance)."""

    def random(self) -> float:
        """A float in [0, 1)."""
        ...

    def randrange(self, n: int, /) -> int:
        """An integer in ``range(n)``."""
        ...


class Bot(Protocol[S_contra, A]):
    """A strategy. It sees only its seat's view and chooses among the legal actions."""

    def choose(self, view: S_contra, seat: Seat, legal: Sequence[A]) -> A:
        """One of ``legal`` (never empty)."""
        ...
