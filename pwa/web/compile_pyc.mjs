// Compile every .py under ROOT to a sourceless .pyc beside it and delete the .py, with Pyodide's own
// CPython (the bytecode must match the browser's interpreter exactly; the build machine's Python is
// another version). Run by pwa/build.py when node is there:
//   node compile_pyc.mjs PYODIDE_DIR ROOT WHERE [MODE]
// WHERE: the path the browser imports ROOT's modules from (tracebacks name it), e.g. /home/pyodide/app.zip.
// MODE "classdocs" (the app and its packages): as python -OO (no asserts, no docstrings), but a class keeps its
// docstring's first line (its name if it has none): a dataclass without a docstring makes one at its creation
// from inspect.signature, which cost a first visit about 0.45 ms for each of flet's 300-odd dataclasses in
// Pyodide (docs/pwa.md). MODE "OO" (the standard library): exactly python -OO, as CPython tests it.
const [dir, root, where, mode = "classdocs"] = process.argv.slice(2);
const { loadPyodide } = await import(dir + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: dir + "/" });
py.FS.mkdirTree("/stage");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/stage");
const out = py.runPython(`
import ast, compileall, importlib.machinery, os, py_compile, sys

def _may_have_a_docstring(cls):
    # Not a class with "__doc__" in its __slots__ (typing's), or with __slots__ that are not a literal.
    for statement in cls.body:
        targets = (statement.targets if isinstance(statement, ast.Assign)
                   else [statement.target] if isinstance(statement, ast.AnnAssign) else [])
        if any(isinstance(target, ast.Name) and target.id == "__slots__" for target in targets):
            if statement.value is None:
                continue
            try:
                slots = ast.literal_eval(statement.value)
                names = [slots] if isinstance(slots, str) else list(slots)
            except (ValueError, TypeError, SyntaxError):
                return False
            return "__doc__" not in names
    return True

def _is_string(statements):
    return bool(statements) and isinstance(statements[0], ast.Expr) and isinstance(statements[0].value, ast.Constant) \
        and isinstance(statements[0].value.value, str)

def _short_docstrings(tree):
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        first = node.body[0] if node.body else None
        if not _is_string(node.body):
            if isinstance(node, ast.ClassDef) and _may_have_a_docstring(node):
                node.body.insert(0, ast.copy_location(ast.Expr(ast.Constant(node.name)), node.body[0]))
            continue
        if isinstance(node, ast.ClassDef):
            first.value.value = first.value.value.strip().split("\\n", 1)[0].strip() or node.name
        elif isinstance(node, ast.Module) and not _is_string(node.body[1:2]):
            del node.body[0]   # a module's: deleted (from __future__ must come first after it)
        else:   # replaced, not deleted: a string statement after it would become the docstring
            node.body[0] = ast.copy_location(ast.Pass(), first)
    return ast.fix_missing_locations(tree)

def _source_to_code(self, data, path, *, _optimize=-1):
    # py_compile's step from source to code: optimize 1 (asserts gone) over the tree with short docstrings
    return compile(_short_docstrings(ast.parse(data, path)), path, "exec", dont_inherit=True, optimize=1)

if ${JSON.stringify(mode)} == "classdocs":
    importlib.machinery.SourceFileLoader.source_to_code = _source_to_code
# File names in code objects (tracebacks) are where the browser imports them from.
ok = compileall.compile_dir("/stage", quiet=1, legacy=True, optimize=2,
                            stripdir="/stage", prependdir=${JSON.stringify(where)},
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
