"""Scenarios as data files (data/scenarios/*.toml): loading and the errors for bad files."""

import pytest

from taolong_lab import new_game
from taolong_lab.rules import scenario_names
from taolong_lab.rules.scenario import ScenarioError, load_scenario, parse_scenario

EIGHT = ["cave", "field", "gorge", "maze", "mist", "torus", "valley", "wall"]

GOOD = '''name = "Test"
grid = """
h h . . . . . .
v h . . . . G .
. . . . . . . .
. . . # # . . .
. . . # # . . .
. . . . . . . .
. G . . . . e e
. . . . . . < e
"""
'''


def test_all_eight_scenarios_are_files():
    """'SCENARIOS': The Field, The Valley, The Gorge, The Torus, The Wall, The Cave, The Mist,
    The Maze, each a file a user can edit, every layout marked inferred."""
    assert scenario_names() == EIGHT
    for key in EIGHT:
        scenario = load_scenario(key)
        assert "inferred" in scenario.status
        assert new_game(key).validate() is None


def test_good_file_parses():
    scenario = parse_scenario(GOOD, "test.toml", "test")
    assert scenario.rows[1] == "......G." and scenario.width == 8


STARTS_OVERLAP = "\n[starts]\nblack = [[2, 1], [1, 1], [1, 2], [1, 3]]\n"


@pytest.mark.parametrize(
    ("text", "message", "line", "cell"),
    [
        (GOOD.replace("v h . . . . G .", "v h . . . . G ?"), "unknown symbol '?'", 4, "h2"),
        (GOOD.replace("v h . . . . G .", "v h . . . . . ."), "unpaired portal", 9, "b7"),
        (GOOD.replace("v h . . . . G .", "v h . . . . G"), "wrong size: row 2 has 7", 4, None),
        (GOOD.replace(". . . . . . . .\n", "", 1), "wrong size: the grid has 7 rows", 2, None),
        (GOOD + STARTS_OVERLAP, "overlapping start cells", None, "b2"),
    ],
)
def test_bad_files_name_the_line_cell_and_problem(text, message, line, cell):
    """A malformed scenario file gets an error naming the file, line or cell, and the problem."""
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "test.toml", "test")
    error = info.value
    assert message in str(error) and "test.toml" in str(error)
    assert error.line == line and error.cell == cell
