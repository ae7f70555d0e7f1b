"""The mDNS advertiser a host in the test's own process uses, without multicast: the host's
``_advertise`` replaced by :func:`advertise`, which keeps the advert in a :class:`StandIn`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass
class StandIn:
    """The advertiser's part the host uses, without multicast."""

    advert: Any

    async def update(self, **changes: Any) -> None:
        self.advert = replace(self.advert, **changes)

    async def withdraw(self) -> None:
        pass


async def advertise(lobby: Any, me: Any, port: int, follow: Any, size: int) -> StandIn:
    """The advert a host would multicast, on 127.0.0.1, kept in a :class:`StandIn`."""
    from lancards.p2p.net.discovery import TableAdvert

    return StandIn(TableAdvert(lobby.spec.table, lobby.spec.game, size - 1, me.nick,
                               me.public_key, port, ("127.0.0.1",), size, (me.nick,)))
