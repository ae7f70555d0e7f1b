"""The waiting screen in process (80x24): its text, the keys that cancel it, the question it
asks when the host is gone, and the typeahead dropped between screens (issue 25)."""

from __future__ import annotations

import asyncio
import os
import pty
import select
import tty as tty_mode

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from lancards.cli.tui.typeahead import flush_typeahead
from lancards.cli.tui.waiting import Cancelled, WaitingScreen, wait_on
from tests.cli.tui.harness import PyteTerminal

pytestmark = pytest.mark.timeout(30)


def screen_lines(term: PyteTerminal) -> list[str]:
    return [line for line in term.text().splitlines() if line.strip()]


async def shown(pipe, term, keys, work, *, ask=None):
    output = Vt100_Output(term, lambda: Size(rows=24, columns=80),  # type: ignore[arg-type]
                          enable_cpr=False)
    screen = WaitingScreen("lancards · joining a table", input=pipe, output=output)
    screen.show(["at the table: ann (host), bob (you)", "waiting for 1 more player"])
    seen: list[list[str]] = []

    async def typist() -> None:
        await asyncio.sleep(0.2)
        seen.append(screen_lines(term))
        if ask is not None:
            asking = asyncio.ensure_future(screen.ask(*ask))
            await asyncio.sleep(0.2)
            seen.append(screen_lines(term))
        for key in keys:
            pipe.send_text(key)
            await asyncio.sleep(0.1)
        if ask is not None:
            seen.append([await asking])
            for _ in range(40):  # the redraw after the answer, at most 2 s on a busy machine
                if screen_lines(term)[-1] == " q, Esc or Ctrl-C: cancel":
                    break
                await asyncio.sleep(0.05)
            seen.append(screen_lines(term))
            pipe.send_text("q")  # the question answered, q cancels the wait itself

    typing = asyncio.ensure_future(typist())
    try:
        return await wait_on(screen, work(screen)), seen
    except Cancelled:
        return "cancelled", seen
    finally:
        await typing


@pytest.mark.parametrize("key", ["q", "\x1b", "\x03", "\x04"])
def test_q_esc_ctrl_c_and_ctrl_d_cancel_the_wait_and_its_work(key):
    term = PyteTerminal(80, 24)
    ended: list[str] = []

    async def work(screen):
        try:
            await asyncio.sleep(30)
        finally:
            ended.append("work cancelled")

    async def main():
        with create_pipe_input() as pipe:
            return await shown(pipe, term, [key], work)

    result, seen = asyncio.run(asyncio.wait_for(main(), 10))
    assert result == "cancelled" and ended == ["work cancelled"]
    assert seen[0] == [" lancards · joining a table",
                       " at the table: ann (host), bob (you)",
                       " waiting for 1 more player",
                       " q, Esc or Ctrl-C: cancel"]


def test_the_screen_closes_with_the_work_and_gives_its_result():
    term = PyteTerminal(80, 24)

    async def work(screen):
        await asyncio.sleep(0.3)
        screen.show(["every seat is taken: the table is starting..."])
        await asyncio.sleep(0.2)
        return "started"

    async def main():
        with create_pipe_input() as pipe:
            return await shown(pipe, term, ["x", "n"], work)  # other keys do nothing

    result, _ = asyncio.run(asyncio.wait_for(main(), 10))
    assert result == "started"


def test_a_question_offers_its_keys_and_q_answers_it():
    term = PyteTerminal(80, 24)
    question = ("the host ann [ABCD-EFGH-IJKL-MNOP] is gone: no link for 5 s, before the start",
                {"w": "wait for it", "r": "rejoin (choose a table again)", "q": "quit"})

    async def work(screen):
        await asyncio.sleep(30)

    for keys, answer in ((["x", "w"], "w"), (["r"], "r"), (["\x1b"], "q")):
        async def main(keys=keys):
            with create_pipe_input() as pipe:
                return await shown(pipe, term, keys, work, ask=question)

        result, seen = asyncio.run(asyncio.wait_for(main(), 10))
        assert seen[1][-2:] == [
            " the host ann [ABCD-EFGH-IJKL-MNOP] is gone: no link for 5 s, before the start",
            " w wait for it · r rejoin (choose a table again) · q quit"]
        assert seen[2] == [answer]
        assert seen[3][-1] == " q, Esc or Ctrl-C: cancel"  # asked no more
        assert result == "cancelled"


def test_keys_typed_before_a_screen_changes_are_dropped():
    master, slave = pty.openpty()
    tty_mode.setraw(slave)  # as a screen has it: every key readable at once
    try:
        os.write(master, b"q\x1bxyz")  # typed while nothing read the terminal
        with os.fdopen(os.dup(slave), "rb", buffering=0) as tty:
            assert select.select([tty], [], [], 1.0)[0]  # the keys wait there
            flush_typeahead(tty)
            assert select.select([tty], [], [], 0.2)[0] == []  # gone: the next screen sees none
            os.write(master, b"n")
            assert select.select([tty], [], [], 1.0)[0]  # a key typed after still arrives
            assert tty.read(1) == b"n"
    finally:
        os.close(master)
        os.close(slave)


def test_flushing_what_is_not_a_terminal_does_nothing(tmp_path):
    path = tmp_path / "keys"
    path.write_bytes(b"q")
    with path.open("rb") as stream:
        flush_typeahead(stream)
        assert stream.read() == b"q"


def test_a_long_line_wraps_at_a_space_with_its_continuation_indented():
    """The rescue trade-off line (87 columns) on the host's screen at 80x24 was wrapped by the
    terminal mid-word ('all th' / 'e other'; the persona suite's rescue evening)."""
    from lancards.p2p.net.discovery import RESCUE_TRADE_OFF

    term = PyteTerminal(80, 24)

    async def work(screen):
        screen.show(["at the table: ann (host, you)", RESCUE_TRADE_OFF])
        await asyncio.sleep(0.4)
        return "shown"

    async def main():
        with create_pipe_input() as pipe:
            return await shown(pipe, term, [], work)

    assert len(RESCUE_TRADE_OFF) > 78
    asyncio.run(asyncio.wait_for(main(), 10))
    lines = screen_lines(term)
    at = lines.index(" at the table: ann (host, you)")
    first, second = lines[at + 1], lines[at + 2]
    assert len(first) <= 80, lines
    assert second.startswith("   ") and (first.rstrip() + " " + second.strip()) == \
        " " + RESCUE_TRADE_OFF, lines
