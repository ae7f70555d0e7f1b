"""The peer layer's news in the player's language (issue 28): what the table waits for, why a
cheat halted it, and where the 8s Rule! objectives come from.

``p2p`` and ``engine`` stay language-free: they give codes and fields (a
:class:`~lancards.p2p.net.waiting.Waiting` with its ``kind``, ``GameCore.halt_kind`` with the
cheater's seat, an :class:`~lancards.engine.eights.objectives.Objectives`' source), and this
module says them through the catalog. Their English words stay for logs and ``--verbose``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lancards.cli.fork_words import (
    core_fork,
    core_known,
    evidence_payloads,
    fork_words,
    held_first,
    out_of_turn_detail,
    signed_move,
)
from lancards.cli.halted_table import halt_seat
from lancards.cli.i18n import N_, _, ngettext
from lancards.cli.objectives_words import DEFAULT_SOURCE, DEFAULT_SOURCE_WORDS, objectives_notice
from lancards.cli.peer_errors import CHEAT_WORDS
from lancards.cli.refusal_words import refusal_detail
from lancards.cli.removal_words import RESCUE_WORDS
from lancards.cli.session import Banner
from lancards.p2p.net.failure_words import log as net_log
from lancards.p2p.net.waiting import DRAW_SHARES, Waiting, alone_seconds

WHAT_WORDS: Mapping[str, str] = {
    "action": N_("their move"),
    "shuffle": N_("a shuffle"),
    "key": N_("the joint key"),
    "shares": N_("shares for a card"),
    "open": N_("their card"),
    "escrow": N_("a key escrow"),
    "rescue": N_("rescue shares"),
    DRAW_SHARES: N_("shares for your draw"),
}
"""What the table waits for, by :attr:`Waiting.kind` (the kinds of ``p2p.net.waiting.WHAT``,
and ``DRAW_SHARES``)."""

SIDE_CHEAT_WORDS: Mapping[str, str] = {
    "bad-private-share": N_("{name} sent a bad private share"),
    "bad-escrow-part": N_("{name} dealt this seat a bad key escrow part (it cannot be rescued)"),
}
"""A cheat that does not halt the table, by its notice's ``code`` (the peer layer's
``Notice.code``), in every language; the peer layer's sentence, whose detail counts seats from
0 (``key escrow by seat 3 in epoch 0 rejected: the sealed part does not match its
commitment``: the LAN trial with a seated attacker, h1), goes to ``--verbose``."""


def what_words(wait: Waiting) -> str:
    """What ``wait`` is for, in words: ``"their move"``, ``"shares for your draw"`` (the
    peer layer's English ``what`` for a kind this module does not know)."""
    return _(WHAT_WORDS[wait.kind]) if wait.kind in WHAT_WORDS else wait.what


ALONE_TOLD_S = 3.0
"""Seconds of catching up with no link to anyone before the banner says nobody answers."""


def catching_up_words(node: Any, names: Sequence[str], now: float) -> str:
    """The banner of a resumed peer that is not current yet (``node``: its
    :class:`~lancards.p2p.net.node.PeerNode`; ``now``: monotonic seconds): ``"catching up: 31
    moves verified so far"``, and once no other seat has answered for
    :data:`ALONE_TOLD_S` s, ``"; nobody at this table answers yet (hana, Ada): the game goes
    on when one of them is back · q pauses"`` (the evening trial of 2026-12-06 resumed a table
    whose others had all gone, and read "catching up" and nothing else)."""
    from lancards.cli.opening_words import record_moves

    count = record_moves(node.core.record)  # moves, as ``lancards resume`` counts them
    words = ngettext("catching up: {count} move verified so far",
                     "catching up: {count} moves verified so far", count).format(count=count)
    alone = alone_words(node, names, now)
    pause = _("q pauses")
    return words if alone is None else f"{words}; {alone} · {pause}"


def alone_words(node: Any, names: Sequence[str], now: float, after: float = ALONE_TOLD_S
                ) -> str | None:
    """``"nobody at this table answers yet (hana, Ada): the game goes on when one of them is
    back"`` once no seat still at the table has answered ``node`` for ``after`` seconds
    (:func:`~lancards.p2p.net.waiting.alone_seconds`), else ``None``."""
    core = node.core
    alone = alone_seconds(core, node.connected, node.down_since, now)
    if alone is None or alone < after:
        return None
    gone = set(core.left_seats())
    others = [n for i, n in enumerate(names) if i != core.seat and i not in gone]
    return _("nobody at this table answers yet ({names}): the game goes on when one of them "
             "is back").format(names=", ".join(others))


THINKING_S = 60.0
"""Seconds a connected player may take over their own move before the table shows a WAITING
banner (the title says whose move it is meanwhile)."""


def thinking(wait: Waiting) -> bool:
    """Whether ``wait`` is a connected, unpaused player taking time over their own move, for
    less than :data:`THINKING_S` s: no banner then (the evening trial of 2026-12-06 read
    "WAITING: waiting for jo (their move), 21 s" on every slow turn of a friend, in the same
    loud line as a crash). Not a player that said it has no link to some seat
    (:attr:`Waiting.unreached`): it is stuck, not thinking."""
    return wait.connected and not wait.paused and wait.kind == "action" and \
        not wait.unreached and wait.seconds < THINKING_S


def waiting_words(wait: Waiting | None, rescue: bool, patience: float) -> str | None:
    """What a screen says of ``wait`` (as ``p2p.net.waiting.waiting_text``, in the player's
    language): ``"waiting for bob (their move), 12 s"`` (connected, silent), ``"waiting for bob,
    no connection (their move), 12 s"`` (its link is down), ``"waiting for bob, who paused
    (their move), 12 s"``, ``"waiting for bob, connecting (their move), 0 s"`` (a peer
    catching up gives the links a moment: :attr:`Waiting.connecting`); beyond ``patience``
    seconds at a table without rescue (ruling D-5), ``"waiting for bob, 130 s; the table can
    only wait"``; None when nothing waits. A silent
    seat that said it has no link to some seats (:attr:`Waiting.unreached`, the ``links``
    message) gets ``": bob has no connection to Ada"`` after it: likely why it is silent
    (the LAN trial of 2026-12-06 blamed a joiner that could not reach the host's bot). The
    message line and the leave's words show it alone; the banner shows
    :func:`waiting_banner_words` under its ``WAITING`` mark."""
    words = waiting_banner_words(wait, rescue, patience)
    return None if words is None else _("waiting for {who}").format(who=words)


def waiting_banners(wait: Waiting, rescue: bool, patience: float) -> list[Banner]:
    """The ``WAITING`` banner of ``wait`` (:func:`waiting_banner_words`), or none while a
    connected player is :func:`thinking` over their own move (the title says whose move it
    is meanwhile)."""
    words = waiting_banner_words(wait, rescue, patience)
    return [] if thinking(wait) or words is None else [Banner("waiting", words)]


def waiting_banner_words(wait: Waiting | None, rescue: bool, patience: float) -> str | None:
    """:func:`waiting_words` without its leading "waiting for", for the banner that says
    ``WAITING:`` before it: ``"WAITING: jo (their move), 21 s"`` (the new-user trial read
    "WAITING: waiting for jo (their move), 21 s"), ``"cyd (their move), 12 s: cyd has no
    connection to Ada"``; None when nothing waits."""
    if wait is None:
        return None
    words = _waiting_words(wait, rescue, patience)
    if wait.connected and wait.unreached:
        because = _("{name} has no connection to {names}").format(
            name=wait.nick, names=", ".join(wait.unreached))
        words = f"{words}: {because}"
    return words


def _waiting_words(wait: Waiting, rescue: bool, patience: float) -> str:
    seconds = round(wait.shown)  # one clock, from the last entry (never jumps at a return)
    if not rescue and wait.shown >= patience:
        return _("{name}, {seconds} s; the table can only wait").format(
            name=wait.nick, seconds=seconds)
    if wait.paused:
        return _("{name}, who paused ({what}), {seconds} s").format(
            name=wait.nick, what=what_words(wait), seconds=seconds)
    if wait.connecting:  # a resumed peer's links are not up yet: no "no connection" so soon
        return _("{name}, connecting ({what}), {seconds} s").format(
            name=wait.nick, what=what_words(wait), seconds=seconds)
    if not wait.connected:  # crashed, cut off or asleep: not only slow (the trial of 12-06)
        return _("{name}, no connection ({what}), {seconds} s").format(
            name=wait.nick, what=what_words(wait), seconds=seconds)
    return _("{name} ({what}), {seconds} s").format(
        name=wait.nick, what=what_words(wait), seconds=seconds)


def halt_words(core: Any, names: Sequence[str]) -> str:
    """Why ``core`` halted, in words: ``"bob signed a move out of turn"``, from
    ``core.halt_kind``, the seat of ``core.cheaters`` whose reason halted it and what refused
    its move (``core.halt_cause``), a fork with both entries its author signed
    (:func:`~lancards.cli.fork_words.fork_words`); a halt of another kind is the peer layer's
    reason (``core.halted``)."""
    kind, seat = getattr(core, "halt_kind", ""), halt_seat(core)
    forked = _forked(core, kind, core_fork(core, seat), seat, names)
    kept = getattr(getattr(core, "record", None), "cheats", ())
    entry = kept[0].entry.to_dict() if kept else None  # the signed entry that halted it
    return forked or cheat_notice_words(kind, seat, names, str(core.halted),
                                        getattr(core, "halt_cause", None),
                                        _move(core, kind, entry, names), _viewer(core))


def _move(core: Any, kind: str, entry: Any, names: Sequence[str]) -> str | None:
    """The move of a signed ``entry`` (a dict) signed out of turn, in words; else None."""
    if kind != "out-of-turn":
        return None
    payload = entry.get("payload") if isinstance(entry, Mapping) else None
    return signed_move(getattr(core, "game", None), entry, names, core_known(core, [payload]))


def _forked(core: Any, kind: str, evidence: Any, seat: int | None, names: Sequence[str]
            ) -> str | None:
    """A fork's words (:func:`~lancards.cli.fork_words.fork_words`) for an ``equivocation``
    with its ``evidence`` line, else None."""
    if kind != "equivocation" or seat is None or not isinstance(evidence, Mapping):
        return None
    line = held_first(core, evidence)
    seq = (line.get("first") or {}).get("seq")
    return fork_words(getattr(core, "game", None), line, seat, names, core_known(
        core, evidence_payloads(line), seq if isinstance(seq, int) else -1))


def notice_kind(core: Any, notice: Any) -> str:
    """The kind a cheat ``notice`` is said by (:func:`cheat_notice_words`): ``core.halt_kind``
    for the notice of the cheat that halted ``core``, the notice's ``code`` for a cheat that
    does not halt (:data:`SIDE_CHEAT_WORDS`), else ``""`` (the peer layer's text)."""
    if notice.text == core.halted:
        return str(getattr(core, "halt_kind", ""))
    code = getattr(notice, "code", "")
    return code if code in SIDE_CHEAT_WORDS else ""


def notice_words(core: Any, notice: Any, names: Sequence[str]) -> str:
    """A cheat ``notice`` of ``core`` in words (:func:`cheat_notice_words` with its
    :func:`notice_kind`, and for the notice of the cheat that halted ``core`` what refused the
    move, ``core.halt_cause``; a fork's notice says both entries from its evidence)."""
    cause = getattr(core, "halt_cause", None) if notice.text == core.halted else None
    kind = notice_kind(core, notice)
    forked = _forked(core, kind, notice.evidence, notice.seat, names)
    move = _move(core, kind, (notice.evidence or {}).get("entry"), names)
    return forked or cheat_notice_words(kind, notice.seat, names, notice.text, cause, move,
                                        _viewer(core))


def _viewer(core: Any) -> int | None:
    """The seat whose screen says ``core``'s words (None for an observer)."""
    seat = getattr(core, "seat", None)
    if getattr(core, "is_observer", False) or not isinstance(seat, int) or seat < 0:
        return None
    return seat


def cheat_notice_words(kind: str, seat: int | None, names: Sequence[str], text: str,
                       cause: Any = None, move: str | None = None, me: int | None = None
                       ) -> str:
    """A cheat notice's log line (without its ``!``): :data:`CHEAT_WORDS` (or
    :data:`SIDE_CHEAT_WORDS`, the peer layer's detail going to ``--verbose``) for ``kind`` and
    ``seat``, else the peer
    layer's ``text``. An illegal move is named, with why the rules refuse it, from what refused
    it (``cause``, the engine's coded error: :func:`~lancards.cli.refusal_words.refusal_detail`):
    ``"Cyd signed a move the rules do not allow: discard R5 (Cyd must draw first)"``; a move
    out of turn with the signed ``move`` in words and whose turn it was (``cause``, the
    refusal: :func:`~lancards.cli.refusal_words.out_of_turn_detail`): ``"dan signed a move out
    of turn: draw from the draw pile, while it was cy's move"`` (``"while it was your move"``
    on the screen of ``me``, the viewer's seat, when it was that seat's)."""
    if seat is None or not 0 <= seat < len(names):
        return text
    if kind in CHEAT_WORDS:
        words = _(CHEAT_WORDS[kind]).format(name=names[seat])
        detail = refusal_detail(cause, seat, names) if kind == "illegal" else \
            out_of_turn_detail(cause, names, move, me) if kind == "out-of-turn" else None
        return words if detail is None else f"{words}: {detail}"
    if kind in SIDE_CHEAT_WORDS:  # in English too: the peer layer's detail counts seats from
        net_log.debug("%s", text)  # 0 and says epochs and commitments (h1): --verbose only
        return _(SIDE_CHEAT_WORDS[kind]).format(name=names[seat])
    return text


def stored_halt_words(game: str, seat: int, names: Sequence[str], fork: Any = None,
                      halted: Any = None) -> str:
    """How ``lancards history`` and ``lancards resume`` say a table halted on seat ``seat``'s
    proven cheat: in the table's words (:func:`halt_words`), from what the halting seat stored
    (``halted``: its ``halted.json``, whose ``kind`` and ``detail`` say the cheat,
    :func:`~lancards.cli.halted_table.save_halt`) and the fork the record file proves
    (``fork``: :func:`~lancards.cli.halted_table.fork_evidence`), after ``"stopped: "``:
    ``"stopped: cyd signed a move out of turn: play R6, while it was ann's move"``, ``"stopped:
    eve signed two different moves for the same turn: take O8 (I'll take that!) and take none
    of the shown cards (I'll take that!)"``; from a ``halted.json`` without ``detail`` (written
    before it) or none, the fork's moves or the cheater alone: ``"stopped: Cyd was caught
    cheating (lancards audit shows how)"``. ``game``: the rule set's name."""
    from lancards.cli.fork_words import KnownCards, rules_named
    from lancards.cli.halted_table import caught_fork_words, caught_words, stored_cause

    detail = halted.get("detail") if isinstance(halted, Mapping) else None
    known = KnownCards.from_json(detail.get("known")) if isinstance(detail, Mapping) else None
    said = None if not isinstance(fork, Mapping) else \
        caught_fork_words(game, dict(fork), seat, names, known)
    kind = str(halted.get("kind", "")) if isinstance(halted, Mapping) else ""
    if said is not None or not isinstance(detail, Mapping) or kind not in CHEAT_WORDS:
        return said or caught_words(names[seat])
    rules = rules_named(game)
    payload = detail.get("payload")
    move = signed_move(rules, {"payload": payload}, names, known) \
        if kind == "out-of-turn" and isinstance(payload, Mapping) else None
    cheat = cheat_notice_words(kind, seat, names, "", stored_cause(rules, detail.get("cause")),
                               move)
    return _("stopped: {cheat}").format(cheat=cheat)


__all__ = ["CHEAT_WORDS", "DEFAULT_SOURCE", "DEFAULT_SOURCE_WORDS", "RESCUE_WORDS",
           "SIDE_CHEAT_WORDS", "WHAT_WORDS", "cheat_notice_words", "halt_words",
           "notice_kind", "notice_words", "objectives_notice", "stored_halt_words",
           "waiting_banner_words", "waiting_banners", "waiting_words", "what_words"]
