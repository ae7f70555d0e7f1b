"""lancards: card games with friends on a home network, from a terminal.

The installed import package. Its rooms sit in three folders of the source tree, each mapped
under this package by ``[tool.setuptools.package-dir]`` in ``pyproject.toml``:

- :mod:`lancards.engine` (``engine/``): the pure rules of every game;
- :mod:`lancards.p2p` (``p2p/``): mental poker and the sans-I/O peer protocol, with thin
  adapters for sockets, multicast and disk;
- :mod:`lancards.cli` (``cli/``): the commands and the terminal client.

This file and ``__main__.py`` (``python -m lancards``) live in ``cli/_lancards/``.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("lancards")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
