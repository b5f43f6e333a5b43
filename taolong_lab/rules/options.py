"""Variants declared as data: the ``Rules`` value and the registry of named options.

Each option is one reading of an ambiguity of the rulebook (the decisions ``A1``–``A32`` of
``docs/rules.md``, section 16). Its default is the reading the project adopted; the other
choices are the readings it did not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import RulesError
from .data import scenario_file, shown
from .scenario import EDITIONS, load_scenario

_INT_RE = re.compile(r"(0|-?[1-9][0-9]{0,8})\Z")  # longer numbers stay words: no option takes one
MODES = ("grasshopper", "monk", "master", "chosen-one")
SOLO_EDITIONS = ("current",)  # the earlier rulebook has no solo variant


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    choices: tuple
    source: str  # the ambiguity it resolves, e.g. "A7"
    doc: str


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option(
            "tail_vacates_first",
            None,
            (None, True, False),
            "A2",
            "Whether the tail is lifted before the head moves, so the head may enter the cell the "
            "tail leaves. None follows the edition: False for 'current', True for 'earlier'.",
        ),
        Option(
            "bite_on_stay",
            True,
            (True, False),
            "A7",
            "Whether a Lake or Mountain that leaves the dragon in place still ends with a bite "
            "check (the literal text: 'at the end of any ... Lake, or Mountain action').",
        ),
        Option(
            "village",
            None,
            (None, "white", "black"),
            "A22",
            "The Village variant: the colour of the protecting dragon, or None for no village. "
            "Only in scenarios whose file allows it (The Field, The Valley, The Mist).",
        ),
        Option(
            "extra_phases",
            1,
            (0, 1),
            "A11",
            "How many extra Spirit+Matter phases Wind and Thunder can grant in one turn. "
            "The solo variant ignores extra phases whatever this says.",
        ),
        Option(
            "solo_lookahead",
            "matter",
            ("matter", "next-turn"),
            "A30",
            "Solo opponent, priority 2: the damage it could take is counted up to the end of the "
            "player's pending Matter phase ('matter') or to the end of the player's next turn "
            "('next-turn', the literal reading).",
        ),
        Option(
            "solo_focus_replaces_action",
            False,
            (False, True),
            "A29",
            "Solo opponent: whether a Focus of its colour replaces its solo action on that space "
            "(True) or both happen (False, the literal reading).",
        ),
    )
}


def check_option(name: str, value: Any) -> None:
    """Raise :class:`RulesError` unless ``name`` is a known option and ``value`` one of its
    choices."""
    if not isinstance(name, str) or name not in OPTIONS:
        known = ", ".join(sorted(OPTIONS))
        raise RulesError(f"unknown option {shown(name)}; known options: {known}")
    choices = OPTIONS[name].choices
    if not any(value is c or (type(value) is type(c) and value == c) for c in choices):
        raise RulesError(f"option {name!r} takes one of {choices!r}, not {shown(value)}")


@dataclass(frozen=True)
class Rules:
    """Everything that selects a variant of the game. Hashable and immutable.

    >>> Rules().token()
    'field/grasshopper/current'
    >>> Rules.from_token('field/grasshopper/earlier+bite_on_stay=false').option('bite_on_stay')
    False
    """

    scenario: str = "field"
    mode: str = "grasshopper"
    edition: str = "current"
    solo: bool = False
    options: tuple[tuple[str, Any], ...] = field(default=())

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise RulesError(f"unknown edition {shown(self.edition)}; choose one of {EDITIONS}")
        if self.mode not in MODES:
            raise RulesError(f"unknown mode {shown(self.mode)}; choose one of {MODES}")
        scenario_file(self.scenario)
        if not isinstance(self.solo, bool):
            raise RulesError(f"solo must be true or false, not {shown(self.solo)}")
        if not isinstance(self.options, tuple) or not all(
            isinstance(pair, tuple) and len(pair) == 2 for pair in self.options
        ):
            raise RulesError(f"options must be (name, value) pairs, not {shown(self.options)}")
        seen = set()
        for name, value in self.options:
            check_option(name, value)
            if name in seen:
                raise RulesError(f"option {name!r} is given twice")
            seen.add(name)
            if name.startswith("solo_") and not self.solo and value != OPTIONS[name].default:
                raise RulesError(f"option {name!r} only applies to the solo variant")
        scenario = load_scenario(self.scenario)
        if self.edition not in scenario.editions:
            raise RulesError(
                f"{scenario.name} cannot be built with the {self.edition} edition's components; "
                f"it needs the {' or '.join(scenario.editions)} edition"
            )
        if dict(self.options).get("village") is not None:
            if not scenario.village:
                raise RulesError(f"the Village variant is not played on {scenario.name}")
            if self.edition == "earlier":
                raise RulesError("the earlier edition has no village tile and no Village variant")
        if self.solo and self.edition not in SOLO_EDITIONS:
            raise RulesError(
                f"the {self.edition} rulebook has no solo variant; "
                f"it needs the {' or '.join(SOLO_EDITIONS)} edition"
            )
        canonical = tuple(sorted((n, v) for n, v in self.options if v != OPTIONS[n].default))
        object.__setattr__(self, "options", canonical)

    @classmethod
    def make(cls, scenario="field", mode="grasshopper", solo=False, edition="current", **options):
        return cls(scenario, mode, edition, solo, tuple(options.items()))

    def option(self, name: str) -> Any:
        if name not in OPTIONS:
            raise RulesError(f"unknown option {name!r}")
        return dict(self.options).get(name, OPTIONS[name].default)

    @property
    def tail_vacates_first(self) -> bool:
        value = self.option("tail_vacates_first")
        return self.edition == "earlier" if value is None else value

    def token(self) -> str:
        """The one-word form used as the first field of TLN."""
        base = f"{self.scenario}/{self.mode}/{self.edition}" + ("/solo" if self.solo else "")
        return base + "".join(f"+{n}={_fmt(v)}" for n, v in self.options)

    @classmethod
    def from_token(cls, token: str) -> Rules:
        head, *opts = token.split("+")
        parts = head.split("/")
        if len(parts) not in (3, 4) or (len(parts) == 4 and parts[3] != "solo"):
            raise RulesError(f"rules {shown(token)} must read scenario/mode/edition[/solo]")
        options = {}
        for opt in opts:
            name, eq, raw = opt.partition("=")
            if not eq:
                raise RulesError(f"rules option {shown(opt)} must read name=value")
            if name in options:
                raise RulesError(f"option {shown(name)} is given twice")
            options[name] = parse_option_value(raw)
        return cls(parts[0], parts[1], parts[2], len(parts) == 4, tuple(options.items()))


def _fmt(value: Any) -> str:
    if value is True or value is False or value is None:
        return str(value).lower()
    return str(value)


def parse_option_value(raw: str) -> Any:
    """Read an option value as written in TLN or on the command line: true/false/none, an
    integer, or a word.

    >>> parse_option_value('false'), parse_option_value('1'), parse_option_value('white')
    (False, 1, 'white')
    """
    lowered = raw.lower()
    if lowered in ("true", "false", "none"):
        return {"true": True, "false": False, "none": None}[lowered]
    if _INT_RE.match(raw):
        return int(raw)
    return raw


__all__ = [
    "EDITIONS",
    "MODES",
    "OPTIONS",
    "Option",
    "Rules",
    "check_option",
    "parse_option_value",
]
