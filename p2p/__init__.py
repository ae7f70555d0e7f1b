"""Everything between peers: mental poker (pure), the peer protocol (sans-I/O), thin adapters."""
