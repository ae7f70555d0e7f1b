"""The table redrawn whole after the process was stopped and continued (SIGSTOP, SIGCONT).

A LAN trial closed a lid by ``kill -STOP`` and ``kill -CONT`` on a player's ``lancards`` in a
terminal's shell: the shell took the terminal while the process was stopped (its prompt, its
own terminal modes), so after ``fg`` the table kept the shell's lines among its own (the
screen is redrawn by differences only: ``draw pile: 77dcards``) and keys waited for Enter. On
SIGCONT the terminal is set back to the screen's raw mode and the screen is cleared and drawn
whole. A process continued while it is not in the foreground is stopped again by the terminal
(SIGTTOU) when it sets the modes; the shell's ``fg`` continues it, and then the screen is
right.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from typing import Any


def redraw_whole(app: Any) -> None:
    """Set ``app``'s terminal back to raw mode and draw its screen whole (a prompt-toolkit
    ``Application`` that is running; nothing otherwise)."""
    if not app.is_running:
        return
    with contextlib.suppress(OSError, ValueError, AttributeError):
        app.input.raw_mode().__enter__()  # the outer raw mode's exit restores the terminal
    app.renderer.clear()
    app.invalidate()


@contextlib.contextmanager
def redraw_on_continue(app: Any) -> Iterator[None]:
    """While inside: SIGCONT draws ``app``'s screen whole (:func:`redraw_whole`); where the
    loop cannot take signals (not the main thread, another platform), nothing changes."""
    loop = asyncio.get_running_loop()
    sigcont: int | None = getattr(signal, "SIGCONT", None)
    added = None
    if sigcont is not None:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sigcont, redraw_whole, app)
            added = sigcont
    try:
        yield
    finally:
        if added is not None:
            loop.remove_signal_handler(added)


__all__ = ["redraw_on_continue", "redraw_whole"]
