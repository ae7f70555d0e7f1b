"""The peer layer's errors in the player's language (issue 28): a network failure, a refused
message, a record that does not verify, a damaged journal, a seat folder in use, a table that
does not answer, why there is no next game, an identity file's fault.

A network failure is a :class:`~lancards.p2p.net.failure_words.Failure` (a code and its
values; ``p2p/net/failure_words.py`` keeps its English sentence part for the peer layer's own
exception texts and the ``--verbose`` log): :data:`FAILURE_WORDS` are those sentences exactly
(a test keeps them equal), so English output does not change.

The peer layer stays language-free: its errors carry a stable code and values
(:attr:`PeerError.code` and ``params``, a :class:`RemoteProtocolError`'s :class:`Reason`,
sender and entry, a :class:`RecordFileError`'s line, a :class:`FolderBusy`'s holder), and this
module says them through the catalog. In English the peer layer's own sentence is shown as it
always was (it carries the detail: the offending value, the parser's complaint); in another
language the code's words are, and the English detail goes to the ``--verbose`` log
(``lancards.net`` at DEBUG). A refused message (:func:`rejection_words`, :func:`record_words`) is
said in words in English too: its sentence names reason codes, the engine's move syntax and
ruling ids, which a table line does not show. An error without a code known here is one
generic line in that language, its English text in ``--verbose`` only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from lancards.cli.game_titles import game_title
from lancards.cli.i18n import N_, NO_BREAK, _, language
from lancards.cli.rejection_details import MoveWords, why_refused
from lancards.p2p.net.failure_words import WHO_HOST, WHO_NETWORK, Failure, failure
from lancards.p2p.net.failure_words import log as net_log
from lancards.p2p.net.folder_lock import FolderBusy
from lancards.p2p.protocol.errors import (
    MessageError,
    PeerError,
    Reason,
    RecordFileError,
    RemoteProtocolError,
)

FAILURE_WORDS: Mapping[str, str] = {
    "closed": N_("{who} closed the connection"),
    "timeout-after": N_("{who} did not answer within {timeout} s"),
    "timeout": N_("{who} did not answer in time"),
    "bad-uri": N_("{who} is not an address this machine can dial"),
    "handshake": N_("{who} did not answer as a lancards table does"),
    "mdns": N_("multicast DNS (mDNS) failed on this network"),
    "unknown-name": N_("the name of {who} is not known on this network"),
    "refused": N_("{who} refused the connection: nothing listens at that port"),
    "reset": N_("{who} dropped the connection"),
    "no-route": N_("{who} cannot be reached from this machine (no route)"),
    "net-unreachable": N_("the network of {who} cannot be reached from this machine"),
    "no-such-address": N_("this machine has no such address"),
    "port-in-use": N_("the port is in use by another program"),
    "denied": N_("this machine does not allow it (permission denied)"),
    "no-device": N_("there is no such network device"),
    "system": N_("cannot reach {who}: {detail}"),
    "network": N_("the network failed on the way to {who}"),
    "unexpected": N_("an unexpected failure on the way to {who}"),
}
"""The words of every :attr:`Failure.code` but ``"peer"`` (a peer-layer error, said by
:func:`error_words`)."""

WHO_WORDS: Mapping[str, str] = {WHO_HOST: N_("the host"), WHO_NETWORK: N_("the network")}
"""The other end when the sentence names no address."""


def failure_text(found: Failure) -> str:
    """``found`` in the player's language: ``"the host closed the connection"`` is ``"der
    Host hat die Verbindung geschlossen"`` in German. A ``"peer"`` failure is its error's
    words (:func:`error_words`); the ``"system"`` detail is the
    operating system's own words."""
    if found.code == "peer" and found.error is not None:
        return error_words(found.error)
    if found.code not in FAILURE_WORDS:
        return found.english()
    who = _(WHO_WORDS[found.who]) if found.who in WHO_WORDS else found.who
    timeout = "" if found.timeout is None else f"{found.timeout:g}"
    return _(FAILURE_WORDS[found.code]).format(who=who, timeout=timeout, detail=found.detail)


def failure_words(exc: BaseException, who: str = WHO_HOST, timeout: float | None = None) -> str:
    """What ``exc`` (a network failure) means, in the player's language (:func:`failure_text`
    of :func:`lancards.p2p.net.failure_words.failure`, which logs the exception for
    ``--verbose``)."""
    return failure_text(failure(exc, who, timeout))


REASON_WORDS: Mapping[str, str] = {
    Reason.MALFORMED: N_("not well formed"),
    Reason.OVERSIZED: N_("too large"),
    Reason.UNKNOWN_TYPE: N_("of a kind this program does not know"),
    Reason.UNSIGNED: N_("not signed"),
    Reason.BAD_SIGNATURE: N_("its signature does not verify"),
    Reason.WRONG_SENDER: N_("from another sender than it claims"),
    Reason.WRONG_TABLE: N_("for another table"),
    Reason.REPLAYED: N_("received before"),
    Reason.OUT_OF_ORDER: N_("out of order"),
    Reason.BROKEN_CHAIN: N_("it does not follow the entry before it"),
    Reason.NOT_SEATED: N_("from someone without a seat at the table"),
    Reason.EQUIVOCATION: N_("its author signed two different entries for one place"),
    Reason.ILLEGAL: N_("the rules do not allow it"),
    Reason.OUT_OF_TURN: N_("out of turn"),
    Reason.WRONG_STATE: N_("it does not match the game"),
    Reason.WRONG_RECIPIENT: N_("addressed to another player"),
    Reason.UNDECRYPTABLE: N_("it cannot be decrypted"),
    Reason.HANDSHAKE: N_("the connection's greeting failed"),
    Reason.BAD_FRAME: N_("it was altered on the way"),
    Reason.TABLE_RULES: N_("it breaks the rules of forming a table"),
    Reason.UNEXPECTED: N_("handling it failed unexpectedly"),
    Reason.BOUND: N_("this seat voted for a removal at that place"),
}
"""Why a peer's message or a record entry was refused, by :class:`Reason` (every value)."""

RECORD_WORDS: Mapping[str, str] = {
    "empty": N_("the file is empty"),
    "no-newline": N_("the last line has no newline"),
    "empty-line": N_("the line is empty"),
    "after-close": N_("a line after the closing line"),
    "not-canonical": N_("the line is not canonical JSON"),
    "evidence-repeated": N_("the evidence line is repeated"),
    "close-not-seated": N_("the closing line is by {name}, who is not seated"),
    "close-unsigned": N_("the closing line of {name} is not signed by them"),
    "close-count": N_("the closing line of {name} counts {counted} entries; the file holds "
                      "{held}"),
    "close-evidence": N_("the closing line of {name} lists {listed} evidence lines; the file "
                         "holds {held} others"),
    "not-v1": N_("not a version 1 lancards record file"),
    "genesis": N_("the signed start of the table does not verify"),
    "header": N_("not a lancards game record (its first line must be the signed start of a "
                 "table)"),
    "unreadable": N_("cannot read {path}"),
}
"""Why a record file does not verify, by :attr:`RecordFileError.code` (``entry``: the
entry's own :class:`Reason`, :data:`REASON_WORDS`)."""

ERROR_WORDS: Mapping[str, str] = {
    "no-answer": N_("no lancards table answers at {address} ({why}), or it takes no more "
                    "players (full or started)"),
    "bad-hello": N_("{address} answered with a hello that does not verify"),
    "no-hello": N_("{address} did not answer with a lancards hello"),
    "no-address-answers": N_("table {table} of {nick} answers at none of its addresses "
                             "({tried})"),
    "halted": N_("the table is halted: no more moves"),
    "catching-up": N_("catching up with the table after a pause: a moment"),
    "not-your-move": N_("it is not this seat's move"),
    "not-your-seat": N_("an action of seat {seat}, not of this seat"),
    "not-over": N_("the game is not over"),
    "no-next-game": N_("no next game has started"),
    "watching": N_("you are watching: no moves here"),
    # a removal vote refused (ruling D-5): PeerNode.removal_refusal, GameCore.removal_problem
    "no-rescue": N_("the table has no rescue (its option rescue is off): it can only wait"),
    "not-another": N_("{name} is not another player at the table"),
    "not-waiting": N_("the table is not waiting for {name}"),
    "not-escrowed": N_("{name}'s key share is not escrowed among the others"),
    "connected": N_("{name} is connected and answering: silent {seconds} s"),
    "within-patience": N_("{name} is unreachable: silent {seconds} s of the table's patience "
                          "{patience} s"),
    "not-another-player": N_("only another player can be voted out, by a player"),
    "vote-not-void": N_("this seat's vote at this position is not void yet"),
    "max-rounds": N_("{rounds} removal rounds at this position"),
    "not-at-table": N_("seat {seat} is not at the table"),
    "over": N_("the game is over"),
    "under-way": N_("the removal of {name} is under way"),
    "too-few": N_("a removal needs 2 remaining players or more"),
    "bad-escrow": N_("{name} dealt this seat a bad key escrow part: it cannot be removed"),
    "journal-damaged": N_("the journal {path} is damaged at line {line}; not resuming from it"),
    "table-file-damaged": N_("the table file {path} is damaged; not resuming from it"),
}
"""The words of a :attr:`PeerError.code` (values from its ``params``)."""

REMATCH_WORDS: Mapping[str, str] = {
    "stopped": N_("you stopped"),
    "two-statements": N_("{name} offered two different statements for the next game"),
    "too-few": N_("too few players to go on: {yes} of the at least {least} {game} needs"),
    "two-games": N_("{name} chose two different games"),
    "games-differ": N_("the players chose different games: {choices}"),
}
"""Why there is no next game, by ``Rematch.failed_code``."""

GENERIC = N_("the peer layer refused it (the details: --verbose)")
"""An error without words here, in a language other than English."""


WORDED_IN_ENGLISH = frozenset({"unexpected"})
"""The codes said in words in English too: their English text names an exception and what it
said (``unexpected: KeyError: 'seats'``), which is for ``--verbose`` only."""


def _english(exc: PeerError) -> bool:
    """Whether ``exc`` is shown as the peer layer wrote it (English, and a code not in
    :data:`WORDED_IN_ENGLISH`); else its English text goes to the ``--verbose`` log."""
    if language() == "en" and exc.code not in WORDED_IN_ENGLISH:
        return True
    net_log.debug("%s", exc)
    return False


def reason_words(reason: str) -> str:
    """A :class:`Reason` in words (:data:`REASON_WORDS`): ``"out of turn"``, ``"außer der
    Reihe"`` in German."""
    return _(REASON_WORDS[reason]) if reason in REASON_WORDS else _(GENERIC)


SENDER_WORDS: Mapping[str, str] = {
    "the watched peer ": N_("the watched peer {name}"),
    "unseated peer ": N_("the unseated peer {name}"),
}
"""The link names the peer layer gives a sender it cannot name by a seat (the prefix, then the
peer's name)."""

LOCAL_SENDER_WORDS: Mapping[str, str] = {
    "record file": N_("the record file"),
    "the journal": N_("the journal"),
    "the local record": N_("this seat's own record"),
    "unknown peer": N_("an unknown peer"),
}
"""The names the peer layer gives a local file or an unknown link when it is the sender of a
refused line (a bad line of a record file under ``lancards audit``, of the journal on
``resume``): said after "from" (German: ``Nachricht von der Protokolldatei abgelehnt``, never
``von record file``)."""


UNVERIFIED = " (unverified)"
"""What the peer layer adds to an entry's claimed author it has not checked yet."""


SEAT_LABEL = re.compile(r" \(seat (\d+)\)\Z")
"""The seat the peer layer adds to a seated sender's name (``bob [...] (seat 2)``, counted from
1 as the players panel numbers the seats)."""


LINK_ADDRESS = re.compile(r" at (\S+:\d+)\Z")
"""The remote address the peer layer adds to a link's name (``eve [FP] at 10.0.0.5:43340``:
a greeting or a frame that failed, ``HelloHandshake``'s and ``LinkChannel``'s name)."""


def sender_words(sender: str) -> str:
    """A message's sender as the language says it: ``"eve [FP] (seat 3)"`` (English) is
    ``"eve [FP] (Platz 3)"`` in German, ``"eve [FP] at 10.0.0.5:43340"`` is ``"eve [FP] über
    10.0.0.5:43340"``; a link without a seat as :data:`SENDER_WORDS` say, a local file or an
    unknown link as :data:`LOCAL_SENDER_WORDS` do (``"der Protokolldatei"``)."""
    address = LINK_ADDRESS.search(sender)
    if address is not None:
        return _("{name} at {address}").format(name=sender_words(sender[:address.start()]),
                                               address=address[1])
    if sender in LOCAL_SENDER_WORDS:
        return _(LOCAL_SENDER_WORDS[sender])  # German: the dative, after "von"
    if sender.endswith(UNVERIFIED):  # an entry's claimed author, before its signature is checked
        return _("{name} (unverified)").format(name=sender_words(sender[:-len(UNVERIFIED)]))
    for prefix, words in SENDER_WORDS.items():
        if sender.startswith(prefix):
            return _(words).format(name=sender[len(prefix):])
    seat = SEAT_LABEL.search(sender)
    if seat is not None:  # German "(Platz 2)", not "(seat 2)"
        return sender[:seat.start()] + " " + _("(seat {number})").format(number=seat[1])
    return sender


def rejection_words(exc: RemoteProtocolError, moves: MoveWords | None = None) -> str:
    """A refused message in words: ``"message from bob [...] refused (seat 2, entry 5): out of
    turn"``, ``"Nachricht von bob [...] abgelehnt (Platz 2, Eintrag 5): außer der Reihe"``: the
    seat and the place in one bracket, a record entry counted from 1 (its ``seq`` + 1), an
    envelope's ``seq`` as it is; ``str(exc)`` (``"rejected message from bob [...] (seat 2,
    entry 5): out-of-turn: ..."``) goes to the ``--verbose`` log."""
    net_log.debug("%s", exc)  # the peer layer's sentence, codes and all, for --verbose
    why = why_refused(exc, reason_words(exc.reason), moves)  # with what was wrong, where known
    if exc.seq is None:
        return _("message from {sender} refused: {reason}").format(
            sender=sender_words(exc.sender), reason=why)
    seat = SEAT_LABEL.search(exc.sender)  # one bracket: "(Platz 3, Nachricht 326)"
    if seat is not None:
        said = exc.sender[:seat.start()]
        if isinstance(exc, MessageError):
            return _("message from {sender} refused (seat {number}, message {seq}): "
                     "{reason}").format(sender=said, number=seat[1], seq=exc.seq, reason=why)
        return _("message from {sender} refused (seat {number}, entry {seq}): {reason}").format(
            sender=said, number=seat[1], seq=exc.seq + 1, reason=why)
    if isinstance(exc, MessageError):  # an envelope's seq, not a record entry's number
        return _("message from {sender} refused (message {seq}): {reason}").format(
            sender=sender_words(exc.sender), seq=exc.seq, reason=why)
    return _("message from {sender} refused (entry {seq}): {reason}").format(
        sender=sender_words(exc.sender), seq=exc.seq + 1, reason=why)  # counted from 1


def record_words(exc: RecordFileError, moves: MoveWords | None = None) -> str:
    """Why a record file does not verify, naming the line (and entry), in words (``str(exc)``,
    ``"record file line 5 (entry 3): rejected message from ..."``, goes to ``--verbose``):
    the line, then the refusal of what it holds as :func:`rejection_words` says it, who it is
    from (a seat's player, or the record file itself, :data:`LOCAL_SENDER_WORDS`) and which
    entry, counted from 1 (``"Protokoll Zeile 14 (Eintrag 13): Nachricht von cyd [...]
    abgelehnt (Platz 1, Eintrag 13): die Regeln erlauben es nicht: R5 ablegen (cyd muss zuerst
    ziehen)"``)."""
    net_log.debug("%s", exc)  # the peer layer's sentence, codes and all, for --verbose
    cause = exc.cause if isinstance(exc.cause, RemoteProtocolError) else None
    if exc.code == "entry" and cause is not None:
        why = rejection_words(cause, moves)
    elif exc.code in RECORD_WORDS:
        why = _(RECORD_WORDS[exc.code]).format(**exc.params)
        if cause is not None:  # the header: what was wrong with it
            why = _("{reason}: {cause}").format(reason=why, cause=rejection_words(cause))
    else:
        why = _(GENERIC)
    if exc.line <= 0:
        return why
    if exc.entry is None:
        return _("record file line {line}: {reason}").format(line=exc.line, reason=why)
    return _("record file line {line} (entry {entry}): {reason}").format(
        line=exc.line, entry=exc.entry + 1, reason=why)  # counted from 1, as in English


def tried_words(tried: Sequence[tuple[str, Failure | None]]) -> list[str]:
    """Each address a joiner tried, with why it failed (``reachable_address``'s ``tried``):
    ``"10.0.0.2: the host closed the connection"``."""
    return [_("{address}: {why}").format(address=address, why=failure_text(why))
            if why is not None else
            _("{address}: answered with another key than the advertised one").format(
                address=address)
            for address, why in tried]


def _tried(tried: Sequence[tuple[str, Failure | None]]) -> str:
    return "; ".join(tried_words(tried)) or _("none advertised")


def _param(name: str, value: Any) -> Any:
    if isinstance(value, Failure):
        return failure_text(value)
    if name == "tried":
        return _tried(value)
    return value


def folder_busy_words(exc: FolderBusy) -> str:
    """A seat folder another process holds, naming it (pid, command, since when)."""
    if exc.holder is None:
        return _("the table folder {folder} is in use by another process (it has not said "
                 "which); one process at a time may play a seat: wait for it to end, or stop "
                 "it").format(folder=exc.folder)
    holder = exc.holder
    return _("the table folder {folder} is in use by process {pid} ({command}, started "
             "{started}); one process at a time may play a seat: wait for it to end, or stop "
             "it").format(folder=exc.folder, pid=holder.pid, command=holder.command,
                          started=holder.started())


STORAGE_WORDS: Mapping[str, str] = {
    "storage-full": N_("the disk is full: {cannot}; free space and {then}"),
    "storage-read-only": N_("the disk is read-only: {cannot}; make it writable or set "
                            "LANCARDS_HOME to a writable folder, and {then}"),
    "storage-denied": N_("permission denied: {cannot}; make it yours and writable or set "
                         "LANCARDS_HOME to a writable folder, and {then}"),
    "storage-missing": N_("no such file or folder (deleted or unmounted?): {cannot}; restore it "
                          "and {then}"),
    "storage-file-for-folder": N_("a file stands where a folder should be: {cannot}; move it "
                                  "away or set LANCARDS_HOME to a writable folder"),
    "storage-io": N_("the disk failed (input/output error): {cannot}; check the disk, then "
                     "{then}"),
    "storage-other": N_("{strerror}: {cannot}; {then}"),
}
"""A storage fault (``p2p.net.store.storage_error``), by its code (``{strerror}``: the
system's own words)."""

CANNOT_WORDS: Mapping[str, str] = {
    "write": N_("cannot write {path}"),
    "read": N_("cannot read {path}"),
    "create": N_("cannot create {path}"),
    "lock": N_("cannot lock {path}"),
    "write in": N_("cannot write in {path}"),
}
"""What a storage fault could not do, by its ``doing``."""

THEN_WORDS: Mapping[str, str] = {
    "run `lancards resume`": N_("run `lancards resume`"),
    "try again": N_("try again"),
}
"""What to do after a storage fault, by its ``then`` (``store.RESUME``, ``store.AGAIN``)."""


def _storage(code: str, values: Mapping[str, object], english: str) -> str:
    """A storage fault of ``code`` (:data:`STORAGE_WORDS`) with its ``values``; ``english``
    stands for what it could not do when its ``doing`` has no words here."""
    params = dict(values)
    doing, then = str(params.get("doing")), str(params.get("then"))
    params["cannot"] = (_(CANNOT_WORDS[doing]).format(path=params.get("path")) if doing in
                        CANNOT_WORDS else english)
    params["then"] = _(THEN_WORDS[then]) if then in THEN_WORDS else then
    return _(STORAGE_WORDS[code]).format(**params)


IDENTITY_WORDS: Mapping[str, str] = {
    "identity-unreadable": N_("the identity file cannot be read: {fault}"),
    "identity-uncreatable": N_("the identity file cannot be created: {fault}"),
    "identity-mode": N_("identity file {path} has mode {mode}; other users may read it (fix "
                        "with: chmod 600 {path})"),
    "identity-invalid": N_("identity file {path} is not valid: {problem} (move it away and "
                           "lancards makes a new identity, with a new key: tables saved under "
                           "the old key cannot be resumed)"),
}
"""An identity file's fault (``p2p.net.identity_file``'s :class:`IdentityError` codes;
``{fault}``: the storage fault's words, :data:`STORAGE_WORDS`)."""

IDENTITY_PROBLEM_WORDS: Mapping[str, str] = {
    "not-json": N_("it is not JSON"),
    "not-v1": N_("it is not a version 1 lancards identity"),
    "seed": N_("its seed (ed25519_seed) is not 32 bytes in hexadecimal"),
    "nick": N_("its nickname is missing or not valid"),
}
"""What is wrong in an identity file, by its ``problem`` (``identity_file.IDENTITY_PROBLEMS``)."""


def _identity(exc: PeerError) -> str:
    params = dict(exc.params)
    fault = str(params.get("fault", ""))
    if fault in STORAGE_WORDS:
        params["fault"] = _storage(fault, params, str(exc))
    if "problem" in params:
        problem = str(params["problem"])
        params["problem"] = _(IDENTITY_PROBLEM_WORDS[problem]) if problem in \
            IDENTITY_PROBLEM_WORDS else _(GENERIC)
    return _(IDENTITY_WORDS[exc.code]).format(**params)


def error_words(exc: BaseException, moves: MoveWords | None = None) -> str:
    """Any error of the peer layer in the player's language (see the module docstring); an
    exception that is not a :class:`PeerError` is its ``str``."""
    if not isinstance(exc, PeerError):
        return str(exc)
    if isinstance(exc, FolderBusy):
        return folder_busy_words(exc)
    if isinstance(exc, RemoteProtocolError):
        return rejection_words(exc, moves)
    if isinstance(exc, RecordFileError):
        return record_words(exc, moves)
    if exc.code == "identity-invalid":  # words in English too, not a parser's message
        net_log.debug("%s", exc)
        return _identity(exc)
    if _english(exc):
        return str(exc)
    if exc.code in STORAGE_WORDS:
        return _storage(exc.code, exc.params, str(exc))
    if exc.code in IDENTITY_WORDS:
        return _identity(exc)
    if exc.code in ERROR_WORDS:
        return _(ERROR_WORDS[exc.code]).format(
            **{k: _param(k, v) for k, v in exc.params.items()})
    return _(GENERIC)


DAMAGED_WORDS: Mapping[str, str] = {
    "journal-damaged": N_("the journal is damaged at line {line}"),
    "table-file-damaged": N_("the table file is damaged"),
}
"""A damaged folder as ``lancards history`` lists it (the folder named by the listing)."""


def damaged_words(exc: PeerError, english: str) -> str:
    """Why a table folder is damaged, for ``lancards history``: ``english`` (the peer layer's
    sentence without the file's path) in English, else :data:`DAMAGED_WORDS` for the code."""
    if _english(exc):
        return english
    if exc.code in DAMAGED_WORDS:
        return _(DAMAGED_WORDS[exc.code]).format(**exc.params)
    return _(GENERIC)


CHECKPOINT_WORDS: Mapping[str, str] = {
    "checkpoint-format": N_("not a checkpoint of this format"),
    "checkpoint-mac": N_("its MAC does not check (damaged, or not this seat's)"),
    "checkpoint-unreadable": N_("it cannot be read back ({error})"),
    "checkpoint-lines": N_("it covers {covered} lines of a journal of {lines}"),
    "checkpoint-entries": N_("it holds {entries} entries, the journal {journal} there"),
    "checkpoint-entry": N_("its entry {entry} is not the journal's"),
    "checkpoint-state": N_("its state does not hash to entry {entry}'s state hash"),
}
"""Why a checkpoint was refused, by its code (``p2p.protocol.checkpoint.CheckpointRefused``);
the English words are the peer layer's sentences."""


def checkpoint_words(refused: str) -> str:
    """Why ``lancards node``'s checkpoint was refused (``GameCore.checkpoint_refused``, a
    :class:`Refusal`): the peer layer's sentence in English, else :data:`CHECKPOINT_WORDS`
    for its code (a sentence without a known code stays as written)."""
    code = getattr(refused, "code", "")
    if language() == "en" or code not in CHECKPOINT_WORDS:
        return str(refused)
    return _(CHECKPOINT_WORDS[code]).format(**getattr(refused, "params", {}))


WATCH_WORDS: Mapping[str, str] = {
    "the watch stopped on a cheat": N_("the watch stopped on a cheat"),
}
"""The watcher's own refusals that are not a peer's error (``Watching.receive``)."""

CHEAT_WORDS: Mapping[str, str] = {
    "equivocation": N_("{name} signed two different entries for one place of the record"),
    "proof": N_("{name}'s shuffle proof does not hold"),
    "unvote": N_("{name} withdrew a removal vote and then began that removal"),
    "illegal": N_("{name} signed a move the rules do not allow"),
    "out-of-turn": N_("{name} signed a move out of turn"),
    "wrong-state-hash": N_("{name} signed a move that does not match the game"),
    "malformed": N_("{name} signed a malformed entry"),
}
"""Why a cheat halted the table, by ``GameCore.halt_kind`` (the cheater's name filled in)."""

_AGAIN = re.compile(r"entry (\d+) again")


def cheat_error_words(exc: PeerError | None, english: str) -> str:
    """A cheat a watcher caught (``Watching.cheat_error``): the cheat's words
    (:data:`CHEAT_WORDS`, its author named) in every language, as a refused message is said
    (``english``, the peer layer's sentence with its codes and move syntax, goes to
    ``--verbose``); ``english`` itself when there is no error to word."""
    if exc is None:
        return english
    net_log.debug("%s", english)
    reason = str(getattr(exc, "reason", ""))
    if reason in CHEAT_WORDS:
        return _(CHEAT_WORDS[reason]).format(name=getattr(exc, "sender", "?"))
    return error_words(exc)


def event_words(error: PeerError | None, text: str) -> str:
    """Why a watcher refused a message (a ``Watching`` event's ``error`` and English
    ``text``), in the player's language."""
    if error is not None:
        return error_words(error)
    if text in WATCH_WORDS:
        return _(WATCH_WORDS[text])
    again = _AGAIN.fullmatch(text)
    if again:
        return _("entry {seq} again").format(seq=again[1])
    return text


def rematch_words(code: tuple[str, Mapping[str, Any]] | None, english: str) -> str:
    """Why there is no next game (``Rematch.failed_code``), or ``english`` (``failed``) for a
    code without words here."""
    if code is None or code[0] not in REMATCH_WORDS:
        return english
    values = dict(code[1])
    if "game" in values:  # the game's name, never its id (level8-en: Level 8 (English))
        values["game"] = game_title(str(values["game"]))
    if "pairs" in values:  # who chose which game: "Ada: 8s Rule!, Bram: Level 8 Master", each
        values["choices"] = ", ".join(  # entry whole on a line (a trial read "Level" / "8")
            f"{nick}: {game_title(str(game))}".replace(" ", NO_BREAK)
            for nick, game in values.pop("pairs"))
    return _(REMATCH_WORDS[code[0]]).format(**values)


__all__ = ["CANNOT_WORDS", "CHEAT_WORDS", "CHECKPOINT_WORDS", "DAMAGED_WORDS", "ERROR_WORDS",
           "FAILURE_WORDS", "GENERIC", "IDENTITY_PROBLEM_WORDS", "IDENTITY_WORDS", "LINK_ADDRESS",
           "LOCAL_SENDER_WORDS", "REASON_WORDS", "RECORD_WORDS", "REMATCH_WORDS", "SENDER_WORDS",
           "STORAGE_WORDS", "THEN_WORDS", "UNVERIFIED", "WATCH_WORDS", "WHO_WORDS",
           "WORDED_IN_ENGLISH", "cheat_error_words", "checkpoint_words", "damaged_words",
           "error_words", "event_words", "failure_text", "failure_words", "folder_busy_words",
           "reason_words", "record_words", "rejection_words", "rematch_words", "sender_words",
           "tried_words"]
