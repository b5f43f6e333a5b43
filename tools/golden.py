"""Golden transcripts: seeded random games written out turn by turn, to pin the engine's output.

``python tools/golden.py`` (or ``make golden``) rewrites ``tests/golden/*.txt``;
``python tools/golden.py --check`` only compares, printing a diff and exiting 1 if a file would
change. ``tests/engine/test_golden.py`` replays every file against the engine.

Each game is ``random.Random(seed).choice(state.legal_turns())`` from ``new_game(...)`` until the
game ends, so a transcript changes exactly when the rules, the order of ``legal_turns()``, the
notation, TLN or the text board change. Regenerate after an intended change and review the diff.

The games of the later rules (scenarios, Monk, Master, Chosen One) carry two more comment lines:
why the seed was chosen, and what the game uses (portal steps, rock hits, Focus, Balance, ...),
counted from the game itself by :func:`features`. The text board of a Chosen One game is shown
revealed (``board_text(state, reveal=True)``): the transcript pins the position.

File format (one game per file)::

    # comment lines: what the file is and how to regenerate it (and for the later
    # games: why this seed, what the game uses)
    game: current-seed-3                 header, "key: value" lines
    seed: 3
    rules: field/grasshopper/current
    start: <TLN of the start position>
                                         blank line
    1 white He>Fi a3+                    turn number, side that played it, the turn's notation
      field/grasshopper/current ...      the TLN after the turn (indented two spaces)
      | <board line>                     every 10th turn and after the last: str(state), rstripped
    ...
    result: black wins: white lost its last segment
    turns: 126
"""

from __future__ import annotations

import argparse
import difflib
import random
import sys
import textwrap
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the taolong_lab of this checkout

from taolong_lab import new_game, solo_game  # noqa: E402
from taolong_lab.engine import CW, Phase, State, Turn, sow  # noqa: E402
from taolong_lab.engine.solo import solo_sowings  # noqa: E402
from taolong_lab.engine.spirit import BALANCE, flow_for, sowings  # noqa: E402
from taolong_lab.files import write_atomic  # noqa: E402
from taolong_lab.pictures.text import board_text  # noqa: E402

BOARD_EVERY = 10
REGENERATE = "python tools/golden.py"


@dataclass(frozen=True)
class Game:
    """One golden game: a seeded random playout from the start of a variant.

    ``why`` says why the seed was chosen and ``uses`` names the :func:`features` the game must
    show (tests/engine/test_golden.py checks them); both are for the games of the later rules.
    """

    name: str
    seed: int
    edition: str = "current"
    options: tuple[tuple[str, object], ...] = field(default=())
    scenario: str = "field"
    mode: str = "grasshopper"
    why: str = ""
    uses: tuple[str, ...] = ()
    player: str | None = None  # solo: the player's colour

    def start(self) -> State:
        if self.player is not None:
            return solo_game(
                self.scenario, self.mode, player=self.player, edition=self.edition,
                **dict(self.options),
            )  # fmt: skip
        return new_game(self.scenario, self.mode, edition=self.edition, **dict(self.options))

    def filename(self) -> str:
        return f"{self.name}.txt"


# Seeds chosen for games of moderate length that end both ways and include penalties,
# Wind/Thunder extra phases and Lake/Mountain stays. The later games were picked (from the
# first few dozen seeds) for using their scenario's and mode's features, see ``why``.
GAMES: tuple[Game, ...] = (
    Game("current-seed-3", 3),
    Game("current-seed-8", 8),
    Game("current-seed-13", 13),
    Game("earlier-seed-2", 2, edition="earlier"),
    Game(
        "valley-grasshopper-seed-26",
        26,
        scenario="valley",
        why="steps through all three kinds of portal: the green twins, the red (paid with "
        "fire) and the blue (paid with water), which lead to any free portal; bodies stay "
        "joined through portal pairs for several turns; a penalty turn.",
        uses=("portal steps (green)", "portal steps (red)", "portal steps (blue)", "penalties"),
    ),
    Game(
        "wall-master-seed-18",
        18,
        scenario="wall",
        mode="master",
        why="rocks bitten, expelled and trampled until most of the wall is gone; Master flow "
        "both ways (the flux coin turns), Focus (one impossible, paid with a life) and a "
        "Balance; penalty turns.",
        uses=(
            "rock hits",
            "rocks trampled",
            "clockwise sowings",
            "Focus",
            "impossible Focus",
            "Balance",
        ),
    ),
    Game(
        "mist-monk-village-seed-133",
        133,
        scenario="mist",
        mode="monk",
        options=(("village", "black"),),
        why="the white dragon takes village damage again and again (black protects it); "
        "portal steps through all four twin colours; Monk drops, Focus (one impossible) and "
        "a Balance; a penalty turn.",
        uses=(
            "village damage",
            "portal steps (green)",
            "portal steps (red)",
            "portal steps (blue)",
            "portal steps (yellow)",
            "Focus",
            "impossible Focus",
            "Balance",
        ),
    ),
    Game(
        "torus-grasshopper-seed-7",
        7,
        scenario="torus",
        why="a short game on the 6x6 wrapping board: many steps across the edges, and "
        "bodies lying across them.",
        uses=("edge crossings",),
    ),
    Game(
        "cave-chosen-one-seed-28",
        28,
        scenario="cave",
        mode="chosen-one",
        why="rocks of the cave hit and trampled; Master flow both ways, Focus and two "
        "Balances, played blind (the boards below are shown revealed).",
        uses=("rock hits", "rocks trampled", "clockwise sowings", "Focus", "Balance"),
    ),
    Game(
        "solo-field-white-seed-7",
        7,
        player="white",
        why="a short solo game: the opponent acts in most turns, skips impossible actions, "
        "leaves ties to the player, and kills the player's dragon during its group.",
        uses=(
            "opponent actions",
            "opponent actions skipped",
            "opponent ties",
            "player dragon lost in the opponent's group",
        ),
    ),
    Game(
        "solo-field-black-next-turn-seed-3",
        3,
        player="black",
        options=(("solo_lookahead", "next-turn"),),
        why="the player takes the black dragon and the opponent judges priority 2 up to the "
        "end of the player's next turn (solo_lookahead=next-turn).",
        uses=("opponent actions", "opponent actions skipped", "opponent ties"),
    ),
    Game(
        "solo-valley-monk-white-seed-19",
        19,
        scenario="valley",
        mode="monk",
        player="white",
        why="a solo game the player wins, in Monk mode on the Valley: portal steps by both "
        "dragons, Focus and Balance effects, opponent ties.",
        uses=("portal steps (green)", "portal steps (red)", "Focus", "Balance", "opponent ties"),
    ),
)


def play(game: Game) -> list[tuple[Turn, State]]:
    """The game's turns with the position after each, to the end of the game."""
    rng = random.Random(game.seed)
    state = game.start()
    out = []
    while not state.is_over():
        turn = rng.choice(state.legal_turns())
        state = state.play(turn)
        out.append((turn, state))
    return out


def board_lines(state: State) -> list[str]:
    """The text board (``str(state)``, revealed in Chosen One) as transcript lines, trailing
    blanks stripped."""
    return [f"  | {line}".rstrip() for line in board_text(state, reveal=True).splitlines()]


FEATURE_ORDER = (
    "portal steps (green)",
    "portal steps (red)",
    "portal steps (blue)",
    "portal steps (yellow)",
    "edge crossings",
    "rock hits",
    "rocks trampled",
    "village damage",
    "clockwise sowings",
    "Focus",
    "impossible Focus",
    "Balance",
    "penalties",
    "extra phases",
    "ended in the Spirit phase",
    "opponent actions",
    "opponent actions skipped",
    "opponent ties",
    "player dragon lost in the opponent's group",
)
_PORTAL_NAMES = {"G": "green", "R": "red", "B": "blue", "Y": "yellow"}


def features(start: State, turns: list[tuple[Turn, State]]) -> Counter:
    """What a game uses, counted turn by turn (names from :data:`FEATURE_ORDER`).

    Portal steps count by the colour of the portal entered; edge crossings are steps between
    cells that are neighbours only across a wrapping edge; a rock hit is a rock that lost hits
    without being stepped on, a trampled rock one removed from a cell a head stepped onto;
    village damage is counted when the challenger ends its turn beside the village; Balance
    and the clockwise sowings come from replaying the sowing (engine.spirit)."""
    found: Counter = Counter()
    before = start
    for turn, after in turns:
        env = before.tables
        rows = before.layout
        bagua, coin = before.bagua, before.coin
        heads = {c[0]: before.cells(c)[0] for c in ("white", "black")}
        mover = before.to_move
        stepped = set()
        for phase in turn.phases:
            flow = flow_for(bagua[phase.space], coin, before.rules.mode)
            found["clockwise sowings"] += flow == CW
            if env.solo:
                options = [o.sowing for o in solo_sowings(env, bagua, phase.space, flow)]
            elif env.monk:
                options = sowings(env, bagua, phase.space, flow)
            if env.monk:
                sowing = next(s for s in options if s.drops == phase.drops)
                found["Balance"] += sum(kind == BALANCE for kind, _, _ in sowing.effects)
                bagua = sowing.bagua
            else:
                bagua = sow(bagua, phase.space, flow).bagua
            coin = flow
            for who, action in phase.focus:
                found["Focus"] += 1
                found["impossible Focus"] += action.penalty
                _walk(found, heads, stepped, rows, who, action)
            found["penalties"] += phase.penalty
            for _, action in phase.opponent or ():
                found["opponent actions"] += 1
                found["opponent actions skipped"] += action is None
                if action is not None:
                    _walk(found, heads, stepped, rows, "wb"[1 - "wb".index(mover[0])], action)
            if env.solo:
                groups = {
                    t.phases[0].opponent
                    for t in before.legal_turns()
                    if t.phases[0].space == phase.space and t.phases[0].drops == phase.drops
                }
                found["opponent ties"] += len(groups) > 1
                lost = not after.dragon(mover).alive and phase.ended
                found["player dragon lost in the opponent's group"] += lost
            else:
                found["ended in the Spirit phase"] += phase.ended
            _walk(found, heads, stepped, rows, mover[0], phase)
        found["extra phases"] += len(turn.phases) > 1
        old, new = before.rocks, after.rocks
        for cell, hits in old.items():
            if new.get(cell, 0) < hits:
                gone = cell not in new
                found["rocks trampled" if gone and cell in stepped else "rock hits"] += 1
        protector = before.rules.option("village")
        if protector is not None and mover != protector and after.dragon(protector).alive:
            dragon = after.dragon(mover)
            tiles = set(after.cells(mover)) | {
                env.geo.xy[p] for _, q, e in dragon.links for p in (q, e)
            }
            beside = {
                (x + dx, y + dy) for x, y in tiles for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))
            }
            found["village damage"] += any(
                0 <= y < len(rows) and 0 <= x < len(rows[0]) and rows[y][x] == "V"
                for x, y in beside
            )
        before = after
    return +found


def _walk(found: Counter, heads: dict, stepped: set, rows, who: str, phase: Phase) -> None:
    """Follow the head of ``who`` ("w"/"b") along ``phase``'s path, counting portal steps (by
    the colour of the portal entered) and steps across a wrapping edge."""
    portals = {i: entry for i, entry, _ in phase.portals}
    for i, cell in enumerate(phase.path):
        (ax, ay), (bx, by) = heads[who], cell
        if i in portals:
            x, y = portals[i]
            found[f"portal steps ({_PORTAL_NAMES[rows[y][x]]})"] += 1
        elif abs(ax - bx) + abs(ay - by) != 1:
            found["edge crossings"] += 1
        heads[who] = cell
        stepped.add(cell)


def describe_features(found: Counter) -> str:
    return ", ".join(f"{found[name]} {name}" for name in FEATURE_ORDER if found[name])


def _comment(text: str) -> list[str]:
    return textwrap.wrap(text, 98, initial_indent="# ", subsequent_indent="#   ")


def render(game: Game) -> str:
    """The full text of the game's golden file."""
    start = game.start()
    lines = [
        f"# Golden transcript {game.filename()}: a seeded random game of taolong_lab.",
        "# Every turn is random.Random(seed).choice(state.legal_turns()) from the start.",
        "# Each turn: '<number> <side> <notation>', then the TLN after it; every "
        f"{BOARD_EVERY}th turn and",
        "# the last, the text board (str(state)). Do not edit by hand; regenerate with",
        f"#     .venv/bin/{REGENERATE}            (or: make golden)",
        f"# and compare only with: .venv/bin/{REGENERATE} --check",
    ]
    turns = play(game)
    if game.why:
        lines += _comment(f"Why seed {game.seed}: {game.why}")
        lines += _comment(f"The game uses: {describe_features(features(start, turns))}.")
    lines += [
        f"game: {game.name}",
        f"seed: {game.seed}",
        f"rules: {start.rules.token()}",
        f"start: {start.to_tln()}",
        "",
    ]
    previous = start
    for number, (turn, state) in enumerate(turns, start=1):
        lines.append(f"{number} {previous.to_move} {turn}")
        lines.append(f"  {state.to_tln()}")
        if number % BOARD_EVERY == 0 or number == len(turns):
            lines.extend(board_lines(state))
        previous = state
    lines.append(f"result: {previous.outcome()}")
    lines.append(f"turns: {len(turns)}")
    return "\n".join(lines) + "\n"


def golden_dir() -> Path:
    """``tests/golden`` of this checkout."""
    return ROOT / "tests" / "golden"


def check(directory: Path, out=None) -> int:
    """Compare every golden file with a fresh rendering; print diffs; 0 if all match."""
    out = out or sys.stdout
    bad = 0
    for game in GAMES:
        path = directory / game.filename()
        want = render(game)
        have = path.read_text(encoding="utf-8") if path.exists() else ""
        if have != want:
            bad += 1
            if not path.exists():
                print(f"missing: {path}", file=out)
            out.writelines(
                difflib.unified_diff(
                    have.splitlines(keepends=True),
                    want.splitlines(keepends=True),
                    fromfile=f"{path} (on disk)",
                    tofile=f"{path} (regenerated)",
                    n=2,
                )
            )
    known = {game.filename() for game in GAMES}
    for stray in sorted(directory.glob("*.txt")):
        if stray.name not in known:
            bad += 1
            print(f"stray golden file (no game generates it): {stray}", file=out)
    if bad:
        print(f"{bad} golden file(s) out of date; regenerate with: {REGENERATE}", file=out)
    else:
        print(f"{len(GAMES)} golden files up to date in {directory}", file=out)
    return 1 if bad else 0


def regenerate(directory: Path, out=None) -> int:
    out = out or sys.stdout
    directory.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        path = directory / game.filename()
        text = render(game)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            write_atomic(path, text.encode("utf-8"))
            print(f"wrote {path}", file=out)
        else:
            print(f"unchanged {path}", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=REGENERATE, description="Regenerate or check the golden game transcripts."
    )
    parser.add_argument(
        "--check", action="store_true", help="compare only; print a diff and exit 1 on mismatch"
    )
    parser.add_argument(
        "--dir", type=Path, default=None, help="golden directory (default: tests/golden)"
    )
    args = parser.parse_args(argv)
    directory = args.dir or golden_dir()
    return check(directory) if args.check else regenerate(directory)


if __name__ == "__main__":
    sys.exit(main())
