"""The one registry of agents: specs read against it, its users (the command line, the Explorer's
game widget, the benchmark) take their agents from it, reprs show every key given, and
docs/agents.md lists every registered agent with its keys."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from taolong_lab.agents import AgentError, AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent
from taolong_lab.agents.registry import KEYS, agent_from_spec, agent_kind, agents
from taolong_lab.cli import main
from taolong_lab.explorer.game_play import PERSON, agent_names, make_agent

ROOT = Path(__file__).resolve().parents[2]


def test_every_agent_is_registered_once_with_known_keys():
    kinds = agents()
    assert [k.make for k in kinds] == [RandomAgent, GreedyAgent, AlphaBetaAgent, MCTSAgent]
    assert len({k.name for k in kinds}) == len(kinds)
    for kind in kinds:
        assert kind.name == kind.make.name and set(kind.keys) <= set(KEYS) and kind.help
        assert agent_kind(kind.name) is kind


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("random", "RandomAgent(seed=0)"),
        ("greedy:samples=3,seed=4", "GreedyAgent(samples=3, seed=4)"),
        ("alphabeta:depth=3", "AlphaBetaAgent(nodes=20000, depth=3, seed=0)"),
        ("alphabeta:time=1.5,nodes=40", "AlphaBetaAgent(time=1.5, nodes=40, seed=0)"),
        ("alphabeta:samples=2", "AlphaBetaAgent(nodes=20000, samples=2, seed=0)"),
        ("mcts:nodes=300,seed=7", "MCTSAgent(nodes=300, seed=7)"),
    ],
)
def test_a_spec_builds_its_agent_and_the_repr_shows_every_key_given(spec, expected):
    made = agent_from_spec(spec)
    assert repr(made) == expected
    classes = {kind.make.__name__: kind.make for kind in agents()}
    again = eval(expected.replace("time=", "time_limit="), classes)  # a repr of ours, not user data
    assert repr(again) == expected


def test_a_budget_goes_to_the_agents_that_take_one():
    assert agent_from_spec("greedy", time=1.0, nodes=5).samples == 8
    assert agent_from_spec("mcts", nodes=5).nodes == 5
    assert agent_from_spec("alphabeta:nodes=9", time=1.0).time_limit is None  # the spec's own
    assert (
        agent_from_spec("random:seed=3", seed=1).seed == 3
        and agent_from_spec("random", seed=1).seed == 1
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("deep-blue", r"agent 'deep-blue': unknown agent 'deep-blue'; agents: random, greedy"),
        ("random:depth=3", r"'depth=3': random takes key=value with the keys seed"),
        ("alphabeta:depth", r"'depth': alphabeta takes key=value with the keys time, nodes"),
        ("mcts:nodes=many", r"nodes: not a number: 'many'"),
        ("alphabeta:depth=0", r"agent 'alphabeta:depth=0': depth must be a whole number"),
        ("x" * 300, r"a spec is NAME\[:key=value,\.\.\.\]"),
    ],
)
def test_a_bad_spec_names_the_spec_and_the_fault(spec, message):
    with pytest.raises(AgentError, match=message):
        agent_from_spec(spec)


def test_the_explorer_offers_the_registered_agents():
    assert agent_names() == [PERSON, "random", "greedy", "alphabeta", "mcts"]
    assert repr(make_agent("alphabeta", nodes=50, seed=2)) == "AlphaBetaAgent(nodes=50, seed=2)"
    assert make_agent(PERSON) is None


def test_the_command_line_shows_every_key_given(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    argv = ["play", "--vs", "alphabeta:depth=2,samples=3", "--nodes", "100", "--colour", "black"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "white: AlphaBetaAgent(nodes=100, depth=2, samples=3); black: you." in out
    assert main(["play", "--vs", "alphabeta:colour=1"]) == 2
    assert "alphabeta takes key=value with the keys time, nodes, seed" in capsys.readouterr().err


def test_the_benchmark_takes_its_agents_from_the_registry():
    text = (ROOT / "bench" / "agents.py").read_text(encoding="utf-8")
    assert "from taolong_lab.agents.registry import" in text
    assert not re.search(r"\b(RandomAgent|GreedyAgent|AlphaBetaAgent|MCTSAgent)\(", text)


def test_the_docs_list_every_registered_agent_and_its_keys():
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    section = text.split("## The registry", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([\w-]+)` \| ([^|]*) \| ([^|]*) \|$", section, re.MULTILINE)
    listed = {name: tuple(re.findall(r"`(\w+)`", keys)) for name, keys, _ in rows}
    assert listed == {kind.name: kind.keys for kind in agents()}
    helps = {name: what.strip() for name, _, what in rows}
    assert helps == {kind.name: kind.help for kind in agents()}
