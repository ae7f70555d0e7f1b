"""lancards game engines: pure, deterministic rules (no I/O, clock, threads or global random).

See :mod:`lancards.engine.core` for the interface every game offers and
:mod:`lancards.engine.options` for the registry of rule sets (``level8-master``, ``level8``,
``level8-en``, ``eights``).
"""
