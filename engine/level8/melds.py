"""Cards placed on the table: declared identities, combination checks, adding (L8-4..L8-7).

A :class:`Placed` card is a slot with its face and its *effective* identity: a number card's own
number and colour, or a joker's declaration, fixed when laid (ruling L8-6): a number (runs,
sets), a number and colour (colour runs) or a colour (colour groups).

Notation of a placed card: ``CARD#SLOT`` for a number card, ``CARD#SLOT=DECL`` for a joker,
``DECL`` being ``5`` (number), ``R5`` (colour and number) or ``R`` (colour).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lancards.engine.core import InvalidActionError, Seat, SlotId, is_digits
from lancards.engine.level8.cards import Card, Colour, parse_card
from lancards.engine.level8.levels import ComponentKind


@dataclass(frozen=True, slots=True)
class Placed:
    """A card with its slot and effective identity.

    Attributes:
        slot: the card's slot.
        card: the face.
        number: effective number (0 when the combination needs none: colour groups).
        colour: effective colour (``None`` when the combination needs none: runs, sets).
    """

    slot: SlotId
    card: Card
    number: int = 0
    colour: Colour | None = None

    def __str__(self) -> str:
        base = f"{self.card}#{self.slot}"
        if not self.card.is_joker:
            return base
        decl = (str(self.colour) if self.colour else "") + (str(self.number) if self.number else "")
        return f"{base}={decl}" if decl else base


def parse_placed(text: str) -> Placed:
    """Parse ``R7#17`` or ``J1-5#18=R5``. Number cards get their own number and colour.

    Raises:
        InvalidActionError: not of that form.
    """
    body, _, decl = text.partition("=")
    face_text, sep, slot_text = body.partition("#")
    if not sep or not is_digits(slot_text):
        raise InvalidActionError(f"card {text!r} is not CARD#SLOT[=DECLARATION]")
    face = parse_card(face_text)
    slot = int(slot_text)
    if not face.is_joker:
        if decl:
            raise InvalidActionError(f"card {text!r}: only jokers take a declaration")
        return Placed(slot, face, face.number, face.colour)
    colour: Colour | None = None
    if decl[:1].isalpha():
        try:
            colour = Colour(decl[0].upper())
        except ValueError:
            raise InvalidActionError(f"card {text!r}: unknown colour {decl[0]!r}") from None
        decl = decl[1:]
    if decl and not is_digits(decl):
        raise InvalidActionError(f"card {text!r}: bad joker declaration")
    return Placed(slot, face, int(decl) if decl else 0, colour)


def natural(slot: SlotId, face: Card) -> Placed:
    """A number card placed as itself."""
    return Placed(slot, face, face.number, face.colour)


def for_kind(p: Placed, kind: ComponentKind) -> Placed:
    """``p`` with only the parts of its identity that ``kind`` uses.

    Number cards keep what matters to the combination (runs and sets: number; colour runs: both;
    colour groups: colour). Jokers are returned unchanged (their declaration is checked).
    """
    if p.card.is_joker:
        return p
    if kind is ComponentKind.COLOUR_GROUP:
        return Placed(p.slot, p.card, 0, p.card.colour)
    if kind is ComponentKind.COLOUR_RUN:
        return Placed(p.slot, p.card, p.card.number, p.card.colour)
    return Placed(p.slot, p.card, p.card.number, None)


@dataclass(frozen=True, slots=True)
class Meld:
    """A combination on the table.

    Attributes:
        id: the meld's number this round (0, 1, 2... in the order laid).
        owner: the seat that laid it.
        kind: its kind.
        cards: its cards; runs in ascending number order, others in the order placed.
    """

    id: int
    owner: Seat
    kind: ComponentKind
    cards: tuple[Placed, ...]

    @property
    def lo(self) -> int:
        """Lowest number of a run."""
        return self.cards[0].number

    @property
    def hi(self) -> int:
        """Highest number of a run."""
        return self.cards[-1].number

    @property
    def number(self) -> int:
        """The number of a set."""
        return self.cards[0].number

    @property
    def colour(self) -> Colour | None:
        """The colour of a colour run or colour group."""
        return self.cards[0].colour

    def __str__(self) -> str:
        return f"{self.id}:{self.kind.value}[{' '.join(map(str, self.cards))}]"


def declaration_error(p: Placed, kind: ComponentKind) -> str | None:
    """Why ``p``'s identity cannot serve in a ``kind`` combination, or ``None`` (ruling L8-6)."""
    face = p.card
    if not (face.is_number or face.is_joker):
        return f"{face} is a special card and cannot be part of a combination"
    needs_number = kind is not ComponentKind.COLOUR_GROUP
    needs_colour = kind in (ComponentKind.COLOUR_RUN, ComponentKind.COLOUR_GROUP)
    if face.is_number:
        return None
    if needs_number and not p.number:
        return f"joker {face}#{p.slot} needs a declared number in a {kind.value}"
    if not needs_number and p.number:
        return f"joker {face}#{p.slot} declares a number, but a {kind.value} takes a colour only"
    if needs_colour and p.colour is None:
        return f"joker {face}#{p.slot} needs a declared colour in a {kind.value}"
    if not needs_colour and p.colour is not None:
        return f"joker {face}#{p.slot} declares a colour, but a {kind.value} takes a number only"
    if needs_number and not face.lo <= p.number <= face.hi:
        return f"joker {face} cannot stand for {p.number} (its range is {face.lo}-{face.hi})"
    return None


def make_meld(
    meld_id: int, owner: Seat, kind: ComponentKind, size: int, cards: Sequence[Placed]
) -> Meld | str:
    """Validate ``cards`` as a ``kind`` combination of at least ``size`` cards (L8-4, L8-6).

    Returns:
        The meld (runs sorted ascending), or a sentence saying why the cards do not form it.
    """
    placed = [for_kind(p, kind) for p in cards]
    for p in placed:
        error = declaration_error(p, kind)
        if error:
            return error
    if len(placed) < size:
        return f"a {kind.value} here needs at least {size} cards, got {len(placed)}"
    if kind.is_run:
        placed.sort(key=lambda p: p.number)
        numbers = [p.number for p in placed]
        if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            return f"numbers {' '.join(map(str, numbers))} are not consecutive (ruling L8-4)"
    if kind in (ComponentKind.COLOUR_RUN, ComponentKind.COLOUR_GROUP):
        colours = {p.colour for p in placed}
        if len(colours) != 1:
            names = " ".join(sorted(str(c) for c in colours))
            return f"colours {names} are not one colour (ruling L8-4)"
    if kind is ComponentKind.SET:
        numbers_set = {p.number for p in placed}
        if len(numbers_set) != 1:
            numbers_text = " ".join(map(str, sorted(numbers_set)))
            return f"numbers {numbers_text} are not all the same (ruling L8-4)"
    return Meld(meld_id, owner, kind, tuple(placed))


def add_error(meld: Meld, p: Placed) -> str | None:
    """Why ``p`` cannot be added to ``meld``, or ``None`` (ruling L8-7)."""
    p = for_kind(p, meld.kind)
    error = declaration_error(p, meld.kind)
    if error:
        return error
    if meld.kind.is_run:
        if p.number not in (meld.lo - 1, meld.hi + 1):
            return (
                f"{p.number} does not extend the run {meld.lo}-{meld.hi} at an end "
                "(ruling L8-7)"
            )
        if meld.kind is ComponentKind.COLOUR_RUN and p.colour is not meld.colour:
            return f"the colour run is {meld.colour}, not {p.colour} (ruling L8-7)"
    elif meld.kind is ComponentKind.SET:
        if p.number != meld.number:
            return f"the set is of {meld.number}s, not {p.number} (ruling L8-7)"
    elif p.colour is not meld.colour:
        return f"the colour group is {meld.colour}, not {p.colour} (ruling L8-7)"
    return None


def with_card(meld: Meld, p: Placed) -> Meld:
    """``meld`` with ``p`` added (already checked with :func:`add_error`)."""
    p = for_kind(p, meld.kind)
    if meld.kind.is_run:
        cards = (p, *meld.cards) if p.number < meld.lo else (*meld.cards, p)
    else:
        cards = (*meld.cards, p)
    return Meld(meld.id, meld.owner, meld.kind, cards)


def add_options(meld: Meld, slot: SlotId, face: Card) -> list[Placed]:
    """Every way ``face`` (in ``slot``) can be added to ``meld``, canonical order (L8-7)."""
    kind = meld.kind
    if face.is_number:
        p = natural(slot, face)
        return [p] if add_error(meld, p) is None else []
    if not face.is_joker:
        return []
    if kind.is_run:
        colour = meld.colour if kind is ComponentKind.COLOUR_RUN else None
        ends = [n for n in (meld.lo - 1, meld.hi + 1) if 1 <= n <= 15 and face.can_be(n)]
        return [Placed(slot, face, n, colour) for n in ends]
    if kind is ComponentKind.SET:
        return [Placed(slot, face, meld.number)] if face.can_be(meld.number) else []
    return [Placed(slot, face, 0, meld.colour)]


