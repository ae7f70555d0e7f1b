"""``lancards selfplay``'s summary in words, one row per bot level (the default; ``--json``
prints the object itself), and the progress line it writes on a terminal while it plays.

The new-user trial of 2026-12-07 ran ``selfplay --seats hard,normal,normal,normal --games 4``:
35 s of silence, then one long JSON line whose fields only ``docs/bots.md`` explained.
"""

from __future__ import annotations

from typing import IO, Any

from lancards.cli.game_titles import game_title
from lancards.cli.i18n import _, ngettext
from lancards.cli.tui.width import text_width as width


def _pad(text: str, size: int, right: bool = False) -> str:
    gap = " " * max(0, size - width(text))
    return gap + text if right else text + gap


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """The summary ``summary`` (the ``--json`` object, ``cli/selfplay.py``) as lines of words:
    a title line, a header and one row per bot level (the seats it played over all games,
    ``seat-games``, its wins, its win rate in percent with its 95 % Wilson interval, the mean
    of the levels done, the final level less one: a winner is at level 9, WIN, having done all
    8; or for 8s Rule! the mean total where the lowest wins, and the decision time median /
    p95 / max in milliseconds of the wall clock), a row ``fair`` with the fair share of the
    wins beside the win rates (100 % / players), then the rounds, the longest round, the long
    rounds and the failed checks, then the time taken in seconds. Every line fits 80 columns
    for up to 4 levels. The new-user trial of issue 26 read ``mean level 9.00`` (no level 9
    exists), ``longest: 109 moves``, ``played 120`` for 30 games and no fair share."""
    games, players = int(summary["games"]), int(summary["players"])
    seed = int(summary["seed"])
    seeds = str(seed) if games == 1 else f"{seed}-{seed + games - 1}"
    lines = [ngettext("{game}, {players} players, {games} game (seed {seeds})",
                      "{game}, {players} players, {games} games (seeds {seeds})", games).format(
        game=game_title(str(summary["game"])), players=players, games=games, seeds=seeds)]
    if games > 1 and len(summary["levels"]) > 1:
        lines.append(_("the levels move one seat on each game"))
    if summary["game"] == "eights":
        lines.append(_("the lowest total wins"))
    eights = summary["game"] == "eights"
    final = _("mean total") if eights else _("levels done")
    heads = [_("bot"), _("seat-games"), _("won"), _("win % (95 % bounds)"), final,
             _("ms/move: med/p95/max")]
    rows = []
    for name, data in summary["levels"].items():
        low, high = data["wilson95"]
        rate = (f"{100 * data['win_rate']:.1f} ({100 * low:.0f}-{100 * high:.0f})"
                if data["win_rate"] is not None else "-")
        ms = data["decision_ms"]
        rows.append([name, str(data["seat_games"]), str(data["wins"]), rate,
                     "-" if data["mean_final"] is None else
                     f"{data['mean_final'] - (0 if eights else 1):.2f}",
                     f"{ms['median']:.1f}/{ms['p95']:.1f}/{ms['max']:.1f}"])
    rows.append([_("fair"), "", "", f"{100 / players:.1f}", "", ""])  # 100 % / players
    sizes = [max(width(r[i]) for r in [heads, *rows]) for i in range(len(heads))]
    for row in [heads, *rows]:
        lines.append("  ".join(_pad(cell, sizes[i], right=0 < i < 3)
                               for i, cell in enumerate(row)).rstrip())
    lines.append(ngettext("{rounds} round · longest round: {longest} moves · over 1,000 moves: "
                          "{long} · failed checks: {violations}",
                          "{rounds} rounds · longest round: {longest} moves · over 1,000 "
                          "moves: {long} · failed checks: {violations}",
                          int(summary["rounds"])).format(
        rounds=summary["rounds"], longest=summary["longest_round_moves"],
        long=summary["rounds_over_1000_moves"], violations=summary["invariant_violations"]))
    lines.append(_("{seconds:.1f} s, {rate} games a second (--json prints every figure)").format(
        seconds=float(summary["seconds"]), rate=summary["games_per_second"]))
    return lines


class Progress:
    """One line on ``stream`` (a terminal: stderr) rewritten after each game: "game 3 of 10
    played, 12 s"; nothing when ``stream`` is not a terminal (a campaign's pipe stays clean)."""

    def __init__(self, stream: IO[str], games: int) -> None:
        self.stream, self.games = stream, games
        self.shown = games > 1 and stream.isatty()

    def game_done(self, index: int, seconds: float) -> None:
        """Game ``index`` (from 0) ended, ``seconds`` after the start."""
        if self.shown:
            self.stream.write("\r" + _("game {done} of {games} played, {seconds:.0f} s").format(
                done=index + 1, games=self.games, seconds=seconds))
            self.stream.flush()

    def close(self) -> None:
        """End the progress line (before the summary is printed)."""
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


__all__ = ["Progress", "summary_lines"]
