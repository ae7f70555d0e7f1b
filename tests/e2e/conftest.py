"""Fixtures of the end-to-end suite: a 4-host network in namespaces, skipped where impossible."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.netns import Lan, install_cleanup, remove_stale, unavailable


@pytest.fixture(scope="session")
def netns_ok() -> None:
    """Skip when namespaces cannot be made here (not root, no ``ip``, no veth); else tidy up
    namespaces that an earlier, killed run left behind."""
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    install_cleanup()
    remove_stale()


@pytest.fixture
def lan(netns_ok: None) -> Iterator[Lan]:
    """Four hosts on one bridge, torn down after the test, also when it fails."""
    with Lan(4) as network:
        yield network


@pytest.fixture(scope="module")
def module_lan(netns_ok: None) -> Iterator[Lan]:
    """Four hosts on one bridge shared by a module's tests (one game, many checks)."""
    with Lan(4) as network:
        yield network
