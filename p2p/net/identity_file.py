"""The identity file: a user's Ed25519 seed and nickname on disk (the adapter of
:mod:`lancards.p2p.protocol.identity`).

The identity file is JSON (``docs/protocol.md``, "Identity file")::

    {"ed25519_seed": "<64 hex digits>", "format": "lancards-identity", "nick": "alice", "v": 1}

It lives in the user's config folder (``platformdirs.user_config_dir("lancards")``), or in the
folder named by the ``LANCARDS_HOME`` environment variable, or at an explicit path; it is created
on first use with file mode 0600 and refused when other users may read it (as ssh does).
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path

from platformdirs import user_config_dir

from lancards.p2p.net.crash_hook import crash as _crash
from lancards.p2p.net.store import describe_fault, storage_error
from lancards.p2p.protocol.errors import IdentityError, LocalProtocolError
from lancards.p2p.protocol.identity import MAX_NICK_CHARS, Identity, check_nickname

FILE_NAME = "identity.json"
"""The identity file's name inside the config folder."""

HOME_ENV = "LANCARDS_HOME"
"""Environment variable naming the folder that holds the identity file."""


def identity_path(
    path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None
) -> Path:
    """Where the identity file is: ``path`` if given, else ``$LANCARDS_HOME/identity.json``,
    else ``identity.json`` in the user's config folder (platformdirs)."""
    if path is not None:
        return Path(path)
    environ = os.environ if env is None else env
    home = environ.get(HOME_ENV)
    if home:
        return Path(home) / FILE_NAME
    return Path(user_config_dir("lancards")) / FILE_NAME


def default_nick() -> str:
    """The nickname of a new identity: the login name (cut to the longest nickname), else
    ``player``."""
    try:
        name = getpass.getuser().strip()[:MAX_NICK_CHARS].strip()
    except (OSError, KeyError):
        name = ""
    return name if name and name.isprintable() else "player"


def load_identity(path: str | os.PathLike[str]) -> Identity:
    """Read an identity file.

    Raises:
        IdentityError: the file is missing, readable by other users (mode not 0600 or
            stricter), not an identity file, or holds a bad seed or nickname; its ``code``
            (issue 28) is ``identity-unreadable`` (with the storage fault's values,
            :func:`_fault`), ``identity-mode`` (``path``, ``mode``) or ``identity-invalid``
            (``path``, ``problem``: one of :data:`IDENTITY_PROBLEMS`).
    """
    file = Path(path)
    try:
        mode = stat.S_IMODE(file.stat().st_mode)
        text = file.read_text(encoding="utf-8")
    except OSError as exc:  # one line naming the file and what to do (issue 24)
        raise _fault("the identity file cannot be read", "identity-unreadable", exc, file,
                     "read") from None
    if os.name == "posix" and mode & 0o077:  # Windows has no such mode bits: its ACLs apply
        raise IdentityError(
            f"identity file {file} has mode {mode:04o}; other users may read it "
            f"(fix with: chmod 600 {file})"
        ).with_code("identity-mode", path=str(file), mode=f"{mode:04o}")
    problem = "not-json"  # what is wrong, for the player's language (IDENTITY_PROBLEMS)
    try:
        data = json.loads(text)
        problem = "not-v1"
        if data.get("format") != "lancards-identity" or data.get("v") != 1:
            raise ValueError("not a version 1 lancards identity")
        problem = "seed"
        seed = bytes.fromhex(data["ed25519_seed"])
        problem = "nick"
        nick = data["nick"]
        return Identity(seed, nick)
    except IdentityError as exc:  # the seed's length: its own sentence, as it always was
        raise exc.with_code("identity-invalid", path=str(file), problem="seed") from None
    except (ValueError, KeyError, TypeError, AttributeError, LocalProtocolError) as exc:
        raise IdentityError(f"identity file {file} is not valid: {exc}").with_code(
            "identity-invalid", path=str(file), problem=problem) from None


IDENTITY_PROBLEMS = ("not-json", "not-v1", "seed", "nick")
"""What an ``identity-invalid`` :class:`IdentityError` names as its ``problem``: not JSON, not
a version 1 lancards identity (or not an object), a seed that is not 32 bytes in hex (or
missing), a nickname that is missing or invalid."""


def _fault(text: str, code: str, exc: OSError, file: Path, doing: str) -> IdentityError:
    """An identity file that cannot be read or created (``code``: ``identity-unreadable``,
    ``identity-uncreatable``): ``text``, then :func:`describe_fault`; ``params`` are the
    storage fault's (``fault``: its ``storage-CASE`` code, ``path``, ``doing``, ``then``,
    ``strerror``), said in the player's language by ``cli/peer_errors.py``."""
    fault = storage_error(exc, file, doing)
    return IdentityError(f"{text}: {describe_fault(exc, file, doing)}").with_code(
        code, fault=fault.code, **fault.params)


def load_or_create_identity(
    path: str | os.PathLike[str] | None = None,
    nick: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Identity:
    """The user's identity, created (mode 0600, folder 0700) on first use.

    Args:
        path: an explicit identity file; else see :func:`identity_path`.
        nick: the nickname for a new identity (default: the login name); an existing file
            keeps its own nickname (use :func:`save_nickname` to change it).
        env: the environment to read ``LANCARDS_HOME`` from (default ``os.environ``).

    Raises:
        IdentityError: as :func:`load_identity`, or the file cannot be created (code
            ``identity-uncreatable``).
        LocalProtocolError: ``nick`` is not a valid nickname.
    """
    file = identity_path(path, env)
    if file.exists():
        return load_identity(file)
    identity = Identity.generate(check_nickname(nick) if nick is not None else default_nick())
    try:
        _write_private(file, identity.to_json())
    except IdentityError:
        if file.exists():  # another process created it meanwhile: use that one
            return load_identity(file)
        raise
    return identity


def save_nickname(path: str | os.PathLike[str], nick: str) -> Identity:
    """Change the nickname stored in an identity file (same key), atomically: a kill -9 leaves
    the old file or the new one, never a torn one (the crash tests kill the process here:
    ``LANCARDS_TEST_CRASH_AT=identity-WHEN:N``, :mod:`lancards.p2p.net.crash_hook`).

    Raises:
        IdentityError: as :func:`load_identity`.
        LocalProtocolError: ``nick`` is not a valid nickname.
    """
    old = load_identity(path)
    new = old.with_nick(check_nickname(nick))
    file = Path(path)
    tmp = file.with_name(file.name + ".tmp")
    tmp.unlink(missing_ok=True)
    if _crash.reached("before", side="identity"):
        _crash.die()
    text = new.to_json()
    if _crash.reached("torn", side="identity"):
        _write_private(tmp, text[: len(text) // 2])
        _crash.die()
    _write_private(tmp, text)
    os.replace(tmp, file)
    if _crash.reached("after", side="identity"):
        _crash.die()
    return new


def _write_private(file: Path, text: str) -> None:
    """Create ``file`` (mode 0600, folder 0700) holding ``text``, made durable; a write that
    fails (a full disk) removes the part written, so no torn identity file is left."""
    created = False
    try:
        file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        created = True
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:  # one line naming the file and what to do (issue 24)
        if created:
            with contextlib.suppress(OSError):
                file.unlink()
        raise _fault("the identity file cannot be created", "identity-uncreatable", exc, file,
                     "create") from None
