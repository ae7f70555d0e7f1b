"""A stranger's refused links through a real node's event loop (``p2p/net/node.py`` with
``p2p/net/refusal_limit.py``): the once-a-minute limit of "rejected message from ..." lines was
tested at the module only. A node of a 3-seat table listens on 127.0.0.1 (nobody else of the
table runs); a stranger opens 5 links within a minute, each sending junk for its hello: the
table gets exactly one line. The node's clock (``PeerNode._clock``) is a test's: a minute
later, a sixth junk link is the second line. Every wait is bounded; the node is closed in
``finally``."""

from __future__ import annotations

import asyncio

import pytest

from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.node import PeerNode
from lancards.p2p.net.transport import Mesh
from lancards.p2p.protocol.core import GameCore
from tests.p2p.core_harness import SOCKET_CONFIG, make_table

JUNK = b"not a hello"


async def junk_link(port: int) -> None:
    """One stranger's link: a websocket to ``port`` whose first frame is no hello; waits
    (at most 5 s) until the node closes it."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    async with asyncio.timeout(5):
        async with connect(f"ws://127.0.0.1:{port}/", compression=None, proxy=None) as link:
            await link.send(JUNK)
            try:
                async for _frame in link:
                    pass
            except ConnectionClosed:
                pass


def rejected(node: PeerNode) -> list[str]:
    return [n.text for n in node.notices if n.kind == "rejected"]


async def settled(node: PeerNode, count: int) -> None:
    """Until ``node`` has handled ``count`` refused links (its transport's events are handled
    by its loop), at most 5 s."""
    async with asyncio.timeout(5):
        while node.refusals_seen < count:
            await asyncio.sleep(0.02)


@pytest.mark.timeout(60)
def test_five_junk_links_in_a_minute_are_one_line_and_a_minute_later_another() -> None:
    async def main() -> None:
        ids, table = make_table(3, "level8")
        mesh = Mesh(ids[0], SOCKET_CONFIG)
        port = await mesh.start("127.0.0.1", 0)
        node = PeerNode(GameCore(ids[0], table, SeededRandomBytes("stranger-0")), mesh)
        now = [1000.0]
        node._clock = lambda: now[0]  # the node's monotonic clock, moved by the test
        seen = node.refusals.notice
        node.refusals_seen = 0  # type: ignore[attr-defined]

        def counted(*args: object) -> object:
            node.refusals_seen += 1  # type: ignore[attr-defined]
            return seen(*args)  # type: ignore[arg-type]

        node.refusals.notice = counted  # type: ignore[method-assign]
        runner = asyncio.create_task(node.run(linger=0))
        try:
            for i in range(5):
                now[0] += 10.0  # five links within 50 s
                await junk_link(port)
                await settled(node, i + 1)
            assert len(rejected(node)) == 1
            assert rejected(node)[0].startswith("rejected message from 127.0.0.1:")
            now[0] += 60.0  # over a minute after the line: a line again
            await junk_link(port)
            await settled(node, 6)
            assert len(rejected(node)) == 2
        finally:
            node.stop()
            async with asyncio.timeout(10):
                await asyncio.gather(runner, return_exceptions=True)
            await node.close()

    asyncio.run(main())
