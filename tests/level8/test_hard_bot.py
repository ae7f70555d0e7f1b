"""The Level 8 ``hard`` bot (issue 26, docs/bots.md): determinization with ``normal``
roll-outs. It imagines only deals its view allows, decides alike from alike views for a seed,
leaves ``normal`` for a clear gain, and plays whole games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from lancards.cli.driver import play_local
from lancards.engine.level8 import search_bot
from lancards.engine.level8.actions import Discard, Draw, DrawDiscard, LayDown, PlaySpecial
from lancards.engine.level8.cards import card, deck_counts
from lancards.engine.level8.levels import ComponentKind as K
from lancards.engine.level8.plan import distance
from lancards.engine.level8.planner_bot import PlannerBot
from lancards.engine.level8.search_bot import SearchBot, evaluate, hidden_slots, sample_world
from lancards.engine.level8.state import Phase
from lancards.engine.rulesets import bot_levels, make_bot, rule_set
from tests.level8.scenario import G, build

pytestmark = pytest.mark.timeout(60)

_MELDS = [(1, K.SET, ["R3", "O3", "Y3"]), (1, K.RUN, ["B4", "G5", "P6", "R7"])]
_QUADS = [(1, K.SET, ["R13", "O13", "Y13", "G13"]), (1, K.SET, ["R3", "O3", "Y3", "G3"])]


def _race() -> object:
    """Three seats. Seat 0 (level 6, a colour group of seven) holds five purples and is to
    draw: P9 on seat 1's pile and P13 on seat 2's each bring it one card closer. Seat 1 (level
    7) is down with the 13s and the 3s, holding one card that fits neither, P12; every other
    card that fits them is in sight (B3, B13 in seat 0's hand, P3 and every J1-5 and J11-15 in
    seat 0's pile) but P13. If P13 stays, seat 1 takes it, adds it and goes out with P12 (two
    levels from level 7: it wins the game, rulings L8-10, L8-11); if seat 0 takes it, seat 1
    cannot go out next turn."""
    hands = [["P1", "P2", "P4", "P5", "P6", "B3", "B13", "O7", "Y9", "G10"], ["P12"],
             ["R9", "O9", "Y10", "G11", "B12", "R12", "R14", "O14", "Y15", "G2"]]
    return build("level8-master", hands, levels=(6, 7, 3), down=(False, True, False), turn=0,
                 phase=Phase.DRAW, melds=_QUADS,
                 discards=[["P3", "J1-5", "J1-5", "J1-5", "J11-15", "J11-15", "J11-15", "R8"],
                           ["P9"], ["G14", "P13"]])


def test_hard_is_offered_for_every_level8_rule_set():
    for name in ("level8-master", "level8", "level8-en"):
        game = rule_set(name).game
        assert bot_levels(game) == ("easy", "normal", "hard", "greedy")
        assert isinstance(make_bot(game, "hard", random.Random(1)), SearchBot)


def test_imagined_worlds_keep_everything_the_view_shows():
    """Every sampled world keeps the view's known cards in place, fills each hidden slot, and
    is the whole deck: a face the view sees all copies of (Master has one of each number card:
    P9, P13, P12 is seat 1's secret) never turns up in a hidden slot; hand sizes are unchanged;
    seat 1, down, is never dealt a card that fits a meld (none is left unseen)."""
    state = _race()
    view = G.view(state, 0)
    hidden = hidden_slots(view)
    assert set(hidden) == set(state.hands[1]) | set(state.hands[2]) | set(state.pile)
    visible = {c for c in view.cards.values() if c.is_number}
    rng = random.Random(5)
    deals = set()
    for _ in range(40):
        world = sample_world(view, rng)
        assert {s: world.cards[s] for s in view.cards} == dict(view.cards)
        assert set(world.cards) == set(world.known)
        assert Counter(world.cards.values()) == Counter(deck_counts(state.rules.edition))
        assert not visible & {world.cards[s] for s in hidden}
        assert [len(h) for h in world.hands] == [10, 1, 10]
        assert G.invariant_violations(world) == []
        deals.add(world.cards[state.hands[1][0]])
        assert world.cards[state.hands[1][0]].number not in (3, 13)
    assert len(deals) > 10  # seat 1's one card is anybody's guess


def test_hard_takes_the_card_that_would_let_the_next_seat_go_out():
    """normal takes the first discard-pile top that brings it closer (P9, seat 1's pile) and
    leaves P13, with which seat 1 goes out and wins. hard imagines the next turns and takes
    P13 instead (as close to its colour group, and seat 1 stays in)."""
    state = _race()
    view = G.view(state, 0)
    legal = G.legal_actions(state, 0)
    assert PlannerBot(random.Random(0)).choose(view, 0, legal) == DrawDiscard(0, 1)
    for seed in range(3):
        assert SearchBot(random.Random(seed)).choose(view, 0, legal) == DrawDiscard(0, 2)


def test_the_draw_candidates_are_the_helpful_tops_the_pile_and_the_tops_to_deny():
    """Seat 0 collects oranges now: O9 (seat 1's pile) brings it closer, P13 (seat 2's) does
    not but fits seat 1's 13s: it is searched too, after the draw pile, as a card to keep
    from seat 1."""
    hands = [["O1", "O2", "O4", "O5", "O6", "B3", "B13", "R7", "Y9", "G10"], ["P12"],
             ["R9", "Y10", "G11", "B12", "R12", "R14", "O14", "Y15", "G2", "P1"]]
    state = build("level8-master", hands, levels=(6, 7, 3), down=(False, True, False), turn=0,
                  phase=Phase.DRAW, melds=_QUADS, discards=[["R8"], ["O9"], ["G14", "P13"]])
    bot = SearchBot(random.Random(0))
    options = bot.candidates(G.view(state, 0), 0, G.legal_actions(state, 0))
    assert options == [DrawDiscard(0, 1), Draw(0), DrawDiscard(0, 2)]


def test_evaluate_credits_levels_gained_and_distance():
    """A round that ended counts levels gained: seat 1 went out (+2), seat 0 laid down (+1),
    seat 2 nothing: 1 - (2 + 0) / 2 = 0.5 for seat 0. In play: seat 1 is down with one card
    (1 + 1/2), seat 0 lacks two purples, the pile (none of its 84 cards purple but... ) gives
    it outs; seat 2 is scored by its distance alike."""
    state = _race()
    ended = state.evolve(phase=Phase.KEEP, levels=(7, 9, 3))
    assert evaluate(ended, 0, (6, 7, 3), 1) == 1.0 - (2 + 0) / 2
    assert evaluate(ended, 1, (6, 7, 3), 1) == 2.0 - (1 + 0) / 2


def test_evaluate_weighs_the_seats_ahead_under_rival_rate(monkeypatch):
    """``RIVAL_RATE`` (an experiment, off in the shipped ``hard``; docs/benchmarks.md, "Level 8
    ``hard``: the standing, the distance's weight"): seat 0 began on level 6, seat 1 on 7 (one
    ahead: weight 2), seat 2 on 3 (three behind: weight 1/8); the same ended round as above
    gives 1 - (2 * 2 + 0 / 8) / (2 + 1/8) for seat 0, where the plain mean gives 1 - 2 / 2."""
    ended = _race().evolve(phase=Phase.KEEP, levels=(7, 9, 3))
    monkeypatch.setattr(search_bot, "RIVAL_RATE", 1.0)
    assert evaluate(ended, 0, (6, 7, 3), 1) == pytest.approx(1.0 - 4.0 / 2.125)
    monkeypatch.setattr(search_bot, "RIVAL_RATE", 0.0)
    assert evaluate(ended, 0, (6, 7, 3), 1) == 0.0


def test_same_view_same_decision_for_a_seed():
    """Two states that differ only in what seat 0 cannot see (seat 2's R9 and the pile's top
    change places) give hard the same decision for the same seed."""
    a = _race()
    cards = dict(a.cards)
    hidden, top = a.hands[2][0], a.pile[0]
    cards[hidden], cards[top] = cards[top], cards[hidden]
    b = a.evolve(cards=cards)
    assert a.cards != b.cards and G.view(a, 0) == G.view(b, 0)
    for seed in range(3):
        first = SearchBot(random.Random(seed)).choose(G.view(a, 0), 0, G.legal_actions(a, 0))
        second = SearchBot(random.Random(seed)).choose(G.view(b, 0), 0, G.legal_actions(b, 0))
        assert first == second


def test_hard_leaves_other_decisions_to_normal():
    """A draw with no top worth having is not searched, nor the draw of a seat that is down
    (``normal`` takes a top that fits, else the draw pile)."""
    state = _race()
    bot = SearchBot(random.Random(0))
    assert bot.candidates(G.view(state, 0), 0, [Draw(0)]) == [Draw(0)]
    down = build("level8-master", [["B1", "B2"], ["J11-15", "O12"]], levels=(1, 2),
                 down=(False, True), turn=1, phase=Phase.DRAW, melds=_MELDS,
                 discards=[["Y9"], ["G1"]])
    legal = G.legal_actions(down, 1)
    assert bot.candidates(G.view(down, 1), 1, legal) == [Draw(1)]


def test_a_seat_that_is_down_weighs_its_discards_to_the_round_end(monkeypatch):
    """Seat 1 is down (the 3s, the run B4-R7) holding J11-15 and O12, neither fitting: normal
    discards O12 (jokers last); with :data:`DOWN_SEARCH` 1 hard also weighs the joker, each
    played to the round's end; with 2 only discards alike by normal's first keys (no joker for
    a plain card); with 0 (shipped: it measured no better) the seat is ``normal``'s alone."""
    monkeypatch.setattr(search_bot, "DOWN_SEARCH", 1)
    down = build("level8-master", [["B1", "B2", "B5"], ["J11-15", "O12"]], levels=(1, 2),
                 down=(False, True), turn=1, melds=_MELDS)
    legal = G.legal_actions(down, 1)
    view = G.view(down, 1)
    bot = SearchBot(random.Random(0))
    assert [a.card.card for a in bot.candidates(view, 1, legal)] == [card("O12"), card("J11-15")]
    assert bot.candidates(view, 1, legal)[0] == PlannerBot(random.Random(0)).choose(
        view, 1, legal)
    monkeypatch.setattr(search_bot, "DOWN_SEARCH", 2)
    assert [a.card.card for a in bot.candidates(view, 1, legal)] == [card("O12")]
    monkeypatch.setattr(search_bot, "DOWN_SEARCH", 0)
    assert bot.candidates(view, 1, legal) == [PlannerBot(random.Random(0)).choose(view, 1,
                                                                                   legal)]


def test_a_special_card_and_a_lay_down_are_weighed_against_holding_them(monkeypatch):
    """Seat 0, not down on level 1 of Master, holds "I'll take that!": ``normal`` plays it at
    once; with :data:`PLAY_SEARCH` 1 ``hard`` also weighs holding it and discarding
    ``normal``'s best other card instead, to the round's end (0, shipped: ``normal``'s alone).
    A seat that can lay its level down is weighed against holding it back only with 2."""
    take = build("level8-master", [["TAKE", "B1", "B2", "G9"], ["O12", "O13"]], levels=(1, 2),
                 down=(False, False), turn=0, melds=[])
    legal = G.legal_actions(take, 0)
    view = G.view(take, 0)
    bot = SearchBot(random.Random(0))
    first = PlannerBot(random.Random(0)).choose(view, 0, legal)
    assert isinstance(first, PlaySpecial) and first.card.card == card("TAKE")
    assert bot.candidates(view, 0, legal) == [first]
    monkeypatch.setattr(search_bot, "PLAY_SEARCH", 1)
    options = bot.candidates(view, 0, legal)
    assert options[0] == first and len(options) == 2
    assert isinstance(options[1], Discard) and options[1].card.card == card("B1")
    hands = [["R3", "O3", "Y3", "B3", "G3", "P3", "R9", "O9", "Y9", "B9", "G9", "P9", "G14"],
             ["O12", "O13"]]
    ready = build("level8-master", hands, levels=(1, 2), down=(False, False), turn=0, melds=[])
    legal = G.legal_actions(ready, 0)
    view = G.view(ready, 0)
    first = PlannerBot(random.Random(0)).choose(view, 0, legal)
    assert isinstance(first, LayDown)
    assert bot.candidates(view, 0, legal) == [first]
    monkeypatch.setattr(search_bot, "PLAY_SEARCH", 2)
    options = bot.candidates(view, 0, legal)
    assert options[0] == first and len(options) == 2
    assert isinstance(options[1], Discard) and options[1].card.card == card("G14")


def test_a_roll_out_to_the_round_end_counts_the_levels_gained():
    """Seat 1, down on level 2 of Master with only O12 left, discards it and goes out: the
    round is over after that one move, two levels gained (ruling L8-10), no turn played after
    it (0 units spent); seat 0 gained none, so seat 1 scores 2 - 0."""
    down = build("level8-master", [["B1", "B2", "B5"], ["O12"]], levels=(1, 2),
                 down=(False, True), turn=1, melds=_MELDS)
    world = G.apply(down, Discard(1, next(p for p in G.legal_actions(down, 1)
                                           if isinstance(p, Discard)).card))
    end, spent = search_bot.play_round(world, PlannerBot(random.Random(0)), 32)
    assert end.levels == (1, 4) and spent == 0
    assert evaluate(end, 1, (1, 2), down.round) == 2.0


@pytest.mark.parametrize("game", ["level8-en"])
def test_a_seeded_two_seat_game_of_hard_ends_soundly(game):
    """A small budget (two seats make the roll-outs short) keeps this a quick test; the
    search still runs at most draws and discards."""
    spec = rule_set(game)
    bots = [SearchBot(random.Random("12-0"), budget=24), make_bot(spec.game, "normal",
                                                                 random.Random("12-1"))]
    played = play_local(spec.game, spec.make_rules({}), 2, 12, bots=bots, check_every=50)
    assert played.violations == []
    assert spec.game.outcome(played.final) is not None


@pytest.mark.long
def test_a_seeded_master_game_with_hard_seats_ends_soundly():
    spec = rule_set("level8-master")
    bots = [make_bot(spec.game, lv, random.Random(f"11-{s}"))
            for s, lv in enumerate(["hard", "normal", "hard"])]
    played = play_local(spec.game, spec.make_rules({}), 3, 11, bots=bots, check_every=50)
    assert played.violations == []
    assert spec.game.outcome(played.final) is not None


def test_grown_worlds_bring_a_seat_that_has_drawn_closer_to_laying_down(monkeypatch):
    """Seat 2 (level 3 of Master: a set of three and a colour group of four) has discarded six
    times this round; seat 1 is down. A uniform deal of its hidden hand leaves it as far from
    laying down as a fresh deal; grown worlds (:data:`GROW_STEPS`) give it the draws its
    discards say it made, each kept when it brought the plan closer, so it is imagined closer
    on the same seeds. The view's cards, the deck's faces, hand sizes and the down seat's
    hand stay as in uniform worlds."""
    hands = [["P1", "P2", "P4", "P5", "P6", "B3", "B13", "O7", "Y9", "G10"], ["P12"],
             ["R9", "O9", "Y10", "G11", "B12", "R12", "R14", "O14", "Y15", "G2"]]
    state = build("level8-master", hands, levels=(6, 7, 3), down=(False, True, False),
                  turn=0, phase=Phase.DRAW, melds=_QUADS,
                  discards=[["P3"], ["P9"], ["G14", "R8", "O8", "Y8", "G8", "B8"]])
    view = G.view(state, 0)
    level = state.level(2)

    def far(grow: int) -> list[int]:
        monkeypatch.setattr(search_bot, "GROW_STEPS", grow)
        monkeypatch.setattr(search_bot, "GROW_PER_TURN", 3)
        rng = random.Random(3)
        out = []
        for _ in range(30):
            world = sample_world(view, rng)
            assert {s: world.cards[s] for s in view.cards} == dict(view.cards)
            assert Counter(world.cards.values()) == Counter(deck_counts(state.rules.edition))
            assert [len(h) for h in world.hands] == [10, 1, 10]
            assert world.cards[state.hands[1][0]].number not in (3, 13)
            out.append(distance([world.cards[s] for s in world.hands[2]], level))
        return out

    uniform, grown = far(0), far(30)
    # 30 worlds each from seed 3: 1.77 cards from laying down on average, then 0.13 (18
    # imagined draws)
    assert (sum(uniform), max(uniform)) == (53, 3), uniform
    assert (sum(grown), max(grown)) == (4, 1), grown
