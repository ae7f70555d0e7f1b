"""What a seat that forked the record signed, in the player's words (the LAN trial: the banner
read ``eve signed two different entries for one place of the record``, and the two honest
screens then differed, one with eve's R6 played, the other with her R2, with no word why).

The evidence of a fork (the peer layer's *equivocation*: ``{"first": {...}, "second": {...}}``,
two validly signed entries of one author with one number) holds both entries, so both are
said: a move as the table's log says moves (:func:`~lancards.cli.refusal_words.move_words`,
``"play R6"``, German ``"R6 spielen"``), any other entry by what it does (``"shuffle the
deck"``): ``"eve signed two different moves for the same turn: play R6 and play R2"``. The
first one is the entry this peer's record holds (what its screen shows)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lancards.cli.i18n import N_, _

STEP_WORDS: Mapping[str, str] = {
    "key": N_("add a part of the joint key"),
    "shuffle": N_("shuffle the deck"),
    "shares": N_("send shares to open cards"),
    "open": N_("turn up a card"),
    "leave": N_("leave the table"),
    "escrow": N_("deal out a key escrow"),
}
"""An entry that is no move, by its payload's ``t``, said as a move is (what its author does);
a rescue is said with the seat it rescues (:func:`entry_words`)."""


@dataclass(frozen=True)
class KnownCards:
    """The cards a seat knew where a cheat's moves stand, for the words that name them (a
    stand-in for a view of the game, :func:`entry_words`; ``halted.json`` keeps it for
    ``lancards history``): ``cards``, the card of each slot a move gives by its slot only
    (``{145: "O8"}``, the one an "I'll take that!" choice takes), and ``tops``, the top card of
    each discard pile a move draws from, as it lay before the move (``{2: "B7"}``: ``"draw B7
    from bob's discard pile"``, not ``"draw the top card ..."``: a discard pile's top card is
    public)."""

    cards: Mapping[int, str] = field(default_factory=dict)
    tops: Mapping[int, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, dict[str, str]]:
        """``{"cards": {"145": "O8"}, "tops": {"2": "B7"}}`` (JSON keys are strings)."""
        return {"cards": {str(k): v for k, v in sorted(self.cards.items())},
                "tops": {str(k): v for k, v in sorted(self.tops.items())}}

    @classmethod
    def from_json(cls, data: object) -> KnownCards:
        """:meth:`to_json`'s form read back; what is not of that form is left out."""
        def read(part: object) -> dict[int, str]:
            if not isinstance(part, Mapping):
                return {}
            return {int(k): v for k, v in part.items()
                    if isinstance(k, str) and k.isdigit() and isinstance(v, str)}

        got = data if isinstance(data, Mapping) else {}
        return cls(read(got.get("cards")), read(got.get("tops")))


def known_cards(game: Any, payloads: Iterable[Any], view: Any, before: Any = None
                ) -> KnownCards:
    """What :class:`KnownCards` a seat knew of the moves of ``payloads`` (signed entries'
    payloads; the others are passed over): each slot a move names whose card ``view`` (a view
    of the game) knows, and the top card of each discard pile a move draws from in ``before``,
    the view just before the moves' place (None: not known)."""
    from lancards.cli.tui.narrate import card_name
    from lancards.engine.core import EngineError

    cards: dict[int, str] = {}
    tops: dict[int, str] = {}
    for payload in payloads:
        if not isinstance(payload, Mapping) or payload.get("t") != "action":
            continue
        try:
            action = game.parse_action(str(payload.get("a", "")))
        except (AttributeError, EngineError, LookupError, TypeError, ValueError):
            continue  # said as a move that cannot be read
        slot, owner = getattr(action, "slot", None), getattr(action, "owner", None)
        card = getattr(view, "cards", {}).get(slot) if isinstance(slot, int) else None
        if isinstance(slot, int) and card is not None:
            cards[slot] = card_name(card)
        piles = getattr(before, "discards", ())
        if isinstance(owner, int) and 0 <= owner < len(piles) and piles[owner]:
            top = getattr(before, "cards", {}).get(piles[owner][-1])
            if top is not None:
                tops[owner] = card_name(top)
    return KnownCards(cards, tops)


def core_known(core: Any, payloads: Iterable[Any], seq: int | None = None) -> KnownCards:
    """The :class:`KnownCards` of ``core``'s seat for the moves of ``payloads``: the cards of
    its view (:func:`core_view`), the discard piles' tops as they lay before entry ``seq`` (a
    fork's place: ``core.state_before``), or for ``seq`` None, in its view (a move it refused:
    its state is the one the move was refused in)."""
    view = core_view(core)
    before = view if seq is None else getattr(core, "state_before", lambda _seq: None)(seq)
    return known_cards(getattr(core, "game", None), payloads, view, before)


def evidence_payloads(evidence: Mapping[str, Any]) -> list[Any]:
    """The payloads of a fork's two entries (``evidence``: ``first`` and ``second``)."""
    return [entry.get("payload") for entry in (evidence.get("first"), evidence.get("second"))
            if isinstance(entry, Mapping)]


def entry_words(game: Any, payload: Mapping[str, Any], names: Sequence[str],
                view: Any = None) -> str:
    """A signed entry's ``payload`` in words: a move of ``game`` (the engine's rule set) as the
    log says it, without its author (``"discard R5"``, ``"take R14 (I'll take that!)"``: a card
    the notation names by its slot is named when ``view``, a view of the game, knows it), or
    what another entry does (``"shuffle the deck"``, ``"publish rescue shares for bob"``);
    ``"a move that cannot be read"`` for a notation the rules do not read."""
    from lancards.cli.refusal_words import move_words
    from lancards.engine.core import EngineError

    kind = payload.get("t")
    if kind == "action":
        try:
            return move_words(game.parse_action(str(payload.get("a", ""))), names, view)
        except (AttributeError, EngineError, LookupError, TypeError, ValueError):  # any signed
            return _("a move that cannot be read")
    if kind == "rescue":
        seat = payload.get("seat")
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        return _("publish rescue shares for {name}").format(name=name)
    if isinstance(kind, str) and kind in STEP_WORDS:
        return _(STEP_WORDS[kind])
    return _("an entry of an unknown kind")


def signed_move(game: Any, entry: Any, names: Sequence[str], view: Any = None) -> str | None:
    """A signed ``entry`` (a dict, as evidence holds it) in :func:`entry_words`' words, or None
    when it holds no payload."""
    payload = entry.get("payload") if isinstance(entry, Mapping) else None
    return entry_words(game, payload, names, view) if isinstance(payload, Mapping) else None


def fork_words(game: Any, evidence: Mapping[str, Any], seat: int, names: Sequence[str],
               view: Any = None) -> str | None:
    """What seat ``seat`` signed twice, from a fork's ``evidence`` (its record line: the
    ``first`` and ``second`` entries as dicts): ``"eve signed two different moves for the same
    turn: play R6 and play R2"``, ``"eve signed two different entries for the same place in the
    game: play R6 and leave the table"``, or for two that read the same (other randomness, other
    cards opened) ``"eve signed two different versions of one step: shuffle the deck"``; None
    when ``evidence`` holds no two entries. ``view``: a view of the game that names the cards
    a move gives by its slot (:func:`entry_words`), or None."""
    first, second = evidence.get("first"), evidence.get("second")
    if not (isinstance(first, Mapping) and isinstance(second, Mapping)) \
            or not 0 <= seat < len(names):
        return None
    payloads = [entry.get("payload") for entry in (first, second)]
    if not all(isinstance(p, Mapping) for p in payloads):
        return None
    said = [entry_words(game, p, names, view) for p in payloads if isinstance(p, Mapping)]
    name = names[seat]
    if said[0] == said[1]:
        return _("{name} signed two different versions of one step: {what}").format(
            name=name, what=said[0])
    if all(p.get("t") == "action" for p in payloads if isinstance(p, Mapping)):
        return _("{name} signed two different moves for the same turn: {first} and "
                 "{second}").format(name=name, first=said[0], second=said[1])
    return _("{name} signed two different entries for the same place in the game: {first} "
             "and {second}").format(name=name, first=said[0], second=said[1])


def out_of_turn_detail(cause: Any, names: Sequence[str], move: str | None = None,
                       me: int | None = None) -> str | None:
    """A move signed out of turn and whose turn it was: ``"draw from the draw pile, while it
    was Cy's move"`` (German ``"vom Nachziehstapel ziehen, während Cy am Zug war"``). ``move``:
    the signed entry in words (:func:`~lancards.cli.fork_words.entry_words`), or None;
    ``cause``: the out-of-turn refusal (``GameCore.halt_cause``), whose ``params`` say which
    seat (``due_seat``, from 1) was to append what (``due_entry``), from the state the move
    was refused in; None when neither is known. ``me``: the viewer's seat, said as ``your``
    when it was the due seat (``"while it was your move"``: the LAN trial's ann read "while it
    was ann's move" on her own screen, where the log says "You")."""
    code = getattr(cause, "code", "")
    params: Mapping[str, Any] = getattr(cause, "params", {}) or {}
    due, what = params.get("due_seat"), str(params.get("due_entry", ""))
    when = None
    if code == "out-of-turn" and isinstance(due, int) and me is not None and due - 1 == me:
        when = _("while it was your move") if what == "action" else \
            _("while you were to {step}").format(step=_(STEP_WORDS[what])) \
            if what in STEP_WORDS else _("while it was your turn")
    elif code == "out-of-turn" and isinstance(due, int) and 1 <= due <= len(names):
        name = names[due - 1]
        when = _("while it was {name}'s move").format(name=name) if what == "action" else \
            _("while {name} was to {step}").format(name=name, step=_(STEP_WORDS[what])) \
            if what in STEP_WORDS else _("while it was {name}'s turn").format(name=name)
    elif code == "out-of-turn-nothing":
        when = _("while nobody was to play")
    if move is None:
        return when
    return move if when is None else _("{move}, {when}").format(move=move, when=when)


def rules_named(name: str) -> Any:
    """The engine's rule set called ``name`` (a record's game), or None for a name it does not
    know (its moves are then said as unreadable)."""
    from lancards.engine.core import RulesError
    from lancards.engine.rulesets import rule_set

    try:
        return rule_set(name).game
    except RulesError:
        return None


def core_fork(core: Any, seat: int | None) -> dict[str, Any] | None:
    """The evidence line of the fork seat ``seat`` made, as ``core`` keeps it (the first of
    ``core.record.evidence`` whose author sits there; :func:`held_first`), or None."""
    if seat is None:
        return None
    players = getattr(core, "players", ())
    record = getattr(core, "record", None)
    if not 0 <= seat < len(players) or record is None:
        return None
    key = players[seat].public_key
    found = next((e for e in getattr(record, "evidence", ()) if e.first.author == key), None)
    return None if found is None else held_first(core, found.to_line_dict())


def core_view(core: Any) -> Any:
    """``core``'s game as its seat sees it (a watcher's: as a spectator does), in which the
    cards a move names by slot only are known, or None."""
    game, state = getattr(core, "game", None), getattr(core, "state", None)
    if game is None or state is None:
        return None
    return game.view(state, getattr(core, "view_seat", None))


def error_fork(core: Any, error: Any) -> str | None:
    """A fork a watcher caught, in :func:`fork_words`' words, from the refusal that proved it
    (the peer layer's ``EquivocationError``: ``first``, the entry ``core``'s record holds, and
    ``second``, the other, as dicts; their author's seat by ``core.seat_of``), or None for
    another refusal, no table yet, or an author not seated."""
    first, second = getattr(error, "first", None), getattr(error, "second", None)
    if core is None or not (isinstance(first, Mapping) and isinstance(second, Mapping)):
        return None
    try:
        seat = core.seat_of(bytes.fromhex(str(first.get("author", ""))))
    except ValueError:
        return None
    if seat is None:
        return None
    names = [m.nick for m in core.players]
    evidence = {"first": first, "second": second}
    seq = first.get("seq")
    return fork_words(core.game, evidence, seat, names, core_known(
        core, evidence_payloads(evidence), seq if isinstance(seq, int) else -1))


def held_first(core: Any, evidence: Mapping[str, Any]) -> dict[str, Any]:
    """``evidence`` with the entry ``core``'s record holds at its place first (the one its
    screen shows; evidence another peer sent may name it second)."""
    line = dict(evidence)
    first, second = line.get("first"), line.get("second")
    entries = getattr(getattr(core, "record", None), "entries", ())
    seq = second.get("seq") if isinstance(second, Mapping) else None
    if isinstance(seq, int) and 0 <= seq < len(entries) and entries[seq].to_dict() == second:
        line["first"], line["second"] = second, first
    return line


__all__ = ["STEP_WORDS", "KnownCards", "core_fork", "core_known", "core_view", "entry_words",
           "error_fork", "evidence_payloads", "fork_words", "held_first", "known_cards",
           "out_of_turn_detail", "rules_named", "signed_move"]
