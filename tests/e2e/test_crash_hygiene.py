"""Test hygiene (issue 12, situation 7): stopping the test run with SIGTERM or SIGINT leaves
no process and no namespace behind, and a run removes what a killed run left (its prefix)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.netns import ROOT, _ip, remove_stale
from tests.names import PREFIX

pytestmark = pytest.mark.e2e

TARGET = "LANCARDS_E2E_HYGIENE_TARGET"


def namespaces() -> set[str]:
    return {line.split()[0] for line in _ip("netns", "list", check=False).stdout.splitlines()
            if line.strip()}


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in (
        Path(f"/proc/{pid}/stat").read_text().split()[2])


def test_target_holds_a_lan_until_stopped(lan):
    """Run only by the test below (in a child pytest): a LAN with a process in it, forever."""
    out = os.environ.get(TARGET)
    if not out:
        pytest.skip("the target of test_stopping_the_test_run_leaves_nothing_behind")
    proc = lan.spawn(lan.hosts[0], ["sleep", "600"])
    Path(out).write_text(f"{lan.tag} {proc.pid}\n")
    time.sleep(600)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_test_run_leaves_nothing_behind(netns_ok, tmp_path, signum):
    info = tmp_path / "lan.txt"
    child = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         f"{Path(__file__)}::test_target_holds_a_lan_until_stopped"],
        cwd=ROOT, env={**os.environ, TARGET: str(info)}, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().endswith("\n"):
            assert time.monotonic() < deadline and child.poll() is None, "no LAN was made"
            time.sleep(0.1)
        tag, pid_text = info.read_text().split()
        sleeper = int(pid_text)
        assert {n for n in namespaces() if n.startswith(tag + "-")} and alive(sleeper)
        child.send_signal(signum)
        child.wait(30)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait(10)
    assert not {n for n in namespaces() if n.startswith(tag + "-")}
    assert not alive(sleeper)


def test_leftovers_of_a_killed_run_are_removed_at_start(netns_ok):
    gone = subprocess.run(["true"], check=True)
    assert gone.returncode == 0
    dead = subprocess.Popen(["true"])
    dead.wait()
    name = f"{PREFIX}-{dead.pid}-9-a"
    other = f"{'zq' if PREFIX != 'zq' else 'zr'}-{dead.pid}-9-a"  # another person's run
    _ip("netns", "add", name)
    _ip("netns", "add", other)
    sleeper = subprocess.Popen(["ip", "netns", "exec", name, "sleep", "600"],
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while not _ip("netns", "pids", name, check=False).stdout.split():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        gone = remove_stale()
        assert name in gone and other not in gone
        sleeper.wait(10)
        assert name not in namespaces() and other in namespaces()
    finally:
        if sleeper.poll() is None:
            sleeper.kill()
            sleeper.wait(10)
        _ip("netns", "del", name, check=False)
        _ip("netns", "del", other, check=False)
