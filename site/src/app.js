// The page: draws what the lab's Python (in worker.js) says, and sends it the clicks.
// Every answer is a view (taolong_lab.explorer.page.Page.view): the SVG, the prompt, the
// offers, the moves, the messages and the result.

const $ = (id) => document.getElementById(id);
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
const pending = new Map();
let nextId = 1;
let busy = 1; // until the lab is ready
let catalogue = null;

function setBusy(delta) {
  busy += delta;
  $("state").dataset.busy = String(busy);
  for (const button of document.querySelectorAll("button")) {
    button.disabled = busy > 0 || button.dataset.off === "1";
  }
}

function call(name, args = [], onProgress = null) {
  const id = nextId++;
  setBusy(+1);
  return new Promise((resolve) => {
    pending.set(id, { resolve, onProgress });
    worker.postMessage({ id, name, args });
  }).finally(() => setBusy(-1));
}

// bench/site.py times the page's own calls through this
window.taolongCall = call;

worker.onmessage = (event) => {
  const data = event.data;
  if (data.status) {
    $("loading").textContent = `Loading: ${data.status}… (${data.seconds.toFixed(1)} s)`;
  } else if (data.failed) {
    $("loading").textContent = `The lab could not start: ${data.failed}`;
  } else if (data.ready) {
    ready(data);
  } else if (data.progress) {
    pending.get(data.id)?.onProgress?.(data.progress);
  } else if (pending.has(data.id)) {
    const { resolve } = pending.get(data.id);
    pending.delete(data.id);
    resolve(data.answer);
  }
};

function options(select, items, label = (x) => x, value = (x) => x) {
  select.replaceChildren(
    ...items.map((item) => {
      const option = document.createElement("option");
      option.value = value(item);
      option.textContent = label(item);
      return option;
    }),
  );
}

function ready(data) {
  catalogue = data.catalogue;
  const loading = $("loading");
  loading.textContent = `Ready in ${data.seconds.toFixed(1)} s: taolong_lab ${data.version} on Python ${data.python} (Pyodide ${data.pyodide}), the pure-Python search; nothing leaves your browser.`;
  loading.dataset.ready = "1";
  loading.dataset.seconds = data.seconds.toFixed(2);
  loading.dataset.stages = JSON.stringify(data.stages); // bench/web_page.py reads them
  const optimum = (p) => (p.optimum == null ? "not proved" : `optimum ${p.optimum}`);
  options($("rulebook"), catalogue.rulebook, (p) => `${p.id} (${optimum(p)})`, (p) => p.id);
  options($("set-scenario"), Object.keys(catalogue.sets));
  options($("atlas-scenario"), catalogue.atlas.scenarios);
  options($("atlas-list"), catalogue.atlas.stacks);
  options($("game-scenario"), catalogue.scenarios);
  options($("game-mode"), catalogue.modes);
  const [low, high] = catalogue.nodes;
  Object.assign($("game-nodes"), { min: low, max: high });
  fillTiers();
  setBusy(-1);
  render(data.view);
}

function fillTiers() {
  const tiers = catalogue.sets[$("set-scenario").value] || {};
  options($("set-tier"), catalogue.tiers.filter((t) => t in tiers));
  fillPuzzles();
}

function fillPuzzles() {
  const tiers = catalogue.sets[$("set-scenario").value] || {};
  const puzzles = tiers[$("set-tier").value] || [];
  options($("set-puzzle"), puzzles, (p) => `${p.id} (optimum ${p.optimum})`, (p) => p.id);
}

function button(label, tooltip, enabled, onClick) {
  const b = document.createElement("button");
  b.textContent = label;
  b.title = tooltip;
  b.dataset.off = enabled ? "0" : "1";
  b.disabled = !enabled || busy > 0;
  b.addEventListener("click", onClick);
  return b;
}

function message(entry) {
  const div = document.createElement("div");
  div.className = entry.level;
  const [first, ...rest] = entry.text.split("\n");
  div.textContent = first;
  if (rest.length) {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = "details";
    details.append(summary, rest.join("\n"));
    div.append(details);
  }
  return div;
}

function render(view) {
  if (view.error) {
    $("messages").prepend(message({ level: "error", text: view.error }));
    return;
  }
  $("board").innerHTML = view.svg;
  $("title").textContent = view.title || (view.kind === "game" ? "Against the computer" : "");
  $("subtitle").textContent = view.subtitle;
  const state = $("state");
  Object.assign(state.dataset, {
    ply: view.ply,
    picked: view.picked,
    next: view.next,
    index: view.index,
    length: view.length,
  });
  state.textContent = view.over
    ? view.over
    : `turn ${view.ply + 1}: ${view.to_move} to move${view.solo ? " (solo)" : ""}`;
  $("prompt").textContent = view.prompt;
  $("choices").replaceChildren(
    ...view.choices.map((c) => button(c.label, c.tooltip, c.enabled, () => act("choose", [c.label]))),
  );
  $("effects").replaceChildren(
    ...view.effects.map((e) => button(e.label, e.tooltip, e.enabled, () => act("choose", [e.name]))),
  );
  const toggles = {
    cancel: view.picked > 0,
    undo: view.can_undo,
    redo: view.index < view.length,
    hint: !view.solver,
    solve: !view.solver,
  };
  for (const [id, on] of Object.entries(toggles)) {
    $(id).dataset.off = on ? "0" : "1";
    $(id).disabled = !on || busy > 0;
    if (id === "hint" || id === "solve") $(id).title = view.solver || $(id).title;
  }
  const result = $("result");
  result.textContent = view.result;
  result.className = view.result.startsWith("you lose") ? "lost" : "";
  $("messages").replaceChildren(...view.messages.slice().reverse().map(message));
  $("moves").replaceChildren(
    ...view.moves.map((m) => {
      const li = document.createElement("li");
      li.className = m.played ? (m.number === view.index ? "current" : "") : "future";
      li.title = m.advice;
      li.innerHTML = `${m.colour[0]} <b></b> <span class="words"></span>`;
      li.querySelector("b").textContent = m.notation;
      li.querySelector(".words").textContent = m.words;
      return li;
    }),
  );
  if (view.computer_to_move) setTimeout(() => act("respond"), 50);
}

async function act(name, args = [], onProgress = null) {
  render(await call(name, args, onProgress));
}

$("board").addEventListener("click", (event) => {
  if (busy) return;
  // a space or a cell may lie under a stone, a dragon or an overlay: look under the pointer
  for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
    if (!$("board").contains(node) || !node.closest) continue;
    const space = node.closest(".space[data-space]");
    if (space) return act("click", [`space-${space.dataset.space}`]);
    if (node.matches("rect.cell[data-cell]")) return act("click", [`cell-${node.dataset.cell}`]);
  }
});

setBusy(0);
$("set-scenario").addEventListener("change", fillTiers);
$("set-tier").addEventListener("change", fillPuzzles);
$("open-rulebook").addEventListener("click", () => act("open_puzzle", ["rulebook", $("rulebook").value]));
$("open-set").addEventListener("click", () => {
  const set = `${$("set-scenario").value}-${$("set-tier").value}`;
  act("open_puzzle", [set, $("set-puzzle").value]);
});
$("open-atlas").addEventListener("click", () =>
  act("open_atlas", [$("atlas-scenario").value, $("atlas-player").value, $("atlas-stacks").value.trim()]),
);
$("open-game").addEventListener("click", () =>
  act("new_game", [
    $("game-scenario").value,
    $("game-mode").value,
    $("game-colour").value,
    Number.parseInt($("game-nodes").value, 10),
  ]),
);
for (const name of ["cancel", "undo", "redo", "hint"]) $(name).addEventListener("click", () => act(name));
$("solve").addEventListener("click", async () => {
  const box = $("progress-box");
  const bar = $("progress");
  box.hidden = false;
  bar.removeAttribute("value");
  $("progress-text").textContent = "searching…";
  await act("solve", [], (p) => {
    if (p.total) {
      bar.max = p.total;
      bar.value = p.done;
    } else {
      bar.removeAttribute("value");
    }
    const bound = p.bound == null ? "" : `, no win below ${p.bound} turns`;
    $("progress-text").textContent = `${p.stage}: ${p.done}${p.total ? ` of ${p.total}` : ""}${bound}`;
  });
  box.hidden = true;
});
