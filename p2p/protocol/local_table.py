"""A table formed and started among identities held in one place (tests, a local bot table):
the same :class:`~lancards.p2p.protocol.statement.StartedTable` a lobby
(:mod:`lancards.p2p.protocol.table`) gives, every member signing at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lancards.p2p.protocol.errors import LocalProtocolError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.statement import (
    OptionValue,
    RulesCheck,
    StartedTable,
    TableSpec,
    member_from_dict,
    member_to_dict,
    new_table_id,
    registry_rules_check,
    seat_order,
    sign_statement,
    start_statement,
    verify_started,
)


def start_local(
    members: Sequence[Identity],
    game: str,
    options: Mapping[str, OptionValue] | None = None,
    *,
    table: str | None = None,
    rules_check: RulesCheck = registry_rules_check,
    bots: Mapping[bytes, str] | None = None,
) -> StartedTable:
    """Form and start a table among identities held in one place (tests, a local bot table).

    Every member signs the start statement at once, so no lobby messages are needed; the
    result is the same :class:`StartedTable` a lobby would give. ``bots``: the bot level of
    each member (by key) a bot plays, said in its member as a join says it.

    Raises:
        LocalProtocolError: the game or options are refused, or a wrong number of members.
        engine.core.RulesError: from ``rules_check``.
    """
    values, lo, hi = rules_check(game, dict(options or {}))
    if not lo <= len(members) <= min(hi, 6):
        raise LocalProtocolError(f"{game} is for {lo} to {min(hi, 6)} players, not {len(members)}")
    spec = TableSpec(table or new_table_id(), game, values, members[0].public_key, lo, min(hi, 6))
    said = dict(bots or {})
    seats = seat_order(spec.table, [
        member_from_dict({**member_to_dict(m.public()), "bot": said[m.public_key]}, "local")
        if m.public_key in said else m.public() for m in members])
    statement = start_statement(spec, seats)
    sigs = {m.public_key.hex(): sign_statement(m, statement).hex() for m in members}
    return verify_started(statement, sigs, "local")


__all__ = ["start_local"]
