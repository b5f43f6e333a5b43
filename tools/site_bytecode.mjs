// Add each module's bytecode to the site's wheels, compiled by the site's own Pyodide:
//   node tools/site_bytecode.mjs SITE_DIR      (tools/build_site.py runs it)
// The work is tools/site_bytecode.py's with_bytecode; each wheel of wheels.json is rewritten.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const site = resolve(process.argv[2]);
const here = dirname(fileURLToPath(import.meta.url));
const { loadPyodide } = await import(pathToFileURL(join(site, "pyodide", "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: join(site, "pyodide") + "/" });
pyodide.runPython(readFileSync(join(here, "site_bytecode.py"), "utf8"));
const { wheels } = JSON.parse(readFileSync(join(site, "wheels.json"), "utf8"));
for (const name of wheels) {
  const path = join(site, "wheels", name);
  pyodide.FS.writeFile("/tmp/in.whl", new Uint8Array(readFileSync(path)));
  pyodide.runPython(`
from pathlib import Path
Path("/tmp/out.whl").write_bytes(with_bytecode(Path("/tmp/in.whl").read_bytes()))
`);
  writeFileSync(path, pyodide.FS.readFile("/tmp/out.whl"));
}
console.log(`bytecode added to ${wheels.length} wheel(s) by ${pyodide.runPython("import sys; sys.implementation.cache_tag")}`);
