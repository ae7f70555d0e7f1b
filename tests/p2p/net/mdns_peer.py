"""One side of the mDNS test, run inside a network namespace by ``test_net_discovery.py``.

Usage: ``python mdns_peer.py advertise ADDRESS`` (then commands on stdin: ``update N``,
``withdraw``) or ``python mdns_peer.py browse ADDRESS``. Prints one JSON object per line.
Every wait is bounded; the process ends by itself within 30 s.
"""

from __future__ import annotations

import asyncio
import json
import sys

from lancards.p2p.discovery import (
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


async def advertise(address: str) -> None:
    advert = TableAdvert(TABLE, "level8-master", 3, "ann", PK, 40123, (address,))
    advertiser = Advertiser(advert, [address])
    await advertiser.start()
    say(event="advertised", name=advert.instance_name)
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(25):
            while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
                verb, *args = line.split()
                if verb == "update":
                    await advertiser.update(free_seats=int(args[0]))
                    say(event="updated-sent")
                elif verb == "withdraw":
                    break
    finally:
        await advertiser.withdraw()
        say(event="withdrawn")


async def browse(address: str) -> None:
    async with Browser([address]) as browser:
        say(event="browsing")
        async with asyncio.timeout(25):
            while True:
                event = await browser.next_event(25)
                if isinstance(event, (TableFound, TableUpdated)):
                    a = event.advert
                    kind = "found" if isinstance(event, TableFound) else "updated"
                    say(
                        event=kind,
                        tbl=a.table,
                        game=a.game,
                        seats=a.free_seats,
                        nick=a.nick,
                        pk=a.public_key.hex(),
                        port=a.port,
                        addresses=list(a.addresses),
                    )
                elif isinstance(event, TableRemoved):
                    say(event="removed", name=event.name)
                    return
                elif isinstance(event, Ignored):
                    say(event="ignored", name=event.name, error=str(event.error))


if __name__ == "__main__":
    role, address = sys.argv[1], sys.argv[2]
    asyncio.run(advertise(address) if role == "advertise" else browse(address))
