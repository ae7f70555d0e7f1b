"""The finished game a "play again" starts from, and the choice of the next game's rule set
(another game with the same players, the games night; ``docs/protocol.md`` 6.1, "Another
game"): which rule sets an answer may name, and which one the answers agree on.

A "yes" may name another rule set (the answer's ``game``; ``""``: the same game). A choice is
final, like a "no": a second "yes" of the same player naming another game is an equivocation.
The next game is built only when every "yes" names the same game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lancards.p2p.protocol.errors import LocalProtocolError, Reason, TableError
from lancards.p2p.protocol.identity import PublicIdentity, verify_signature
from lancards.p2p.protocol.series import add_game
from lancards.p2p.protocol.series_schemas import RematchAnswer
from lancards.p2p.protocol.statement import RulesCheck, StartedTable


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game, as the next one needs it.

    Attributes:
        table: its started table.
        head: the hash of its record's last entry (64 hex).
        winners: its winning seats; ``scores``: each seat's final figure (``Outcome``).
        first_dealer: its first dealer (Level 8; ``GameCore.first_dealer``).
        present: the keys of the seats still at the table at its end (not left or removed).
    """

    table: StartedTable
    head: str
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    first_dealer: int | None
    present: tuple[bytes, ...] = field(default=())

    @property
    def series(self) -> str:
        """The series id: the first game's table id."""
        follows = self.table.statement.get("follows")
        return str(follows["series"]) if follows else self.table.spec.table

    @property
    def seating(self) -> str:
        """The id whose seat order the players keep (``follows.seating``, else the series id):
        the first series of the evening's, when it went on with another game."""
        follows = self.table.statement.get("follows")
        return str(follows.get("seating") or follows["series"]) if follows else \
            self.table.spec.table

    @property
    def number(self) -> int:
        """This game's number in its series (1 for a first game)."""
        follows = self.table.statement.get("follows")
        return int(follows["game"]) if follows else 1

    def totals(self) -> list[dict[str, Any]]:
        """The series totals through this game (``{"pk", "nick", "won", "score"}`` each)."""
        follows = self.table.statement.get("follows")
        before = follows["totals"] if follows else []
        seats = [(m.public_key, m.nick) for m in self.table.seats]
        return add_game(before, seats, self.winners, self.scores)


def series_totals(table: StartedTable) -> list[dict[str, Any]]:
    """The totals of the series before ``table``'s game (empty for a first game)."""
    follows = table.statement.get("follows")
    return [dict(t) for t in follows["totals"]] if follows else []


def check_choice(ans: RematchAnswer, finished: Finished, players: int, rules_check: RulesCheck,
                 who: str, signer: str) -> None:
    """Check the game a "yes" names (``ans.game``; none: nothing to check) against the game
    that ended and the ``players`` still at the table.

    Raises:
        TableError: naming ``who`` (the deliverer) and ``signer``: ``malformed`` (the game that
            ended named: the same game names none), ``table-rules`` (a rule set the registry
            does not know, or whose range of players does not hold ``players``).
    """
    if not ans.game:
        return
    if ans.game == finished.table.spec.game:
        raise TableError(who, Reason.MALFORMED,
                         f"the answer of {signer} names the game that ended ({ans.game}): "
                         "the same game is named by no game").with_code(
                             "answer-names-ended-game", name=signer, game=ans.game)
    lo, hi = game_range(ans.game, rules_check)
    if lo is None:
        raise TableError(who, Reason.TABLE_RULES,
                         f"the answer of {signer} chose a game this program does not know: "
                         f"{ans.game}").with_code("answer-unknown-game", name=signer,
                                                  game=ans.game)
    if not lo <= players <= hi:
        raise TableError(who, Reason.TABLE_RULES,
                         f"the answer of {signer} chose {ans.game}, for {lo} to {hi} players; "
                         f"{players} are at the table").with_code(
                             "answer-game-range", name=signer, game=ans.game, least=lo,
                             most=hi, players=players)


def game_range(game: str, rules_check: RulesCheck) -> tuple[int | None, int]:
    """The least and most players of ``game`` with its default options (at most 6 seats);
    ``(None, 0)`` for a rule set the registry does not know."""
    try:
        _, lo, hi = rules_check(game, {})
    except Exception:  # an unknown rule set (engine.core.RulesError)
        return None, 0
    return lo, min(hi, 6)


def fitting_games(finished: Finished, players: int, rules_check: RulesCheck) -> tuple[str, ...]:
    """The rule sets ``players`` may play next: the game that ended first (with its options,
    but for the dealer), when its least number of players holds them, then each other rule
    set of the registry (``engine.rulesets.RULE_SETS``, in its order) whose range with its
    default options does (:func:`game_range`; another game, ``docs/protocol.md`` 6.1). At an
    8s Rule! table (3 to 6) with 2 players left: the Level 8 rule sets (2 to 6) only."""
    from lancards.engine.rulesets import RULE_SETS

    old = finished.table.spec
    try:
        _, lo, _ = rules_check(old.game, {k: v for k, v in old.options.items() if k != "dealer"})
        same = [old.game] if lo <= players else []
    except Exception:  # the options were good for the last game
        same = []
    others = []
    for spec in RULE_SETS:
        least, most = game_range(spec.name, rules_check)
        if spec.name != old.game and least is not None and least <= players <= most:
            others.append(spec.name)
    return (*same, *others)


def check_same_choice(old: RematchAnswer, new: RematchAnswer, who: str, signer: str,
                      ended: str) -> None:
    """A later "yes" of the same player may not change its game (a choice is final);
    ``ended``: the rule set of the game that ended (a "yes" naming no game chose it).

    Raises:
        TableError: ``equivocation``, naming the signer (two signed "yes" for two games); its
            code's ``first_game`` and ``second_game`` are rule sets, ``ended`` for no game.
    """
    if old.yes and new.yes and old.game != new.game:
        raise TableError(signer, Reason.EQUIVOCATION,
                         f"chose two different games ({old.game or 'the same game'} and "
                         f"{new.game or 'the same game'}; delivered by {who})").with_code(
                             "answer-two-games", name=signer, first_game=old.game or ended,
                             second_game=new.game or ended)


def choices(answers: Mapping[bytes, RematchAnswer], keys: list[bytes],
            ended: str) -> dict[bytes, str]:
    """The rule set each of ``keys`` (players who said yes) chose (``ended``: the same game)."""
    return {k: answers[k].game or ended for k in keys}


def agreed_game(chosen: Mapping[bytes, str], nick: Callable[[bytes], str]) -> str:
    """The one rule set every "yes" chose.

    Raises:
        LocalProtocolError: ``premature-games``: the "yes" answers chose different games.
    """
    games = set(chosen.values())
    if len(games) == 1:
        return next(iter(games))
    pairs = tuple((nick(k), g) for k, g in chosen.items())
    names = ", ".join(f"{n}: {g}" for n, g in pairs)
    raise LocalProtocolError(f"the players chose different games ({names})").with_code(
        "premature-games", choices=names, pairs=pairs)


def verifies(key: str, sig: str, message: bytes) -> bool:
    """Whether ``sig`` (hex) is ``key``'s (hex) signature of ``message``."""
    try:
        return len(sig) == 128 and verify_signature(bytes.fromhex(key), bytes.fromhex(sig),
                                                    message)
    except ValueError:
        return False


def members_of(table: StartedTable) -> tuple[PublicIdentity, ...]:
    """The seats of ``table`` (for the screens)."""
    return table.seats


__all__ = ["Finished", "agreed_game", "check_choice", "check_same_choice", "choices",
           "fitting_games", "game_range", "members_of", "series_totals", "verifies"]
