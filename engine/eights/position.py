"""8s Rule! positions as text, and actions written with card names (docs/engine.md).

Example (round 3 of 4 players, seat 2 to play to the second trick)::

    lancards-position 1
    game eights
    seats 4
    round 3
    dealer 1
    phase tricks
    turn 2
    hand 0: R1 R9 B2 ...
    trick 1: 2 B8 take 3 B1 0 B15 1 B4
    trick-now: 2 R5
    result 1: dealer 3 tricks 15 points 30 40 50 30
    result 2: dealer 0 tricks 11 points 0 20 45 0 early
    totals: 30 60 95 30

Keys: ``seats`` (required), ``round``, ``dealer`` (a seat or ``-``), ``phase`` (cut-shuffle,
cut-reveal, deal, tricks, layout, audit, over), ``turn`` (a seat or ``-``), ``cutters:`` and
``cut:`` (the high cut, ruling E-2: cutting seats and the numbers shown so far), ``pile:`` (the
face-down deck in a cut or before a deal, top first), ``hand S:`` (the cards in slot order),
``trick N:`` (a finished trick of this round: ``SEAT CARD`` pairs in play order, an 8 of the led
suit followed by ``take`` or ``no-take``), ``trick-now:`` (the trick in progress), ``turns:``
(round 8: ``SEAT CARD`` or ``SEAT pass`` in order), ``went-out S``, ``result R:`` (a finished
round: ``dealer D tricks T points P...``, then ``early`` and ``went-out S`` when they apply),
``renege R: seat S number N played CARD|pass held CARD led SUIT|-``, ``totals:`` (checked
against the results), ``left S...`` (the seats that left for good, in the order they left,
rulings D-1, D-2). Trick winners, the cards won, the layout, the count of scoring cards
left and the audit history are derived.

Default knowledge: a hand card is known to its holder, the pile to nobody, played cards to
everyone.
"""

from __future__ import annotations

import json
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
    SlotId,
    is_digits,
    seat_bit,
    split_tokens,
)
from lancards.engine.options import find_option
from lancards.engine.position_text import (
    HEADER,
    Line,
    PositionError,
    grouped,
    one,
    only_keys,
    option_line,
    parse_option,
    parse_tokens,
    split_lines,
    write_cards,
)

from .actions import NO_TAKE, TAKE, EightsAction, Play, parse_action
from .cards import CARDS, DECK_SIZE, NUMBERS, Suit, parse_card
from .objectives import ObjectiveKind, Objectives, default_objectives
from .play import EMPTY_LAYOUT, TrickPlay, lay, trick_winner
from .rules import OPTIONS, rules_from
from .state import ROUNDS, EightsRules, EightsState, Event, Phase, Renege, RoundResult

KEYS = {
    "game", "option", "seats", "round", "dealer", "phase", "turn", "cutters", "cut", "pile",
    "hand", "trick", "trick-now", "turns", "went-out", "result", "renege", "totals", "left",
}
PHASES = {p.name.lower().replace("_", "-"): p for p in Phase}


# ---------------------------------------------------------------------------------------------
# Options


def objectives_toml(objectives: Objectives) -> str:
    """Objectives as the TOML text :func:`~lancards.engine.eights.objectives.parse_objectives`
    reads (ruling E-6)."""
    lines = [f"source = {json.dumps(objectives.source)}",
             f"from_publisher = {'true' if objectives.from_publisher else 'false'}"]
    for o in objectives.rounds:
        lines += ["[[round]]", f"number = {o.number}", f"title = {json.dumps(o.title)}",
                  f'kind = "{o.kind.value}"']
        if o.kind is ObjectiveKind.TRICKS:
            lines.append(f"points = {o.per_trick}")
        elif o.kind is ObjectiveKind.LAST_TRICKS:
            lines.append(f"points = [{', '.join(map(str, o.last_tricks))}]")
        else:
            entries = [f'{{ card = "{CARDS[i]}", points = {p} }}'
                       for i, p in enumerate(o.card_points) if p] or ['{ card = "R1", points = 0 }']
            lines.append(f"cards = [{', '.join(entries)}]")
            lines.append(f"early_end = {'true' if o.early_end else 'false'}")
    return "\n".join(lines) + "\n"


def rule_options(rules: EightsRules) -> dict[str, Any]:
    """The option values that build ``rules``."""
    objectives = rules.objectives
    return {
        "partners": rules.partners,
        "objectives": "" if objectives == default_objectives() else objectives_toml(objectives),
        "first_dealer": -1 if rules.first_dealer is None else rules.first_dealer,
    }


# ---------------------------------------------------------------------------------------------
# Writing


def _play_words(plays: Sequence[tuple[int, int, bool | None]]) -> str:
    words = []
    for seat, card, take in plays:
        words += [str(seat), "pass" if card < 0 else str(CARDS[card])]
        if take is not None:
            words.append(TAKE if take else NO_TAKE)
    return " ".join(words)


def write_position(state: EightsState) -> str:
    """The position text of ``state`` (module docstring); ``?`` for identities it lacks."""
    n, base = state.n, state.base
    lines = [HEADER, "game eights"]
    for key, value in rule_options(state.rules).items():
        if value != find_option(OPTIONS, key, "eights").default:
            lines.append(option_line(key, value))
    lines += [f"seats {n}", f"round {state.round}",
              f"dealer {'-' if state.dealer < 0 else state.dealer}",
              f"phase {state.phase.name.lower().replace('_', '-')}",
              f"turn {'-' if state.turn < 0 else state.turn}"]
    if state.left:
        lines.append("left " + " ".join(map(str, state.left)))
    if state.cutters:
        lines.append("cutters: " + " ".join(map(str, state.cutters)))
    if state.cut_numbers:
        lines.append("cut: " + " ".join(map(str, state.cut_numbers)))

    def cards(slots: Sequence[SlotId], default: int) -> str:
        items = [(None if (c := state.card(s)) is None else str(c), state.known[s - base])
                 for s in slots]
        return write_cards(items, default, n)

    if state.pile:
        lines.append(f"pile: {cards(state.pile, 0)}")
    if state.hands and any(state.hands):
        for seat, hand in enumerate(state.hands):
            lines.append(f"hand {seat}: {cards(hand, seat_bit(seat))}".rstrip())
    tricks = _finished_tricks(state)
    for number, plays in enumerate(tricks, start=1):
        lines.append(f"trick {number}: {_play_words(plays)}")
    if state.trick:
        lines.append(f"trick-now: {_play_words([(p.seat, p.card, p.take) for p in state.trick])}")
    if state.round == ROUNDS and state.history:
        lines.append(f"turns: {_play_words([(e.seat, e.card, None) for e in state.history])}")
    if state.went_out >= 0:
        lines.append(f"went-out {state.went_out}")
    for result in state.results:
        text = (f"result {result.round}: dealer {result.dealer} tricks {result.tricks} points "
                + " ".join(map(str, result.points)))
        if result.ended_early:
            text += " early"
        if result.went_out is not None:
            text += f" went-out {result.went_out}"
        lines.append(text)
        for r in result.reneges:
            played = "pass" if r.played is None else str(r.played)
            led = "-" if r.led is None else r.led.letter
            lines.append(f"renege {r.round}: seat {r.seat} number {r.number} played {played} "
                         f"held {r.held} led {led}")
    if state.results:
        lines.append("totals: " + " ".join(map(str, state.totals())))
    return "\n".join(lines) + "\n"


def _finished_tricks(state: EightsState) -> list[list[tuple[int, int, bool | None]]]:
    """This round's finished tricks as (seat, card, take), from the history and the winners.

    The state keeps each finished trick's winner, not the "take" flag of an 8 of the led suit
    (ruling E-4); the flag written is ``take`` when "take" gives the recorded winner, else
    ``no-take``, so reading it back gives the same winner.
    """
    if state.round >= ROUNDS:
        return []
    out: list[list[tuple[int, int, bool | None]]] = [[] for _ in state.trick_winners]
    for e in state.history:
        if e.number <= len(out):
            out[e.number - 1].append((e.seat, e.card, None))
    for number, plays in enumerate(out):
        if not plays:
            continue
        led = plays[0][1] // NUMBERS
        for index, (seat, card, _) in enumerate(plays):
            if card // NUMBERS == led and card % NUMBERS + 1 == 8:
                trial = [TrickPlay(s, 0, c, True if i == index else None)
                         for i, (s, c, _) in enumerate(plays)]
                take = trick_winner(trial) == state.trick_winners[number]
                plays[index] = (seat, card, take)
    return out


# ---------------------------------------------------------------------------------------------
# Reading


def _read_plays(line: Line, trick: bool) -> list[tuple[int, int, bool | None]]:
    """``SEAT CARD [take|no-take]`` (tricks) or ``SEAT CARD|pass`` (round 8) words."""
    words = list(line.words)
    out: list[tuple[int, int, bool | None]] = []
    i = 0
    while i < len(words):
        if not is_digits(words[i]) or i + 1 >= len(words):
            raise line.fail(f"expected SEAT CARD pairs, got {' '.join(words[i:i + 2])!r}")
        seat = int(words[i])
        if words[i + 1] == "pass" and not trick:
            card = -1
        else:
            try:
                card = parse_card(words[i + 1]).index
            except InvalidActionError as exc:
                raise line.fail(str(exc)) from None
        i += 2
        take: bool | None = None
        if trick and i < len(words) and words[i] in (TAKE, NO_TAKE):
            take = words[i] == TAKE
            i += 1
        out.append((seat, card, take))
    return out


def read_position(text: str, game: Game[EightsState, EightsAction]) -> EightsState:
    """The state of an 8s Rule! position text (module docstring), checked by ``game`` (its
    ``new_game`` and ``invariant_violations``; passed in so this module never imports the game).

    Raises:
        PositionError: an unknown key or option, a bad card or seat, a card given twice, not
            all 60 cards placed, totals that do not match the results, or a state that breaks
            an invariant; the message names the line.
    """
    lines = split_lines(text)
    only_keys(lines, KEYS)
    groups = grouped(lines)
    game_line = one(groups, "game")
    assert game_line is not None
    if game_line.words not in (("eights",), ("8s-rule",)):
        raise game_line.fail(f"{' '.join(game_line.words)!r} is not 8s Rule!")
    try:
        rules = rules_from(dict(parse_option(line) for line in groups.get("option", [])))
    except RulesError as exc:
        raise PositionError(f"position: {exc}") from None
    seats_line = one(groups, "seats")
    assert seats_line is not None
    n = seats_line.int1(3, 6)
    try:
        game.new_game(rules, n)
    except RulesError as exc:
        raise PositionError(f"position: {exc}") from None

    def opt_seat(key: str) -> int:
        line = one(groups, key, required=False)
        if line is None or line.words == ("-",):
            return -1
        return line.int1(0, n - 1)

    round_line = one(groups, "round", required=False)
    number = 0 if round_line is None else round_line.int1(0, ROUNDS)
    phase_line = one(groups, "phase")
    assert phase_line is not None
    if len(phase_line.words) != 1 or phase_line.words[0] not in PHASES:
        raise phase_line.fail(f"expected phase NAME, one of {', '.join(PHASES)}")
    phase = PHASES[phase_line.words[0]]
    ident: list[int] = []
    known: list[int] = []
    seen: dict[int, int] = {}

    def take(line: Line, default: int, words: Sequence[str] | None = None) -> tuple[int, ...]:
        slots = []
        for token in parse_tokens(line, default, n, words):
            index = -1
            if token.name is not None:
                try:
                    index = parse_card(token.name).index
                except InvalidActionError as exc:
                    raise line.fail(str(exc)) from None
                if index in seen:
                    raise line.fail(f"{CARDS[index]} is given twice (the deck has one)")
                seen[index] = len(ident)
            slots.append(len(ident))
            ident.append(index)
            known.append(token.mask)
        return tuple(slots)

    pile_line = one(groups, "pile", required=False)
    pile = () if pile_line is None else take(pile_line, 0)
    hands: list[tuple[int, ...]] = [()] * n
    for line in groups.get("hand", []):
        if line.seat is None or not 0 <= line.seat < n:
            raise line.fail(f"expected hand SEAT: with a seat 0..{n - 1}")
        hands[line.seat] = take(line, seat_bit(line.seat))
    history: list[Event] = []
    won: list[tuple[int, ...]] = [()] * n
    winners: list[int] = []

    def played(line: Line, card: int) -> int:
        if card in seen:
            raise line.fail(f"{CARDS[card]} is given twice (the deck has one)")
        seen[card] = len(ident)
        ident.append(card)
        known.append(ALL_SEATS)
        return len(ident) - 1

    tricks = sorted(groups.get("trick", []), key=lambda line: line.seat or 0)
    for expected, line in enumerate(tricks, start=1):
        if line.seat != expected:
            raise line.fail(f"expected trick {expected} (tricks are numbered 1, 2, ...)")
        plays = [TrickPlay(s, played(line, c), c, t) for s, c, t in _read_plays(line, True)]
        if not plays or any(not 0 <= p.seat < n for p in plays):
            raise line.fail(f"a trick holds plays of seats 0..{n - 1}")
        winner = trick_winner(plays)
        winners.append(winner)
        won[winner] += tuple(p.slot for p in plays)
        history += [Event(p.seat, p.card, expected) for p in plays]
    now_line = one(groups, "trick-now", required=False)
    trick: tuple[TrickPlay, ...] = ()
    if now_line is not None:
        trick = tuple(TrickPlay(s, played(now_line, c), c, t)
                      for s, c, t in _read_plays(now_line, True))
        history += [Event(p.seat, p.card, len(winners) + 1) for p in trick]
    turns_line = one(groups, "turns", required=False)
    table: list[int] = []
    layout = EMPTY_LAYOUT
    if turns_line is not None:
        for i, (seat, card, _) in enumerate(_read_plays(turns_line, False), start=1):
            if card >= 0:
                table.append(played(turns_line, card))
                layout = lay(card, layout)
            history.append(Event(seat, card, i))
    if len(ident) != DECK_SIZE:
        raise PositionError(f"position: {len(ident)} cards placed; 8s Rule! has {DECK_SIZE}")
    results = _read_results(groups, n)
    scoring = 0
    if phase in (Phase.TRICKS, Phase.AUDIT) and 1 <= number < ROUNDS:
        points = rules.objectives.rounds[number - 1].card_points
        taken = sum(1 for seat in range(n) for slot in won[seat] if points and points[ident[slot]])
        scoring = sum(1 for p in points if p) - taken
    cutters_line = one(groups, "cutters", required=False)
    cut_line = one(groups, "cut", required=False)
    left_line = one(groups, "left", required=False)
    left = () if left_line is None else tuple(left_line.ints(0, n - 1))
    if left_line is not None and len(set(left)) != len(left):
        raise left_line.fail("a seat is named twice")
    state = EightsState(
        rules=rules, n=n, phase=phase, base=0, ident=tuple(ident), known=tuple(known),
        pile=pile, round=number, dealer=opt_seat("dealer"),
        cutters=() if cutters_line is None else tuple(cutters_line.ints(0, n - 1)),
        cut_numbers=() if cut_line is None else tuple(cut_line.ints(1, NUMBERS)),
        hands=tuple(hands), turn=opt_seat("turn"), trick=trick, won=tuple(won),
        trick_winners=tuple(winners), scoring_left=scoring, layout=layout, table=tuple(table),
        history=tuple(history), went_out=opt_seat("went-out"), results=results, left=left,
    )
    totals_line = one(groups, "totals", required=False)
    if totals_line is not None:
        totals = tuple(totals_line.ints(-10**6, 10**6))
        if totals != state.totals():
            raise totals_line.fail(f"the results add up to {' '.join(map(str, state.totals()))}")
    problems = game.invariant_violations(state)
    if problems:
        raise PositionError(f"position: {'; '.join(problems)}")
    return state


def _read_results(groups: dict[str, list[Line]], n: int) -> tuple[RoundResult, ...]:
    reneges: dict[int, list[Renege]] = {}
    for line in groups.get("renege", []):
        fields = dict(zip(line.words[::2], line.words[1::2], strict=False))
        if line.seat is None or set(fields) != {"seat", "number", "played", "held", "led"}:
            raise line.fail("expected renege R: seat S number N played CARD|pass held CARD "
                            "led SUIT|-")
        try:
            renege = Renege(
                round=line.seat, seat=int(fields["seat"]), number=int(fields["number"]),
                played=None if fields["played"] == "pass" else parse_card(fields["played"]),
                held=parse_card(fields["held"]),
                led=None if fields["led"] == "-" else Suit.parse(fields["led"]),
            )
        except (ValueError, InvalidActionError) as exc:
            raise line.fail(str(exc)) from None
        reneges.setdefault(line.seat, []).append(renege)
    results = []
    for expected, line in enumerate(sorted(groups.get("result", []),
                                           key=lambda x: x.seat or 0), start=1):
        words = list(line.words)
        if line.seat != expected or len(words) < 4 + n or words[0] != "dealer" \
                or words[2] != "tricks" or words[4] != "points":
            raise line.fail(f"expected result {expected}: dealer D tricks T points "
                            f"P0..P{n - 1} [early] [went-out S]")
        head = Line(line.number, "result", None, (words[1], words[3]), line.text)
        dealer, tricks = head.ints(0, 10**3)
        points = tuple(Line(line.number, "result", None, tuple(words[5:5 + n]),
                            line.text).ints(-10**6, 10**6))
        rest = words[5 + n:]
        early = "early" in rest
        went_out = None
        if "went-out" in rest:
            at = rest.index("went-out")
            if at + 1 >= len(rest) or not is_digits(rest[at + 1]):
                raise line.fail("expected went-out SEAT")
            went_out = int(rest[at + 1])
        results.append(RoundResult(expected, dealer, points, tuple(reneges.get(expected, [])),
                                   tricks, early, went_out))
    return tuple(results)


# ---------------------------------------------------------------------------------------------
# Actions with card names


def describe_action(state: EightsState, action: EightsAction,
                    game: Game[EightsState, EightsAction]) -> str:
    """``action`` with the card's slot left out where the name alone finds it (the card is in
    the actor's hand and this state knows it; a reveal of the slot ``game`` requests)."""

    if isinstance(action, Play) and 0 <= action.seat < state.n and any(
            state.card(s) == action.card and s == action.slot for s in state.hands[action.seat]):
        suffix = "" if action.take is None else f" {TAKE if action.take else NO_TAKE}"
        return f"{action.seat}: play {action.card}{suffix}"
    if isinstance(action, Reveal) and game.to_act(state) == CHANCE:
        request = game.chance_request(state)
        if isinstance(request, RevealRequest) and action.slot == request.slot:
            return f"*: reveal {action.card}"
    return str(action)


def read_action(state: EightsState, text: str,
                game: Game[EightsState, EightsAction]) -> EightsAction:
    """Parse action notation in ``state``; ``play B8 take`` finds the B8 in the actor's hand,
    ``*: reveal G14`` the slot ``game`` requests.

    Raises:
        InvalidActionError: malformed text, or a name this state cannot place.
        IllegalActionError: the actor holds no such card.
    """
    head, sep, rest = text.partition(":")
    tokens = split_tokens(rest)
    if sep and len(tokens) >= 2 and "#" not in tokens[1]:
        if head.strip() == "*" and tokens[0] == "reveal" and len(tokens) == 2:
            request = game.chance_request(state) if game.to_act(state) == CHANCE else None
            if not isinstance(request, RevealRequest):
                raise InvalidActionError(f"{text!r}: no card is to be revealed; write CARD#SLOT")
            return parse_action(f"*: reveal {tokens[1]}#{request.slot}")
        if is_digits(head.strip()) and tokens[0] == "play":
            seat = int(head.strip())
            card = parse_card(tokens[1])
            hand = state.hands[seat] if seat < len(state.hands) else ()
            slot = next((s for s in hand if state.card(s) == card), None)
            if slot is None:
                if any(state.card(s) is None for s in hand):
                    raise InvalidActionError(f"{text!r}: this state does not know seat {seat}'s "
                                             f"hand; write {card}#SLOT")
                raise IllegalActionError(f"{text.strip()!r}: seat {seat} holds no {card}")
            tokens[1] = f"{card}#{slot}"
            return parse_action(f"{seat}: {' '.join(tokens)}")
    return parse_action(text)
