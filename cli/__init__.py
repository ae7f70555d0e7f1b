"""The ``lancards`` command: terminal client, self-play and benchmarks."""
