// The lab's Python, in a Web Worker, so a search never freezes the page.
// Loads the pinned Pyodide core from ./pyodide/, unpacks the wheels listed in wheels.json into
// site-packages, then answers {id, name, args} requests with taolong_lab.explorer.page.dispatch
// (JSON text both ways). A solve reports its progress as {id, progress} messages.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const started = performance.now();
const stages = {}; // seconds from the worker's start to the end of each stage
let dispatch = null;

function stage(name) {
  stages[name] = (performance.now() - started) / 1000;
}

function status(text) {
  postMessage({ status: text, seconds: (performance.now() - started) / 1000 });
}

async function fetchWheels() {
  const manifest = await (await fetch(new URL("./wheels.json", import.meta.url))).json();
  return Promise.all(
    manifest.wheels.map(async (name) => {
      const response = await fetch(new URL(`./wheels/${name}`, import.meta.url));
      if (!response.ok) throw new Error(`wheels/${name}: ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    }),
  );
}

async function boot() {
  status("loading Python");
  const wheels = fetchWheels(); // while Python loads
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
  stage("python");
  status("installing the lab");
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const bytes of await wheels) {
    pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
  }
  stage("wheels");
  status("starting the lab");
  // the page runs the pure-Python search (no compiled kernel here), and says so
  dispatch = pyodide.runPython(`
import os
os.environ["TAOLONG_PURE"] = "1"
from taolong_lab.explorer.page import Page, dispatch
from taolong_lab.version import __version__
_page = Page()
lambda name, args, report=None: dispatch(_page, name, args, report)
`);
  stage("lab");
  const version = pyodide.runPython("__version__");
  const catalogue = JSON.parse(dispatch("catalogue", "[]"));
  const view = JSON.parse(dispatch("view", "[]"));
  postMessage({
    ready: true,
    seconds: (performance.now() - started) / 1000,
    version,
    python: pyodide.runPython("import sys; sys.version.split()[0]"),
    pyodide: pyodide.version,
    catalogue,
    view,
    stages,
  });
}

const booted = boot().catch((error) => postMessage({ failed: String(error) }));

onmessage = async (event) => {
  await booted;
  const { id, name, args } = event.data;
  if (dispatch === null) {
    postMessage({ id, answer: { error: "the lab did not start" } });
    return;
  }
  const t0 = performance.now();
  const report = (text) => postMessage({ id, progress: JSON.parse(text) });
  try {
    const answer = JSON.parse(dispatch(name, JSON.stringify(args || []), report));
    postMessage({ id, answer, seconds: (performance.now() - t0) / 1000 });
  } catch (error) {
    postMessage({ id, answer: { error: String(error) } });
  }
};
