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

Other decisions (lay-downs, adds, special cards, shows, keeps) are ``normal``'s. The number of
worlds comes from a fixed budget of simulated turns (:data:`BUDGET_TURNS`), so a decision
costs the same on every machine and is deterministic given the bot's own random source; the
engine never draws for it, and it is handed only the seat's view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lancards.engine.core import CHANCE, Rng, Seat
from lancards.engine.level8.actions import Action, Discard, Draw, DrawDiscard
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
    added it; :func:`_settle_down_hands`).

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
    return view.evolve(cards=cards)


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
    return mine - sum(_value(state, s, before, ended) for s in others) / len(others)


def play_out(world: Level8State, seat: Seat, policy: PlannerBot, limit: int) -> Level8State:
    """``world`` after ``normal`` (``policy``) at every seat, each from its own view, until the
    turn comes back to ``seat`` (before it draws: its chance to draw is in the evaluation's
    outs), the round ends, chance is to act (a reshuffle), or ``limit`` turns have begun."""
    number = world.round
    state = world
    turns = 0
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
        legal = LEVEL8.legal_actions(state, actor)
        if not legal:
            break
        state = LEVEL8.apply(state, policy.choose(LEVEL8.view(state, actor), actor, legal))
    return state


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
        if view.down[seat] or view.phase not in (Phase.DRAW, Phase.PLAY):
            return [first]
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

    def choose(self, view: Level8State, seat: Seat, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty) for ``seat`` in ``view`` (its view)."""
        if len(legal) == 1:
            return legal[0]
        options = self.candidates(view, seat, legal)
        if len(options) == 1:
            return options[0]
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


def turn_cost(level: Level) -> int:
    """The budget units one simulated turn of a seat on ``level`` costs: 1, plus 1 for each
    component equal to another (the plan's search over equal components, Master's four pairs
    of level 1 above all, takes several times as long)."""
    return 1 + len(level) - len(set(level))


def _without(hand: list[Card], card: Card) -> list[Card]:
    out = list(hand)
    out.remove(card)
    return out

