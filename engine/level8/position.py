"""Level 8 positions as text, and actions written with card names (notation in docs/engine.md).

Example (Master, seat 1 to play on level 2; a spectator would see ``hand 1: ?*11``)::

    lancards-position 1
    game level8-master
    seats 2
    dealer 0
    round 1
    turn 1 play
    levels 1 2
    pile: ?*84
    hand 0: G1 G2 G3 G4 G5 G6 G7 G8 G9 G10
    hand 1: R9 O9 Y9 J1-5 J1-5 J1-5 J6-10 P13 P15 B13 G15
    discard 0: R1
    discard 1:

Keys (each optional unless marked): ``seats`` (required), ``dealer`` (a seat or ``-``),
``round``, ``turn SEAT PHASE`` (phase: dealer, shuffle, flip, draw, play, skipped, show,
choose, swap, keep, over), ``levels`` (one per seat, ``WIN`` past 8), ``down SEATS``,
``pile:`` (the draw pile, top first), ``under:`` (face-up cards under the draw pile),
``gathered:`` (cards waiting for the round's shuffle), ``hand S:``, ``discard S:`` (bottom
first, the top last), ``front S:`` (cards lying in front of seat S), ``meld ID: SEAT KIND
CARDS`` (kind run, colour-run, set or colour-group; jokers with their declaration, ``J1-5=5``,
``J=R5``, ``J=R``), ``shown S: I...`` and ``kept S: I...`` (0-based places in ``hand S``),
``show-queue:``, ``keep-queue:``, ``owed:`` (seats owed a face-down card), ``swaps N``,
``reshuffle-due``, ``went-out S``, ``winners:``, ``next-meld N`` (only when it is not one
past the last meld), ``actions N``; ``left S...`` (the seats that left for good, in the order
they left, ruling D-2) and ``out S:`` (the hand of a seat that left, out of play face down,
ruling D-1; one line per seat that left).

Default knowledge: a hand card and a hand out of play are known to their holder, the draw pile
to nobody, every other place to everyone.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from lancards.engine.core import (
    ALL_SEATS,
    CHANCE,
    Game,
    IllegalActionError,
    InvalidActionError,
    Reveal,
    RevealRequest,
    RulesError,
    Seat,
    SlotId,
    is_digits,
    seat_bit,
    split_tokens,
)
from lancards.engine.level8.actions import (
    Action,
    Add,
    Choose,
    Discard,
    Keep,
    LayDown,
    PlaySpecial,
    Show,
    SwapPut,
    parse_action,
)
from lancards.engine.level8.cards import Card, deck_counts, parse_card
from lancards.engine.level8.levels import ComponentKind, LevelCard
from lancards.engine.level8.melds import Meld, Placed, make_meld, parse_placed
from lancards.engine.level8.rules import EDITIONS, OPTIONS, WIN_LEVEL, Level8Rules, build
from lancards.engine.level8.state import Level8State, Phase
from lancards.engine.options import find_option, validate_options
from lancards.engine.position_text import (
    HEADER,
    Line,
    PositionError,
    Token,
    grouped,
    one,
    only_keys,
    option_line,
    parse_option,
    parse_tokens,
    split_lines,
    write_cards,
)

KEYS = {
    "game", "option", "seats", "dealer", "round", "turn", "levels", "down", "pile", "under",
    "gathered", "hand", "discard", "front", "meld", "shown", "kept", "show-queue",
    "keep-queue", "owed", "swaps", "reshuffle-due", "went-out", "winners", "next-meld",
    "actions", "left", "out",
}


# ---------------------------------------------------------------------------------------------
# Options


def level_card_toml(card: LevelCard) -> str:
    """A level card as the TOML text :func:`~lancards.engine.level8.levels.parse_level_card`
    reads (ruling L8-14)."""
    rows = ", ".join(
        "[" + ", ".join(json.dumps(f"{c.kind.value} {c.size}") for c in level) + "]"
        for level in card.levels
    )
    return f"name = {json.dumps(card.name)}\nlevels = [{rows}]\n"


def rule_options(rules: Level8Rules) -> dict[str, Any]:
    """The option values that build ``rules`` (every option of the rule set)."""
    return {
        "reshuffle": rules.reshuffle,
        "level8_win": rules.level8_win,
        "specials_drawable": rules.specials_drawable,
        "sides": ",".join(rules.sides),
        "level_cards": level_card_toml(rules.back) if rules.back is not None else "",
    }


# ---------------------------------------------------------------------------------------------
# Writing


def write_position(state: Level8State) -> str:
    """The position text of ``state`` (module docstring); ``?`` for identities it lacks."""
    n = state.n
    lines = [HEADER, f"game {state.rules.edition}"]
    for key, value in rule_options(state.rules).items():
        if value != find_option(OPTIONS, key, state.rules.edition).default:
            lines.append(option_line(key, value))
    lines.append(f"seats {n}")
    lines.append(f"dealer {'-' if state.dealer < 0 else state.dealer}")
    lines.append(f"round {state.round}")
    lines.append(f"turn {state.turn} {state.phase.value}")
    lines.append("levels " + " ".join("WIN" if v >= WIN_LEVEL else str(v) for v in state.levels))
    if any(state.down):
        lines.append("down " + " ".join(str(s) for s in range(n) if state.down[s]))

    def cards(slots: Sequence[SlotId], default: int) -> str:
        items = [(None if (c := state.cards.get(s)) is None else str(c), state.known[s])
                 for s in slots]
        return write_cards(items, default, n)

    def place(key: str, slots: Sequence[SlotId], default: int, always: bool = False) -> None:
        if slots or always:
            lines.append(f"{key}: {cards(slots, default)}".rstrip())

    place("pile", state.pile, 0, always=True)
    place("under", state.under, ALL_SEATS)
    place("gathered", state.gathered, ALL_SEATS)
    for s in range(n):
        place(f"hand {s}", state.hands[s], seat_bit(s), always=True)
    for s in range(n):
        place(f"discard {s}", state.discards[s], ALL_SEATS, always=True)
    for s in range(n):
        place(f"front {s}", state.in_front[s], ALL_SEATS)
    if state.left:
        lines.append("left " + " ".join(map(str, state.left)))
    for s in sorted(state.left):
        place(f"out {s}", state.out[state.left.index(s)], seat_bit(s), always=True)
    for meld in state.melds:
        words = [_placed_text(p) + _suffix(state, p.slot) for p in meld.cards]
        lines.append(f"meld {meld.id}: {meld.owner} {meld.kind.value} {' '.join(words)}")
    for key, per_seat in (("shown", state.shown), ("kept", state.kept)):
        for s, slots in enumerate(per_seat):
            if slots:
                hand = state.hands[s]
                lines.append(f"{key} {s}: " + " ".join(str(hand.index(x)) for x in slots))
    for key, seats in (("show-queue", state.show_queue), ("keep-queue", state.keep_queue),
                       ("owed", state.owed), ("winners", state.winners)):
        if seats:
            lines.append(f"{key}: " + " ".join(map(str, seats)))
    if state.swaps:
        lines.append(f"swaps {state.swaps}")
    if state.reshuffle_due:
        lines.append("reshuffle-due")
    if state.went_out >= 0:
        lines.append(f"went-out {state.went_out}")
    if state.next_meld != _derived_next_meld(state.melds):
        lines.append(f"next-meld {state.next_meld}")
    if state.actions:
        lines.append(f"actions {state.actions}")
    return "\n".join(lines) + "\n"


def _suffix(state: Level8State, slot: SlotId) -> str:
    mask = state.known[slot]
    return "" if mask == ALL_SEATS else "@-" if mask == 0 else "@" + ".".join(
        str(s) for s in range(state.n) if mask & seat_bit(s))


def _placed_text(p: Placed) -> str:
    if not p.card.is_joker:
        return str(p.card)
    decl = (str(p.colour) if p.colour else "") + (str(p.number) if p.number else "")
    return f"{p.card}={decl}" if decl else str(p.card)


def _derived_next_meld(melds: Sequence[Meld]) -> int:
    return max((m.id for m in melds), default=-1) + 1


# ---------------------------------------------------------------------------------------------
# Reading


def read_position(text: str, game: Game[Level8State, Action]) -> Level8State:
    """The state of a Level 8 position text (module docstring), checked by ``game`` (its
    ``new_game`` and ``invariant_violations``; passed in so this module never imports the game).

    Raises:
        PositionError: an unknown key or option, a bad card or seat, a wrong card total (more
            copies of a card than the deck holds, or not every card of the deck placed), an
            invalid meld, or a state that breaks an invariant; the message names the line.
    """
    lines = split_lines(text)
    only_keys(lines, KEYS)
    groups = grouped(lines)
    game_line = one(groups, "game")
    assert game_line is not None
    name = " ".join(game_line.words)
    edition = next((e for e in EDITIONS if e == name), None)
    if edition is None:
        raise game_line.fail(f"{name!r} is not a Level 8 rule set")
    try:
        raw = dict(parse_option(line) for line in groups.get("option", []))
        rules = build(edition, validate_options(OPTIONS, raw, edition))
    except RulesError as exc:
        raise PositionError(f"position: {exc}") from None
    seats_line = one(groups, "seats")
    assert seats_line is not None
    n = seats_line.int1(2, 6)
    try:
        start = game.new_game(rules, n)
    except RulesError as exc:
        raise PositionError(f"position: {exc}") from None
    deck = rules.deck
    counts: Counter[Card] = Counter()
    cards: dict[SlotId, Card] = {}
    known: dict[SlotId, int] = {}
    next_slot = 0

    def take(line: Line, tokens: Sequence[Token]) -> tuple[SlotId, ...]:
        nonlocal next_slot
        slots = []
        for token in tokens:
            slot = next_slot
            next_slot += 1
            if token.name is not None:
                try:
                    face = parse_card(token.name)
                except InvalidActionError:
                    raise line.fail(f"{token.name!r} is not a card of {name}") from None
                counts[face] += 1
                full = deck_counts(rules.edition).get(face, 0)
                if counts[face] > full:
                    raise line.fail(f"{counts[face]} copies of {face}; {name} has {full}")
                cards[slot] = face
            known[slot] = token.mask
            slots.append(slot)
        return tuple(slots)

    def place(key: str, default: int) -> tuple[SlotId, ...]:
        line = one(groups, key, required=False)
        if line is None:
            return ()
        if line.seat is not None:
            raise line.fail(f"{key!r} takes no seat")
        return take(line, parse_tokens(line, default, n))

    def per_seat(key: str, default_of: Any) -> list[tuple[SlotId, ...]]:
        out: list[tuple[SlotId, ...]] = [()] * n
        seen: set[int] = set()
        for line in groups.get(key, []):
            if line.seat is None or not 0 <= line.seat < n:
                raise line.fail(f"expected {key} SEAT: with a seat 0..{n - 1}")
            if line.seat in seen:
                raise line.fail(f"{key} {line.seat} is given twice")
            seen.add(line.seat)
            out[line.seat] = take(line, parse_tokens(line, default_of(line.seat), n))
        return out

    pile = place("pile", 0)
    under = place("under", ALL_SEATS)
    gathered = place("gathered", ALL_SEATS)
    hands = per_seat("hand", seat_bit)
    discards = per_seat("discard", lambda s: ALL_SEATS)
    in_front = per_seat("front", lambda s: ALL_SEATS)
    left = _seat_list(one(groups, "left", required=False), n)
    if len(set(left)) != len(left):
        raise PositionError(f"position: a seat is named twice in 'left {' '.join(map(str, left))}'")
    outs = per_seat("out", seat_bit)
    for line in groups.get("out", []):
        if line.seat not in left:
            raise line.fail(f"seat {line.seat} has not left (line 'left')")
    melds = []
    for line in groups.get("meld", []):
        melds.append(_read_meld(line, n, take))
    if next_slot != len(deck):
        raise PositionError(f"position: {next_slot} cards placed; {name} has {len(deck)}")
    state = start.evolve(
        cards=cards, known=known, next_slot=next_slot, gathered=gathered, hands=tuple(hands),
        pile=pile, under=under, discards=tuple(discards), melds=tuple(melds),
        in_front=tuple(in_front), next_meld=_derived_next_meld(melds), left=left,
        out=tuple(outs[s] for s in left),
    )
    state = _read_fields(state, groups, n)
    problems = game.invariant_violations(state)
    if problems:
        raise PositionError(f"position: {'; '.join(problems)}")
    return state


def _read_meld(line: Line, n: int, take: Any) -> Meld:
    if line.seat is None or len(line.words) < 3:
        raise line.fail("expected meld ID: SEAT KIND CARDS")
    owner_text, kind_text, *words = line.words
    if not is_digits(owner_text) or not 0 <= int(owner_text) < n:
        raise line.fail(f"{owner_text!r} is not a seat of {n}")
    try:
        kind = ComponentKind(kind_text)
    except ValueError:
        kinds = ", ".join(k.value for k in ComponentKind)
        raise line.fail(f"{kind_text!r} is not a combination kind ({kinds})") from None
    tokens = parse_tokens(line, ALL_SEATS, n, words, declarations=True)
    if any(t.name is None for t in tokens):
        raise line.fail("a combination on the table holds only known cards")
    slots = take(line, tokens)
    placed = []
    for slot, token in zip(slots, tokens, strict=True):
        text = f"{token.name}#{slot}" + (f"={token.decl}" if token.decl else "")
        try:
            placed.append(parse_placed(text))
        except InvalidActionError as exc:
            raise line.fail(str(exc)) from None
    meld = make_meld(line.seat, int(owner_text), kind, 1, placed)
    if isinstance(meld, str):
        raise line.fail(meld)
    return meld


def _seat_list(line: Line | None, n: int) -> tuple[Seat, ...]:
    return () if line is None else tuple(line.ints(0, n - 1))


def _read_fields(state: Level8State, groups: dict[str, list[Line]], n: int) -> Level8State:
    dealer_line = one(groups, "dealer", required=False)
    dealer = -1
    if dealer_line is not None and dealer_line.words != ("-",):
        dealer = dealer_line.int1(0, n - 1)
    round_line = one(groups, "round", required=False)
    turn_line = one(groups, "turn", required=False)
    turn, phase = 0, Phase.DEALER
    if turn_line is not None:
        if len(turn_line.words) != 2:
            raise turn_line.fail("expected turn SEAT PHASE")
        turn = Line(turn_line.number, "turn", None, turn_line.words[:1], turn_line.text).int1(
            0, n - 1)
        try:
            phase = Phase(turn_line.words[1])
        except ValueError:
            names = ", ".join(p.value for p in Phase)
            raise turn_line.fail(f"{turn_line.words[1]!r} is not a phase ({names})") from None
    levels: tuple[int, ...] = (1,) * n
    levels_line = one(groups, "levels", required=False)
    if levels_line is not None:
        words = tuple("9" if w.upper() == "WIN" else w for w in levels_line.words)
        values = Line(levels_line.number, "levels", None, words, levels_line.text).ints(1, 9)
        if len(values) != n:
            raise levels_line.fail(f"expected {n} levels, one per seat")
        levels = tuple(values)
    down_seats = set(_seat_list(one(groups, "down", required=False), n))

    def index_lists(key: str) -> tuple[tuple[SlotId, ...], ...]:
        out: list[tuple[SlotId, ...]] = [()] * n
        for line in groups.get(key, []):
            if line.seat is None or not 0 <= line.seat < n:
                raise line.fail(f"expected {key} SEAT: with a seat 0..{n - 1}")
            hand = state.hands[line.seat]
            if not hand:
                raise line.fail(f"hand {line.seat} is empty")
            places = line.ints(0, len(hand) - 1)
            out[line.seat] = tuple(hand[i] for i in places)
        return tuple(out)

    shown = index_lists("shown") if phase in (Phase.SHOW, Phase.CHOOSE) else ()
    kept = index_lists("kept") if phase is Phase.KEEP else ()
    for key, wanted in (("shown", (Phase.SHOW, Phase.CHOOSE)), ("kept", (Phase.KEEP,))):
        if groups.get(key) and phase not in wanted:
            raise groups[key][0].fail(f"{key!r} belongs to the phase(s) "
                                      f"{', '.join(p.value for p in wanted)}")
    swaps_line = one(groups, "swaps", required=False)
    went_line = one(groups, "went-out", required=False)
    next_line = one(groups, "next-meld", required=False)
    actions_line = one(groups, "actions", required=False)
    changes: dict[str, Any] = {
        "dealer": dealer,
        "round": 0 if round_line is None else round_line.int1(0, 10**6),
        "turn": turn,
        "phase": phase,
        "levels": levels,
        "down": tuple(s in down_seats for s in range(n)),
        "shown": shown,
        "kept": kept,
        "show_queue": _seat_list(one(groups, "show-queue", required=False), n),
        "keep_queue": _seat_list(one(groups, "keep-queue", required=False), n),
        "owed": _seat_list(one(groups, "owed", required=False), n),
        "winners": _seat_list(one(groups, "winners", required=False), n),
        "swaps": 0 if swaps_line is None else swaps_line.int1(0, 3),
        "reshuffle_due": one(groups, "reshuffle-due", required=False) is not None,
        "went_out": -1 if went_line is None else went_line.int1(0, n - 1),
        "actions": 0 if actions_line is None else actions_line.int1(0, 10**9),
    }
    if next_line is not None:
        changes["next_meld"] = next_line.int1(0, 10**6)
    if phase is Phase.SHOW and not changes["show_queue"]:
        raise PositionError("position: phase show needs a show-queue")
    if phase is Phase.KEEP and not changes["keep_queue"]:
        raise PositionError("position: phase keep needs a keep-queue")
    return state.evolve(**changes)


# ---------------------------------------------------------------------------------------------
# Actions with card names


def _resolve(state: Level8State, pool: Sequence[SlotId], face: Card, used: set[SlotId]) -> (
        SlotId | None):
    """The lowest slot of ``pool`` known to hold ``face`` and not in ``used``."""
    for slot in sorted(pool):
        if slot not in used and state.cards.get(slot) is face:
            return slot
    return None


def _pool(state: Level8State, action: Action) -> tuple[SlotId, ...]:
    if isinstance(action, Choose):
        return tuple(s for slots in state.shown for s in slots)
    if isinstance(action, Keep):
        kept = state.kept[action.seat] if state.kept else ()
        return tuple(s for s in state.hands[action.seat] if s not in kept)
    if 0 <= action.seat < state.n:
        return state.hands[action.seat]
    return ()


def describe_action(state: Level8State, action: Action) -> str:
    """``action`` in notation with card names: ``#SLOT`` is left out wherever the name alone
    picks the same card (the lowest slot of that face among the actor's cards not yet named
    in the action); :func:`read_action` reads it back in ``state``."""
    if isinstance(action, Reveal) and state.phase is Phase.FLIP and state.pile \
            and action.slot == state.pile[0]:
        return f"*: reveal {action.card}"
    if action.seat == CHANCE:
        return str(action)
    pool = _pool(state, action)
    used: set[SlotId] = set()

    def name(slot: SlotId, face: Card) -> str:
        omit = _resolve(state, pool, face, used) == slot
        used.add(slot)
        return str(face) if omit else f"{face}#{slot}"

    def placed(p: Placed) -> str:
        decl = _placed_text(p)[len(str(p.card)):]
        return name(p.slot, p.card) + decl

    seat = action.seat
    if isinstance(action, LayDown):
        body = " | ".join(" ".join(placed(p) for p in g) for g in action.groups)
        return f"{seat}: laydown {body}"
    if isinstance(action, Add):
        return f"{seat}: add {action.meld} {placed(action.card)}"
    if isinstance(action, Discard):
        return f"{seat}: discard {placed(action.card)}"
    if isinstance(action, PlaySpecial):
        suffix = "" if action.target is None else f" {action.target}"
        return f"{seat}: play {placed(action.card)}{suffix}"
    if isinstance(action, Show):
        return f"{seat}: show {' '.join(placed(p) for p in action.cards)}".rstrip()
    if isinstance(action, SwapPut):
        return f"{seat}: swap-put {placed(action.card)}"
    if isinstance(action, Choose | Keep) and action.slot is not None:
        face = state.cards.get(action.slot)
        verb = "choose" if isinstance(action, Choose) else "keep"
        if face is not None and _resolve(state, pool, face, used) == action.slot:
            return f"{seat}: {verb} {face}"
    return str(action)


def read_action(state: Level8State, text: str, game: Game[Level8State, Action]) -> Action:
    """Parse action notation in ``state`` (``game`` finds a requested reveal): a card written
    by name alone (``R7``, ``J1-5=5``) is the lowest slot of that face among the actor's cards
    not yet named in the action (the shown cards for ``choose``, the hand for the rest);
    ``CARD#SLOT`` works as everywhere.

    Raises:
        InvalidActionError: malformed text, or a name this state cannot place (it does not
            know the actor's cards).
        IllegalActionError: the actor holds no such card.
    """
    head, sep, rest = text.partition(":")
    tokens = split_tokens(rest)
    if not sep or not tokens:
        return parse_action(text)
    if head.strip() == "*":
        if tokens[0] == "reveal" and len(tokens) == 2 and "#" not in tokens[1]:
            request = game.chance_request(state) if game.to_act(state) == CHANCE else None
            if not isinstance(request, RevealRequest):
                raise InvalidActionError(f"{text!r}: no card is to be turned up; write CARD#SLOT")
            return parse_action(f"*: reveal {tokens[1]}#{request.slot}")
        return parse_action(text)
    if not is_digits(head.strip()):
        return parse_action(text)
    seat = int(head.strip())
    verb, args = tokens[0], tokens[1:]
    probe: Action = Choose(seat, None) if verb == "choose" else Keep(seat, -1) if verb == "keep" \
        else Discard(seat, Placed(-1, parse_card("R1")))
    pool = _pool(state, probe) if 0 <= seat < state.n else ()
    used: set[SlotId] = set()
    out = [verb]
    card_args = {"laydown": range(len(args)), "add": range(1, 2), "discard": range(1),
                 "play": range(1), "show": range(len(args)), "swap-put": range(1),
                 "choose": range(1), "keep": range(1)}.get(verb, range(0))
    for index, token in enumerate(args):
        if index not in card_args or token in ("|", "none") or "#" in token:
            out.append(token)
            continue
        face_text, eq, decl = token.partition("=")
        face = parse_card(face_text)
        slot = _resolve(state, pool, face, used)
        if slot is None:
            if any(state.cards.get(s) is None for s in pool):
                raise InvalidActionError(f"{text!r}: this state does not know seat {seat}'s "
                                         f"cards; write {face}#SLOT")
            raise IllegalActionError(f"seat {seat}: illegal {text.strip()!r}: no {face} "
                                     "among the cards it may use")
        used.add(slot)
        prefix = "" if verb in ("choose", "keep") else str(face)
        out.append(f"{prefix}#{slot}" + (f"={decl}" if eq else ""))
    return parse_action(f"{seat}: {' '.join(out)}")
