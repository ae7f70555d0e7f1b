"""Fixtures of the command-line tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lancards.cli import i18n


@pytest.fixture
def german() -> Iterator[None]:
    """The players' language German for one test, English again after it (issue 28)."""
    i18n.set_language("de")
    yield
    i18n.set_language("en")
