"""Round and game results as text, for the result panels and ``lancards play --autoplay``.

No prompt-toolkit here: the same sentences appear on the screen and in the autoplay output.
Level 8 round results are read off the levels (ruling L8-10: +2 for going out, +1 for laying
down); 8s Rule! round results come from the state's ``results`` (rulings E-5 to E-8).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from lancards.cli.game_titles import game_title
from lancards.cli.i18n import _, ngettext, pgettext
from lancards.cli.tui.narrate import objective_text, suit_words
from lancards.cli.tui.width import NAME_COLUMNS, pad, text_width
from lancards.engine.core import Outcome

WIN_LEVEL = 9
"""The level value that means WIN (ruling L8-10)."""


@dataclass(frozen=True, slots=True)
class RoundReport:
    """The result of one finished round.

    Attributes:
        round: the round number, from 1.
        summary: one line (``round 2: Ada went out (level 1 -> 3); ...``).
        lines: the detail lines for the result panel (one per seat, then reneges).
    """

    round: int
    summary: str
    lines: tuple[str, ...]


def level_text(level: int) -> str:
    """``"level 3"``, or ``"WIN"`` for the level past 8 (ruling L8-10)."""
    return _("WIN") if level >= WIN_LEVEL else _("level {number}").format(number=level)


def level_figure(name: str, level: int) -> str:
    """``"Tess level 2"``, ``"Tess WIN"`` (German ``Tess: Stufe 2``, ``Tess: Sieg``: a colon
    after each name, as ``lancards history`` says it; docs/glossary-de.md)."""
    return _("{name} WIN").format(name=name) if level >= WIN_LEVEL else \
        _("{name} level {level}").format(name=name, level=level)


def level8_round(number: int, names: Sequence[str], before: Sequence[int],
                 after: Sequence[int], left: Collection[int] = ()) -> RoundReport:
    """The report of a Level 8 round from the levels before and after it (ruling L8-10); a seat
    of ``left`` (gone for good, ruling D-2) is said to have left (``bob: level 1 (left the
    table)``, ``bob left``) rather than ``level 1 -> level 1 (stays)``, which a LAN trial read
    for two players who had left the round."""
    lines = []
    parts = []
    for seat, (name, old, new) in enumerate(zip(names, before, after, strict=True)):
        if seat in left:
            lines.append(f"{name}: {level_text(new)} (" + _("left the table") + ")")
            parts.append(_("You left") if name == _("You") else
                         _("{name} left").format(name=name))
            continue
        gain = new - old
        how = {2: _("went out"), 1: _("laid down")}.get(gain, _("stays")) \
            if new < WIN_LEVEL else _("wins")
        if gain >= 2 and new >= WIN_LEVEL:
            how = _("went out and wins")
        lines.append(f"{name}: {level_text(old)} -> {level_text(new)} ({how})")
        parts.append(level_figure(name, new))
    return RoundReport(number, _("round {number}: {levels}").format(
        number=number, levels=", ".join(parts)), tuple(lines))


def eights_round(result: Any, names: Sequence[str], totals: Sequence[int],
                 objective: str, left: Collection[int] = ()) -> RoundReport:
    """The report of an 8s Rule! round (``engine.eights.RoundResult``) with running totals; a
    seat of ``left`` (gone before this round's end, ruling D-1) is said to have left rather
    than shown with its frozen total, which read like the lowest (the trial of 2026-12-05)."""
    lines = [objective] if objective else []
    for seat, name in enumerate(names):
        if seat in left:
            lines.append(_("{name}: left the table").format(name=name))
            continue
        extra = _(", renege +{points}").format(points=result.penalties[seat]) \
            if result.penalties[seat] else ""
        out = _(" (went out)") if result.went_out == seat else ""
        lines.append(f"{name}: {result.points[seat]:+d}{extra}{out}, " +
                     _("total {total}").format(total=totals[seat]))
    for renege in result.reneges:
        lines.append(_("renege: {what}").format(what=renege_text(renege, names)))
    if result.round == 8 and result.went_out is None:  # a dead layout (docs/rules-eights.md)
        lines.append(_("nobody went out: everyone passed in turn while a card that fits was "
                       "held back, so the round ended there"))
    if result.ended_early:  # ruling E-5
        lines.append(ngettext("the round ended early after {count} trick",
                              "the round ended early after {count} tricks",
                              result.tricks).format(count=result.tricks))
    parts = ", ".join((_("You left") if n == _("You") else _("{name} left").format(name=n))
                      if seat in left else _("{name} {points}").format(name=n, points=t)
                      for seat, (n, t) in enumerate(zip(names, totals, strict=True)))
    summary = _("round {number}: {levels}").format(number=result.round, levels=parts)
    if result.reneges:
        summary += " " + ngettext("({count} renege)", "({count} reneges)",
                                  len(result.reneges)).format(count=len(result.reneges))
    return RoundReport(result.round, summary, tuple(lines))


def renege_text(renege: Any, names: Sequence[str]) -> str:
    """A renege (``engine.eights.Renege``) with the offender's name and its penalty, +50
    points (ruling E-8)."""
    who = names[renege.seat]
    if renege.played is None:
        return _("round {round}, turn {number}: {who} passed while holding the playable "
                 "{card} (+50)").format(round=renege.round, number=renege.number,
                                        who=who, card=renege.held)
    led = suit_words(renege.led) if renege.led is not None else "?"
    return _("round {round}, trick {number}: {who} played {played} on a {suit} lead while "
             "holding {card} (+50)").format(
                 round=renege.round, number=renege.number, who=who, played=renege.played,
                 suit=led, card=renege.held)


def result_line(sentence: str, title: str = "") -> str:
    """The result's line: ``"8s Rule!: You win with the lowest total"`` with ``title`` (the
    game's name: the end of a screen, ``lancards play --autoplay``), ``"result: ..."``
    without."""
    if title:  # TRANSLATORS: the game's name, then who won it (or why there is no result)
        return _("{game}: {result}").format(game=title, result=sentence)
    return _("result: {result}").format(result=sentence)


def final_lines(outcome: Outcome, names: Sequence[str], game_name: str,
                removed: Collection[int] = (), title: str = "") -> list[str]:
    """The game result: the winner line first, then one line per seat in the order of the
    final places (``outcome.detail["places"]``; the winner first, a seat that left last, the
    later leaver higher: rulings E-9, D-2; equal places in seat order), then the teams; a seat
    that left marked ``(left the table)`` and one of ``removed`` ``(removed by vote)``
    (rulings D-2, D-5), and in 8s Rule! said so instead of its total (``bob: left the table``:
    the total it had when it left read like the lowest); when the game ended early because
    too few players were left (ruling D-3), a last line says so. In seat order, a person who
    left read their own ``You: 0 points`` first: the lowest total, in a game the lowest total
    wins. The winner line starts ``result:``, or with ``title`` (the game's name) when given:
    ``8s Rule!: You win with the lowest total`` (printed once the window closed, where the
    lines above may name another game: :func:`lancards.cli.tui.words.farewell`)."""

    def head(sentence: str) -> str:
        return result_line(sentence, title)

    winners = _(" and ").join(names[s] for s in outcome.winners)
    you = winners == _("You")  # the default nickname said: "You win", German "Du gewinnst"
    one = len(outcome.winners) == 1 and not you
    left = [s for s in outcome.detail.get("left", []) if isinstance(s, int)
            and 0 <= s < len(names)]
    places = outcome.detail.get("places")
    if not (isinstance(places, list) and len(places) == len(names)):
        places = [0] * len(names)  # an outcome without places: seat order
    ranked = sorted(range(len(names)), key=lambda seat: (places[seat], seat))

    def mark(seat: int) -> str:
        if seat in removed:
            return " (" + _("removed by vote") + ")"
        return " (" + _("left the table") + ")" if seat in left else ""

    if game_name == "level8":
        rounds = outcome.detail.get("rounds")
        count = rounds if isinstance(rounds, int) else 0
        text = ngettext("You win after {count} round",
                        "You win after {count} rounds", count) if you else \
            ngettext("{winners} wins after {count} round",
                     "{winners} wins after {count} rounds", count) if one else \
            ngettext("{winners} win after {count} round",
                     "{winners} win after {count} rounds", count)
        lines = [head(text.format(winners=winners,
                                  count=rounds if isinstance(rounds, int) else "?"))]
        lines += [f"{names[seat]}: {level_text(outcome.scores[seat])}{mark(seat)}"
                  for seat in ranked]
    else:
        tie = outcome.detail.get("tie_break", "none")
        note = {"round-7": _(" (tie broken by the round-7 totals)"),
                "shared": _(" (shared win)")}
        text = _("You win with the lowest total") if you else \
            _("{winners} wins with the lowest total") if one else \
            _("{winners} win with the lowest total")
        lines = [head(text.format(winners=winners)) + note.get(tie, "")]
        for seat in ranked:  # a seat gone for good: its words, not its frozen total, which
            points = outcome.scores[seat]  # read like the lowest (the trial of 2026-12-06)
            said = mark(seat)[2:-1] or ngettext("{count} point", "{count} points",
                                                 points).format(count=points)
            lines.append(f"{names[seat]}: {said}")
        for team, total in zip(outcome.detail.get("teams", []),
                               outcome.detail.get("team_totals", []), strict=False):
            lines.append(_("team {names}: {count} points").format(
                names=" + ".join(names[s] for s in team), count=total))
    if ended_early(outcome, game_name):
        gone = _(" and ").join(names[s] for s in left)
        if len(left) == 1 and gone == _("You"):  # German: "nachdem Du gegangen warst"
            lines.append(_("the game ended early: after you went, too few players were left "
                           "to play on"))
        else:  # one form per count: German says "gegangen war" / "gegangen waren"
            lines.append(ngettext("the game ended early: after {names} went, too few players "
                                  "were left to play on",
                                  "the game ended early: after {names} went, too few players "
                                  "were left to play on", len(left)).format(names=gone))
    return lines


def ended_early(outcome: Any, game_name: str) -> bool:
    """Whether the game ended because too few players were left (ruling D-3): a seat left
    and nobody reached level 8 (Level 8), or the 8 rounds were not all played (8s Rule!)."""
    left = outcome.detail.get("left", [])
    if game_name == "level8":
        return bool(left) and all(v < WIN_LEVEL for v in outcome.scores)
    rounds = outcome.detail.get("rounds")
    return bool(left) and isinstance(rounds, int) and rounds < 8


def game_over_lines(snap: Any, titled: bool = False) -> list[str]:
    """What the game-over panel says, from a ``TableSnapshot`` whose game is over: the
    :func:`final_lines`, then the evening so far (``snap.extra["evening"]``: games won, 8s
    Rule! the points too; issue 27). Also what a person who left reads once the bots finished
    the game (before, without the evening). ``titled``: the winner line names the game
    (``8s Rule!: You win ...``, as printed once the window closed)."""
    title = game_title(snap.rule_set) if titled else ""
    lines = final_lines(snap.outcome, snap.names, snap.game.name, snap.extra.get("removed", ()),
                        title)
    return lines + ([snap.extra["evening"]] if snap.extra.get("evening") else [])


@dataclass
class RoundTracker:
    """Turns a stream of views into round reports (each round reported once).

    Call :meth:`observe` with every view seen (a Level 8 or 8s Rule! state); Level 8 needs to
    see each round at least once before it ends, which every session guarantees by notifying
    after each action.
    """

    names: Sequence[str]
    _start: dict[int, tuple[int, ...]] = field(default_factory=dict)
    _reported: set[int] = field(default_factory=set)
    history: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    """Per finished round, ``(round, values)``: Level 8 the levels after it, 8s Rule! the
    running totals after it."""
    game: str = ""
    left: tuple[int, ...] = ()
    """8s Rule!: the seats that left the table (ruling D-1), as the last view observed says."""

    def chart(self) -> tuple[str, ...]:
        """Every player's progress so far as text: Level 8 the levels climbed (a bar of 8
        cells and the level after each round), 8s Rule! the running totals by round with a
        bar of the latest total."""
        if not self.history:
            return ()
        if self.game == "level8":
            first = min(self._start) if self._start else 0
            start = self._start.get(first, tuple(1 for _name in self.names))
            return level8_chart(self.names, self.history, start, earlier=first > 1)
        return eights_chart(self.names, self.history, self.left)

    def observe(self, game_name: str, view: Any) -> list[RoundReport]:
        """New round reports since the last call, oldest first (each with the chart)."""
        self.game = game_name
        reports = self._level8(view) if game_name == "level8" else self._eights(view)
        return [RoundReport(r.round, r.summary, (*r.lines, "", *self.chart()))
                for r in reports]

    def _level8(self, view: Any) -> list[RoundReport]:
        out: list[RoundReport] = []
        number, levels = view.round, tuple(view.levels)
        if number < 1:
            return out
        over = view.phase.value == "over"
        left = tuple(getattr(view, "left", ()))
        for done in sorted(r for r in self._start if r < number and r not in self._reported):
            self.history.append((done, levels))
            out.append(level8_round(done, self.names, self._start[done], levels, left))
            self._reported.add(done)
        self._start.setdefault(number, levels)
        if over and number not in self._reported:
            self.history.append((number, levels))
            out.append(level8_round(number, self.names, self._start[number], levels, left))
            self._reported.add(number)
        return out

    def _eights(self, view: Any) -> list[RoundReport]:
        out: list[RoundReport] = []
        self.left = tuple(getattr(view, "left", ()))
        totals = [0] * len(self.names)
        for result in view.results:
            totals = [t + v for t, v in zip(totals, result.totals, strict=True)]
            if result.round in self._reported:
                continue
            self._reported.add(result.round)
            self.history.append((result.round, tuple(totals)))
            objective = ""
            if result.round < 8:
                objective = objective_text(view.rules.objectives.for_round(result.round))
            out.append(eights_round(result, self.names, totals, objective, self.left))
        return out


def level8_chart(names: Sequence[str], history: Sequence[tuple[int, tuple[int, ...]]],
                 start: Sequence[int] | None = None, earlier: bool = False
                 ) -> tuple[str, ...]:
    """``Ada    ###.....  level 4  (1 2 4)``: per player a bar of the 8 levels (``#`` one
    level climbed, ``.`` one to go), the level now, and the level at ``start`` (default 1)
    then after each round. ``earlier``: rounds were played before ``start`` that this screen
    did not see (a resume, a watcher who came later): the steps begin with ``…`` (the trial
    of 2026-12-05 read ``(3 3)`` after a resume as if the game had begun at level 3). The win
    is ``W``, German ``S`` (Sieg: the German trial of 2026-12-07 read ``(... 8 8 W)`` beside
    ``Sieg``)."""
    name_w = min(NAME_COLUMNS, max(text_width(n) for n in names))
    lines = [_("levels climbed (# climbed, . to go; then the level after each round):")]
    for seat, name in enumerate(names):
        path = [start[seat] if start else 1, *(values[seat] for _round, values in history)]
        now = path[-1]
        bar = "#" * (min(now, WIN_LEVEL) - 1) + "." * (WIN_LEVEL - min(now, WIN_LEVEL))
        won = pgettext("the level chart: a player who won", "W")  # German S (Sieg): the trial
        steps = " ".join(["…"] * earlier + [won if v >= WIN_LEVEL else str(v) for v in path])
        lines.append(f"{pad(name, name_w)}  {bar}  {pad(level_text(now), 8)} ({steps})")
    return tuple(lines)


def eights_chart(names: Sequence[str], history: Sequence[tuple[int, tuple[int, ...]]],
                 left: Collection[int] = ()) -> tuple[str, ...]:
    """The running totals by round, one column per round, and a bar of the latest total
    (``+`` per step above 0, ``-`` below; lower is better, ruling E-9). A seat of ``left``
    (gone for good, ruling D-1) reads ``left the table`` instead of its frozen total, which
    read like the lowest (the new-user trial of 2026-12-06: ``bob  0``)."""
    heading = _("round")  # the column headings are the round numbers, under this word
    name_w = max(min(NAME_COLUMNS, max(text_width(n) for n in names)), text_width(heading))
    rounds = [number for number, _values in history]
    latest = history[-1][1]
    scale = max(1, max((abs(t) for s, t in enumerate(latest) if s not in left), default=1))
    lines = [_("totals by round (lowest wins):"),
             pad(heading, name_w) + " " + "".join(f"{r:>6}" for r in rounds)]
    for seat, name in enumerate(names):
        if seat in left:
            lines.append(f"{pad(name, name_w)} " + _("left the table"))
            continue
        row = "".join(f"{values[seat]:>6}" for _round, values in history)
        cells = round(10 * abs(latest[seat]) / scale)
        bar = ("+" if latest[seat] >= 0 else "-") * cells
        lines.append(f"{pad(name, name_w)} {row}  {bar}")
    return tuple(lines)
