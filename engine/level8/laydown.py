"""Enumerating lay-downs of a level from a hand, canonically and completely (L8-5, L8-6).

``legal_actions`` offers the lay-downs this module finds; ``check`` accepts any valid lay-down,
including ones not offered. How the offered choices are made canonical:

1. Each component gets exactly its minimum number of cards. A bigger component equals laying
   the minimum and adding at once (ruling L8-5), and adding is offered right after.
2. Jokers of the same face are interchangeable: the lowest free slot of a face is used first.
   Which *faces* of jokers fill a colour group is a real choice in Master (a 1-5 joker kept in
   hand is not an 11-15 joker) and is enumerated.
3. A joker's declaration is forced by its place: the set's number, the group's colour, the run
   position it fills (a run position can be filled by at most one joker range in Master, and by
   any wild joker in Level 8).
4. A group made only of jokers is offered once per multiset of joker faces it uses, with the
   canonical declaration: the lowest number that multiset allows (sets, runs: four 1-5 jokers
   make the run 1-4; three 1-5 and one 6-10 joker make 3-6) and red (colour groups, colour
   runs). Which naturals and which joker faces a component uses is all that matters to the
   rest of the lay-down, so no lay-down is lost.
5. Identical adjacent components of one level (two runs of three, four pairs) take candidates
   in non-decreasing canonical order, so the same lay-down is never offered twice in another
   order; a candidate of jokers only may serve several identical components (``J=1 J=1`` twice).
6. Candidates that use fewer jokers come first; at most :data:`MAX_LAYDOWNS` lay-downs are
   offered. The search is exhaustive (with a memo of dead ends): if any valid lay-down exists,
   at least one is offered (``tests/level8/test_laydown_search.py`` compares it with a brute
   force over joker-heavy hands).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from lancards.engine.core import SlotId
from lancards.engine.level8.cards import COLOURS, Card
from lancards.engine.level8.levels import Component, ComponentKind, Level
from lancards.engine.level8.melds import Placed, natural

MAX_LAYDOWNS = 48
"""The most lay-downs ``legal_actions`` offers in one position."""

JokerNeed = tuple[tuple[Card, int], ...]


@dataclass(frozen=True, slots=True)
class _Candidate:
    naturals: frozenset[SlotId]
    jokers: JokerNeed
    template: tuple[Placed, ...]  # jokers have slot -1
    key: tuple[int, tuple[int, ...]]


def _need(faces: Sequence[Card]) -> JokerNeed:
    counts: dict[Card, int] = {}
    for f in faces:
        counts[f] = counts.get(f, 0) + 1
    return tuple(sorted(counts.items()))


def _multisets(faces: Sequence[tuple[Card, int]], size: int) -> Iterator[tuple[Card, ...]]:
    """Multisets of ``size`` joker faces within the available counts, canonical order."""
    if size == 0:
        yield ()
        return
    if not faces:
        return
    (face, count), rest = faces[0], faces[1:]
    for take in range(min(count, size), -1, -1):
        for tail in _multisets(rest, size - take):
            yield (face,) * take + tail


class _Builder:
    def __init__(self, hand: Sequence[tuple[SlotId, Card]]) -> None:
        self.naturals = sorted(((s, c) for s, c in hand if c.is_number), key=lambda x: x[1])
        jokers: dict[Card, list[SlotId]] = {}
        for s, c in hand:
            if c.is_joker:
                jokers.setdefault(c, []).append(s)
        self.joker_slots = {f: sorted(v) for f, v in sorted(jokers.items())}
        self.joker_faces = [(f, len(v)) for f, v in self.joker_slots.items()]
        self.n_jokers = sum(n for _, n in self.joker_faces)

    def _cand(self, nats: Sequence[tuple[SlotId, Card]], jokers: Sequence[Placed],
              placed: Sequence[Placed]) -> _Candidate:
        need = _need([p.card for p in jokers])
        key = (len(jokers), tuple(c.sort_key for _, c in nats))
        return _Candidate(frozenset(s for s, _ in nats), need, tuple(placed), key)

    def sets(self, size: int) -> list[_Candidate]:
        out: list[_Candidate] = []
        for v in range(1, 16):
            nats = [(s, c) for s, c in self.naturals if c.number == v]
            usable = [(f, n) for f, n in self.joker_faces if f.can_be(v)]
            n_usable = sum(n for _, n in usable)
            for m in range(min(size, len(nats)), max(0, size - n_usable) - 1, -1):
                for combo in combinations(nats, m):
                    for faces in _multisets(usable, size - m):
                        jokers = [Placed(-1, f, v) for f in faces]
                        placed = [Placed(s, c, v) for s, c in combo] + jokers
                        out.append(self._cand(combo, jokers, placed))
        return out

    def colour_groups(self, size: int) -> list[_Candidate]:
        out: list[_Candidate] = []
        for colour in COLOURS:
            nats = [(s, c) for s, c in self.naturals if c.colour is colour]
            for m in range(min(size, len(nats)), max(0, size - self.n_jokers) - 1, -1):
                for combo in combinations(nats, m):
                    for faces in _multisets(self.joker_faces, size - m):
                        jokers = [Placed(-1, f, 0, colour) for f in faces]
                        placed = [Placed(s, c, 0, colour) for s, c in combo] + jokers
                        out.append(self._cand(combo, jokers, placed))
        return out

    def runs(self, size: int, coloured: bool) -> list[_Candidate]:
        out: list[_Candidate] = []
        for colour in COLOURS if coloured else (None,):
            for start in range(1, 17 - size):
                options: list[list[Placed]] = []
                for number in range(start, start + size):
                    here = [
                        Placed(s, c, number, colour)
                        for s, c in self.naturals
                        if c.number == number and (colour is None or c.colour is colour)
                    ]
                    face = next((f for f, _ in self.joker_faces if f.can_be(number)), None)
                    if face is not None:
                        here.append(Placed(-1, face, number, colour))
                    if not here:
                        break
                    options.append(here)
                else:
                    self._fill(options, 0, [], 0, out)
        return out

    def _fill(self, options: list[list[Placed]], i: int, chosen: list[Placed], jokers: int,
              out: list[_Candidate]) -> None:
        """Every choice of one card per run position, with at most ``n_jokers`` jokers."""
        if i == len(options):
            nats = [(p.slot, p.card) for p in chosen if p.slot >= 0]
            out.append(self._cand(nats, [p for p in chosen if p.slot < 0], chosen))
            return
        for p in options[i]:
            extra = 1 if p.slot < 0 else 0
            if jokers + extra <= self.n_jokers:
                chosen.append(p)
                self._fill(options, i + 1, chosen, jokers + extra, out)
                chosen.pop()

    def candidates(self, component: Component) -> list[_Candidate]:
        kind, size = component.kind, component.size
        if kind is ComponentKind.SET:
            found = self.sets(size)
        elif kind is ComponentKind.COLOUR_GROUP:
            found = self.colour_groups(size)
        else:
            found = self.runs(size, coloured=kind is ComponentKind.COLOUR_RUN)
        jokers = dict(self.joker_faces)
        kept: list[_Candidate] = []
        all_joker: set[JokerNeed] = set()
        for c in found:
            if not all(jokers.get(f, 0) >= k for f, k in c.jokers):
                continue
            if not c.naturals:  # rule 4: one all-joker group per multiset of faces
                if c.jokers in all_joker:
                    continue
                all_joker.add(c.jokers)
            kept.append(c)
        kept.sort(key=lambda c: c.key)
        return kept


def enumerate_laydowns(
    hand: Sequence[tuple[SlotId, Card]], level: Level, limit: int = MAX_LAYDOWNS
) -> list[tuple[tuple[Placed, ...], ...]]:
    """Lay-downs of ``level`` from ``hand``, canonical (module docstring), at most ``limit``.

    Args:
        hand: the player's hand as (slot, card) pairs, every identity known.
        level: the level's components.
        limit: the most lay-downs to return.

    Returns:
        Each lay-down as one group per component, in level order; jokers carry declarations.
        At least one lay-down whenever any exists and ``limit`` >= 1 (rulings L8-5, L8-6).
        Empty if the level needs more cards than the hand can spare (one card must stay for
        the discard, L8-8).
    """
    if sum(c.size for c in level) > len(hand) - 1:
        return []
    builder = _Builder(hand)
    cands = [builder.candidates(c) for c in level]
    if any(not c for c in cands):
        return []
    results: list[tuple[tuple[Placed, ...], ...]] = []
    chosen: list[_Candidate] = []
    faces = [f for f, _ in builder.joker_faces]
    left = dict(builder.joker_faces)
    dead: set[tuple[int, frozenset[SlotId], tuple[int, ...], int]] = set()

    def assign() -> tuple[tuple[Placed, ...], ...]:
        free = {f: list(v) for f, v in builder.joker_slots.items()}
        groups = []
        for cand in chosen:
            group = []
            for p in cand.template:
                if p.slot < 0:
                    p = Placed(free[p.card].pop(0), p.card, p.number, p.colour)
                elif p.card.is_number:
                    p = natural(p.slot, p.card)
                group.append(p)
            groups.append(tuple(group))
        return tuple(groups)

    def search(i: int, used: frozenset[SlotId], floor: int) -> bool:
        """Extend the partial lay-down; True when at least one lay-down was found from here."""
        if i == len(level):
            results.append(assign())
            return True
        key = (i, used, tuple(left[f] for f in faces), floor)
        if key in dead:
            return False
        same_as_next = i + 1 < len(level) and level[i + 1] == level[i]
        found = False
        for index in range(floor, len(cands[i])):
            cand = cands[i][index]
            if cand.naturals & used or any(left[f] < k for f, k in cand.jokers):
                continue
            for f, k in cand.jokers:
                left[f] -= k
            chosen.append(cand)
            found = search(i + 1, used | cand.naturals, index if same_as_next else 0) or found
            chosen.pop()
            for f, k in cand.jokers:
                left[f] += k
            if len(results) >= limit:
                return True
        if not found:
            dead.add(key)
        return found

    search(0, frozenset(), 0)
    return results
