"""What was wrong with a refused message, in the player's language, where the peer layer's
English sentence says it (``RemoteProtocolError.code`` and ``params``): every refusal the peer
layer raises about another seat's message (or a stranger's link, or a table's advertisement)
carries a stable code and the values of its English detail, and :data:`DETAIL_WORDS` words each
code. German lines said only the reason (``abgelehnt: fehlerhaft aufgebaut``) where English
said what was wrong (``malformed: ciphertext of 1 bytes``; the LAN trial with a seated
attacker). The code ``schema`` names the kind of message that broke its schema
(:data:`KIND_WORDS`); values that are words of the peer layer (a kind of message, of record
entry, of proof, of sealed message, an error inside the refusal) are said in the language too
(:func:`detail_values`).

The English line is the peer layer's own sentence, unchanged (``cli/peer_errors.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from lancards.cli.game_titles import game_title
from lancards.cli.i18n import N_, _, language
from lancards.cli.rules_errors import rules_error_words
from lancards.engine.core import EngineError
from lancards.p2p.protocol.errors import RemoteProtocolError

KIND_WORDS: Mapping[str, str] = {
    "envelope": N_("a message"),
    "record.entry": N_("an entry of the game record"),
    "record entry": N_("an entry of the game record"),
    "entry payload": N_("an entry of the game record"),
    "record.evidence": N_("evidence of a cheat"),
    "record.sync": N_("a question about the game record"),
    "record.ack": N_("a confirmation of an entry of the game record"),
    "record.check": N_("a request to check a shuffle"),
    "record.vote": N_("a removal vote"),
    "vote": N_("a removal vote"),
    "removal vote": N_("a removal vote"),
    "record.unvote": N_("a no to a removal"),
    "unvote": N_("a no to a removal"),
    "withdrawal": N_("a no to a removal"),
    "sealed": N_("a sealed message"),
    "sealed payload": N_("a sealed message"),
    "chat": N_("a chat message"),
    "presence": N_("a pause or return message"),
    "links": N_("a report of its connections"),
    "table.join": N_("a request for a seat"),
    "table.refused": N_("a refused request for a seat"),
    "table.roster": N_("the list of the table's players"),
    "table.leave": N_("a leave before the start"),
    "table.start": N_("a proposed start"),
    "table.sign": N_("a signature of the start"),
    "table.started": N_("the signed start"),
    "table.port": N_("the announcement of a port"),
    "table.addrs": N_("the table's address book"),
    "table.ask": N_("a question for the signed start"),
    "table.told": N_("the signed start, as an answer"),
    "rematch.answer": N_("an answer about the next game"),
    "rematch.sign": N_("the signed next game"),
    "watch.ask": N_("a request to watch"),
    "watch.table": N_("the watched table"),
    "watch.entry": N_("an entry for a watcher"),
    "watch.next": N_("the next game, for a watcher"),
}
"""The kind of message a ``schema`` refusal names (its ``where``: ``'chat' body`` is
``chat``)."""

DETAIL_WORDS: Mapping[str, str] = {
    "ciphertext-size": N_("not well formed: a sealed message whose encrypted part is {size} "
                          "bytes long"),
    "unseated-vote": N_("a removal vote signed by someone who is not at the table"),
    "unseated-withdrawal": N_("a no to a removal signed by someone who is not at the table"),
    "own-vote": N_("{name} voted to remove themselves"),
    # the bytes of a message (p2p/protocol/wire.py, schemas.py)
    "not-utf8": N_("{reason}: not UTF-8 text at byte {byte}"),
    "bad-json": N_("{reason}: not JSON from character {at} on"),
    "json-unreadable": N_("{reason}: JSON this program cannot read"),
    "json-float": N_("{reason}: the number {number} is not a whole number"),
    "json-constant": N_("{reason}: {constant} is not JSON"),
    "json-big-int": N_("{reason}: the whole number {number} is too large"),
    "json-duplicate": N_("{reason}: the key '{key}' appears twice"),
    "bad-text": N_("{reason}: text holding a character that is not allowed (U+{char})"),
    "too-deep": N_("{reason}: nested {depth} levels deep, at most {limit}"),
    "oversized": N_("{reason}: {size} bytes, at most {limit}"),
    "not-hex": N_("{reason}: the field '{field}' is not {length} bytes in hexadecimal"),
    "version": N_("{reason}: protocol version {version}, not 1"),
    "bad-type-name": N_("{reason}: the kind of message {type} is not a name"),
    "bad-table-id": N_("{reason}: the table id '{table}' is not one"),
    "negative-seq": N_("{reason}: the message number {seq} is below zero"),
    "bad-author": N_("{reason}: the author '{author}' is not a key"),
    "not-link-peer": N_("{reason}: the author {author}... is not the player at the other end of "
                         "the connection"),
    "unknown-type": N_("{reason}: {type}"),
    "envelope-unsigned": N_("{reason}: the message has an empty signature"),
    "signature-form": N_("{reason}: the signature is not 64 bytes in hexadecimal"),
    "bad-signature": N_("{reason}: {type}"),
    "replayed": N_("{reason}: {type}; the last one taken was numbered {last}"),
    # a message of another table, or at the wrong time
    "other-table": N_("{reason}: a message for table {table}"),
    "not-in-game": N_("{reason}: {type} during a game"),
    "sender-not-seated": N_("{reason}: the sender has no seat at this table"),
    # the lobby: joining, the roster, the start (p2p/protocol/table.py, statement.py,
    # start_fetch.py)
    "after-lobby-closed": N_("{reason}: {type} after the lobby closed"),
    "after-lobby-started": N_("{reason}: {type} after the table started"),
    "unexpected-at-host": N_("{reason}: the host expects nothing of this kind from this "
                              "player: {type}"),
    "unexpected-at-guest": N_("{reason}: a guest expects nothing of this kind from this "
                               "player: {type}"),
    "port-not-seated": N_("{reason}: it announces a port but is not at the table"),
    "addrs-not-host": N_("{reason}: the address book comes from the host once the table has "
                          "started"),
    "addrs-unseated": N_("{reason}: the address book names someone who is not seated"),
    "leave-after-proposal": N_("{reason}: leaving once the start is proposed"),
    "leave-not-seated": N_("{reason}: leaving a table it is not at"),
    "stale-roster": N_("{reason}: an old list of players (version {version})"),
    "roster-changes": N_("{reason}: the list of players changes the table, the host or the game"),
    "roster-repeats": N_("{reason}: the list of players repeats a player or has too many"),
    "statement-differs": N_("{reason}: the proposed start differs from this player's view of the "
                             "table"),
    "proposed-unseated": N_("{reason}: a start proposed to a player who is not seated"),
    "sign-before-proposal": N_("{reason}: a signature before any start was proposed"),
    "signed-other": N_("{reason}: it signed another start"),
    "sign-not-seated": N_("{reason}: a signature of the start by someone who is not seated"),
    "start-signature": N_("{reason}: the signature of the start"),
    "started-unsigned": N_("{reason}: it started a table this player never signed"),
    "told-before-proposal": N_("{reason}: the signed start before any start was proposed"),
    "rules-refused-table": N_("{reason}: {error}"),
    "options-incomplete": N_("{reason}: the rule options are not complete and valid"),
    "bad-nick": N_("{reason}: the nickname '{nick}' is not a valid one"),
    "bot-level": N_("{reason}: '{nick}' names the bot level '{level}', not one of {levels}"),
    "member-keys": N_("{reason}: the keys of {name} are not usable"),
    "spec-range": N_("{reason}: the table has a bad id or number of seats"),
    "option-values": N_("{reason}: a rule option's value is not a text, a yes/no or a number"),
    "seat-count": N_("{reason}: {count} seats, or a seat twice"),
    "seat-order": N_("{reason}: the seats are not in seat order"),
    "dealer": N_("{reason}: the first dealer {dealer} is no seat"),
    "sig-keys": N_("{reason}: a signature of someone who is not seated"),
    "start-unsigned": N_("{reason}: {name} has not signed the start"),
    "start-signature-of": N_("{reason}: the signature of the start by {name}"),
    "header-differs": N_("{reason}: the record's first line differs from the signed start"),
    "ask-other-statement": N_("{reason}: it asks for the start of a table this table did not "
                               "start"),
    "statement-no-seats": N_("{reason}: the signed start has no table or seats"),
    "statement-not-me": N_("{reason}: the signed start does not seat this player"),
    "not-in-statement": N_("{reason}: not a seat of the signed start"),
    "unasked-answer": N_("{reason}: an answer to a question never asked of it"),
    "told-other-statement": N_("{reason}: it tells the start of another table than the one this "
                                "seat signed"),
    # the next game (p2p/protocol/rematch.py, series.py)
    "not-at-ended-table": N_("{reason}: not at the table that ended"),
    "not-rematch": N_("{reason}: {type} is no message about the next game"),
    "answer-of-other": N_("{reason}: it sends an answer signed by {name}"),
    "answer-other-game": N_("{reason}: the answer of {name} is about table {table} (entry "
                             "{head}), not the game that ended here"),
    "answer-not-seated": N_("{reason}: an answer of {name}, who was not at the table that ended"),
    "no-follows": N_("{reason}: a next game that does not say which game it follows"),
    "follows-other-game": N_("{reason}: the next game follows table {table} (entry {head}), not "
                              "the one that ended here ({here}, entry {here_head})"),
    "premature-waiting": N_("{reason}: the next game is proposed too early: {names} must answer "
                             "first"),
    "premature-rules": N_("{reason}: the rules refuse the next game: {error}"),
    "premature-few": N_("{reason}: {players} players cannot play {game}"),
    "premature-games": N_("{reason}: the players chose different games ({choices})"),
    "statement-other-game": N_("{reason}: the next game plays {game}, but the answers chose "
                               "{chose}"),
    "no-names-game": N_("{reason}: the answer of {name} says no and names a game"),
    "answer-names-ended-game": N_("{reason}: the answer of {name} names the game that ended "
                                  "({game}); the same game is named by no game"),
    "answer-unknown-game": N_("{reason}: the answer of {name} chose a game this program does "
                              "not know: {game}"),
    "answer-game-range": N_("{reason}: the answer of {name} chose {game}, for {least} to {most} "
                            "players; {players} are at the table"),
    "answer-two-games": N_("{name} chose two different games ({first_game} and "
                              "{second_game})"),  # not the reason's "two entries for one place"
    "answer-same-game-follows": N_("{reason}: the answer of {name} chose the same game again, "
                                   "not {game}, which this new series plays"),
    "answer-game-follows": N_("{reason}: the answer of {name} chose {chose}, not game {number} "
                              "of this series"),
    "new-series-id": N_("{reason}: game 1 of series {series} is table {table}, not its first "
                        "game"),
    "new-series-shape": N_("{reason}: a new series with totals, or seated by its own series "
                           "id"),
    "statement-differs-in": N_("{reason}: the next game differs from this player's view in "
                                "{fields}"),
    "proposer-unsigned": N_("{reason}: the next game lacks its proposer's signature"),
    "two-statements": N_("{reason}: two different next games (tables {first} and {second})"),
    "wrong-proposer": N_("{reason}: the next game is proposed by {name}, not by {expected}"),
    "declined-and-signed": N_("{reason}: declined the next game and signed it"),
    "rematch-line": N_("{reason}: a line about the next game"),
    "without-order": N_("{reason}: an answer lists the players to leave out out of order"),
    "answer-signature": N_("{reason}: the answer of {name}"),
    "reused-table-id": N_("{reason}: the next game reuses the table id {table} of a game of its "
                           "series"),
    "answers-per-seat": N_("{reason}: the answers are not one per seat, in seat order"),
    "answer-other-follows": N_("{reason}: the answer of {name} is about table {table}, entry "
                                "{head}, not the game this one follows ({follows}, "
                                "{follows_head})"),
    "declined-seated": N_("{reason}: {name} declined and cannot be seated"),
    "without-seated": N_("{reason}: {name} agreed to play without a player who is seated"),
    "totals-repeat": N_("{reason}: the series totals name a player twice"),
    # the game record (p2p/protocol/record.py, core.py, departure.py, cheat_evidence.py)
    "entry-unsigned": N_("{reason}: the entry has an empty signature"),
    "entry-other-table": N_("{reason}: the entry names table {table}, not {here}"),
    "author-not-seated": N_("{reason}: its author {author} has no seat"),
    "entry-signature": N_("{reason}: the signature by {name}"),
    "entry-again": N_("{reason}: entry {seq} is already in the record"),
    "entry-settled": N_("{reason}: entry {seq} is settled by {name}"),
    "entry-gap": N_("{reason}: entry {seq} leaves a gap: next is {next}"),
    "broken-chain": N_("{reason}: its link to the entry before ({prev}...) is another"),
    "equivocation": N_("{reason}: two different entries numbered {seq}"),
    "rules-refused": N_("{reason}: {error}"),
    "state-hash": N_("{reason}: its game state {theirs}... is not this player's {ours}..."),
    "evidence-no-conflict": N_("{reason}: the evidence's two entries do not conflict"),
    "evidence-other-table": N_("{reason}: the evidence is not about this table"),
    "evidence-signature": N_("{reason}: the evidence's signature"),
    "early-unseated": N_("{reason}: an early entry by an author without a seat"),
    "early-signature": N_("{reason}: the signature of an early entry"),
    "after-leaving": N_("{reason}: an entry '{entry}' by seat {seat}, who left the table"),
    "out-of-turn": N_("{reason}: an entry '{entry}' by seat {seat}; the record waits for "
                       "'{due_entry}' by seat {due_seat}"),
    "out-of-turn-nothing": N_("{reason}: an entry '{entry}' by seat {seat}; the record waits "
                               "for nothing"),
    "proof": N_("{reason}: {proof} by seat {seat} does not hold"),
    "second-cheat-line": N_("{reason}: a second line about a cheat"),
    "cheat-line-place": N_("{reason}: the cheat line's entry {seq} is not for the place after the "
                            "last entry ({next})"),
    "cheat-line-allowed": N_("{reason}: the rules allow the entry of the cheat line"),
    "after-cheat-line": N_("{reason}: an entry after the cheat line"),
    # removal votes (p2p/protocol/rescue.py, votes.py)
    "vote-other-table": N_("{reason}: a removal vote for table {table}"),
    "withdrawal-other-table": N_("{reason}: a no to a removal for table {table}"),
    "vote-mismatch": N_("{reason}: a removal vote about table {table}, seat {seat}, entry {seq} "
                         "({head}...), not seat {here_seat} at entry {here_seq} ({here_head}...)"),
    "vote-signature": N_("{reason}: a removal vote"),
    "withdrawal-signature": N_("{reason}: a no to a removal"),
    "being-voted-out": N_("{reason}: seat {seat} is being voted out at entry {seq}"),
    "bound": N_("{reason}: this seat voted to remove seat {seat} at entry {seq} (round {round}) "
                 "and takes only the removal there until the round is void"),
    "links-seat": N_("{reason}: a report of its connections naming seat {seat}"),
    "links-twice": N_("{reason}: a report of its connections naming a seat twice"),
    # sealed messages (p2p/protocol/sealed.py)
    "sealed-to-other": N_("{reason}: {purpose} is sealed to {recipient}, not to {me}"),
    "sealed-other-sender": N_("{reason}: the sealed message names the sender {named}, not "
                               "{sender}"),
    "sealed-other-table": N_("{reason}: {purpose} for table {table}, where {here_purpose} for "
                              "table {here} was expected"),
    "undecryptable": N_("{reason}: {purpose} (altered, or not sealed by {sender})"),
    # the connection: the greeting and its frames (p2p/protocol/handshake.py, channel.py, p2p/net/)
    "hello-after": N_("{reason}: a message after the greeting was complete"),
    "hello-order": N_("{reason}: a message of the greeting out of order"),
    "hello-stranger": N_("{reason}: not a player of this table"),
    "hello-other-key": N_("{reason}: {expected} was expected at that address"),
    "hello-proof": N_("{reason}: the greeting's proof of its key"),
    "hello-not-proof": N_("{reason}: a proof of its key was expected, not '{got}'"),
    "hello-low-order": N_("{reason}: a key for the connection that is not safe (of low order)"),
    "hello-version": N_("{reason}: not a greeting of protocol version {version}"),
    "hello-port": N_("{reason}: the port must be 0 to 65535"),
    "hello-hex": N_("{reason}: the field '{field}' must be {digits} lowercase hexadecimal digits"),
    "hello-text": N_("{reason}: the greeting came as text, not as bytes"),
    "frame-auth": N_("{reason}: part {frame} of the connection fails its check (added, altered, "
                      "repeated or reordered on the way)"),
    "frame-size": N_("{reason}: a part larger than {limit} bytes closed the connection"),
    "text-frame": N_("{reason}: a part sent as text closed the connection (every part is bytes)"),
    "unexpected": N_("{reason}: a fault of this program, not of the sender; this message is "
                     "left out, the others are taken (the details: --verbose)"),
    # a table's advertisement on the network (p2p/protocol/advert.py, p2p/net/discovery.py)
    "txt-size": N_("{reason}: an advertisement of {size} bytes, at most {limit}"),
    "txt-runs-past": N_("{reason}: a text of the advertisement runs past its end"),
    "txt-key-ascii": N_("{reason}: the advertisement's key {key} is not printable US-ASCII"),
    "txt-missing": N_("{reason}: the advertisement lacks the key '{key}'"),
    "txt-no-value": N_("{reason}: the advertisement's key '{key}' has no value"),
    "txt-utf8": N_("{reason}: the advertisement's key '{key}' is not UTF-8 at byte {byte}"),
    "txt-nul": N_("{reason}: the advertisement's key '{key}' holds NUL (U+0000) at character {at}"),
    "txt-invalid": N_("{reason}: the advertisement's {what} is not valid"),
    "txt-no-address": N_("{reason}: the advertisement has no address or port"),
    "too-many-tables": N_("{reason}: more than {limit} tables advertised"),
    # watching a table (p2p/protocol/watching.py)
    "watch-other-table": N_("{reason}: it sent another table than before"),
    "watch-sent-table": N_("{reason}: it sent table {table}"),
    "watch-not-seated": N_("{reason}: it is not seated at the table it sent"),
    "watch-next-early": N_("{reason}: a next game before the end of this one"),
    "watch-next-follows": N_("{reason}: its next game follows table {table} (entry {head}), not "
                              "the one watched here ({here}, entry {here_head})"),
    "watch-next-not-seated": N_("{reason}: it is not seated at the next game it sent"),
    "watch-other-next": N_("{reason}: it sent another next game than before"),
    "watch-entry-early": N_("{reason}: an entry before the table"),
}
"""A refusal's whole reason, by its code: ``{reason}`` is the :class:`Reason` in words, the
other fields the code's ``params`` (:func:`detail_values`). ``tests/cli/test_rejection_codes.py``
finds every refusal the peer layer raises and checks that its code has words here."""

ENTRY_WORDS: Mapping[str, str] = {
    "key": N_("key"),
    "shuffle": N_("shuffle"),
    "shares": N_("decryption shares"),
    "open": N_("card opening"),
    "action": N_("move"),
    "leave": N_("leave"),
    "escrow": N_("key escrow"),
    "rescue": N_("rescue shares"),
}
"""A kind of record entry (``EntryKind``), for the ``entry`` and ``due_entry`` values."""

PROOF_WORDS: Mapping[str, str] = {
    "proof of shuffle": N_("the proof of shuffle"),
    "key proof of knowledge": N_("the proof of a key"),
    "decryption share proof": N_("the proof of a decryption share"),
    "card opening": N_("the opening of a card"),
}
"""A proof that does not hold (``ProofError.proof``), for the ``proof`` value."""

PURPOSE_WORDS: Mapping[str, str] = {
    "deck.shares": N_("the sealed card shares"),
    "deck.escrow": N_("the sealed key escrow"),
}
"""What a sealed message carries (its ``purpose``), for the ``purpose`` values."""

_WORDED: Mapping[str, Mapping[str, str]] = {
    "type": KIND_WORDS, "entry": ENTRY_WORDS, "due_entry": ENTRY_WORDS, "proof": PROOF_WORDS,
    "purpose": PURPOSE_WORDS, "here_purpose": PURPOSE_WORDS,
}
"""The values said in the language by a table (one it lacks is quoted as it came)."""

_IN_QUOTES = frozenset({"entry", "due_entry"})
"""The values their sentences quote (``ein Eintrag „Zug“``)."""


def _error_words(error: object) -> str | None:
    """An error inside a refusal (the rules refusing a table's options, a move) in the
    player's language, or ``None`` when it has no words here (its English is for
    ``--verbose``)."""
    if isinstance(error, EngineError):
        words = rules_error_words(error)
        if language() == "en" or words != str(error):
            return words
    return None


def detail_values(params: Mapping[str, object]) -> dict[str, object] | None:
    """A refusal's ``params`` as its words say them: a value of :data:`_WORDED` in words (or
    quoted as it came, in the language's quotation marks: English “zzz.what”, German
    „zzz.what“; a LAN trial's English line read „record.gossip“), ``error`` in words, a
    player's seat after their name as the language says it (``bob [FP] (Platz 2)``); ``None``
    when an ``error`` has no words."""
    values = dict(params)
    for name, value in params.items():
        if name in _WORDED:
            words = _WORDED[name].get(str(value))
            values[name] = (_(words) if words is not None else str(value)[:40]
                            if name in _IN_QUOTES else _("“{value}”").format(
                                value=str(value)[:40]))
        elif name == "error":
            worded = _error_words(value)
            if worded is None:
                return None
            values[name] = worded
        elif name == "pairs" and isinstance(value, (list, tuple)):
            values["choices"] = ", ".join(  # who chose which game: "Ada: 8s Rule!, Bram: Level 8"
                f"{pair[0]}: {game_title(str(pair[1]))}" for pair in value)
        elif name in _GAMES:  # the game's name, never its id (level8-en: Level 8 (English))
            values[name] = game_title(str(value))
        elif isinstance(value, str) and (seat := _SEAT.search(value)) is not None:
            values[name] = value[:seat.start()] + " " + _("(seat {number})").format(
                number=seat[1])  # a player named with a seat: German "(Platz 2)"
    return values


_GAMES = frozenset({"game", "chose", "first_game", "second_game"})
"""The values that are a rule set's id (said by the game's name)."""

_SEAT = re.compile(r" \(seat (\d+)\)\Z")


_BODY = re.compile(r"'([a-z.]+)' body")


MoveWords = Callable[[str, object], "str | None"]
"""How a refused move is said, from the refusal's sender and the engine's coded error
(:func:`lancards.cli.refusal_words.move_refused`): given by the caller, as its words need the
table log's narration (``cli/tui``, which shows these lines)."""


def why_refused(exc: RemoteProtocolError, reason: str, moves: MoveWords | None = None) -> str:
    """``reason`` (the :class:`~lancards.p2p.protocol.errors.Reason` in words) with what was
    wrong where the error's code says it: ``"fehlerhaft aufgebaut (eine Chat-Nachricht)"``,
    ``"eine Stimme zum Entfernen, signiert von jemandem, der nicht am Tisch ist"``,
    ``"schon einmal erhalten: eine Chat-Zeile; zuletzt angenommen war Nummer 7"``."""
    if exc.code == "rules-refused" and moves is not None:
        move = moves(exc.sender, exc.params.get("error"))
        if move is not None:
            return _("{reason}: {move}").format(reason=reason, move=move)
    if exc.code in DETAIL_WORDS:
        values = detail_values(exc.params)
        if values is not None:
            return _(DETAIL_WORDS[exc.code]).format(**values, reason=reason)
    if exc.code == "schema":
        where = str(exc.params.get("where", ""))
        body = _BODY.fullmatch(where)
        kind = KIND_WORDS.get(body.group(1) if body else where)
        if kind is not None:
            return _("{reason} ({kind})").format(reason=reason, kind=_(kind))
    return reason


__all__ = ["DETAIL_WORDS", "ENTRY_WORDS", "KIND_WORDS", "PROOF_WORDS", "PURPOSE_WORDS",
           "MoveWords", "detail_values", "why_refused"]
