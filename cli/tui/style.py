"""The table screen's colours and emphasis: prompt-toolkit style classes by name (the screens
use ``class:NAME``; colour-blind cues never rest on colour alone: each card shows its letter)."""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLE = Style.from_dict({
    "title": "bold reverse",
    "yourturn": "bold fg:#000000 bg:#5fd75f",
    "turn": "bold",
    "result": "bold fg:#5fd75f",
    "header": "underline",
    "me": "bold",
    "dim": "fg:#8a8a8a",
    "marks": "bold",
    "error": "fg:#ff5f5f bold",
    "ok": "fg:#5fd75f bold",
    "message": "",
    "hints": "fg:#8a8a8a",
    "objective": "italic",
    "declare": "bold underline",
    "picker.title": "bold reverse",
    "picker.selected": "reverse",
    "log.chat": "fg:#87d7ff",
    "log.mark": "bold",
    "more": "reverse",
    "banner.info": "bold fg:#ffffff bg:#005f87",
    "banner.again": "bold fg:#ffffff bg:#005f87",
    "banner.waiting": "bold fg:#000000 bg:#ffd700",
    "banner.cheat": "bold fg:#ffffff bg:#af0000",
    "banner.error": "bold fg:#ffffff bg:#af0000",
    "banner.result": "bold fg:#000000 bg:#5fd75f",
    "banner.progress": "fg:#000000 bg:#d0d0d0",
})
"""Every style class the table screen uses."""


__all__ = ["STYLE"]
