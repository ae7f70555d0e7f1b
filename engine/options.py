"""Named, validated rule options and the shape of a rule set.

The rule sets themselves are listed in one static table, :data:`lancards.engine.rulesets.RULE_SETS`,
which also looks them up by name (:func:`lancards.engine.rulesets.rule_set`); this module sits
below the games and imports none of them.

Every ruling that says "option" in ``rulings.md`` is an :class:`OptionSpec` here. An unknown
option or an invalid value is a :class:`~lancards.engine.core.RulesError`, never silently replaced.

Options of kind ``file`` take the *text* of a file (the CLI reads the file; the engine does no
I/O), for example a TOML level-card file (ruling L8-14) or an objectives file (ruling E-6).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from lancards.engine.core import Bot, Game, Rng, RulesError

OptionValue = str | bool | int
OptionKind = Literal["choice", "bool", "int", "file", "text"]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rule option.

    Attributes:
        name: the key used on the command line (``--option KEY=VALUE``).
        kind: ``choice`` (one of ``choices``), ``bool``, ``int`` (within ``lo..hi``), ``file``
            (the text of a file; default empty = not given) or ``text`` (free text).
        default: the value when the option is not given (the ruling's default).
        ruling: the ruling id the option comes from.
        doc: one line for ``--help`` and the docs.
    """

    name: str
    kind: OptionKind
    default: OptionValue
    ruling: str
    doc: str
    choices: tuple[str, ...] = ()
    lo: int = 0
    hi: int = 0

    def parse(self, raw: OptionValue) -> OptionValue:
        """Validate ``raw`` (a string from the command line, or an already typed value).

        Raises:
            RulesError: the value is not valid for this option.
        """
        if self.kind == "choice":
            if isinstance(raw, str) and raw in self.choices:
                return raw
            raise RulesError(
                f"option {self.name!r}: invalid value {raw!r}; choose one of "
                f"{', '.join(self.choices)} (ruling {self.ruling})"
            ).with_code("invalid-choice", option=self.name, value=raw, choices=self.choices)
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("true", "yes", "on", "1"):
                return True
            if text in ("false", "no", "off", "0"):
                return False
            raise RulesError(
                f"option {self.name!r}: invalid value {raw!r}; use true or false"
            ).with_code("invalid-bool", option=self.name, value=raw)
        if self.kind == "int":
            try:
                value = int(raw)
            except (TypeError, ValueError):
                raise RulesError(
                    f"option {self.name!r}: invalid value {raw!r}; expected a whole number"
                ).with_code("invalid-int", option=self.name, value=raw) from None
            if not self.lo <= value <= self.hi:
                raise RulesError(
                    f"option {self.name!r}: {value} is outside {self.lo}..{self.hi}"
                ).with_code("out-of-range", option=self.name, value=value, lo=self.lo,
                            hi=self.hi)
            return value
        return str(raw)


@dataclass(frozen=True, slots=True)
class RuleSetSpec:
    """A named rule set (``level8-master``, ``level8``, ``level8-en``, ``eights``).

    Attributes:
        name: the registry name.
        game: the engine that plays it.
        options: every option this rule set accepts.
        build: makes the engine's rules value from validated options (may raise RulesError).
        min_players: smallest seat count.
        max_players: largest seat count.
        summary: one line for ``--help``.
        bot: makes a new instance of the rule set's reference bot (``greedy``, deterministic:
            the seeded records and benchmarks are played by it).
        aliases: other names the rule set is found by.
        bot_levels: the bot levels offered for the rule set (``easy``, ``normal``, ``hard``,
            ``greedy``...), each with a factory taking the bot's own seeded randomness
            (``docs/bots.md``).
        explain: the reason for a move a bot chose (the hint): ``explain(view, seat, legal,
            action, note)`` with ``note`` what the bot said of its decision (a bot's
            ``decide``) or None; returns the game's own reason value, no words.
    """

    name: str
    game: Game[Any, Any]
    options: tuple[OptionSpec, ...]
    build: Callable[[Mapping[str, OptionValue]], Any]
    min_players: int
    max_players: int
    summary: str
    bot: Callable[[], Bot[Any, Any]]
    aliases: tuple[str, ...] = field(default=())
    bot_levels: tuple[tuple[str, Callable[[Rng], Bot[Any, Any]]], ...] = field(default=())
    explain: Callable[[Any, int, Sequence[Any], Any, Any], Any] | None = None

    def option(self, name: str) -> OptionSpec:
        """The spec of option ``name``. Raises RulesError if this rule set has no such option."""
        return find_option(self.options, name, self.name)

    def validate(self, raw: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """All options with defaults filled in and every given value validated.

        Raises:
            RulesError: an unknown option or an invalid value.
        """
        return validate_options(self.options, raw, self.name)

    def make_rules(self, raw: Mapping[str, OptionValue] | None = None) -> Any:
        """The engine's rules value for these options.

        Raises:
            RulesError: an unknown option, an invalid value or an invalid combination.
        """
        return self.build(self.validate(raw or {}))


def find_option(options: tuple[OptionSpec, ...], name: str, owner: str) -> OptionSpec:
    """The spec of option ``name`` among ``options`` of rule set ``owner``.

    Raises:
        RulesError: ``owner`` has no such option (the message lists the options it has).
    """
    for spec in options:
        if spec.name == name:
            return spec
    known = ", ".join(s.name for s in options) or "none"
    raise RulesError(f"rule set {owner!r} has no option {name!r} (options: {known})").with_code(
        "unknown-option", rule_set=owner, option=name, options=tuple(s.name for s in options))


def validate_options(
    options: tuple[OptionSpec, ...], raw: Mapping[str, OptionValue], owner: str
) -> dict[str, OptionValue]:
    """Every option of ``options`` with its default filled in and every given value validated.

    Raises:
        RulesError: an unknown option or an invalid value.
    """
    values: dict[str, OptionValue] = {s.name: s.default for s in options}
    for key, value in raw.items():
        values[key] = find_option(options, key, owner).parse(value)
    return values


def parse_option_args(items: list[str]) -> dict[str, str]:
    """Parse ``KEY=VALUE`` strings from the command line.

    Raises:
        RulesError: an item without ``=`` or with an empty key.
    """
    result: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"option {item!r} is not of the form KEY=VALUE").with_code(
                "not-key-value", item=item)
        result[key.strip()] = value.strip()
    return result

