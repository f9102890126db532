// The standard library modules a first visit imports: Pyodide's boot, the worker's own imports
// (python-worker.js) and the app's start (its front door and the home screen's theme), run here in Pyodide's
// CPython over the build's stage. Printed as JSON: their files inside python_stdlib.zip. pwa/build.py compiles
// these into the zip (the rest stay sources: a module missed here is compiled when imported, only slower).
//   node start_modules.mjs PYODIDE_DIR STAGE
const [dir, stage] = process.argv.slice(2);
const { loadPyodide } = await import(dir + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: dir + "/", env: { PYTHONDONTWRITEBYTECODE: "1" } });
py.FS.mkdirTree("/stage");
py.FS.mount(py.FS.filesystems.NODEFS, { root: stage }, "/stage");
console.log(py.runPython(`
import json, os, runpy, sys, zipfile
import encodings.cp437   # app.zip's names, read by the worker (python-worker.js) and companion.resources
sys.path[:0] = ["/stage/__pypackages__", "/stage"]
os.chdir("/stage")
import companion.ui.browser_build
from companion.ui.views.theme import themes
themes()
zipped = "/lib/python314.zip/"
json.dumps(sorted({m.__file__[len(zipped):] for m in list(sys.modules.values())
                   if (getattr(m, "__file__", None) or "").startswith(zipped)}))
`));
