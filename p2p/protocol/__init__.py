"""The peer protocol, sans-I/O: state machines and codecs that take bytes and return decisions.

Every module here is pure in the sense of ``docs/architecture.md``: no sockets, multicast, files,
clock, event loop or global randomness (randomness is injected, or drawn from :mod:`secrets` for
keys and nonces). Bytes in, :class:`~lancards.p2p.protocol.core.Output` values out; the adapters
in :mod:`lancards.p2p.net` move them. It imports :mod:`lancards.p2p.crypto` and the engine,
never :mod:`lancards.p2p.net` (the contracts in ``pyproject.toml``).
"""
