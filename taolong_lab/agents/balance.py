"""The balance report card: how fair and how lively each variant of a game is.

For every cell (in Tao Long, every scenario × mode × edition, the earlier edition only where
its components build the scenario; in another game, each of its variants: an option set such
as a player count or a version) and every agent level, the card plays seeded self-play games
(the level's agent in every seat, after a few random opening turns) and reports, each rate
with a 95 % interval:

``advantage_p1``
    the first player's win rate (Ludii's AdvantageP1; white's in Tao Long), Wilson interval;
    ``black_wins`` the second player's, ``wins`` each player's (in a game of teams, every
    player with the top return wins: partners win together);
``balance``
    ``1 -`` (the highest player's win rate ``-`` the lowest's) (Ludii's Balance; in a game of
    two, ``1 - |white's win rate - black's|``), over the games that ended (a game stopped at
    the cap shows nothing of the balance: none when every game was), bootstrap interval;
``capped``
    the games that hit the decision cap (the game's own by default,
    :attr:`~taolong_lab.games.Game.decision_cap`), Wilson interval;
``length``
    turns a game: mean (with its interval), median and the 10/25/75/90 % quantiles;
``branching``
    legal turns a position, averaged over each game's positions, then over the games;
``lead_change``, ``drama``, ``decisiveness_moves``
    as Ludii's metrics define them, with each player's state evaluation taken from the game's
    evaluation squashed to [-1, 1] (``tanh(score / scale)``; in Tao Long
    :func:`~taolong_lab.games.taolong.evaluate`, white's value, black's its negation, with
    a scale of 40; Ludii runs a short UCT search for it). Over the positions before each turn
    (chance events are not turns): *lead change* counts the turns where the
    set of players with the highest evaluation differs from the one before (the first counts),
    divided by the turns; *drama* averages how far the eventual winner's evaluation is below
    the highest; *decisiveness moves* is the share of the game played before the winner's
    evaluation first exceeds the highest the loser ever reaches (1 when it never does). Drama
    and decisiveness use the decided games only.

Results go to a JSON file, written atomically after each game; a rerun with the same file and
settings resumes where it stopped, once every game kept is known to be this card's (its seed,
its turn cap, its figures in their ranges; every summary is computed again from them). One run
at a time writes a card (:func:`taolong_lab.files.output_lock`).
"""

from __future__ import annotations

import json
import math
import random
import statistics
from contextlib import nullcontext
from pathlib import Path

from ..errors import TaoLongError
from ..files import output_lock, read_bounded, write_atomic
from ..games import TAOLONG, Game, GameState
from ..games import game as game_named
from ..games.taolong import default_weights, two_player_rules
from ..rules import Rules
from ..rules.data import decode_json, json_decoder
from ..runner import Runner, as_runner
from .base import AgentError, check_seed
from .matches import describe, game_seed, play, score_interval
from .records import TURN_CAP, GameRecord
from .scoring import evaluation_for

QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
BOOTSTRAP_SAMPLES = 500
CARD_FORMAT = "taolong-balance"
MAX_CARD_BYTES = 64 * 2**20


def cells(scenarios=None, modes=None, editions=None) -> list[Rules]:
    """Every valid two-player rules of the given scenarios × modes × editions (default all)."""
    return two_player_rules(scenarios, modes, editions)


def player_values(state: GameState) -> tuple[float, ...]:
    """Each player's evaluation of ``state`` squashed to [-1, 1] (Ludii's state evaluation):
    ``tanh(score / scale)`` of the game's evaluation (in Tao Long, ``tanh(evaluate(state) /
    40)`` for white and its negation for black)."""
    evaluation = evaluation_for(state)
    return tuple(math.tanh(score / evaluation.scale) for score in evaluation.scores(state))


def game_metrics(record: GameRecord, capped: bool) -> dict:
    """The per-game figures of the card from a game's record (see the module docstring)."""
    states = record.states()
    moves = [s for s in states[:-1] if not s.is_chance()]
    values = [player_values(s) for s in moves]
    branching = [len(s.legal_actions()) for s in moves]
    changes, before = 0, None
    for v in values:
        best = max(v)
        leaders = frozenset(p for p, value in enumerate(v) if value == best)
        changes += leaders != before
        before = leaders
    figures = {
        "turns": len(moves),
        "winner": record.winner,
        "winners": _top_sides(record.sides, states[-1]),
        "capped": capped,
        "branching": statistics.fmean(branching) if branching else 0.0,
        "lead_change": changes / len(moves) if moves else 0.0,
        "drama": None,
        "decisiveness_moves": None,
    }
    if record.winner is not None and moves:
        won = record.sides.index(record.winner)
        winner = [v[won] for v in values]
        figures["drama"] = statistics.fmean(max(v) - w for v, w in zip(values, winner, strict=True))
        threshold = max(x for v in values for p, x in enumerate(v) if p != won)  # the losers' best
        first = next((i for i, w in enumerate(winner) if w > threshold), len(moves))
        figures["decisiveness_moves"] = first / len(moves)
    return figures


def _game_job(job) -> dict:
    start, agent, max_turns, opening, seed, settings = job
    seats = [agent] * start.players
    record = play(seats, start, max_turns=max_turns, opening=opening, seed=seed)
    return {**game_metrics(record, capped=record.reason == TURN_CAP), "seed": seed, **settings}


def _top_sides(sides: tuple[str, ...], end: GameState) -> list[str]:
    """The sides with the top return of a finished game (partners share it), none for a draw
    or a game cut at the cap."""
    if not end.is_terminal():
        return []
    values = end.returns()
    best = max(values)
    if all(value == best for value in values):
        return []
    return [side for side, value in zip(sides, values, strict=True) if value == best]


def _won(game: dict) -> list[str]:
    """The winning sides of a game's figures (a card written before ``winners``: its winner)."""
    if "winners" in game:
        return game["winners"]
    return [] if game["winner"] is None else [game["winner"]]


def summarise_cell(games: list[dict], seed: int = 0, sides=("white", "black")) -> dict:
    """The card's figures for one cell from its games' figures; ``sides`` names the players
    in their order."""
    n = len(games)
    won = [[1.0 if side in _won(g) else 0.0 for g in games] for side in sides]
    capped = [1.0 if g["capped"] else 0.0 for g in games]
    lengths = sorted(g["turns"] for g in games)
    ended = [i for i, g in enumerate(games) if not g["capped"]]  # the balance's games
    rng = random.Random(f"balance:{seed}")
    balances = []
    for _ in range(BOOTSTRAP_SAMPLES if ended else 0):
        pick = [ended[rng.randrange(len(ended))] for _ in ended]
        counts = [sum(column[i] for i in pick) for column in won]
        balances.append(1.0 - (max(counts) - min(counts)) / len(ended))
    balances.sort()
    decided = [g for g in games if g["drama"] is not None]
    totals = [sum(column[i] for i in ended) for column in won]
    card = {
        "games": n,
        "ended": len(ended),
        "advantage_p1": _rate(won[0]),
        "black_wins": _rate(won[1]) if len(won) > 1 else _rate([]),
        "wins": [_rate(column) for column in won],
        "balance": {
            "value": 1.0 - (max(totals) - min(totals)) / len(ended) if ended else None,
            "interval": _percentiles(balances),
        },
        "capped": _rate(capped),
        "length": {
            "mean": _mean(lengths),
            **{f"q{int(q * 100)}": _quantile(lengths, q) for q in QUANTILES},
        },
        "branching": _mean([g["branching"] for g in games]),
        "lead_change": _mean([g["lead_change"] for g in games]),
        "drama": _mean([g["drama"] for g in decided]),
        "decisiveness_moves": _mean([g["decisiveness_moves"] for g in decided]),
    }
    return card


def _percentiles(ordered: list[float]) -> list[float] | None:
    """The 2.5 % and 97.5 % points of a sorted bootstrap sample."""
    if not ordered:
        return None
    cut = int(0.025 * (len(ordered) - 1))
    return [ordered[cut], ordered[-1 - cut]]


def _rate(points: list[float]) -> dict:
    if not points:
        return {"value": None, "interval": None}
    return {"value": sum(points) / len(points), "interval": list(score_interval(points))}


def _mean(values: list[float]) -> dict:
    if not values:
        return {"value": None, "interval": None}
    mean = statistics.fmean(values)
    if len(values) < 2:
        return {"value": mean, "interval": None}
    half = 1.959963984540054 * statistics.stdev(values) / math.sqrt(len(values))
    return {"value": mean, "interval": [mean - half, mean + half]}


def _quantile(ordered: list[float], q: float):
    if not ordered:
        return None
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def balance_card(
    levels: dict,
    *,
    games: int = 10,
    game: str | Game = TAOLONG,
    variants=None,
    scenarios=None,
    modes=None,
    editions=None,
    seed: int = 0,
    max_turns: int | None = None,
    opening: int = 4,
    out=None,
    runner: Runner | None = None,
) -> dict:
    """Play the card's games and return the card (and write it to ``out``).

    Parameters
    ----------
    levels
        Agent levels by name, e.g. ``{"greedy": GreedyAgent(), "alphabeta": AlphaBetaAgent(
        nodes=2000)}``: each plays itself.
    games
        Games per cell and level.
    game
        The game (or its name): Tao Long by default.
    variants
        Another game's cells: a list of option sets (default: the game's
        :meth:`~taolong_lab.games.Game.variants`).
    scenarios, modes, editions
        Tao Long's cells (default: all; see :func:`cells`).
    seed, max_turns, opening
        The card's seed, the cap of a game in decisions (default: the game's own,
        :attr:`~taolong_lab.games.Game.decision_cap`) and the random opening plies of each
        game.
    out
        A JSON file: written atomically after each game; a rerun with the same settings resumes.
    runner
        Where the games run and whether a bar shows them (:class:`taolong_lab.runner.Runner`;
        default: one after the other in this process, no bar).

    Returns
    -------
    dict
        ``{"format", "settings", "cells": [{"rules", "level", "summary", "games"}...]}``; a
        cell's ``rules`` is Tao Long's rules token, or another game's options
        (``name=value`` joined by ``+``, the game's name when none is set).

    Raises
    ------
    AgentError
        Bad settings, or a game that failed on a worker.
    RunnerError
        ``runner`` is not a Runner.
    TaoLongError
        ``out`` holds a card of other settings, or does not read.
    """

    if not isinstance(levels, dict) or not levels:
        raise AgentError("levels must be a dict of agents by name")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 100_000:
        raise AgentError(f"games must be a whole number from 1 to 100,000, not {games!r}")
    check_seed(seed)
    played = game_named(game) if isinstance(game, str) else game
    max_turns = played.decision_cap if max_turns is None else max_turns
    starts = _starts(played, variants, scenarios, modes, editions)
    settings = {
        "levels": {name: describe(agent) for name, agent in levels.items()},
        "games": games,
        "seed": seed,
        "max_turns": max_turns,
        "opening": opening,
    }
    if played is TAOLONG:
        settings["weights"] = default_weights().__dict__
    else:
        settings["game"] = played.name
    runner = as_runner(runner)
    with output_lock(out) if out is not None else nullcontext():
        card = _resume(out, settings) or {"format": CARD_FORMAT, "settings": settings, "cells": []}
        _play_card(card, starts, levels, out, runner)
    return card


def _play_card(card: dict, starts, levels: dict, out, runner: Runner) -> None:
    """Play the games of ``card`` (its ``settings``) not played yet on ``runner``, each cell's
    figures summarised again after each game, the card written to ``out`` after each."""
    settings = card["settings"]
    games, seed = settings["games"], settings["seed"]
    rest = (settings["max_turns"], settings["opening"])
    by_key = {(c["rules"], c["level"]): c for c in card["cells"]}
    jobs = []
    for label, start in starts:
        sides = list(start.player_names())
        for name, agent in levels.items():
            cell = by_key.get((label, name))
            if cell is None:
                cell = {"rules": label, "level": name, "sides": sides, "summary": None, "games": []}
                card["cells"].append(cell)
                by_key[(label, name)] = cell
            elif cell["sides"] != sides:
                raise TaoLongError(f"{out}: {label} {name}: sides: not this game's players")
            for index in range(len(cell["games"]), games):
                job = (start, agent, *rest, game_seed(seed, index), _game_settings(settings))
                jobs.append(((label, name), job))
    total = len(starts) * len(levels) * games
    bar = runner.bar(total, initial=total - len(jobs), desc="games", unit="game")
    keys = [key for key, _ in jobs]
    try:
        runs = runner.map(_game_job, [job for _, job in jobs])
        for key, (_, result) in zip(keys, runs, strict=False):
            if "error" in result:
                raise AgentError(f"{key[0]} {key[1]}: {result['error']}")
            cell = by_key[key]
            cell["games"].append(result)
            cell["summary"] = summarise_cell(cell["games"], seed, tuple(cell["sides"]))
            if out is not None:
                _write(out, card)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    for cell in card["cells"]:  # every summary from its games: none is read from the file
        cell["summary"] = summarise_cell(cell["games"], seed, tuple(cell["sides"]))
    if out is not None:
        _write(out, card)


def _starts(played: Game, variants, scenarios, modes, editions) -> list[tuple[str, GameState]]:
    """Each cell's label and start position."""
    if played is TAOLONG:
        if variants is not None:
            raise AgentError("Tao Long's cells are chosen by scenarios, modes and editions")
        rules = cells(scenarios, modes, editions)
        if not rules:
            raise AgentError("no scenario, mode and edition to play")
        return [
            (r.token(), TAOLONG.new(scenario=r.scenario, mode=r.mode, edition=r.edition))
            for r in rules
        ]
    if (scenarios, modes, editions) != (None, None, None):
        raise AgentError(f"{played.name}'s cells are chosen by variants, not scenarios or modes")
    chosen = played.variants() if variants is None else variants
    if not isinstance(chosen, list) or not chosen or not all(isinstance(v, dict) for v in chosen):
        raise AgentError("variants must be a list of option sets (dicts)")
    return [(_label(played, options), played.new(**options)) for options in chosen]


def _label(played: Game, options: dict) -> str:
    """A cell's name: its options as ``name=value`` joined by ``+``, or the game's name."""
    return "+".join(f"{name}={value}" for name, value in sorted(options.items())) or played.name


def _write(out, card: dict) -> None:
    text = json.dumps(card, ensure_ascii=False, allow_nan=False, indent=1) + "\n"
    write_atomic(Path(out), text.encode("utf-8"))


def _resume(out, settings: dict) -> dict | None:
    """The card in ``out`` to go on with, once it is known to be this card's: its settings,
    and each cell's games (:func:`_game_problem`); None when there is no file."""
    if out is None or not Path(out).exists():
        return None
    try:
        card = decode_json(json_decoder(), read_bounded(out, limit=MAX_CARD_BYTES).decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise TaoLongError(f"{out}: not a balance card: {str(exc)[:160]}") from None
    if not isinstance(card, dict) or card.get("format") != CARD_FORMAT:
        raise TaoLongError(f"{out}: format: not a balance card")
    if card.get("settings") != json.loads(json.dumps(settings)):
        raise TaoLongError(f"{out}: settings: a card of other settings; use another file")
    cells = card.get("cells")
    if not isinstance(cells, list) or len(cells) > MAX_CELLS:
        raise TaoLongError(f"{out}: cells: not a list of at most {MAX_CELLS} cells")
    for i, cell in enumerate(cells):
        problem = _cell_problem(cell, settings)
        if problem is not None:
            raise TaoLongError(f"{out}: cells[{i}]{problem}; use another file")
    return card


MAX_CELLS = 10_000


def _game_settings(settings: dict) -> dict:
    """What each game of a card carries of the card's settings: its seed, turn cap, opening."""
    return {
        "card_seed": settings["seed"],
        "max_turns": settings["max_turns"],
        "opening": settings["opening"],
    }


_FIGURES = {
    "turns",
    "winner",
    "winners",
    "capped",
    "branching",
    "lead_change",
    "drama",
    "decisiveness_moves",
    "seed",
    "card_seed",
    "max_turns",
    "opening",
}


def _cell_problem(cell, settings: dict) -> str | None:
    """Why ``cell`` is not a cell of the card of ``settings`` (a field, then the reason)."""
    if not isinstance(cell, dict) or set(cell) != {"rules", "level", "sides", "summary", "games"}:
        return ": not a cell (rules, level, sides, summary, games)"
    sides, games = cell["sides"], cell["games"]
    if not isinstance(cell["rules"], str) or len(cell["rules"]) > 200:
        return ".rules: not a cell's name"
    if cell["level"] not in settings["levels"]:
        return ".level: not one of this card's levels"
    if not (
        isinstance(sides, list)
        and 1 <= len(sides) <= 16
        and all(isinstance(side, str) and len(side) <= 100 for side in sides)
    ):
        return ".sides: not the names of a game's players"
    if not isinstance(games, list) or len(games) > settings["games"]:
        return f".games: not a list of at most {settings['games']} games"
    for j, game in enumerate(games):
        problem = _game_problem(game, j, settings, sides)
        if problem is not None:
            return f".games[{j}]{problem}"
    return None


def _game_problem(game, index: int, settings: dict, sides: list) -> str | None:
    """Why ``game`` is not the figures of game ``index`` of the card of ``settings``: the
    card's seed for that game, at most its turn cap (exactly at it when capped), winners among
    the cell's sides, each figure a number in its range."""
    if not isinstance(game, dict) or set(game) != _FIGURES:
        return f": not a game's figures ({', '.join(sorted(_FIGURES))})"
    own = _game_settings(settings)
    if any(game[key] != value or type(game[key]) is not int for key, value in own.items()):
        return ": not a game of this card's seed, turn cap and opening"
    if game["seed"] != game_seed(settings["seed"], index) or type(game["seed"]) is not int:
        return ".seed: not this card's seed for this game"
    turns, cap = game["turns"], settings["max_turns"]
    if type(turns) is not int or not 0 <= turns <= cap or type(game["capped"]) is not bool:
        return f".turns: not a number of turns up to the cap ({cap})"
    if game["capped"] and turns != cap:
        return ".capped: a game at the cap has as many turns as the cap"
    winners = game["winners"]
    if not (isinstance(winners, list) and all(w in sides for w in winners)):
        return ".winners: not the cell's sides"
    if game["winner"] is not None and game["winner"] not in sides:
        return ".winner: not one of the cell's sides"
    ranges = {"branching": 10**6, "lead_change": 1, "drama": 2, "decisiveness_moves": 1}
    for name, most in ranges.items():
        value = game[name]
        if value is None and name in ("drama", "decisiveness_moves"):
            continue
        if type(value) not in (int, float) or not 0 <= value <= most:
            return f".{name}: not a number from 0 to {most}"
    return None


def table(card: dict) -> list[dict]:
    """One flat row per cell and level, for a table or a DataFrame. The first player's win
    rate is ``"P1 wins"`` (also ``"white wins"``, Tao Long's name for it)."""
    rows = []
    for cell in card["cells"]:
        s = cell["summary"]
        rows.append(
            {
                "rules": cell["rules"],
                "level": cell["level"],
                "games": s["games"],
                "white wins": s["advantage_p1"]["value"],  # the first player's, in any game
                "white 95%": s["advantage_p1"]["interval"],
                "P1 wins": s["advantage_p1"]["value"],
                "P1 95%": s["advantage_p1"]["interval"],
                "wins": [w["value"] for w in s.get("wins", [])],
                "ended": s.get("ended", s["games"]),
                "balance": s["balance"]["value"],
                "capped": s["capped"]["value"],
                "length mean": s["length"]["mean"]["value"],
                "length median": s["length"]["q50"],
                "branching": s["branching"]["value"],
                "lead change": s["lead_change"]["value"],
                "drama": s["drama"]["value"],
                "decisiveness moves": s["decisiveness_moves"]["value"],
            }
        )
    return rows


def plot(card: dict):
    """A matplotlib figure, per cell and level: the first player's win rate as a bar with its
    95 % Wilson interval drawn as a line through a dot (a rate of 0 stays visible), the games
    stopped at the decision cap (the panel says so when none was) and the mean length."""
    import matplotlib.pyplot as plt

    levels = list(dict.fromkeys(c["level"] for c in card["cells"]))
    names = list(dict.fromkeys(c["rules"] for c in card["cells"]))
    first = "white" if "game" not in card["settings"] else "the first player"
    fig, axes = plt.subplots(1, 3, figsize=(15, 0.45 * len(names) * len(levels) + 2.4))
    height = 0.8 / len(levels)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    capped_any = False
    for k, level in enumerate(levels):
        rows = {c["rules"]: c["summary"] for c in card["cells"] if c["level"] == level}
        ys = [i + (k - (len(levels) - 1) / 2) * height for i, n in enumerate(names) if n in rows]
        got = [rows[n] for n in names if n in rows]
        colour = colours[k % len(colours)]
        rate = [s["advantage_p1"]["value"] for s in got]
        err = [
            [v - s["advantage_p1"]["interval"][0] for v, s in zip(rate, got, strict=True)],
            [s["advantage_p1"]["interval"][1] - v for v, s in zip(rate, got, strict=True)],
        ]
        axes[0].barh(ys, rate, height * 0.9, color=colour, alpha=0.55, label=level)
        axes[0].errorbar(rate, ys, xerr=err, fmt="o", color=colour, ecolor="black", capsize=3)
        capped = [s["capped"]["value"] for s in got]
        capped_any = capped_any or any(capped)
        axes[1].barh(ys, capped, height * 0.9, color=colour)
        axes[2].barh(ys, [s["length"]["mean"]["value"] for s in got], height * 0.9, color=colour)
    axes[0].axvline(0.5, color="grey", linewidth=0.8)
    axes[0].set_xlim(0, 1)
    axes[0].set_title(f"{first}'s win rate (95 % Wilson interval)")
    axes[1].set_xlim(0, 1)
    cap = card["settings"].get("max_turns")
    axes[1].set_title(f"games stopped at the cap ({cap} decisions)" if cap else "games capped")
    if not capped_any:
        axes[1].text(
            0.5,
            0.5,
            "no game reached the cap",
            ha="center",
            va="center",
            transform=axes[1].transAxes,
            color="dimgrey",
        )
    axes[2].set_title("decisions a game (mean)")
    for ax in axes:
        ax.set_yticks(range(len(names)), names if ax is axes[0] else [""] * len(names))
        ax.set_ylim(len(names) - 0.5, -0.5)
    fig.legend(
        *axes[0].get_legend_handles_labels(),
        loc="lower center",
        ncol=len(levels),
        title="level (each agent plays itself)",
        frameon=False,
    )
    fig.tight_layout(rect=(0, 0.12 if len(names) < 4 else 0.06, 1, 1))
    return fig


__all__ = [
    "balance_card",
    "cells",
    "game_metrics",
    "player_values",
    "plot",
    "summarise_cell",
    "table",
]
