"""``--option KEY=VALUE``: each value in its option's declared type (the trial: ``--option
dealer=1`` was refused as "must be a seat 0 to 5, not '1'", the command line's text)."""

from __future__ import annotations

import pytest

from lancards.cli.lobby.host import check_table
from lancards.cli.main import build_parser
from lancards.cli.option_values import typed_options
from lancards.cli.play import validate
from lancards.cli.selfplay import rules_from_args
from lancards.engine.core import RulesError
from lancards.engine.rulesets import rule_set
from lancards.p2p.protocol.statement import registry_rules_check


def test_every_option_takes_its_declared_type() -> None:
    given = {"dealer": "1", "patience": "30", "rescue": "on", "reshuffle": "lazy",
             "level_cards": "cards.toml"}
    assert typed_options(rule_set("level8-master"), given) == {
        "dealer": 1, "patience": 30, "rescue": "on", "reshuffle": "lazy",
        "level_cards": "cards.toml"}  # a file option keeps its path (read later)
    assert typed_options(rule_set("eights"), {"first_dealer": "2", "partners": "yes"}) == {
        "first_dealer": 2, "partners": True}
    # not a whole number: the text, refused by the option's own check in its own words
    assert typed_options(rule_set("level8"), {"dealer": "x", "patience": "1.5"}) == {
        "dealer": "x", "patience": "1.5"}
    with pytest.raises(RulesError) as bad:
        typed_options(rule_set("eights"), {"first_dealer": "x"})
    assert (bad.value.code, dict(bad.value.params)) == (
        "invalid-int", {"option": "first_dealer", "value": "x"})


def test_host_takes_dealer_1_at_a_3_seat_table(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    args = build_parser(("host",)).parse_args(
        ["host", "--players", "3", "--option", "dealer=1"])
    spec, rules, raw = rules_from_args(args)
    assert raw == {"dealer": 1}
    check_table(spec, rules, raw, 3)  # no UsageError
    values, _least, _most = registry_rules_check(spec.name, raw)
    assert values["dealer"] == 1  # what the start statement names


def test_play_takes_dealer_1_with_2_bots(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    args = build_parser(("play",)).parse_args(
        ["play", "--autoplay", "--bots", "2", "--option", "dealer=1"])
    validate(args)  # no UsageError
    assert rules_from_args(args)[2] == {"dealer": 1}


@pytest.mark.parametrize(("argv", "message"), [
    (["--bots", "2", "--option", "dealer=5"],
     "option dealer must be a seat 0 to 2 at a table of 3 seats, not 5"),
    (["--bots", "2", "--option", "dealer=x"],
     "option dealer must be a seat 0 to 2 at a table of 3 seats, not 'x'"),
    (["--local", "--bots", "2", "--option", "dealer=1"],
     "option dealer: a --local table draws its first dealer; without --local the option "
     "chooses it"),
])
def test_play_refuses_a_dealer_that_is_no_seat(capsys, tmp_path, monkeypatch, argv,
                                               message) -> None:
    from lancards.cli.main import main

    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["play", "--autoplay", *argv]) == 2
    assert capsys.readouterr().err == f"lancards play: error: {message}\n"
