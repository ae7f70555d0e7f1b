"""The 8s Rule! ``hard`` bot: determinization with ``normal`` roll-outs to the round's end.

The standard for hidden-information card games (Long, Sturtevant, Buro, Furtak, AAAI 2010;
Cowling, Powley, Whitehouse, IEEE TCIAIG 4(2), 2012): at a decision with a choice it

1. deals the unseen cards to the other seats ``k`` times, consistently with its view: each
   seat gets as many cards as it holds, none of a suit it is known to be void in and, in
   round 8, none that was playable when it passed (:func:`held_out`, :func:`sample_hands`;
   the counts of :func:`lancards.engine.eights.planner_bot.count_cards`);
2. plays each candidate card in each of these deals and the rest of the round out with
   ``normal`` at every seat (the same deals for every candidate still in: common random
   numbers), in stages of successive halving (Karnin, Koren, Somekh, "Almost optimal
   exploration in multi-armed bandits", ICML 2013, section 4): ``ceil(log2(candidates))``
   stages share the budget equally; after each, the worse half of the candidates other than
   ``normal``'s choice is dropped, so the last stage compares ``normal``'s choice with one
   rival on every deal dealt;
3. plays the candidate with the lowest mean of *its game total after the round minus the
   lowest of the other seats' totals* (:func:`standing`; the lowest total wins, ruling E-9,
   so points given to the closest rival count; with partners, ruling E-10, its round points
   minus the others' mean), leaving ``normal``'s choice only for a gain of
   :data:`SIGNIFICANCE` standard errors of the paired differences.

Candidates: the legal plays, one per class of equivalent cards (same suit, same points, no
unseen card between them; ``normal``'s favourite of the class), at most ``MAX_CANDIDATES`` of
them in ``normal``'s order. The deals of a stage come from a fixed budget of simulated plays
(``BUDGET_PLAYS``) divided by the stages, the candidates in and the plays left in the round,
``MIN_STAGE_DEALS`` at the least, ``MAX_SAMPLES`` in all at the most. Everything is
deterministic given the bot's own random source; the engine never draws for it and it never
looks at another seat's hidden card (it is handed only the view).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from lancards.engine.core import Rng, Seat

from .actions import EightsAction, Play, format_action, parse_action
from .cards import DECK_SIZE, NUMBERS
from .game import EightsGame
from .inference import past_choices, sample_likely
from .objectives import ObjectiveKind
from .planner_bot import Counts, best_play, count_cards, counts_from, rank_plays
from .play import EMPTY_LAYOUT, is_playable, lay
from .state import CARD_LEFT_POINTS, GOING_OUT_POINTS, EightsState, Phase

BUDGET_PLAYS = 2000
"""Simulated plays per decision (about 0.1 ms each on one core)."""

MIN_STAGE_DEALS = 2
"""Imagined deals per stage of the halving, at the least."""

MAX_SAMPLES = 48
"""Imagined deals in all, at the most (near a round's end, where roll-outs are short)."""

MAX_CANDIDATES = 6
"""Candidate plays searched, at the most (``normal``'s ranking picks them)."""

INFERENCE_TRIES = 0
"""Uniform deals drawn, at the most, for each imagined deal kept by the inference
(:func:`lancards.engine.eights.inference.sample_likely`); 0: no inference, the shipped
setting (``docs/bots.md``: 8 tries placed 36.1 % of the hidden cards with their real holder
against 35.2 % for uniform deals, at 1.5 ms a deal against 0.1, and chose no better on
1,480 decisions valued in the real deal)."""

SIGNIFICANCE = 0.0
"""How many standard errors a candidate must gain over ``normal``'s choice to replace it
(none: measured in ``docs/bots.md``, a guard of 1 or 2 gave up more than it saved)."""

_ENGINE = EightsGame()


def held_out(view: EightsState, counts: Counts) -> tuple[frozenset[int], ...]:
    """Per seat, the unseen cards (indexes) its view shows it cannot hold.

    Rounds 1..7: every card of a suit it failed to follow (ruling E-3, ``counts.void``).
    Round 8: every card that was playable on the layout when it passed (a seat passes only
    when it has no playable card, ruling E-7; cards leave a hand only by being laid, so it
    still holds none of them).
    """
    out: list[set[int]] = [
        {c for c in counts.unseen if c // NUMBERS in counts.void[s]} for s in range(view.n)
    ]
    if view.phase is Phase.LAYOUT:
        layout = EMPTY_LAYOUT
        for event in view.history:
            if event.card >= 0:
                layout = lay(event.card, layout)
            else:
                out[event.seat].update(c for c in counts.unseen if is_playable(c, layout))
    return tuple(frozenset(o) for o in out)


def sample_hands(view: EightsState, seat: Seat, counts: Counts, rng: Rng) -> EightsState:
    """A full state that ``seat``'s view could be: the unseen cards dealt to the other seats'
    hand slots, no seat getting a card its view rules out (:func:`held_out`: a suit it is known
    to be void in, a card that was playable when it passed in round 8), each its hand's size.

    The cards most constrained (fewest seats able to hold them) are placed first, each in a
    random seat with room, chosen in proportion to the room left; after 8 failed attempts the
    constraints are ignored (a view that only a renege explains).
    """
    barred = held_out(view, counts)
    others = [s for s in view.present() if s != seat]
    cards = sorted(counts.unseen)
    for attempt in range(9):
        strict = attempt < 8
        deck = list(cards)
        for i in range(len(deck) - 1, 0, -1):
            j = rng.randrange(i + 1)
            deck[i], deck[j] = deck[j], deck[i]

        def able(card: int, strict: bool = strict) -> list[Seat]:
            return [s for s in others if not (strict and card in barred[s])]

        deck.sort(key=lambda c: len(able(c)))
        room = {s: len(view.hands[s]) for s in others}
        given: dict[Seat, list[int]] = {s: [] for s in others}
        ok = True
        for card in deck:
            seats = [s for s in able(card) if room[s] > 0]
            total = sum(room[s] for s in seats)
            if total == 0:
                ok = False
                break
            pick = rng.randrange(total)
            for s in seats:
                pick -= room[s]
                if pick < 0:
                    given[s].append(card)
                    room[s] -= 1
                    break
        if ok:
            ident = list(view.ident)
            for s in others:
                for slot, card in zip(view.hands[s], given[s], strict=True):
                    ident[slot - view.base] = card
            return replace(view, ident=tuple(ident))
    raise AssertionError("unreachable: the last attempt ignores the voids")


def _round_points(state: EightsState, round_number: int) -> list[int]:
    """Each seat's points of round ``round_number`` just played out in ``state`` (no reneges:
    every seat plays legally in a roll-out), a list of ``state.n`` figures.

    A round whose every hand slot is public when it ends (the last trick played, ruling E-5,
    or a last hidden card laid in round 8) needs no audit and is finished at once: the state
    is already dealt afresh, so the points are read from its :class:`RoundResult`. Otherwise
    the round waits in the audit (hidden cards left) and the points are counted from what was
    taken. Until issue 26's seventh round only the second was read, and every roll-out that
    reached the last trick scored 0 for every seat: rounds 1, 6 and 7 were never searched.
    """
    if state.results and state.results[-1].round == round_number:
        return list(state.results[-1].points)
    n = state.n
    if round_number == 8:
        if state.went_out < 0:
            return [0] * n
        return [GOING_OUT_POINTS if s == state.went_out else CARD_LEFT_POINTS * len(state.hands[s])
                for s in range(n)]
    objective = state.rules.objectives.rounds[round_number - 1]
    won = [[state.ident[slot - state.base] for slot in state.won[s]] for s in range(n)]
    if objective.kind is ObjectiveKind.CARDS:
        return [sum(objective.card_points[c] for c in won[s] if c >= 0) for s in range(n)]
    return list(objective.score(won, state.trick_winners, n))


def standing(points: Sequence[int], totals: Sequence[int], seat: Seat,
             present: Sequence[Seat]) -> float:
    """``seat``'s game total after the round minus the lowest of the other seats' (points
    per seat of this round plus the totals before it; negative: ahead). The lowest total
    wins (ruling E-9), so this is what a seat wants low: points it takes count, and so do
    points the closest rival avoids."""
    others = [totals[s] + points[s] for s in present if s != seat]
    return totals[seat] + points[seat] - min(others)


def _mean_gap(points: Sequence[int], totals: Sequence[int], seat: Seat,
              present: Sequence[Seat]) -> float:
    """Partners (ruling E-10): the round's points minus the other seats' mean."""
    others = [points[s] for s in present if s != seat]
    return points[seat] - sum(others) / len(others)


def _play_out(state: EightsState, counts: Counts, seat: Seat, play: Play) -> EightsState:
    """``state`` after ``seat`` plays ``play`` and ``normal`` plays the rest of the round at
    every seat. ``counts``: ``seat``'s :class:`Counts` before ``play``; each seat's counts are
    kept from it as the cards fall (what :func:`count_cards` would read from the history)."""
    number = state.round
    played = set(_DECK - counts.unseen - set(counts.hand))
    void = counts.void
    action: EightsAction = play
    while True:
        if isinstance(action, Play):
            card = action.card.index
            if state.phase is Phase.TRICKS and state.trick:
                led = state.trick[0].card // NUMBERS
                if card // NUMBERS != led and led not in void[seat]:
                    void = (*void[:seat], void[seat] | {led}, *void[seat + 1:])
            played.add(card)
        state = _ENGINE.apply(state, action)
        if state.phase not in (Phase.TRICKS, Phase.LAYOUT) or state.round != number:
            return state
        to_act = _ENGINE.to_act(state)
        if to_act is None or to_act < 0:
            return state
        seat = to_act
        legal = _ENGINE.legal_actions(state, seat)
        plays = [a for a in legal if isinstance(a, Play)]
        if len(legal) == 1 or not plays:
            action = legal[0]
        else:
            action = best_play(state, seat, counts_from(state, seat, played, void), plays)


_DECK = frozenset(range(DECK_SIZE))


def candidates(view: EightsState, seat: Seat, counts: Counts, plays: list[Play]) -> list[Play]:
    """``normal``'s order of ``plays``, one per class of equivalent cards, at most
    :data:`MAX_CANDIDATES`."""
    ordered = rank_plays(view, seat, counts, plays)
    if view.phase is Phase.LAYOUT:
        return ordered[:MAX_CANDIDATES]
    objective = view.rules.objectives.rounds[view.round - 1]
    values = objective.card_points or (0,) * DECK_SIZE
    kept: list[Play] = []
    for play in ordered:
        card = play.card.index
        twin = False
        for other in kept:
            o = other.card.index
            if (other.take is None and play.take is None and o // NUMBERS == card // NUMBERS
                    and values[o] == values[card]
                    and not any(min(o, card) < u < max(o, card) for u in counts.unseen)):
                twin = True
                break
        if not twin:
            kept.append(play)
    return kept[:MAX_CANDIDATES]


@dataclass(frozen=True, slots=True)
class SearchNote:
    """What a search found when it left ``normal``'s choice (the hint's reason).

    Attributes:
        deals: the imagined deals of the hidden cards each candidate was played in.
        gain: the mean, over those deals, of the score (:func:`standing`, points; with
            partners the round points minus the others' mean) that ``normal``'s choice scored
            more than the card played (> 0: better).
        instead: ``normal``'s choice, which the search left.
    """

    deals: int
    gain: float
    instead: Play


def _pick(results: list[list[float]], significance: float = 0.0) -> int:
    """The index of the candidate to play: the lowest mean (ties: the earliest), but only
    when it beats ``normal``'s own choice (index 0) by ``significance`` standard errors of the
    paired differences (the same imagined deals for every candidate); else 0.

    The shipped bot passes :data:`SIGNIFICANCE`, 0: after the halving, a guard only costs
    (``docs/bots.md``); a flat search over 4 to 6 deals needed 2 standard errors."""
    n = len(results[0])
    best = min(range(len(results)), key=lambda i: (sum(results[i]), i))
    if best == 0:
        return 0
    diffs = [b - a for a, b in zip(results[0], results[best], strict=True)]
    mean = sum(diffs) / n
    spread = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
    if mean < 0 and (spread == 0 or -mean > significance * spread / n ** 0.5):
        return best
    return 0


class SearchBot:
    """8s Rule! ``hard``: decides from its view only, drawing only from ``rng``.

    Args:
        rng: its own random source (the deals it imagines).
        budget: simulated plays per decision (None: :data:`BUDGET_PLAYS`).
        significance: the guard of :func:`_pick`, in standard errors (None:
            :data:`SIGNIFICANCE`).
        tries: uniform deals per imagined deal for the inference of
            :mod:`lancards.engine.eights.inference` (None: :data:`INFERENCE_TRIES`; 0: none).

    The defaults are read when the bot is made, so a tuning run can change the module's
    constants (``python -m tests.bot_paired --set``).
    """

    def __init__(self, rng: Rng, budget: int | None = None,
                 significance: float | None = None, tries: int | None = None) -> None:
        self.rng = rng
        self.budget = BUDGET_PLAYS if budget is None else budget
        self.significance = SIGNIFICANCE if significance is None else significance
        self.tries = INFERENCE_TRIES if tries is None else tries

    def choose(self, view: EightsState, seat: Seat, legal: Sequence[EightsAction]) -> EightsAction:
        """One of ``legal`` (never empty) for ``seat`` in ``view``."""
        return self.decide(view, seat, legal)[0]

    def decide(self, view: EightsState, seat: Seat, legal: Sequence[EightsAction]
               ) -> tuple[EightsAction, SearchNote | None]:
        """:meth:`choose`'s action and, when the search left ``normal``'s choice, a
        :class:`SearchNote` saying by how much (else None)."""
        plays = [a for a in legal if isinstance(a, Play)]
        if len(legal) == 1 or len(plays) < 2:
            return legal[0], None
        counts = count_cards(view, seat)
        options = candidates(view, seat, counts, plays)
        if len(options) == 1:
            return options[0], None
        left = max(1, sum(len(view.hands[s]) for s in view.present()))
        results: list[list[float]] = [[] for _ in options]
        number = view.round
        totals, present = view.totals(), view.present()
        score = _mean_gap if view.rules.partners else standing
        alive = list(range(len(options)))
        evidence = past_choices(view, seat) if self.tries > 0 else ()

        def deal() -> EightsState:
            return sample_hands(view, seat, counts, self.rng)

        stages = (len(options) - 1).bit_length()  # ceil(log2(candidates)), halving each stage
        for stage in range(stages):
            deals = self.budget // (left * stages * len(alive))
            deals = max(MIN_STAGE_DEALS, min(MAX_SAMPLES // stages, deals))
            for _ in range(deals):
                world = sample_likely(evidence, self.tries, self.rng, deal)
                for i in alive:
                    end = _play_out(world, counts, seat, options[i])
                    results[i].append(score(_round_points(end, number), totals, seat, present))
            if stage < stages - 1:
                rivals = sorted(alive[1:], key=lambda i: (sum(results[i]), i))
                alive = [0, *sorted(rivals[:max(1, (len(alive) + 1) // 2 - 1)])]
        pick = _pick([results[i] for i in alive], self.significance)
        if pick == 0:
            return options[0], None
        chosen = results[alive[pick]]
        samples = len(chosen)
        gain = (sum(results[0]) - sum(chosen)) / samples
        return options[alive[pick]], SearchNote(samples, gain, options[0])

    def parse_action(self, text: str) -> EightsAction:
        """Parse action notation. Raises ``InvalidActionError``."""
        return parse_action(text)

    def format_action(self, action: EightsAction) -> str:
        """Format an action as notation."""
        return format_action(action)
