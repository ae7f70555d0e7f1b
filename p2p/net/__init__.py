"""The adapters: the only modules of :mod:`lancards.p2p` that touch sockets (websockets),
multicast (zeroconf), interfaces, files, the clock and the event loop.

Each stays thin: it moves bytes between the outside world and the sans-I/O protocol
(:mod:`lancards.p2p.protocol`), which decides everything (``docs/architecture.md``).
"""
