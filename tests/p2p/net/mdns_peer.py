"""One side of the mDNS tests, run inside a network namespace by the tests.

Usage (one JSON object per output line; every wait bounded, the process ends by itself)::

    python mdns_peer.py advertise ADDRESS [--ttl S]   then stdin: ``update N``, ``withdraw``
    python mdns_peer.py browse ADDRESS [--for S] [--keep] [--sweep S]
    python mdns_peer.py many ADDRESS N [--for S] [--flash]
    python mdns_peer.py listen ADDRESS [--for S] [--table ID]

``browse`` prints ``found``/``updated``/``removed``/``ignored`` events (it stops at the first
``removed`` unless ``--keep``). ``many`` advertises N tables at once (table ``i`` has size
``2 + i % 5`` and ``i % 3`` players besides the host), prints ``advertised``, withdraws them all
on stdin ``withdraw`` (or, with ``--flash``, at once after registering: goodbyes while
browsers are still resolving). ``listen`` starts a lancards transport listener with a fresh key
(what a probe needs) and prints ``listening`` with its key and port; with ``--table`` it also
advertises that table id under its own key (an impostor of another host's table).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from lancards.p2p.net.discovery import (
    Advertiser,
    Browser,
    Ignored,
    TableAdvert,
    TableFound,
    TableRemoved,
    TableUpdated,
)

TABLE = "00112233aabbccdd"
PK = bytes(range(32))


def say(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


async def read_line() -> str:
    loop = asyncio.get_running_loop()
    return (await loop.run_in_executor(None, sys.stdin.readline)).strip()


async def advertise(address: str, limit: float, ttl: int) -> None:
    advert = TableAdvert(TABLE, "level8-master", 3, "ann", PK, 40123, (address,))
    advertiser = Advertiser(advert, [address], ttl=ttl)
    say(event="registering")
    await advertiser.start()
    say(event="advertised", name=advert.instance_name)
    try:
        async with asyncio.timeout(limit):
            while line := await read_line():
                verb, *args = line.split()
                if verb == "update":
                    await advertiser.update(free_seats=int(args[0]))
                    say(event="updated-sent")
                elif verb == "withdraw":
                    break
    finally:
        await advertiser.withdraw()
        say(event="withdrawn")


def advert_fields(a: TableAdvert) -> dict[str, object]:
    return {"tbl": a.table, "game": a.game, "seats": a.free_seats, "nick": a.nick,
            "pk": a.public_key.hex(), "port": a.port, "addresses": list(a.addresses),
            "size": a.size, "players": list(a.players)}


async def browse(address: str, limit: float, keep: bool, sweep: float) -> None:
    async with Browser([address], sweep_interval=sweep) as browser:
        say(event="browsing")
        with __import__("contextlib").suppress(TimeoutError):
            async with asyncio.timeout(limit):
                while True:
                    event = await browser.next_event(limit)
                    if isinstance(event, (TableFound, TableUpdated)):
                        kind = "found" if isinstance(event, TableFound) else "updated"
                        say(event=kind, **advert_fields(event.advert))
                    elif isinstance(event, TableRemoved):
                        say(event="removed", name=event.name)
                        if not keep:
                            return
                    elif isinstance(event, Ignored):
                        say(event="ignored", name=event.name, error=str(event.error))
        say(event="done", tables=sorted(browser.tables))


def many_adverts(address: str, n: int) -> list[TableAdvert]:
    adverts = []
    for i in range(n):
        size = 2 + i % 5
        players = ("host", *(f"guest{j}" for j in range(min(i % 3, size - 1))))
        key = bytes([i + 1]) * 32
        adverts.append(TableAdvert(f"{i:016x}", "eights", size - len(players), "host", key,
                                   40000 + i, (address,), size, players))
    return adverts


async def many(address: str, n: int, limit: float, flash: bool) -> None:
    advertisers = [Advertiser(a, [address]) for a in many_adverts(address, n)]
    await asyncio.gather(*(a.start() for a in advertisers))
    say(event="advertised", count=n)
    try:
        if not flash:
            async with asyncio.timeout(limit):
                while (await read_line()) != "withdraw":
                    pass
    finally:
        await asyncio.gather(*(a.withdraw() for a in advertisers))
        say(event="withdrawn")


async def listen(address: str, limit: float, table: str | None) -> None:
    from lancards.p2p.net.transport import Mesh, TransportConfig
    from lancards.p2p.protocol.identity import Identity, fingerprint

    me = Identity.generate("ann")
    mesh = Mesh(me, TransportConfig(), accept=lambda key: True)
    port = await mesh.start(address, 0)
    advertiser = None
    if table is not None:  # an impostor: another key advertising this table id
        advertiser = Advertiser(TableAdvert(table, "level8", 1, "ann", me.public_key, port,
                                            (address,), 2, ("ann",)), [address])
        await advertiser.start()
    say(event="listening", pk=me.public_key.hex(), port=port,
        fingerprint=fingerprint(me.public_key))
    try:
        await asyncio.sleep(limit)
    finally:
        if advertiser is not None:
            await advertiser.withdraw()
        await mesh.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=["advertise", "browse", "many", "listen"])
    parser.add_argument("address")
    parser.add_argument("count", nargs="?", type=int, default=10)
    parser.add_argument("--for", dest="limit", type=float, default=25.0)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--flash", action="store_true")
    parser.add_argument("--sweep", type=float, default=5.0)
    parser.add_argument("--ttl", type=int, default=120)
    parser.add_argument("--table", default=None)
    args = parser.parse_args()
    if args.role == "advertise":
        asyncio.run(advertise(args.address, args.limit, args.ttl))
    elif args.role == "browse":
        asyncio.run(browse(args.address, args.limit, args.keep, args.sweep))
    elif args.role == "many":
        asyncio.run(many(args.address, args.count, args.limit, args.flash))
    else:
        asyncio.run(listen(args.address, args.limit, args.table))


if __name__ == "__main__":
    main()
