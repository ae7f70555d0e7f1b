"""The Level 8 ``hard`` bot: determinization with ``normal`` roll-outs over a bounded horizon.

The standard for hidden-information card games (Long, Sturtevant, Buro, Furtak, AAAI 2010;
Cowling, Powley, Whitehouse, IEEE TCIAIG 4(2), 2012), shaped like the 8s Rule! ``hard``
(:mod:`lancards.engine.eights.search_bot`). At a decision that matters (the draw and the
discard of a seat that has not laid down, when ``normal`` has a choice) it

1. deals the cards its view does not know to the slots whose identity it does not know, ``k``
   times (:func:`sample_world`): the other seats' hands keep their sizes and every card the
   view shows (melds, discard piles, cards picked up from them, shown cards) stays where it is;
   the draw pile's order is as unknown as the rest;
2. plays each candidate in each of these ``k`` worlds and then ``normal`` at every seat, each
   deciding from its own view of the world, until this seat has drawn at its next turn, the
   round ends, or a reshuffle is due (the same ``k`` worlds for every candidate: common random
   numbers; the roll-outs draw no randomness, so a world plays out alike for every candidate
   but for the candidate's consequences);
3. scores the end of each roll-out by :func:`evaluate`, this seat's expected level gain of the
   round minus the mean of the other seats' (a seat that is down gains a level; a seat ``d``
   cards from laying down is credited ``DOWN_CHANCE ** d`` of one; a round that ended counts
   the levels actually gained);
4. plays the candidate with the best mean, ``normal``'s own choice on a tie
   (:data:`SIGNIFICANCE`, a guard in standard errors of the paired differences, is 0: on
   1,000 paired Master games a guard of 3 left ``normal``'s choice so seldom that 9 games
   came out differently, while no guard won 26.5 % against the control's 22.8 %,
   ``docs/benchmarks.md``).

Other decisions (lay-downs, adds, special cards, shows, keeps) are ``normal``'s. Four wider
searches are here for measurement and off (``docs/benchmarks.md``, "Level 8 ``hard``, round-end
roll-outs and grown worlds" and "a search that sees the hidden cards": none played better): a
seat that is down searched to the round's end (:data:`DOWN_SEARCH`), round-end roll-outs while
another seat is down (:data:`END_WHEN_OTHERS_DOWN`), worlds whose hidden hands are grown by the
draws their seats made (:data:`GROW_STEPS`), and a special card or a lay-down weighed against
holding it (:data:`PLAY_SEARCH`). The number of
worlds comes from a fixed budget of simulated turns (:data:`BUDGET_TURNS`), so a decision
costs the same on every machine and is deterministic given the bot's own random source; the
engine never draws for it, and it is handed only the seat's view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lancards.engine.core import CHANCE, Rng, Seat
from lancards.engine.level8.actions import (
    Action,
    Discard,
    Draw,
    DrawDiscard,
    LayDown,
    PlaySpecial,
)
from lancards.engine.level8.cards import Card
from lancards.engine.level8.game import LEVEL8
from lancards.engine.level8.levels import Level
from lancards.engine.level8.melds import add_options
from lancards.engine.level8.plan import distance, plan
from lancards.engine.level8.planner_bot import PlannerBot, outs, unseen
from lancards.engine.level8.state import Level8State, Phase

BUDGET_TURNS = 64
"""Budget units (:func:`turn_cost`, simulated turns) per searched decision; a unit is about
3 ms of ``normal`` on one core."""

MIN_SAMPLES = 6
MAX_SAMPLES = 16
MAX_CANDIDATES = 3
SIGNIFICANCE = 0.0
"""How many standard errors a candidate must gain over ``normal``'s choice to replace it (0:
any gain; measured in ``docs/benchmarks.md``, "Level 8 ``hard``, the guard")."""

DOWN_CHANCE = 0.6
"""The credit of a seat ``d`` cards from laying down is ``DOWN_CHANCE ** d`` of a level."""

OUT_SHARE = 1.0
"""A seat that is down holding ``h`` cards is credited one level plus ``OUT_SHARE / (1 + h)``:
going out is worth a second level (ruling L8-10), and the fewer cards, the nearer it is."""

DOWN_SEARCH = 0
"""The end of the turn of a seat that is down, searched with each candidate played to the
round's end (:meth:`SearchBot._down_candidates`): 1 its discards of other faces and a special
card held; 2 only the discards ``normal`` ranks alike but for what feeds the others and the
number (no joker for a plain card, no special card held); 0 none: ``normal``'s."""

END_WHEN_OTHERS_DOWN = 0
"""1: while another seat is down, the draw and discard of a seat that is not down are played
to the round's end too (the round is near its end); 0: to this seat's next draw."""

END_BUDGET = 96
"""Budget units (:func:`turn_cost`, turns actually simulated) of a search to the round's end:
worlds are dealt while fewer have been spent, at most :data:`MAX_SAMPLES`."""

END_TURNS = 32
"""Turns a roll-out to the round's end plays at most (then it is scored by
:func:`evaluate` as it stands)."""

PLAY_SEARCH = 0
"""Decisions of a seat that is not down that ``normal``'s measure does not weigh, each played
with the alternative to the round's end (:meth:`SearchBot._play_candidates`): 1 a special
card ``normal`` plays at once against holding it (its best discard instead); 2 that, and a
lay-down against holding the level back a turn (the best discard instead); 0 none."""

RIVAL_RATE = 0.0
"""An experiment, off (0): :func:`evaluate` weighs each other seat by ``2 ** (RIVAL_RATE *
(its level - this seat's level))`` at the roll-out's start instead of the plain mean, so a seat
ahead counts more (measured no better at 1.0: ``docs/benchmarks.md``, "Level 8 ``hard``: the
standing, the distance's weight")."""

GROW_STEPS = 0
"""Imagined draws per seat that is not down (:func:`_grow_hands`): a uniform deal leaves the
other seats farther from laying down than ``normal``'s play does (a seat one card away is
imagined 2.6 cards away on average); 0: uniform worlds."""

GROW_PER_TURN = 3
"""Imagined draws per discard a seat made this round (:func:`_grow_hands`)."""

SWAP_TRIES = 12
"""Draws of a swap partner for a card that a seat that is down would have added."""

_IN_ROUND = frozenset({Phase.DRAW, Phase.PLAY, Phase.SKIPPED, Phase.SHOW, Phase.CHOOSE,
                       Phase.SWAP})


def hidden_slots(view: Level8State) -> list[int]:
    """The slots in play whose identity ``view`` does not know, ascending."""
    return sorted(s for s in view.known if s not in view.cards)


def sample_world(view: Level8State, rng: Rng) -> Level8State:
    """A full state that the view could be: the faces the view has not seen
    (:func:`lancards.engine.level8.planner_bot.unseen`) dealt at random to the slots it does not
    know (:func:`hidden_slots`). Everything the view knows is unchanged, so hand sizes, melds,
    discard piles and the cards seats picked up from them are as shown; who knows which slot
    (``known``) is unchanged too, so each seat's view of the world hides what it hid. A seat
    that is down is dealt no card that fits a meld where a swap can avoid it (it would have
    added it; :func:`_settle_down_hands`); with :data:`GROW_STEPS`, the hands of the seats
    that are not down are then brought closer to laying down by the draws their discards say
    they made (:func:`_grow_hands`).

    Raises:
        AssertionError: the view's unseen faces do not match its hidden slots in number (a view
            that is not of a complete deck).
    """
    slots = hidden_slots(view)
    faces = sorted(unseen(view).elements(), key=lambda c: (c.kind.value, str(c)))
    assert len(faces) == len(slots), f"{len(faces)} unseen faces for {len(slots)} hidden slots"
    for i in range(len(faces) - 1, 0, -1):
        j = rng.randrange(i + 1)
        faces[i], faces[j] = faces[j], faces[i]
    cards = dict(view.cards)
    cards.update(zip(slots, faces, strict=True))
    _settle_down_hands(view, cards, slots, rng)
    if GROW_STEPS:
        _grow_hands(view, cards, slots, rng)
    return view.evolve(cards=cards)


def _grow_hands(view: Level8State, cards: dict[int, Card], slots: list[int], rng: Rng) -> None:
    """Bring, in ``cards``, the hidden hands of the seats that are not down as close to laying
    down as ``normal``'s own play would have: a seat that has discarded ``t`` times this round
    has drawn ``t`` cards and kept each that brought its plan closer, so from the uniform deal
    it draws ``min(t, GROW_STEPS)`` times a random card of the other hidden slots (not of a
    seat that is down) and swaps it in for its least needed hidden card when that lowers its
    distance. Seats take their steps in turn; the deck's faces are unchanged (only hidden slots
    trade faces)."""
    down = {slot for s in view.present() if view.down[s] for slot in view.hands[s]}
    hidden = set(slots)
    mine = {s: [x for x in view.hands[s] if x in hidden] for s in view.present()
            if not view.down[s]}
    growing = [s for s in mine if mine[s]]  # not the viewer: its hand is known
    if not growing:
        return
    steps = {s: min(GROW_STEPS, GROW_PER_TURN * len(view.discards[s])) for s in growing}
    for step in range(max(steps.values())):
        for s in growing:
            if step >= steps[s]:
                continue
            own = set(mine[s])
            pool = [x for x in slots if x not in own and x not in down]
            if not pool:
                continue
            drawn = pool[rng.randrange(len(pool))]
            card = cards[drawn]
            if not (card.is_number or card.is_joker):
                continue
            level = view.level(s)
            hand = [cards[x] for x in view.hands[s]]
            now = distance(hand, level)
            if now == 0 or distance([*hand, card], level) >= now:
                continue
            best: tuple[int, int] | None = None
            for x in mine[s]:
                d = distance([*_without(hand, cards[x]), card], level)
                if d < now and (best is None or d < best[0]):
                    best = (d, x)
            if best is not None:
                x = best[1]
                cards[x], cards[drawn] = card, cards[x]


def _fits(view: Level8State, card: Card) -> bool:
    return (card.is_number or card.is_joker) and any(add_options(m, -1, card)
                                                     for m in view.melds)


def _settle_down_hands(view: Level8State, cards: dict[int, Card], slots: list[int],
                       rng: Rng) -> None:
    """Swap, in ``cards``, the cards dealt to a seat that is down and fit a meld on the table
    with cards dealt elsewhere that fit none: a seat that is down adds every card that fits
    (``normal`` does; ruling L8-7 allows it), so it holds none, but for melds that grew since
    its turn. A card stays where no swap partner is found in :data:`SWAP_TRIES` draws."""
    down = {slot for s in view.present() if view.down[s] for slot in view.hands[s]}
    targets = [slot for slot in slots if slot in down and _fits(view, cards[slot])]
    if not targets:
        return
    elsewhere = [slot for slot in slots if slot not in down]
    if not elsewhere:
        return
    for slot in targets:
        for _ in range(SWAP_TRIES):
            other = elsewhere[rng.randrange(len(elsewhere))]
            if not _fits(view, cards[other]):
                cards[slot], cards[other] = cards[other], cards[slot]
                break


def _value(state: Level8State, seat: Seat, before: tuple[int, ...], ended: bool) -> float:
    if ended:
        return float(state.levels[seat] - before[seat])
    if state.down[seat]:
        return 1.0 + OUT_SHARE / (1 + len(state.hands[seat]))
    hand = [state.cards[s] for s in state.hands[seat]]
    dist, holes = plan(hand, state.level(seat))
    pile = Counter(state.cards[s] for s in state.pile)
    share = outs(holes, pile) / len(state.pile) if state.pile else 0.0
    return float(DOWN_CHANCE ** max(0.0, dist - share))


def evaluate(state: Level8State, seat: Seat, before: tuple[int, ...], number: int) -> float:
    """The roll-out's score for ``seat``: its expected level gain of round ``number`` minus the
    mean of the other seats'. A round that ended counts the levels gained; else a seat that is
    down holding ``h`` cards is credited ``1 + OUT_SHARE / (1 + h)``, and a seat ``d`` cards
    from laying down (:func:`lancards.engine.level8.plan.plan`) ``DOWN_CHANCE ** (d - o)``,
    ``o`` being the share of the draw pile's cards that fill a hole of its plan (its outs).

    Args:
        state: a full world (every identity known) at the roll-out's end.
        before: every seat's level when the roll-out began.
        number: the round searched.
    """
    ended = state.round != number or state.phase not in _IN_ROUND
    others = [s for s in state.present() if s != seat]
    mine = _value(state, seat, before, ended)
    if not others:
        return mine
    if not RIVAL_RATE:
        return mine - sum(_value(state, s, before, ended) for s in others) / len(others)
    weights = [float(2.0 ** (RIVAL_RATE * (before[s] - before[seat]))) for s in others]
    return mine - sum(w * _value(state, s, before, ended)
                      for w, s in zip(weights, others, strict=True)) / sum(weights)


def play_out(world: Level8State, seat: Seat, policy: PlannerBot, limit: int) -> Level8State:
    """``world`` after ``normal`` (``policy``) at every seat, each from its own view, until the
    turn comes back to ``seat`` (before it draws: its chance to draw is in the evaluation's
    outs), the round ends, chance is to act (a reshuffle), or ``limit`` turns have begun."""
    return _roll(world, seat, policy, limit)[0]


def play_round(world: Level8State, policy: PlannerBot, limit: int) -> tuple[Level8State, int]:
    """``world`` after ``normal`` (``policy``) at every seat, each from its own view, until the
    round ends, chance is to act (a reshuffle), or ``limit`` turns have begun; and the budget
    units those turns cost (:func:`turn_cost` of each turn's seat, 1 for a seat that is down:
    it plans nothing)."""
    return _roll(world, None, policy, limit)


def _roll(world: Level8State, seat: Seat | None, policy: PlannerBot,
          limit: int) -> tuple[Level8State, int]:
    """:func:`play_out` back to ``seat``, or :func:`play_round` for ``None``."""
    number = world.round
    state = world
    turns = spent = 0
    away = state.turn != seat
    while state.round == number and state.phase in _IN_ROUND:
        if state.turn != seat:
            away = True
        elif away:
            break
        actor = LEVEL8.to_act(state)
        if actor is None or actor == CHANCE:
            break
        if state.phase in (Phase.DRAW, Phase.SKIPPED):
            turns += 1
            if turns > limit:
                break
            spent += 1 if state.down[actor] else turn_cost(state.level(actor))
        legal = LEVEL8.legal_actions(state, actor)
        if not legal:
            break
        state = LEVEL8.apply(state, policy.choose(LEVEL8.view(state, actor), actor, legal))
    return state, spent


def _pick(results: list[list[float]]) -> int:
    """The candidate to play: the highest mean, but only when it beats ``normal``'s choice
    (index 0) by :data:`SIGNIFICANCE` standard errors of the paired differences; else 0."""
    n = len(results[0])
    best = max(range(len(results)), key=lambda i: (sum(results[i]), -i))
    if best == 0:
        return 0
    diffs = [b - a for a, b in zip(results[0], results[best], strict=True)]
    mean = sum(diffs) / n
    spread = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
    if mean > 0 and (spread == 0 or mean > SIGNIFICANCE * spread / n ** 0.5):
        return best
    return 0


class SearchBot:
    """Level 8 ``hard`` (module docstring): decides from its view only, drawing only from
    ``rng``.

    Args:
        rng: its own random source (the worlds it imagines).
        budget: simulated turns per searched decision (None: :data:`BUDGET_TURNS`, read when
            the bot is made).
    """

    def __init__(self, rng: Rng, budget: int | None = None) -> None:
        self.rng = rng
        self.budget = BUDGET_TURNS if budget is None else budget
        self.policy = PlannerBot(rng)

    def candidates(self, view: Level8State, seat: Seat, legal: Sequence[Action]) -> list[Action]:
        """The decisions worth searching, ``normal``'s choice first; that one alone when the
        decision is left to ``normal`` (a seat that is down, a lay-down, an add, a special
        card, any phase but the draw and the discard).

        Draw: the discard-pile tops that would lower the distance (a card that does not is no
        better than an unknown one for the plan), the draw pile, then, while another seat is
        down, the tops that fit a meld (taken to keep them from that seat). Discard: the cards whose
        loss leaves the distance as ``normal``'s choice does (its tie-breaks, what feeds the
        others and what leaves outs, are what the search tests). At most
        :data:`MAX_CANDIDATES`.
        """
        first = self.policy.choose(view, seat, legal)
        if view.down[seat]:
            return self._down_candidates(view, seat, legal, first)
        if view.phase not in (Phase.DRAW, Phase.PLAY):
            return [first]
        if view.phase is Phase.PLAY and isinstance(first, (PlaySpecial, LayDown)):
            return self._play_candidates(view, seat, legal, first)
        hand = [c for _, c in view.hand_cards(seat) if c is not None]
        level = view.level(seat)
        if view.phase is Phase.DRAW:
            now = distance(hand, level)
            options: list[Action] = []
            denials: list[Action] = []
            others_down = any(view.down[s] for s in view.present() if s != seat)
            for a in legal:
                if isinstance(a, DrawDiscard) and a.owner != seat:
                    top = view.cards.get(view.discards[a.owner][-1])
                    if top is None or not (top.is_number or top.is_joker):
                        continue
                    if distance([*hand, top], level) < now:
                        options.append(a)
                    elif others_down and _fits(view, top):
                        denials.append(a)
            options.extend(a for a in legal if isinstance(a, Draw))
            options.extend(denials)
        else:
            if not isinstance(first, Discard):
                return [first]
            mine = distance(_without(hand, first.card.card), level)
            options = [a for a in self.policy.ranked_discards(view, seat, legal)
                       if distance(_without(hand, a.card.card), level) == mine]
        rest = [a for a in options if a != first]
        return [first, *rest[:MAX_CANDIDATES - 1]]

    def _play_candidates(self, view: Level8State, seat: Seat, legal: Sequence[Action],
                         first: PlaySpecial | LayDown) -> list[Action]:
        """A seat that is not down whose ``normal`` plays a special card (or, with
        :data:`PLAY_SEARCH` 2, lays down): that, then its best discard of another card (the
        special card held, the level held back a turn). :data:`PLAY_SEARCH` 0: ``normal``'s
        choice alone."""
        if not PLAY_SEARCH or (isinstance(first, LayDown) and PLAY_SEARCH < 2):
            return [first]
        held = first.card.card if isinstance(first, PlaySpecial) else None
        for a in self.policy.ranked_discards(view, seat, legal):
            if held is None or a.card.card != held:
                return [first, a]
        return [first]

    def _down_candidates(self, view: Level8State, seat: Seat, legal: Sequence[Action],
                         first: Action) -> list[Action]:
        """A seat that is down, at the end of its turn: ``normal``'s choice, then its next
        discards of other faces (what to hold for going out); a special card ``normal`` plays
        at once is weighed against holding it (its best discard). :data:`DOWN_SEARCH` 2 keeps
        only the discards as good as ``normal``'s by its first two keys (fitting no meld, not a
        joker), 0 ``normal``'s choice alone."""
        if not DOWN_SEARCH or view.phase is not Phase.PLAY:
            return [first]
        ranked = self.policy.ranked_down_discards(view, seat, legal)
        if isinstance(first, PlaySpecial):
            return [first, *ranked[:1]] if DOWN_SEARCH == 1 else [first]
        if not isinstance(first, Discard):
            return [first]
        faces = {first.card.card}
        options: list[Action] = [first]
        alike = (_fits(view, first.card.card), first.card.card.is_joker)
        for a in ranked:
            if DOWN_SEARCH == 2 and (_fits(view, a.card.card), a.card.card.is_joker) != alike:
                continue
            if a.card.card not in faces and len(options) < MAX_CANDIDATES:
                faces.add(a.card.card)
                options.append(a)
        return options

    def choose(self, view: Level8State, seat: Seat, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty) for ``seat`` in ``view`` (its view)."""
        if len(legal) == 1:
            return legal[0]
        options = self.candidates(view, seat, legal)
        if len(options) == 1:
            return options[0]
        if (view.down[seat] or (END_WHEN_OTHERS_DOWN and any(view.down))
                or isinstance(options[0], (PlaySpecial, LayDown))):
            return options[self._search_to_end(view, seat, options)]
        present = view.present()
        limit = len(present)
        cost = sum(turn_cost(view.level(s)) for s in present if s != seat)
        if view.phase is Phase.DRAW:
            cost += turn_cost(view.level(seat))
        rollouts = self.budget // cost
        options = options[:max(1, rollouts // MIN_SAMPLES)]
        if len(options) == 1:
            return options[0]  # too dear to search: normal's choice
        samples = min(MAX_SAMPLES, rollouts // len(options))
        results: list[list[float]] = [[] for _ in options]
        before = view.levels
        number = view.round
        for _ in range(samples):
            world = sample_world(view, self.rng)
            for i, action in enumerate(options):
                end = play_out(LEVEL8.apply(world, action), seat, self.policy, limit)
                results[i].append(evaluate(end, seat, before, number))
        return options[_pick(results)]


    def _search_to_end(self, view: Level8State, seat: Seat, options: list[Action]) -> int:
        """The index in ``options`` to play, each played in the same worlds and then
        ``normal`` everywhere to the round's end (:func:`play_round`, at most
        :data:`END_TURNS` turns), worlds dealt while fewer than :data:`END_BUDGET` units are
        spent."""
        results: list[list[float]] = [[] for _ in options]
        before = view.levels
        number = view.round
        spent = 0
        while len(results[0]) < MAX_SAMPLES and spent < END_BUDGET:
            world = sample_world(view, self.rng)
            for i, action in enumerate(options):
                end, cost = play_round(LEVEL8.apply(world, action), self.policy, END_TURNS)
                spent += cost
                results[i].append(evaluate(end, seat, before, number))
        return _pick(results)


def turn_cost(level: Level) -> int:
    """The budget units one simulated turn of a seat on ``level`` costs: 1, plus 1 for each
    component equal to another (the plan's search over equal components, Master's four pairs
    of level 1 above all, takes several times as long)."""
    return 1 + len(level) - len(set(level))


def _without(hand: list[Card], card: Card) -> list[Card]:
    out = list(hand)
    out.remove(card)
    return out

