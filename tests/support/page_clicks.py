"""How a person plays a turn on the lab's web page (and the Explorer): the clicks and the
buttons, one a choice, as ``(kind, how, target)``: ``how`` is ``"click"`` (the picture:
``space-He``, ``cell-c3``) or ``"choose"`` (a button's label, or ``absorb``/``expel``). A
choice the session takes by itself (a lone destination, a lone tie) is skipped by the player:
its ``kind`` is not the one asked for next."""

from __future__ import annotations

from taolong_lab.engine import cell_name
from taolong_lab.explorer.builder import choices_of


def clicks(state, turn) -> list[tuple[str, str, str]]:
    """The choices that play ``turn`` from ``state``, as a person makes them."""
    out = []
    for choice in choices_of(state, state.parse_turn(turn)):
        if choice.kind == "space":
            out.append(("space", "click", f"space-{choice.label}"))
        elif choice.kind == "move" and choice.value[0]:
            out.append(("move", "click", f"cell-{cell_name(choice.value[0][-1])}"))
        elif choice.kind == "effect":
            out.append(("effect", "choose", choice.value))
        else:
            out.append((choice.kind, "choose", choice.label))
    return out
