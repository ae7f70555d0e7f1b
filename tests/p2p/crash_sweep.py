"""The crash-point sweep's driver (issue 12): seeded games where chosen seats are killed by the
store's crash hook (``LANCARDS_TEST_CRASH_AT``) at random persist boundaries and resumed from
their journal, again and again (also during the resume), until the game ends.

Seat kinds (:data:`KINDS`, one per game):

- ``bot``: every peer a ``lancards node`` process on 127.0.0.1, bots on every seat; one node is
  the victim, restarted with the same command.
- ``person``: ``lancards play`` in tmux, the full-screen table played by keys as a person would
  (its bots' peers run in the same process and die with it); resumed with ``lancards resume``
  (no ``--autoplay``) in a new tmux session, which must show the table again; after the last
  crash point the person plays on by keys, then ``lancards resume --autoplay`` finishes the game.
- ``host``: ``lancards host`` and ``lancards join`` processes in network namespaces
  (``tests/e2e``); the host and the last joiner are both victims, the crash points alternating
  between them, each resumed with ``lancards resume --autoplay``.

:func:`schedule` spreads the crash points (``LANCARDS_CRASH_POINTS``, 14 in CI) over games: the
kinds in turn, the rule sets and table sizes rotating with the seed (``LANCARDS_CRASH_SEED``);
the first game is always a 6-peer table.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lancards.cli.bench.net import free_ports
from lancards.p2p.net.crash_hook import CRASH_ENV
from tests.names import PREFIX, tmux_argv
from tests.p2p.core_harness import make_table

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("bot", "person", "host")
"""The victim's kind, by game index (see the module docstring)."""
RULE_SETS = ("eights", "level8-master", "level8", "level8-en")
"""In this order, CI's three games (seed 12) play both engines: 8s Rule!, Level 8 Master,
Level 8."""
MAX_PLAYERS = {"bot": 6, "person": 3, "host": 5}
"""Largest table per kind but for the first game (6 peers); a person's process holds every
peer of its table, so its tables stay small."""
POINTS = int(os.environ.get("LANCARDS_CRASH_POINTS", "8"))
"""Crash points over the whole sweep (8 in CI; set LANCARDS_CRASH_POINTS for more)."""
SEED = int(os.environ.get("LANCARDS_CRASH_SEED", "12"))
PER_GAME = 7
"""About this many crash points per game."""


@dataclass
class SweepGame:
    """One game of the sweep and what happened to its victims."""

    game: str
    players: int
    kind: str
    seed: int
    points: int
    victim: int = 0
    crashes: list[str] = field(default_factory=list)
    """The crash points reached, as ``SEAT:WHEN:N`` (N counted from the restart)."""
    queues: dict[int, list[str]] = field(default_factory=dict)
    armed: dict[int, str | None] = field(default_factory=dict)
    fixed: list[str] | None = None
    """Crash points given instead of drawn (e.g. ``checkpoint-torn:1``), in order."""

    @property
    def name(self) -> str:
        return f"{self.kind}-{self.game}-{self.players}p-{self.points}pts"

    def arm(self, victims: Sequence[int], span: int) -> None:
        """Draw the crash points (:func:`plan`) and deal them to ``victims`` two at a time (a
        crash far into the game, then one during the resume)."""
        points = list(self.fixed) if self.fixed is not None else plan(
            random.Random(self.seed), self.points, span)
        self.queues = {v: [p for i, p in enumerate(points) if (i // 2) % len(victims) == k]
                       for k, v in enumerate(victims)}

    def next_crash(self, seat: int) -> str | None:
        """The crash point for the next start of ``seat`` (``None``: no more crashes)."""
        queue = self.queues.get(seat, [])
        self.armed[seat] = queue.pop(0) if queue else None
        return self.armed[seat]

    def spent(self) -> bool:
        """Every crash point was reached."""
        return len(self.crashes) == self.points


def schedule(points: int = POINTS, seed: int = SEED) -> list[SweepGame]:
    """The sweep's games: about :data:`PER_GAME` points each, at least one game per kind."""
    from lancards.engine.rulesets import rule_set

    count = max(len(KINDS), round(points / PER_GAME))
    games = []
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        game = RULE_SETS[(seed + i) % len(RULE_SETS)]
        spec = rule_set(game)
        low, high = spec.min_players, min(spec.max_players, MAX_PLAYERS[kind])
        players = spec.max_players if i == 0 else low + (seed + i) % (high - low + 1)
        share = points // count + (1 if i < points % count else 0)
        games.append(SweepGame(game, players, kind, seed * 1000 + i, share,
                               victim=(seed + i) % players))
    return games


def plan(rng: random.Random, points: int, span: int = 360) -> list[str]:
    """``points`` crash points: some far into the game (up to ``span / points`` durable writes
    after a start), and crashes right after a restart (during the resume's catch-up) in
    between."""
    out = []
    far = max(4, span // max(1, points))
    for i in range(points):
        when = rng.choice(["before", "torn", "after"])
        n = rng.randint(1, 4) if i % 2 else rng.randint(1, far)
        out.append(f"{when}:{n}")
    return out


def drive(sweep: SweepGame, procs: list[Any], restart: Callable[[int, str | None], Any],
          describe: Callable[[int], str], limit: float = 300.0,
          tick: Callable[[], None] | None = None, until_spent: bool = False) -> None:
    """Watch ``procs`` (anything with ``poll()``): a victim that died by SIGKILL at its armed
    crash point is restarted with ``restart(seat, next crash)``; returns when every process
    ended with 0 (or, with ``until_spent``, once every crash point was reached).

    Raises:
        AssertionError: a process failed (``describe(seat)`` says how) or ``limit`` s passed.
    """
    deadline = time.monotonic() + limit
    while True:
        assert time.monotonic() < deadline, f"{sweep} did not end in {limit} s: {describe(0)}"
        codes = [p.poll() for p in procs]
        for i, code in enumerate(codes):
            if code == -9 and sweep.armed.get(i):
                sweep.crashes.append(f"{i}:{sweep.armed[i]}")
                procs[i] = restart(i, sweep.next_crash(i))
            else:
                assert code in (None, 0), f"seat {i} exited with {code}: {describe(i)}"
        if all(c == 0 for c in codes) or (until_spent and sweep.spent()):
            return
        if tick is not None:
            tick()
        time.sleep(0.05)


def check_records(records: Sequence[bytes]) -> Any:
    """Identical records but for the closing line, which each peer signs itself; returns the
    audit report of the first (ok and finished, else AssertionError)."""
    from lancards.p2p.protocol.audit import audit_lines

    bodies = [r.rstrip(b"\n").rsplit(b"\n", 1)[0] for r in records]
    assert all(b == bodies[0] for b in bodies), "records differ"
    assert all(b'"kind":"close"' in r.rstrip(b"\n").rsplit(b"\n", 1)[1] for r in records)
    report = audit_lines(records[0].rstrip(b"\n").split(b"\n"))
    assert report.ok and report.finished, report
    return report


# -- bot: lancards node processes on 127.0.0.1 ---------------------------------------------

def configs(tmp: Path, game: str, n: int) -> list[Path]:
    ids, table = make_table(n, game)
    ports = free_ports(n)
    keys = [m.public_key.hex() for m in table.seats]
    paths = []
    for i, me in enumerate(ids):
        cfg = {
            "statement": table.statement, "sigs": table.sigs,
            "seed": json.loads(me.to_json())["ed25519_seed"], "nick": me.nick,
            "listen": ["127.0.0.1", ports[i]],
            "peers": {keys[j]: ["127.0.0.1", ports[j]] for j in range(n) if j != i},
            "folder": str(tmp / f"peer{i}"), "record": str(tmp / f"record{i}.jsonl"),
        }
        path = tmp / f"peer{i}.json"
        path.write_text(json.dumps(cfg))
        paths.append(path)
    return paths


def start(cfg: Path, log: Path, crash: str | None) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != CRASH_ENV}
    if crash:
        env[CRASH_ENV] = crash
    with log.open("ab") as out:
        out.write(f"--- start {crash or 'no crash'}\n".encode())
    return subprocess.Popen(
        [sys.executable, "-m", "lancards", "node", str(cfg), "--deadline", "300"],
        cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT,
        preexec_fn=die_with_parent,
    )


def die_with_parent() -> None:
    """In the child: get SIGKILL when the test process dies (Linux ``PR_SET_PDEATHSIG``), so a
    test run stopped by SIGTERM or SIGKILL leaves no peer behind."""
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG


def run_game(tmp: Path, sweep: SweepGame, limit: float = 300.0) -> list[bytes]:
    """Play a ``bot`` game to the end; returns every peer's record file (bytes), in seat order.

    Raises:
        AssertionError: a peer failed or the game did not end within ``limit`` seconds.
    """
    tmp.mkdir(parents=True, exist_ok=True)
    sweep.arm([sweep.victim], 360)
    paths = configs(tmp, sweep.game, sweep.players)
    logs = [tmp / f"peer{i}.log" for i in range(sweep.players)]
    procs: list[Any] = [start(p, logs[i], sweep.next_crash(i) if i == sweep.victim else None)
                        for i, p in enumerate(paths)]
    try:
        drive(sweep, procs, lambda i, crash: start(paths[i], logs[i], crash),
              lambda i: logs[i].read_text()[-3000:], limit)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    return [(tmp / f"record{i}.jsonl").read_bytes() for i in range(sweep.players)]


# -- person: the full-screen table in tmux, played by keys ---------------------------------------

def tmux(*args: str) -> str:
    done = subprocess.run(tmux_argv(*args), capture_output=True, text=True, timeout=10)
    return done.stdout


LIFETIME_S = 600
"""Seconds a program in tmux may run (``timeout``): tmux is no child of the test, so a test run
stopped outright leaves nothing running for long."""


@contextlib.contextmanager
def tmux_server(tag: str) -> Iterator[None]:
    """Keep the tmux server up while a test's sessions come and go: a server whose last
    session ends exits, and a ``new-session`` racing that exit is lost (no program, no exit
    status). A session that sleeps holds the server; it is ended on the way out."""
    name = f"{tag}-keep"
    tmux("new-session", "-d", "-s", name, f"sleep {LIFETIME_S}")
    try:
        yield
    finally:
        tmux("kill-session", "-t", f"={name}")


def first_move_keys(screen: str) -> list[str]:
    """The keys that pick choice 1 in the list of moves on ``screen``: ``1`` alone, or ``1``
    then Enter when 10 or more choices are listed (``1`` then waits for a second digit,
    :meth:`lancards.cli.tui.controller.Picker.handle`; the CI run after 6e766c6 saw a person
    wait at "10 choices, 1-4 shown" until its 150 s ran out)."""
    counts = [int(n) for n in re.findall(r"(\d+) choices", screen)]
    counts += [int(n) for n in re.findall(r"^\W*(\d+)\. ", screen, re.MULTILINE)]
    return ["1", "Enter"] if max(counts, default=0) >= 10 else ["1"]


class TmuxRun:
    """One ``lancards ARGS`` in a new tmux session (100x30), run after ``prefix`` (such as
    ``ip netns exec NAME``); ``poll()`` as for a process (a SIGKILL is ``-9``), ``screen()``
    is what the person sees. Targets are exact (``=NAME``): tmux takes a bare name as a
    prefix, so ``...-1`` would reach session ``...-10`` once ``...-1`` is gone."""

    def __init__(self, name: str, home: Path, args: Sequence[str], crash: str | None,
                 prefix: str = "") -> None:
        self.name = name
        self.exit = home.parent / f"{name}.exit"
        self.exit.unlink(missing_ok=True)
        hook = f"{CRASH_ENV}={crash} " if crash else ""
        self._checked = time.monotonic()
        command = (f"cd {ROOT} && env -u {CRASH_ENV} LANCARDS_HOME={home} {hook}{prefix} "
                   f"timeout --foreground -k 5 {LIFETIME_S} "
                   f"{sys.executable} -m lancards {' '.join(args)}; echo $? > {self.exit}")
        for _ in range(3):  # a server that is just exiting loses the command: try again
            started = subprocess.run(tmux_argv("new-session", "-d", "-x", "100", "-y", "30",
                                                "-s", name, command),
                                      capture_output=True, timeout=10)
            if started.returncode == 0:
                break
            time.sleep(0.2)
        self.seen_table = False
        self.moves = 0
        self._pressed: tuple[str, float] | None = None

    def poll(self) -> int | None:
        """The exit status, ``None`` while it runs; 255 when the tmux session is gone without
        one (it did not start, or was ended from outside)."""
        try:
            text = self.exit.read_text().strip()
        except FileNotFoundError:
            text = ""
        if not text:
            if time.monotonic() - self._checked < 1.0:
                return None
            self._checked = time.monotonic()
            gone = subprocess.run(tmux_argv("has-session", "-t", f"={self.name}"),
                                  capture_output=True, timeout=10).returncode != 0
            return 255 if gone and not self.exit.exists() else None
        code = int(text)
        return -(code - 128) if code > 128 else code

    def screen(self) -> str:
        return tmux("capture-pane", "-p", "-t", f"={self.name}:")

    def play(self) -> None:
        """Press the keys a person would for the screen shown: ``d`` to draw, ``m`` then the
        first legal move, Enter to close a result panel; nothing until the screen changed
        since the last press (or 3 s passed)."""
        screen = self.screen()
        if re.search(r"your hand \(\d+ cards?", screen):
            self.seen_table = True
        if self._pressed and self._pressed[0] == screen and time.monotonic() < self._pressed[1]:
            return
        if "Enter: continue" in screen:
            keys = ["Enter"]
        elif "every legal move" in screen:
            keys, self.moves = first_move_keys(screen), self.moves + 1
        elif "YOUR TURN: draw a card" in screen:
            keys, self.moves = ["d"], self.moves + 1
        elif "YOUR TURN" in screen:
            keys = ["m"]
        else:
            return
        for key in keys:
            tmux("send-keys", "-t", f"={self.name}:", key)
        self._pressed = (screen, time.monotonic() + 3.0)

    def play_on(self, moves: int = 4, limit: float = 90.0) -> None:
        """Play until the screen showed the hand and the person made ``moves`` moves.

        Raises:
            AssertionError: the program ended or ``limit`` s passed first.
        """
        deadline = time.monotonic() + limit
        while not (self.seen_table and self.moves >= moves):
            assert self.poll() is None, f"the table ended: {self.screen()}"
            assert time.monotonic() < deadline, f"no play on the table: {self.screen()}"
            self.play()
            time.sleep(0.05)

    def kill(self) -> None:
        with contextlib.suppress(ValueError, IndexError, ProcessLookupError):
            pane = int(tmux("list-panes", "-t", f"={self.name}", "-F", "#{pane_pid}").split()[0])
            os.killpg(os.getpgid(pane), 9)
        tmux("kill-session", "-t", f"={self.name}")


def run_person(tmp: Path, sweep: SweepGame, limit: float = 300.0) -> tuple[Path, Path, int]:
    """A person's ``lancards play`` in tmux killed at the sweep's crash points, each time
    resumed with ``lancards resume`` in tmux; then the person plays on by keys on the resumed
    table (its screen must show the hand) and is killed once more, and ``lancards resume
    --autoplay --record`` finishes the game.

    Returns:
        (the home folder, the record, the person's moves on the last resumed screen).

    Raises:
        AssertionError: a run failed, the table did not show again, or time ran out.
    """
    home = tmp / "home"
    home.mkdir(parents=True, exist_ok=True)
    sweep.arm([0], 150 * sweep.players * sweep.players)
    runs: list[TmuxRun] = []
    tag = f"{PREFIX}-sweep-{os.getpid()}-{sweep.seed}"

    def launch(_: int, crash: str | None) -> TmuxRun:
        args = ["resume", "--bot-delay", "0"] if runs else [
            "play", "--game", sweep.game, "--bots", str(sweep.players - 1), "--seed",
            str(sweep.seed), "--bot-delay", "0", "--name", "Tess"]
        runs.append(TmuxRun(f"{tag}-{len(runs)}", home, args, crash))
        return runs[-1]

    with tmux_server(tag):
        procs: list[Any] = [launch(0, sweep.next_crash(0))]
        try:
            drive(sweep, procs, launch, lambda _: runs[-1].screen(), limit,
                  tick=lambda: runs[-1].play(), until_spent=True)
            last = runs[-1]
            last.play_on()  # the table again, played on by keys
        finally:
            for run in runs:
                run.kill()
    record = tmp / "game.jsonl"
    env = {k: v for k, v in os.environ.items() if k != CRASH_ENV}
    finisher = subprocess.run(
        [sys.executable, "-m", "lancards", "resume", "--autoplay", "--record", str(record)],
        cwd=ROOT, env={**env, "LANCARDS_HOME": str(home)}, capture_output=True, text=True,
        timeout=limit, preexec_fn=die_with_parent)
    assert finisher.returncode == 0, finisher.stdout[-2000:] + finisher.stderr[-2000:]
    return home, record, last.moves
