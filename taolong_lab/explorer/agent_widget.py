"""The Explorer's computer and analysis controls: a thin ipywidgets view of an
:class:`~.agent_panel.AgentPanel`, added to an :class:`~.widget.Explorer` by :func:`attach`.

>>> from taolong_lab.explorer.widget import Explorer
>>> ex = Explorer()
>>> controls = attach(ex, nodes=300)
>>> controls.computer.value = "black"          # the toggle: the computer plays black
>>> ex.play("Wa>He a3,a4")                      # black answers at once
>>> len(ex.line), ex.position.to_move
(2, 'white')
"""

from __future__ import annotations

import html

import ipywidgets as w

from .agent_panel import AgentPanel, bar_html
from .widget import Explorer

NOBODY = "nobody"


class AgentControls(w.VBox):
    """ "computer plays white/black", the evaluation bar, the best line, an analyse button
    (and an automatic analysis after each turn), and a game record to load.

    Parameters
    ----------
    explorer : Explorer
        The Explorer it plays in.
    nodes, time_limit, seed
        As :class:`~.agent_panel.AgentPanel` takes them.
    """

    def __init__(self, explorer: Explorer, *, nodes=None, time_limit=None, seed: int = 0):
        super().__init__()
        self.explorer = explorer
        self.panel = AgentPanel(explorer.session, nodes=nodes, time_limit=time_limit, seed=seed)
        self._busy = False
        self.computer = w.ToggleButtons(
            options=[NOBODY, "white", "black"], value=NOBODY, description="computer"
        )
        self.computer.observe(self._on_computer, "value")
        self.analyse_button = w.Button(description="analyse", tooltip="score and best line")
        self.analyse_button.on_click(explorer._guarded(lambda _b: self.analyse()))
        self.auto = w.Checkbox(value=False, description="after each turn", indent=False)
        self.bar = w.HTML()
        self.bar.add_class("taolong-eval-bar")
        self.line = w.HTML()
        self.record_path = w.Text(placeholder="games.jsonl", description="record")
        self.record_index = w.BoundedIntText(value=0, min=0, max=10**6, layout={"width": "80px"})
        self.record_button = w.Button(description="load record")
        self.record_button.on_click(explorer._guarded(lambda _b: self.load_record()))
        self.children = [
            w.HBox([self.computer]),
            w.HBox([self.analyse_button, self.auto]),
            self.bar,
            self.line,
            w.HBox([self.record_path, self.record_index, self.record_button]),
        ]
        explorer.refresh_hooks.append(self.refresh)
        self.refresh()

    def _on_computer(self, change) -> None:
        value = None if change["new"] == NOBODY else change["new"]
        self.explorer._guarded(lambda _b: self.panel.set_computer(value))(None)
        self.explorer._refresh()

    def analyse(self) -> None:
        self.panel.analyse()
        self.explorer._refresh()

    def load_record(self) -> None:
        self.panel.load_record(self.record_path.value, self.record_index.value)
        self.explorer._refresh()

    def refresh(self) -> None:
        """After each redraw: the computer answers when it is to move, then the bar and the
        line are drawn again."""
        if self._busy:
            return
        self._busy = True
        try:
            guarded = self.explorer._guarded
            if self.panel.computer_to_move():
                guarded(lambda _b: self.panel.respond())(None)
                self.explorer._refresh()
            position = self.explorer.position
            if self.auto.value and self.panel.current() is None and not position.is_over():
                guarded(lambda _b: self.panel.analyse())(None)
            self._draw()
        finally:
            self._busy = False

    def _draw(self) -> None:
        self.bar.value = bar_html(self.panel.bar())
        self.line.value = html.escape(self.panel.summary()) or "<i>no analysis yet</i>"


def attach(explorer: Explorer, **budget) -> AgentControls:
    """Add the computer and analysis controls to ``explorer`` (``nodes=``, ``time_limit=``,
    ``seed=`` as :class:`AgentControls` takes them); returns them."""
    controls = AgentControls(explorer, **budget)
    explorer.children = (*explorer.children, controls)
    return controls


__all__ = ["AgentControls", "attach"]
