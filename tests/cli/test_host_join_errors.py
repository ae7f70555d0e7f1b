"""host/join bad input: a busy port, an unreachable address, a malformed target (exit 2, one
line; nothing is advertised, nothing multicast)."""

from __future__ import annotations

import logging
import socket

import pytest

from lancards.cli.bench.net import free_ports
from lancards.cli.main import main
from tests.p2p.net.closing_server import closing_server


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


@pytest.fixture
def quiet_afterwards():
    """``--verbose`` gives the ``lancards.net`` logger a handler for the process: taken away
    after the test."""
    log = logging.getLogger("lancards.net")
    yield
    log.handlers.clear()
    log.setLevel(logging.NOTSET)


def test_join_an_address_whose_host_closes_the_connection_says_so_in_words(capsys,
                                                                           quiet_afterwards):
    # issue 25, item 14: the error said "(ConnectionClosedOK)"; --verbose still tells it
    with closing_server() as port:
        assert main(["join", "--autoplay", f"0123456789abcdef@127.0.0.1:{port}"]) == 2
        assert one_line_error(capsys, "join") == (
            f"lancards join: error: no lancards table answers at 127.0.0.1:{port} (the host "
            "closed the connection), or it takes no more players (full or started)\n")
        assert main(["join", "--autoplay", "--verbose",
                     f"0123456789abcdef@127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("lancards: the host closed the connection (ConnectionClosedOK: received "
                      "1000 (OK); then sent 1000 (OK))")
    assert "ConnectionClosed" not in err[-1] and err[-1].startswith("lancards join: error: ")


@pytest.mark.parametrize("target", ["127.0.0.1:4000", "abc@127.0.0.1:x"])
def test_join_a_malformed_target(capsys, target):
    assert main(["join", "--autoplay", target]) == 2
    assert "is not TABLE-ID@HOST:PORT" in one_line_error(capsys, "join")


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "9"], "--players 9: Level 8 Master is for 2 to 6 players"),
    (["--players", "3", "--bots", "3"], "--bots 3: use 0 to 2 (of 3 seats, one is yours)"),
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


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "3", "--option", "rescue=maybe"],
     "option rescue must be on or off, not 'maybe'"),
    (["--players", "3", "--option", "rescue=on", "--option", "patience=-5"],
     "option patience must be 10 to 3600 seconds, not -5"),
    (["--players", "3", "--option", "rescue=on", "--option", "patience=abc"],
     "option patience must be 10 to 3600 seconds, not 'abc'"),
    (["--players", "3", "--option", "rescue=on", "--option", "patience=0"],
     "option patience must be 10 to 3600 seconds, not 0"),
    (["--players", "3", "--option", "patience=30"],
     "option patience is the silence before a removal vote: it needs --option rescue=on"),
    (["--players", "2", "--option", "rescue=on"],
     "--players 2: Level 8 Master is for 3 to 6 players (rescue on needs 3 or more)"),
    (["--game", "eights", "--players", "3", "--option", "partners=true"],
     "--players 3: option 'partners' needs 4 or 6 players, not 3"),
    (["--game", "poker"],
     "--game 'poker': choose one of eights, level8, level8-en, level8-master"),
])
def test_host_refuses_at_once_what_the_table_would_refuse(capsys, args, message):
    """Issue 25: a traceback, or a table advertised and joined that fails only when full."""
    status = main(["host", "--autoplay", "--interface", "127.0.0.1", *args])
    assert status == 2
    assert one_line_error(capsys, "host") == f"lancards host: error: {message}\n"


def test_host_names_the_rescue_option_as_typed_in_german(capsys, german):
    """The German line said "rescue on" as if English words: the option as it is typed."""
    assert main(["host", "--lang", "de", "--autoplay", "--interface", "127.0.0.1", "--players", "2",
                 "--option", "rescue=on"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] + "\n" == (
        "lancards host: Fehler: --players 2: Level 8 Master ist für 3 bis 6 Spieler (rescue=on "
        "braucht 3 oder mehr)\n")


@pytest.mark.parametrize(("args", "message"), [
    (["--wait", "-3"], "--wait -3: seconds to look for tables, above 0"),
    (["--game", "poker"],
     "--game 'poker': choose one of eights, level8, level8-en, level8-master"),
    (["00112233aabbccdd@192.0.2.7"],
     "'00112233aabbccdd@192.0.2.7' is not TABLE-ID@HOST:PORT (the host prints it)"),
    (["nonsense"], "'nonsense' is neither a table id (16 hex digits, as the lobby lists it) "
                   "nor TABLE-ID@HOST:PORT (the host prints it)"),
])
def test_join_checks_every_argument_where_it_is_given(capsys, args, message):
    status = main(["join", "--autoplay", "--interface", "127.0.0.1", *args])
    assert status == 2
    assert one_line_error(capsys, "join") == f"lancards join: error: {message}\n"


def test_play_refuses_the_table_options_its_bots_never_need(capsys):
    status = main(["play", "--autoplay", "--bots", "2", "--option", "rescue=on"])
    assert status == 2
    assert one_line_error(capsys, "play") == (
        "lancards play: error: option rescue: the seats of a play table are this process's own "
        "and never vanish; rescue and patience are for lancards host\n")


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "eights", "--bots", "2", "--option", "partners=true"],
     "option 'partners' needs 4 or 6 players, not 3"),  # no "(ruling E-10)": words only
    (["--game", "level8", "--option", "sides=back"],
     "seat 1 plays the back side, but no level-card file was given (option 'level_cards'); the "
     "back sides are not in the rulebooks"),
])
def test_play_refuses_options_its_seats_cannot_play_before_making_a_table(capsys, tmp_path,
                                                                          monkeypatch, args,
                                                                          message):
    """The trial of 2026-12-05: refused after its folder was made, the table stayed in
    ``lancards history`` as unfinished and ``lancards resume`` failed on it for ever."""
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["play", "--autoplay", *args]) == 2
    assert one_line_error(capsys, "play") == f"lancards play: error: {message}\n"
    assert not (tmp_path / "tables").exists()
    assert main(["history"]) == 0
    assert "unfinished" not in capsys.readouterr().out


def test_a_refused_lobby_message_without_a_screen_is_said_in_words(capsys, caplog):
    """``host --autoplay`` / ``join --autoplay`` printed ``rejected: ... unexpected: KeyError:
    ...``: now words on stderr, the protocol's text in the --verbose log only."""
    from lancards.cli.lobby.common import report_on_stderr
    from lancards.p2p.protocol.errors import unexpected

    with caplog.at_level(logging.DEBUG, logger="lancards.net"):
        report_on_stderr(unexpected("bob", KeyError("seats")))
    assert capsys.readouterr().err == \
        "ignored a message from bob: it does not follow the table's rules\n"
    assert caplog.messages == [
        "rejected: rejected message from bob: unexpected: KeyError: 'seats'"]


def test_join_refuses_a_table_this_identity_already_sits_at(capsys, tmp_path, monkeypatch):
    """The trial of 2026-12-05: a second window with the same home joined the table the first
    window hosts and read "no lancards table answers ... (the host closed the connection)"."""
    import json

    from lancards.p2p.protocol.identity import Identity

    me = Identity(b"\x05" * 32, "You")
    (tmp_path / "identity.json").write_text(me.to_json())
    (tmp_path / "identity.json").chmod(0o600)
    folder = tmp_path / "tables" / "0123456789abcdef"
    folder.mkdir(parents=True)
    (folder / "table.json").write_text(json.dumps({"mode": "remote", "statement": {},
                                                   "sigs": {}, "me": me.public_key.hex()}))
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["join", "--autoplay", "0123456789abcdef@127.0.0.1:9"]) == 2
    assert one_line_error(capsys, "join") == (
        "lancards join: error: table 0123456789abcdef is yours already: it runs in another "
        "window, or 'lancards resume 0123456789abcdef' goes on with it; a second player on this "
        "machine needs another LANCARDS_HOME\n")
    (folder / "finished").touch()  # over: nothing of it runs any more; the address is tried
    assert main(["join", "--autoplay", "0123456789abcdef@127.0.0.1:9"]) == 2
    assert "is yours already" not in one_line_error(capsys, "join")
    # a host of this home still waiting for players: no table.json yet, its lock's holder lives
    waiting = tmp_path / "tables" / "fedcba9876543210"
    waiting.mkdir()
    import subprocess
    import sys

    host = subprocess.Popen([sys.executable, "-c", (  # another process holds it, as a host
        "import sys, time; from lancards.p2p.net.folder_lock import lock_folder; "
        f"lock_folder({str(waiting)!r}, 'lancards host'); print('held', flush=True); "
        "time.sleep(60)")], stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None and host.stdout.readline().strip() == "held"
        assert main(["join", "--autoplay", "fedcba9876543210@127.0.0.1:9"]) == 2
        assert "table fedcba9876543210 is yours already" in one_line_error(capsys, "join")
    finally:
        host.kill()
        host.wait(10)


@pytest.mark.parametrize("target", ["0123456789abcdef@127.0.0.1", "abc@127.0.0.1:4000"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_watch_a_malformed_address_is_one_line(capsys, tmp_path, monkeypatch, target, lang):
    """The trial of 2026-12-05: a traceback (``TypeError: 'str' object is not callable``, the
    translation function shadowed by an unpacking)."""
    from lancards.cli import i18n

    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    try:
        assert main(["--lang", lang, "watch", target]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{target!r}" in err and "Traceback" not in err
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "3"], "--games 3 needs --autoplay, without --local: at the table, the end of "
                       "a game offers to play again"),
    (["--games", "3", "--autoplay", "--local"],
     "--games 3 needs --autoplay, without --local: at the table, the end of a game offers to "
     "play again"),
    (["--games", "21", "--autoplay"], "--games 21: 1 to 20, with --autoplay on a networked "
                                      "table (at the table, the end of a game offers to play "
                                      "again)"),
])
def test_play_games_says_what_is_missing(capsys, args, message):
    """The trial of 2026-12-05: ``play --games 3`` said "1 to 20, with --autoplay ...", read as
    if 3 were out of range; the missing --autoplay is said first."""
    assert main(["play", *args]) == 2
    assert one_line_error(capsys, "play") == f"lancards play: error: {message}\n"


def test_host_join_and_play_offer_the_same_table_by_default(capsys, monkeypatch):
    """The trial: ``host`` made 2 seats unless told, a table created from ``join``'s lobby 4,
    ``play`` 4 (you and 3 bots); every way in now offers 4 seats, and both helps say so."""
    from lancards.cli.main import build_parser

    parser = build_parser(("host", "join", "play"))
    assert parser.parse_args(["host"]).players == 4
    assert parser.parse_args(["join"]).players == 4
    assert parser.parse_args(["play"]).bots + 1 == 4
    monkeypatch.setenv("COLUMNS", "200")
    for command, words in (("host",
                             "seats at the table, yours and --bots included (default 4)"),
                           ("join", "seats of a table created from the lobby (default 4)")):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        [line] = [line for line in capsys.readouterr().out.splitlines()
                  if line.startswith("  --players PLAYERS ")]
        assert line.removeprefix("  --players PLAYERS ").strip() == words


@pytest.mark.parametrize("command", ["host", "join"])
@pytest.mark.parametrize(("name", "said"), [
    ("abcdefghijklmnopqrstuvwxy", "--name 'abcdefghijklmnopqrstuvwxy': use 1 to 24 printable "
                                  "characters"),
    ("   ", "--name '   ': use 1 to 24 printable characters"),
    ("a\tb", "--name 'a\\tb': use 1 to 24 printable characters"),
])
def test_a_name_no_table_takes_is_one_line_not_a_traceback(capsys, command, name, said):
    """The trial of 2026-12-07: a 25-character or blank --name ended host and join with a
    traceback (and play had another limit, 16); now one line, exit 2, before anything starts."""
    target = ["0123456789abcdef@127.0.0.1:9"] if command == "join" else []
    assert main([command, "--autoplay", "--name", name, *target]) == 2
    assert one_line_error(capsys, command).rstrip("\n").endswith(said)


def test_a_name_of_24_characters_is_taken_with_its_outer_spaces_dropped():
    import argparse

    from lancards.cli.errors import checked_name

    assert checked_name("  abcdefghijklmnopqrstuvwx ") == "abcdefghijklmnopqrstuvwx"
    assert checked_name(None) is None
    args = argparse.Namespace(name=" ann ")
    assert checked_name(args.name) == "ann"


def test_an_error_on_a_terminal_wraps_at_a_space_at_80_columns(tmp_path, monkeypatch):
    """The trial of 2026-12-08 (h9): ``lancards play: error: seat 1 plays the back side, but
    no level-card file was gi`` / ``ven ...`` at 80 columns; into a pipe it stays one line."""
    import io
    import os

    from lancards.cli.tui import fit

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    monkeypatch.setattr(fit.shutil, "get_terminal_size",
                        lambda *a, **k: os.terminal_size((80, 24)))
    err = Terminal()
    monkeypatch.setattr("sys.stderr", err)
    assert main(["play", "--autoplay", "--game", "level8", "--option", "sides=back"]) == 2
    assert err.getvalue().splitlines() == [
        "lancards play: error: seat 1 plays the back side, but no level-card file was",
        "   given (option 'level_cards'); the back sides are not in the rulebooks"]
