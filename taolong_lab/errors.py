"""One typed exception per kind of failure. All are ``ValueError`` subclasses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

NAMED = object()  # an Arg's value when the message names the argument alone


class Arg(NamedTuple):
    """An argument a message names: the keyword as the library spells it and, unless
    :data:`NAMED`, the value it had. A caller words it its own way (the command line:
    ``--max-states 3`` for ``max_states=3``).

    >>> python_spelling(Arg("max_states", 3)), python_spelling(Arg("checkpoint"))
    ('max_states=3', 'checkpoint=')
    """

    name: str
    value: Any = NAMED


def shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages; safe on any value
    (a number too long to write out, a list nested too deeply).

    Parameters
    ----------
    value : any
    limit : int

    Returns
    -------
    str
    """
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__} too large to show>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def python_spelling(arg: Arg) -> str:
    """``name=value`` (the value's repr, ``name=`` when only the name is given).

    Parameters
    ----------
    arg : Arg

    Returns
    -------
    str
        The keyword argument as a Python call writes it, its value cut to 60 characters.
    """
    return f"{arg.name}=" if arg.value is NAMED else f"{arg.name}={shown(arg.value, 60)}"


class TaoLongError(ValueError):
    """Base class of every error taolong_lab raises on bad input.

    One made by :meth:`naming` knows the arguments its message names (:attr:`parts`), the
    first one's name and value (:attr:`field`, :attr:`value`) and the bound it broke
    (:attr:`limit`): a caller words it from those (:meth:`worded`), never by rewriting the text.

    >>> error = TaoLongError.naming(Arg("workers", 0), " must be from 1 to 8", limit=(1, 8))
    >>> str(error), error.field, error.value, error.limit
    ('workers=0 must be from 1 to 8', 'workers', 0, (1, 8))
    >>> error.worded(lambda arg: f"--{arg.name} {arg.value}")
    '--workers 0 must be from 1 to 8'
    """

    parts: tuple = ()
    field: str | None = None  # the first argument named (some subclasses set their own)
    value: Any = None  # its value (None when only its name is given)
    limit: Any = None

    @classmethod
    def naming(cls, *parts: str | Arg, limit: Any = None):
        """The error whose message is ``parts`` joined, each :class:`Arg` spelled as Python
        spells it.

        Parameters
        ----------
        *parts : str or Arg
            The message's words and the arguments it names, in order.
        limit : optional
            The bound the value broke (a number, a range, the names allowed...).

        Returns
        -------
        TaoLongError
            Of this class.
        """
        error = cls(spelled(parts))
        error.parts, error.limit = tuple(parts), limit
        first = next((part for part in parts if isinstance(part, Arg)), None)
        if first is not None:
            error.field = first.name
            error.value = None if first.value is NAMED else first.value
        return error

    def worded(self, spell: Callable[[Arg], str]) -> str:
        """The message with each argument it names spelled by ``spell``.

        Parameters
        ----------
        spell : callable
            An :class:`Arg` to its text.

        Returns
        -------
        str
            ``str(self)`` for a message made without :meth:`naming`.
        """
        return spelled(self.parts, spell) if self.parts else str(self)


def spelled(parts, spell: Callable[[Arg], str] = python_spelling) -> str:
    """``parts`` (words and :class:`Arg` values) joined, each Arg spelled by ``spell``.

    Parameters
    ----------
    parts : iterable of str or Arg
    spell : callable
        An Arg to its text (default: :func:`python_spelling`).

    Returns
    -------
    str
    """
    return "".join(part if isinstance(part, str) else spell(part) for part in parts)


class RulesError(TaoLongError):
    """An unknown scenario, mode, edition or option, or a bad option value."""


class DataError(TaoLongError):
    """A data file under ``data/`` is malformed. Names the file and the field."""

    def __init__(self, file: str, field: str, reason: str):
        self.file, self.field, self.reason = file, field, reason
        super().__init__(f"{file}: {field}: {reason}")


class PositionError(TaoLongError):
    """A malformed position (TLN or JSON). Names the field at fault and why."""

    def __init__(self, field: str, reason: str, text: str | None = None):
        self.field, self.reason, self.text = field, reason, text
        super().__init__(f"bad position: {field}: {reason}")


class InvariantError(PositionError):
    """A well-formed position that breaks one or more invariants of the game."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("invariants", "; ".join(self.problems))


class NotationError(TaoLongError):
    """Turn notation that cannot be parsed. Names the part at fault."""


class IllegalTurnError(TaoLongError):
    """A well-formed turn that is not legal in the position. Says why; ``number`` is the
    turn's place in a line (1 for the first), when it was played in one."""

    def __init__(self, turn: str, reason: str, number: int | None = None):
        self.turn, self.reason, self.number = turn, reason, number
        super().__init__(f"illegal turn {turn!r}: {reason}")


class PuzzleError(TaoLongError):
    """A malformed puzzle or puzzle file. Names the file, the line and the field at fault.

    ``problems`` lists every ``(line, field, reason)`` found; one bad line never hides the
    others.
    """

    def __init__(self, file: str, problems: list[tuple[int | None, str, str]]):
        self.file, self.problems = file, list(problems)
        lines = [
            f"{file}:{line}: {field}: {reason}" if line else f"{file}: {field}: {reason}"
            for line, field, reason in self.problems
        ]
        super().__init__("\n".join(lines) if lines else f"{file}: bad puzzle file")
