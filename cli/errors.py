"""Errors of the command line."""


class UsageError(Exception):
    """A mistake the user can fix (a bad argument, a missing file, a table that cannot be
    joined): :func:`lancards.cli.main.main` prints it as one line and exits with status 2."""


def checked_name(name: str | None) -> str | None:
    """The ``--name`` a person gave, without outer spaces (None: not given), as every table
    takes it: 1 to 24 printable characters (``p2p.protocol.identity.MAX_NICK_CHARS``).

    Raises:
        UsageError: empty, longer than 24 characters or holding a control character (one line,
            in the person's language; the trial of 2026-12-07 met a traceback at host and join
            and another limit, 16, at play).
    """
    from lancards.cli.i18n import _
    from lancards.p2p.protocol.identity import MAX_NICK_CHARS

    if name is None:
        return None
    nick = name.strip()
    if not nick or len(nick) > MAX_NICK_CHARS or not nick.isprintable():
        raise UsageError(_("--name {name!r}: use 1 to {name_max} printable characters").format(
            name=name, name_max=MAX_NICK_CHARS))
    return nick
