"""A WebSocket server that closes each connection at once, as a host that takes no more
players does (code 1000): what a probe or a join meets there."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from websockets.sync.server import ServerConnection, serve


@contextmanager
def closing_server() -> Iterator[int]:
    """The server on 127.0.0.1 in a thread while the block runs; gives its port."""
    def close(ws: ServerConnection) -> None:
        ws.close()

    with serve(close, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield int(server.socket.getsockname()[1])
        finally:
            server.shutdown()
            thread.join(5)
