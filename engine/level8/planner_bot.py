"""The ``normal`` and ``easy`` Level 8 bots (both editions; ``docs/bots.md``).

``normal`` plans the whole level with :func:`lancards.engine.level8.plan.distance` (how many
cards the hand still lacks to lay the level down, joker ranges respected):

- draw: takes a discard-pile top when keeping it (and discarding another card) lowers the
  distance, or, once down, when it fits a combination on the table; else the draw pile;
- lays down as soon as it can (the lay-down that leaves most cards able to be added), then
  adds every card that fits (number cards before jokers);
- ends the turn with the card whose loss raises the distance least; ties: the one that feeds
  the other seats least (:func:`feeding`: a card that fits a meld of a seat that is down, or
  one like the cards a seat picked up from the discard piles, which its view shows), then the
  one that leaves most unseen cards able to fill the plan, then the least useful by the
  reference bot's count; once down, a card that fits nowhere (jokers last, then the one that
  feeds least); special cards are played where they help:
  "I'll take that!" takes the shown card that lowers the distance most (once down: one that
  fits a meld), "I'll swap that!" swaps away cards the plan does not use, "Skip!" goes to the
  seat closest to going out (down, then fewer cards, then the higher level, then the one that
  plays first after this seat), "I'll keep that!" is played while this seat lacks two cards or
  more, or once somebody else is down (the round may end before this seat lays down); else it
  is held. A keep so played is void when the seat then lays down in the same round (ruling
  L8-13: 35 % of ``normal``'s keeps in 100 Master games), which costs nothing (held, it would
  be a dead card once down), while a keep held is lost when the round ends first: holding it
  one card short, or two, won fewer paired games (``docs/benchmarks.md``, "Level 8 ``normal``:
  one decision changed at a time"). Once down it is discarded as an ordinary card (L8-15);
- shows the cards it needs least; keeps, at a round end, the cards that bring the next
  round's distance down most.

``easy`` plays the same legal, sensible moves but, with its own seeded randomness (never the
deck's), discards a random card of the hand (not a joker) and ignores the discard piles, each
with the chance ``careless`` (``EASY_CARELESS``). Both see only the seat's view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lancards.engine.core import Rng, Seat
from lancards.engine.level8.actions import (
    Action,
    Add,
    Choose,
    Discard,
    Draw,
    DrawDiscard,
    Keep,
    KeepEnd,
    LayDown,
    PlaySpecial,
    Show,
    SwapEnd,
    SwapPut,
)
from lancards.engine.level8.bot import HandStats, card_value
from lancards.engine.level8.cards import COLOUR_INDEX, Card, Kind, deck_counts
from lancards.engine.level8.levels import ComponentKind
from lancards.engine.level8.melds import Meld, add_options, make_meld
from lancards.engine.level8.plan import Hole, distance, plan
from lancards.engine.level8.state import Level8State, Phase
from lancards.engine.level8.steps import keep_allowance


def _without(hand: list[Card], card: Card) -> list[Card]:
    out = list(hand)
    out.remove(card)
    return out


def unseen(view: Level8State) -> Counter[Card]:
    """The faces this seat has not seen: the deck minus every identity its view knows (its hand
    and the public cards)."""
    counts = Counter(deck_counts(view.rules.edition))
    counts.subtract(view.cards.values())
    return +counts


class Pool:
    """Unseen cards counted for :func:`outs`: per (colour index, number) and per colour for
    the number cards, per face for the jokers."""

    def __init__(self, hidden: Counter[Card]) -> None:
        self.grid = [[0] * 16 for _ in range(6)]
        self.colour = [0] * 6
        self.jokers: list[tuple[int, int, int]] = []
        for card, count in hidden.items():
            if card.is_joker:
                self.jokers.append((card.lo, card.hi, count))
            elif card.is_number:
                assert card.colour is not None
                c = COLOUR_INDEX[card.colour]
                self.grid[c][card.number] += count
                self.colour[c] += count

    def outs(self, holes: Sequence[tuple[Hole, int]]) -> int:
        """:func:`outs` of ``holes`` over this pool."""
        colours: set[int] = set()
        numbers: set[int] = set()
        exact: set[tuple[int, int]] = set()
        any_number = False
        for (c, n), _ in holes:
            if n == 0:
                any_number = True
                if c >= 0:
                    colours.add(c)
            elif c < 0:
                numbers.add(n)
            else:
                exact.add((c, n))
        grid = self.grid
        total = sum(self.colour[c] for c in colours)
        free = [c for c in range(6) if c not in colours]
        for n in numbers:
            total += sum(grid[c][n] for c in free)
        for c, n in exact:
            if c not in colours and n not in numbers:
                total += grid[c][n]
        for lo, hi, count in self.jokers:
            if any_number or any(lo <= n <= hi for (_, n), _ in holes):
                total += count
        return total


def outs(holes: Sequence[tuple[Hole, int]], hidden: Counter[Card]) -> int:
    """How many unseen cards would fill one of ``holes`` (a plan's missing cards): a number
    card of a hole's colour (a colour group's hole, number 0), of its number (any colour, -1)
    or exactly of it; a joker whose range covers a hole's number, or any joker for a hole of
    number 0. Each card counts once."""
    return Pool(hidden).outs(holes)


def feeding(view: Level8State, seat: Seat, card: Card) -> int:
    """How much discarding ``card`` may help the other seats, from what the view shows: a seat
    that is down adds a card that fits a meld (3, or 6 when it holds two cards or fewer); a seat
    not down wants a card like the ones it picked up from the discard piles (1)."""
    if not (card.is_number or card.is_joker):
        return 0
    fits: bool | None = None
    total = 0
    for other in view.present():
        if other == seat:
            continue
        if view.down[other]:
            if fits is None:
                fits = _fits(view.melds, card)
            if fits:
                total += 6 if len(view.hands[other]) <= 2 else 3
            continue
        shown = [view.cards[s] for s in view.hands[other] if s in view.cards]
        if not shown:
            continue
        if card.is_joker:
            total += 1
            continue
        for comp in view.level(other):
            kind = comp.kind
            if kind is ComponentKind.SET:
                hit = any(c.is_number and c.number == card.number for c in shown)
            elif kind is ComponentKind.COLOUR_GROUP:
                hit = any(c.colour is card.colour for c in shown)
            else:
                hit = any(c.is_number and abs(c.number - card.number) <= 2
                          and (kind is ComponentKind.RUN or c.colour is card.colour)
                          for c in shown)
            if hit:
                total += 1
                break
    return total


def melds_after(view: Level8State, seat: Seat, action: LayDown) -> list[Meld]:
    """The melds on the table once ``seat`` lays down ``action`` (its level's components, in
    order, ruling L8-5): the view's melds and one new meld per component."""
    melds = list(view.melds)
    for index, (component, group) in enumerate(zip(view.level(seat), action.groups,
                                                   strict=True)):
        meld = make_meld(1000 + index, seat, component.kind, component.size, group)
        if isinstance(meld, Meld):
            melds.append(meld)
    return melds


def _fits(melds: Sequence[Meld], card: Card) -> bool:
    return (card.is_number or card.is_joker) and any(add_options(m, -1, card) for m in melds)


class PlannerBot:
    """The ``normal`` Level 8 bot (module docstring); ``careless`` > 0 makes it ``easy``.

    Args:
        rng: the bot's own seeded randomness (used only by ``easy``).
        careless: the share of discards ``easy`` picks at random (0 for ``normal``).
    """

    def __init__(self, rng: Rng, careless: float = 0.0) -> None:
        self.rng = rng
        self.careless = careless

    def choose(self, view: Level8State, seat: Seat, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty), from ``view`` (the seat's view) only."""
        if len(legal) == 1:
            return legal[0]
        hand = [c for _, c in view.hand_cards(seat) if c is not None]
        phase = view.phase
        if phase is Phase.DRAW:
            return self._draw(view, seat, legal, hand)
        if phase is Phase.PLAY:
            return self._play(view, seat, legal, hand)
        if phase is Phase.SHOW:
            return self._show(view, seat, legal, hand)
        if phase is Phase.CHOOSE:
            return self._choose(view, seat, legal, hand)
        if phase is Phase.SWAP:
            return self._swap(view, seat, legal, hand)
        if phase is Phase.KEEP:
            return self._keep(view, seat, legal, hand)
        return legal[0]

    # -- helpers -------------------------------------------------------------------------------

    def _dist(self, view: Level8State, seat: Seat, hand: Sequence[Card]) -> int:
        return distance(hand, view.level(seat))

    def _need(self, view: Level8State, seat: Seat,
              hand: list[Card]) -> dict[Card, tuple[int, int, int]]:
        """Per distinct card of ``hand``: (distance without it, minus the unseen cards that would
        fill the plan then, the reference value): lower means the hand misses it less."""
        stats = HandStats(hand)
        level = view.level(seat)
        hidden = Pool(unseen(view))
        out: dict[Card, tuple[int, int, int]] = {}
        for card in set(hand):
            rest = hand if card.is_special else _without(hand, card)
            dist, holes = plan(rest, level)
            value = 4 if card.is_special else card_value(view, seat, card, stats)
            out[card] = (dist, -hidden.outs(holes), value)
        return out

    # -- phases --------------------------------------------------------------------------------

    def _draw(self, view: Level8State, seat: Seat, legal: Sequence[Action],
              hand: list[Card]) -> Action:
        draw = next(a for a in legal if isinstance(a, Draw))
        if self.careless and self.rng.random() < self.careless:
            return draw
        tops = [(a, view.cards[view.discards[a.owner][-1]]) for a in legal
                if isinstance(a, DrawDiscard) and a.owner != seat]
        tops = [(a, c) for a, c in tops if c.is_number or c.is_joker]
        if view.down[seat]:
            fitting = [(a, c) for a, c in tops if _fits(view.melds, c)]
            fitting.sort(key=lambda x: x[1].is_joker)
            return fitting[0][0] if fitting else draw
        level = view.level(seat)
        now = distance(hand, level)
        best: tuple[int, Action] = (now, draw)
        for action, card in tops:
            more = [*hand, card]
            if distance(more, level) >= now:
                continue  # adding a card never raises the distance: no discard can win
            after = min(distance(_without(more, c), level) for c in set(hand))
            if after < best[0]:
                best = (after, action)
        return best[1]

    def _play(self, view: Level8State, seat: Seat, legal: Sequence[Action],
              hand: list[Card]) -> Action:
        laydowns = [a for a in legal if isinstance(a, LayDown)]
        if laydowns:
            return max(laydowns, key=lambda a: self._laydown_score(view, seat, a))
        adds = [a for a in legal if isinstance(a, Add)]
        if adds:
            return min(adds, key=lambda a: a.card.card.is_joker)
        if view.down[seat]:
            return self._end_down(view, seat, legal, hand)
        return self._end_up(view, seat, legal, hand)

    def _laydown_score(self, view: Level8State, seat: Seat, action: LayDown) -> tuple[int, int]:
        melds = melds_after(view, seat, action)
        used = {p.slot for g in action.groups for p in g}
        rest = [c for s, c in view.hand_cards(seat) if s not in used and c is not None]
        jokers_used = sum(1 for g in action.groups for p in g if p.card.is_joker)
        return sum(1 for c in rest if _fits(melds, c)), -jokers_used

    def _end_down(self, view: Level8State, seat: Seat, legal: Sequence[Action],
                  hand: list[Card]) -> Action:
        specials = [a for a in legal if isinstance(a, PlaySpecial)]
        dead = [c for c in hand if not _fits(view.melds, c) and not c.is_special]
        if len(hand) > 1:
            for a in specials:
                kind = a.card.card.kind
                if kind is Kind.TAKE or (kind is Kind.SWAP and dead):
                    return a
            skips = [a for a in specials if a.card.card.kind is Kind.SKIP]
            if skips:
                return max(skips, key=lambda a: self._threat(view, seat, a.target or 0))
        return self.ranked_down_discards(view, seat, legal)[0]

    def ranked_down_discards(self, view: Level8State, seat: Seat,
                             legal: Sequence[Action]) -> list[Discard]:
        """The discards of ``legal`` of a seat that is down, in the order ``normal`` ranks
        them (its choice first, when it discards): a card that fits no meld, then not a joker,
        then feeding the others least, then the highest number."""
        discards = [a for a in legal if isinstance(a, Discard)]

        def key(a: Discard) -> tuple[int, int, int, int]:
            c = a.card.card
            fits = _fits(view.melds, c)
            return (fits, c.is_joker, feeding(view, seat, c), -c.number)

        return sorted(discards, key=key)

    def _threat(self, view: Level8State, seat: Seat, target: Seat) -> tuple[int, int, int, int]:
        """How near ``target`` is to going out: down, then fewer cards, then a higher level;
        on a tie the seat that plays first after ``seat`` (the Skip hint says so)."""
        return (view.down[target], -len(view.hands[target]), view.levels[target],
                -((target - seat) % view.n))

    def _end_up(self, view: Level8State, seat: Seat, legal: Sequence[Action],
                hand: list[Card]) -> Action:
        need = self._need(view, seat, hand)
        now = self._dist(view, seat, hand)
        others_down = any(view.down[s] for s in view.present() if s != seat)

        discards = [a for a in legal if isinstance(a, Discard)]
        specials = [a for a in legal if isinstance(a, PlaySpecial)]
        if self.careless and self.rng.random() < self.careless:
            plain = [a for a in discards if not a.card.card.is_joker] or discards
            return plain[self.rng.randrange(len(plain))]
        if len(hand) > 1:
            for a in specials:
                kind = a.card.card.kind
                if kind in (Kind.TAKE, Kind.SWAP):
                    return a
                if kind is Kind.KEEP and (now >= 2 or others_down):
                    return a
            skips = [a for a in specials if a.card.card.kind is Kind.SKIP]
            if skips:
                return max(skips, key=lambda a: self._threat(view, seat, a.target or 0))
        return self._rank_up(view, seat, discards, need, others_down)[0]

    def ranked_discards(self, view: Level8State, seat: Seat,
                        legal: Sequence[Action]) -> list[Discard]:
        """The discards of ``legal`` of a seat that is not down, in the order ``normal`` ranks
        them (its choice first, when it discards): least missed by the plan, then feeding the
        others least, then leaving most outs, then least useful by the reference count; an
        "I'll keep that!" is held while nobody else is down."""
        hand = [c for _, c in view.hand_cards(seat) if c is not None]
        others_down = any(view.down[s] for s in view.present() if s != seat)
        discards = [a for a in legal if isinstance(a, Discard)]
        return self._rank_up(view, seat, discards, self._need(view, seat, hand), others_down)

    def _rank_up(self, view: Level8State, seat: Seat, discards: list[Discard],
                 need: dict[Card, tuple[int, int, int]], others_down: bool) -> list[Discard]:
        def key(card: Card) -> tuple[int, int, int, int]:
            dist, out_count, value = need[card]
            return (dist, feeding(view, seat, card), out_count, value)

        keep_held = not others_down
        candidates = [a for a in discards
                      if not (keep_held and a.card.card.kind is Kind.KEEP)] or discards
        return sorted(candidates, key=lambda a: key(a.card.card))

    def _show(self, view: Level8State, seat: Seat, legal: Sequence[Action],
              hand: list[Card]) -> Action:
        shows = [a for a in legal if isinstance(a, Show)]
        if view.down[seat]:
            def worth(c: Card) -> tuple[int, int]:
                return (_fits(view.melds, c), c.is_joker)
        else:
            need = self._need(view, seat, hand)
            now = self._dist(view, seat, hand)

            def worth(c: Card) -> tuple[int, int]:
                dist, _outs, value = need[c]
                return (dist - now, value)

        return min(shows, key=lambda a: sorted((worth(p.card) for p in a.cards), reverse=True))

    def _choose(self, view: Level8State, seat: Seat, legal: Sequence[Action],
                hand: list[Card]) -> Action:
        none = next(a for a in legal if isinstance(a, Choose) and a.slot is None)
        picks = [(a, view.cards[a.slot]) for a in legal
                 if isinstance(a, Choose) and a.slot is not None and a.slot in view.cards]
        picks = [(a, c) for a, c in picks if c.is_number or c.is_joker]
        if view.down[seat]:
            fitting = [a for a, c in picks if _fits(view.melds, c)]
            return fitting[0] if fitting else none
        level = view.level(seat)
        now = distance(hand, level)
        best: tuple[int, Action] = (now, none)
        for action, card in picks:
            d = distance([*hand, card], level)
            if d < best[0]:
                best = (d, action)
        return best[1]

    def _swap(self, view: Level8State, seat: Seat, legal: Sequence[Action],
              hand: list[Card]) -> Action:
        end = next(a for a in legal if isinstance(a, SwapEnd))
        puts = [a for a in legal if isinstance(a, SwapPut)]
        if not puts or len(hand) <= 1:
            return end
        if view.down[seat]:
            dead = [a for a in puts if not _fits(view.melds, a.card.card)]
            return dead[0] if dead else end
        need = self._need(view, seat, hand)
        now = self._dist(view, seat, hand)
        spare = [a for a in puts if need[a.card.card][0] <= now and not a.card.card.is_joker]
        if not spare:
            return end
        return min(spare, key=lambda a: need[a.card.card][1:])

    def _keep(self, view: Level8State, seat: Seat, legal: Sequence[Action],
              hand: list[Card]) -> Action:
        end = next(a for a in legal if isinstance(a, KeepEnd))
        keeps = [a for a in legal if isinstance(a, Keep)]
        if not keeps:
            return end
        level = view.level(seat)
        # the best cards to carry over: shed the card the plan misses least until the set fits
        # the allowance (the engine stops offering keeps when it is used up)
        limit = keep_allowance(view, seat)
        best = [c for c in hand if c.is_number or c.is_joker]
        while len(best) > limit:
            stats = HandStats(best)
            best.remove(min(set(best), key=lambda c: (
                distance(_without(best, c), level), c.is_joker,
                card_value(view, seat, c, stats), -c.number)))
        full = distance(best, level)
        useful = [c for c in best if distance(_without(best, c), level) > full]
        kept = [view.cards[s] for s in view.kept[seat] if s in view.cards]
        for card in kept:
            if card in useful:
                useful.remove(card)
        for action in keeps:
            if view.cards[action.slot] in useful:
                return action
        return end

