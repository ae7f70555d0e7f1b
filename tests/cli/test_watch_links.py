"""Watchers over real links on 127.0.0.1 (issue 27): a seated peer serves four, the fifth is
told ``full`` in words on its own screen; one that sends what only a seat may send is dropped
and told why; the table goes on either way (nobody waits for a watcher)."""

from __future__ import annotations

import asyncio

from lancards.cli.lobby.watch_table import DROPPED_WORDS, TableWatcher
from lancards.p2p.protocol.watchers import MAX_WATCHERS
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import listening_nodes

TABLE = "0123456789abcdef"


async def until(predicate: object, limit: float = 30.0) -> None:
    assert callable(predicate)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not predicate():
        assert loop.time() < deadline, "not within the limit"
        await asyncio.sleep(0.02)


def test_a_fifth_watcher_is_told_full_and_a_bad_one_is_dropped_in_words() -> None:
    async def main() -> None:
        nodes = await listening_nodes(2, "level8-en", "watch-links")
        runs = [asyncio.create_task(node.run(deadline=90)) for node in nodes]
        seat = nodes[0]
        key, port = seat.core.me.public_key, seat.mesh.port
        watchers = [TableWatcher(TABLE, key, "127.0.0.1", port) for _ in range(MAX_WATCHERS + 1)]
        tasks = [asyncio.create_task(w.run(lambda event: None, wait=30)) for w in watchers]
        try:
            await until(lambda: sum(w.watching.core is not None for w in watchers) == MAX_WATCHERS
                        and sum(t.done() for t in tasks) == 1)
            refused = [w for w, t in zip(watchers, tasks, strict=True) if t.done()]
            assert len(refused) == 1 and refused[0].dropped == "full"
            assert refused[0].lost is not None and refused[0].lost.endswith(DROPPED_WORDS["full"])
            assert tasks[watchers.index(refused[0])].result() == 1
            assert len(seat.watchers.served) == MAX_WATCHERS
            for watcher in watchers:
                watcher.stop()
            await asyncio.gather(*tasks)
            await until(lambda: not seat.watchers.served)  # the links went down: slots free
            rude = TableWatcher(TABLE, key, "127.0.0.1", port)
            chat = sign_envelope(rude.me, "chat", TABLE, 0, {"text": "hi"}).encode()
            rude.watching.ask = lambda: chat  # type: ignore[method-assign]
            assert await rude.run(lambda event: None, wait=30) == 1
            assert rude.dropped == "not-seated" and rude.watching.core is None
            assert rude.lost is not None and rude.lost.endswith(DROPPED_WORDS["not-seated"])
            assert all(not run.done() for run in runs)  # the table was never disturbed
            assert not any(n.kind == "rejected" for node in nodes for n in node.notices)
        finally:
            for node in nodes:
                node.stop()
            await asyncio.gather(*runs, return_exceptions=True)
            for node in nodes:
                await node.close()

    asyncio.run(main())
