"""Errors of the command line."""


class UsageError(Exception):
    """A mistake the user can fix (a bad argument, a missing file, a table that cannot be
    joined): :func:`lancards.cli.main.main` prints it as one line and exits with status 2."""
