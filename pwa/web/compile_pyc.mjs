// Compile every .py under ROOT to a sourceless .pyc beside it and delete the .py, with Pyodide's own
// CPython (the bytecode must match the browser's interpreter exactly; the build machine's Python is
// another version). Run by pwa/build.py when node is there:
//   node compile_pyc.mjs PYODIDE_DIR ROOT OPTIMIZE
const [dir, root, optimize] = process.argv.slice(2);
const { loadPyodide } = await import(dir + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: dir + "/" });
py.FS.mkdirTree("/stage");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/stage");
const out = py.runPython(`
import compileall, os, py_compile, sys
# File names in code objects (tracebacks) are where the worker puts the app: /home/pyodide/app.zip/...
ok = compileall.compile_dir("/stage", quiet=1, legacy=True, optimize=${Number(optimize)},
                            stripdir="/stage", prependdir="/home/pyodide/app.zip",
                            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
n = 0
for folder, dirs, files in os.walk("/stage"):
    for f in files:
        if f.endswith(".py") and os.path.exists(os.path.join(folder, f + "c")):
            os.remove(os.path.join(folder, f)); n += 1
f"{'ok' if ok else 'FAILED'}: {n} modules compiled by Python {sys.version.split()[0]}"
`);
console.log(out);
if (!out.startsWith("ok")) process.exit(1);
