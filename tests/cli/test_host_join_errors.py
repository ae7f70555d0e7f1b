"""host/join bad input: a busy port, an unreachable address, a malformed target (exit 2, one
line; nothing is advertised, nothing multicast)."""

from __future__ import annotations

import socket

import pytest

from lancards.cli.bench.net import free_ports
from lancards.cli.main import main


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))


def one_line_error(capsys, command):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"lancards {command}: error: ")
    return err


def test_host_on_a_busy_port(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        status = main(["host", "--autoplay", "--interface", "127.0.0.1", "--port", str(port)])
    assert status == 2
    assert "choose another --port" in one_line_error(capsys, "host")


def test_join_an_address_where_nobody_answers(capsys):
    [port] = free_ports(1)
    assert main(["join", "--autoplay", f"0123456789abcdef@127.0.0.1:{port}"]) == 2
    assert f"no lancards table answers at 127.0.0.1:{port}" in one_line_error(capsys, "join")


@pytest.mark.parametrize("target", ["127.0.0.1:4000", "abc@127.0.0.1:x"])
def test_join_a_malformed_target(capsys, target):
    assert main(["join", "--autoplay", target]) == 2
    assert "is not TABLE-ID@HOST:PORT" in one_line_error(capsys, "join")


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "9"], "--players 9: level8-master is for 2 to 6 players"),
    (["--players", "3", "--bots", "3"], "--bots 3: use 0 to 2"),
    (["--option", "nope=1"], "has no option 'nope'"),
])
def test_host_bad_arguments(capsys, argv, message):
    assert main(["host", "--autoplay", "--interface", "127.0.0.1", *argv]) == 2
    assert message in one_line_error(capsys, "host")


@pytest.mark.parametrize(("argv", "message"), [
    (["--interface", "127.0.0.1", "--port", "99999"],
     "--port 99999: a TCP port is 1 to 65535 (0: any free port)"),
    (["--interface", "127.0.0.1", "--port", "-1"], "--port -1: a TCP port is 1 to 65535"),
    (["--interface", "1.2.3.4"],
     "--interface 1.2.3.4: no interface of this machine has this address (its addresses: "),
    (["--interface", "fe80::1%eth0"],
     "--interface fe80::1%eth0: no interface of this machine has this address"),
    (["--interface", "no-such-if0"],
     "--interface no-such-if0: neither an interface of this machine ("),
])
def test_host_address_and_port_errors(capsys, argv, message):
    assert main(["host", "--autoplay", *argv]) == 2
    err = one_line_error(capsys, "host")
    assert message in err and "choose another --port" not in err


def test_join_on_an_address_this_machine_lacks(capsys):
    assert main(["join", "--autoplay", "--interface", "1.2.3.4", "--wait", "1"]) == 2
    assert "--interface 1.2.3.4: no interface of this machine has this address" in \
        one_line_error(capsys, "join")
