"""Which seat a table halted on as a cheater (``lancards history``, ``lancards resume``): a
table halted on a proven cheat is marked ``finished`` (nothing waits). The halting peer writes
:data:`HALTED` into the table folder first (:func:`save_halt`: the cheater's seat and key, the
halt's kind and what its words need, :func:`halt_detail`, atomically: the history says the
cheat as the table did, not ``Cyd was caught cheating``), for every kind of halt: a bad proof
of shuffle or decryption share, or a withdrawn vote then begun, leave no evidence line in the
record file (the LAN trial of 2026-12-08 found them listed as ``finished (lancards audit tells
the result)``). A folder without it (written before it existed) is read for the record file's
evidence line (``docs/protocol.md`` section 7): a signed entry the rules refuse
(``"kind":"cheat"``) or two entries of one author with one number (``"kind":"equivocation"``).
Only those lines are decoded; ``lancards audit`` verifies them."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from lancards.cli.i18n import _
from lancards.p2p.net.crash_hook import crash
from lancards.p2p.net.storage_faults import storage_error
from lancards.p2p.net.store import replace_file

EVIDENCE_MARKS = (b'"kind":"cheat"', b'"kind":"equivocation"')

HALTED = "halted.json"
"""The file of a table folder that says the table halted on a cheat: ``{"seat": 2, "key":
"<the cheater's Ed25519 key in hex>", "kind": "out-of-turn", "detail": {...}}`` (``kind``:
``GameCore.halt_kind``; ``detail``: what the table's words of the cheat need,
:func:`halt_detail`; a file written before it has none, and is said by the cheater alone)."""


def halt_seat(core: Any) -> int | None:
    """The seat whose cheat halted ``core`` (the cheater of ``core.cheaters`` whose reason is
    the halt's), or None (not halted, or halted naming nobody)."""
    reason = core.halted
    if reason is None:
        return None
    return next((s for s, text in core.cheaters.items() if text == reason), None)


def cause_json(cause: Any) -> dict[str, Any] | None:
    """What refused a signed entry (``GameCore.halt_cause``: its ``code`` and ``params``) as
    JSON: a move by its notation, a level's component by its kind and size, a card (any other
    value) by its text; None without a code."""
    from lancards.engine.level8.levels import Component

    code = getattr(cause, "code", "")
    if not isinstance(code, str) or not code:
        return None
    params: dict[str, Any] = {}
    for key, value in (getattr(cause, "params", None) or {}).items():
        if value is None or isinstance(value, (bool, int, str)):
            params[key] = value
        elif isinstance(value, Component):
            params[key] = {"kind": value.kind.value, "size": value.size}
        else:
            params[key] = str(value)  # a move's notation (the rules read it back), a card
    return {"code": code, "params": params}


def stored_cause(rules: Any, data: object) -> Any:
    """:func:`cause_json`'s form read back for ``rules`` (the engine's rule set, or None): an
    object with the ``code`` and ``params`` the words of a refusal read, the move parsed again
    (left out when the rules do not read it); None when ``data`` is not of that form."""
    from lancards.engine.core import EngineError
    from lancards.engine.level8.levels import Component, ComponentKind

    if not isinstance(data, Mapping) or not isinstance(data.get("code"), str) \
            or not isinstance(data.get("params"), Mapping):
        return None
    params = dict(data["params"])
    try:
        params["action"] = rules.parse_action(str(params["action"]))
    except (AttributeError, EngineError, LookupError, TypeError, ValueError):
        params.pop("action", None)
    component = params.get("component")
    if isinstance(component, Mapping):
        try:
            params["component"] = Component(ComponentKind(component["kind"]),
                                            int(component["size"]))
        except (KeyError, TypeError, ValueError):
            params.pop("component")
    return SimpleNamespace(code=data["code"], params=params)


def halt_detail(core: Any) -> dict[str, Any]:
    """What the words of ``core``'s halt need beyond the cheater, for ``lancards history`` to
    say what the table said (:func:`~lancards.cli.peer_words.halt_words`): ``cause``, what
    refused the signed entry that halted it (:func:`cause_json`); ``payload``, that entry's move
    (its ``t``, ``a``, ``seat``); ``known``, the cards its moves, or a fork's two, name as this
    seat knew them (:class:`~lancards.cli.fork_words.KnownCards`, JSON). Empty for a halt with
    none of them (a bad proof of shuffle)."""
    from lancards.cli.fork_words import core_fork, core_known, evidence_payloads

    detail: dict[str, Any] = {}
    cause = cause_json(getattr(core, "halt_cause", None))
    if cause is not None:
        detail["cause"] = cause
    if core.halt_kind == "equivocation":
        line = core_fork(core, halt_seat(core))
        if line is not None:  # the fork's entries are in the record file's evidence line
            seq = line["first"].get("seq")
            detail["known"] = core_known(core, evidence_payloads(line),
                                         seq if isinstance(seq, int) else -1).to_json()
        return detail
    kept = getattr(core.record, "cheats", ())
    payload = kept[0].entry.to_dict().get("payload") if kept else None
    if isinstance(payload, Mapping):
        detail["payload"] = {k: payload[k] for k in ("t", "a", "seat") if k in payload}
        detail["known"] = core_known(core, [payload]).to_json()
    return detail


def save_halt(folder: Path, core: Any) -> None:
    """Write :data:`HALTED` into ``folder`` when ``core`` halted naming a cheater (through a
    temporary file, ``fsync``, rename: a crash leaves the file whole or none, or the one there
    before whole; the crash tests kill the process here, ``LANCARDS_TEST_CRASH_AT=halted-WHEN:N``,
    :mod:`lancards.p2p.net.crash_hook`); nothing otherwise. Written before the folder's
    ``finished`` marker.

    Raises:
        StorageError: it cannot be written.
    """
    seat = halt_seat(core)
    if seat is None:
        return
    data = {"seat": seat, "key": core.players[seat].public_key.hex(), "kind": core.halt_kind,
            "detail": halt_detail(core)}
    path = folder / HALTED
    text = json.dumps(data, sort_keys=True).encode()

    def torn(fd: int) -> None:
        if crash.reached("torn", side="halted"):
            os.write(fd, text[:len(text) // 2])
            crash.die()

    if crash.reached("before", side="halted"):
        crash.die()
    try:
        replace_file(path, text, 0o600, torn)
    except OSError as exc:
        raise storage_error(exc, path) from None
    if crash.reached("after", side="halted"):
        crash.die()


def read_halted(folder: Path) -> dict[str, Any] | None:
    """``folder``'s :data:`HALTED` as written, or None (none, or it cannot be read)."""
    try:
        halted = json.loads((folder / HALTED).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return halted if isinstance(halted, dict) else None


def cheater_seat(folder: Path, keys: list[str]) -> int | None:
    """The seat (index into ``keys``, the seats' keys in hex) that ``folder``'s table halted on
    as a cheater: :data:`HALTED`'s, else the one its record file's evidence line names; None
    when there is none or it cannot be read."""
    halted = read_halted(folder)
    if halted is not None and halted.get("key") in keys:
        return keys.index(halted["key"])
    try:
        raw = (folder / "record.jsonl").read_bytes()
    except OSError:
        return None
    for row in raw.split(b"\n"):
        if not any(mark in row for mark in EVIDENCE_MARKS):
            continue
        try:
            line = json.loads(row)
            author = (line.get("entry") or line.get("first"))["author"]
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        if author in keys:
            return keys.index(author)
    return None


def fork_evidence(folder: Path, key: str) -> dict[str, Any] | None:
    """The fork ``folder``'s record file proves of the seat whose key (hex) is ``key``: its
    evidence line (``{"first": ..., "second": ...}``, two entries the seat signed with one
    number), the entry the file's record holds first, as ``lancards audit`` orders them; None
    when the file holds no such line or cannot be read. Only decoded: the audit verifies."""
    try:
        raw = (folder / "record.jsonl").read_bytes()
    except OSError:
        return None
    held: dict[object, object] = {}
    found = None
    for row in raw.split(b"\n"):
        try:
            if b'"kind":"entry"' in row:
                entry = json.loads(row)["entry"]
                held[entry["seq"]] = entry
            elif found is None and b'"kind":"equivocation"' in row:
                line = json.loads(row)
                if line["first"]["author"] == key and isinstance(line["second"], dict):
                    found = line
        except (ValueError, KeyError, TypeError):
            continue
    if found is None:
        return None
    first, second = found["first"], found["second"]
    if held.get(second.get("seq")) == second:  # the record's own entry first
        first, second = second, first
    return {"first": first, "second": second}


def caught_fork_words(game: str, evidence: dict[str, Any], seat: int, names: Sequence[str],
                      view: Any = None) -> str | None:
    """How a table stopped on a fork is said when its record holds the evidence (the words of
    ``lancards audit``'s cheat line, :func:`~lancards.cli.fork_words.fork_words`, the cards of
    ``view`` named: a :class:`~lancards.cli.fork_words.KnownCards`, or a view of the game, with
    the view before the fork's place in ``evidence["before"]`` when known): ``"stopped: eve
    signed two different moves for the same turn: play R6 and play R2"``; None when the
    evidence holds no two entries."""
    from lancards.cli.fork_words import (
        KnownCards,
        evidence_payloads,
        fork_words,
        known_cards,
        rules_named,
    )

    rules = rules_named(game)
    if view is not None and not isinstance(view, KnownCards):
        view = known_cards(rules, evidence_payloads(evidence), view, evidence.get("before"))
    said = fork_words(rules, evidence, seat, names, view)
    return None if said is None else _("stopped: {cheat}").format(cheat=said)


def caught_words(name: str) -> str:
    """How a table stopped on a proven cheat is said: ``"stopped: Cyd was caught cheating
    (lancards audit shows how)"``."""
    return _("stopped: {name} was caught cheating (lancards audit shows how)").format(
        name=name)


__all__ = ["EVIDENCE_MARKS", "HALTED", "caught_fork_words", "caught_words", "cause_json",
           "cheater_seat", "fork_evidence", "halt_detail", "halt_seat", "read_halted", "save_halt",
           "stored_cause"]
