"""The layers stay apart (see docs/architecture.md): read every module's imports and check who may use whom.

Every module of `companion/` belongs to one layer of `LAYERS`, and imports only its own layer and the ones
below it; a few layers have a stricter rule of their own. The checker runs on the real tree, and on a copy
with an upward import planted in it, to show it catches one.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "companion"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("engine",),                 # the game's rules: the standard library only
    ("resources", "clock"),      # the shipped data; the time and new ids
    ("i18n",),                   # words: catalogs, and engine values said in them
    ("records",),                # what the app keeps about a match beyond the engine's Match
    ("formats",),                # presets, the match file, score sheets, zips
    ("history",),                # scored history, statistics, what-if, the CSV
    ("changes",),                # the sync domain: the group's documents, how they add up, the diff, bounds
    ("service",),                # the use cases, and the storage port they need
    ("storage", "sync"),         # the backends: TinyDB on a folder (and in IndexedDB); the group's CouchDB
    ("bootstrap", "logs"),      # builds the app for every front door; what it logs, set once for all of them
    ("ui", "cli", "__main__"),   # the front doors: the screens, and the command line
)
"""The layers of `companion/`, lowest first (`net` stands apart: see `test_the_network_layer_...`)."""
APART = ("net",)
"""Packages that import nothing of the app, so they can serve any app; the layers above may use them."""


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module `path` imports (at the top or inside a function), relative imports resolved,
    `from x import y` giving x (and x.y)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
    return found


def modules(under: str = "companion", root: Path = PACKAGE) -> dict[str, set[str]]:
    folder = root.joinpath(*under.split(".")[1:])
    paths = [folder.with_suffix(".py")] if folder.with_suffix(".py").exists() else sorted(folder.rglob("*.py"))
    return {module_name(p, root): imports_of(p, root) for p in paths}


def top(module: str) -> str | None:
    """The part of the app a module belongs to (`companion.ui.views.home` -> `ui`), None outside the app."""
    parts = module.split(".")
    if parts[0] != "companion":
        return None
    return parts[1] if len(parts) > 1 else "__init__"


def rank(part: str) -> int | None:
    return next((i for i, layer in enumerate(LAYERS) if part in layer), None)


def upward_imports(root: Path = PACKAGE) -> list[str]:
    """Every import of the app that goes up a layer, or into a package that must stand apart from it, or
    out of such a package into the app; and every module that belongs to no layer."""
    bad = []
    for mod, found in modules("companion", root).items():
        own = top(mod)
        if own == "__init__":
            continue
        if own in APART:
            bad += [f"{mod} imports {imp} (net/ imports nothing of the app)" for imp in sorted(found)
                    if top(imp) not in (None, own, "__init__")]
            continue
        if rank(own) is None:
            bad.append(f"{mod} belongs to no layer: add it to LAYERS (and docs/architecture.md)")
            continue
        for imp in sorted(found):
            other = top(imp)
            if other is None or other == "__init__" or other in APART:
                continue
            if rank(other) is None or rank(other) > rank(own):
                bad.append(f"{mod} imports {imp}, a layer above it")
    return bad


def offenders(under: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(f"{mod} imports {imp}" for mod, found in modules(under).items() for imp in found
                  if any(imp == f or imp.startswith(f + ".") for f in forbidden))


def test_no_module_imports_a_layer_above_its_own():
    assert upward_imports() == []


def test_the_check_catches_an_upward_import_planted_in_a_copy_of_the_tree(tmp_path):
    copy = tmp_path / "companion"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "assets", "data"))
    assert upward_imports(copy) == []
    sheet = copy / "formats" / "sheet.py"
    sheet.write_text(sheet.read_text(encoding="utf-8") + "\n\ndef late():\n    from ..storage import Store\n",
                     encoding="utf-8")
    access = copy / "net" / "access.py"
    access.write_text(access.read_text(encoding="utf-8") + "\nfrom companion.i18n import t\n", encoding="utf-8")
    (copy / "newpart.py").write_text('"""A module nobody placed."""\n', encoding="utf-8")
    assert upward_imports(copy) == [
        "companion.formats.sheet imports companion.storage, a layer above it",
        "companion.formats.sheet imports companion.storage.Store, a layer above it",
        "companion.net.access imports companion.i18n (net/ imports nothing of the app)",
        "companion.net.access imports companion.i18n.t (net/ imports nothing of the app)",
        "companion.newpart belongs to no layer: add it to LAYERS (and docs/architecture.md)",
    ]


def test_the_engine_imports_nothing_outside_the_standard_library():
    allowed = set(sys.stdlib_module_names) - {"os", "time", "random", "threading", "socket", "subprocess"}
    bad = sorted(f"{mod} imports {imp}" for mod, found in modules("companion.engine").items() for imp in found
                 if not imp.startswith("companion.engine") and imp.split(".")[0] not in allowed
                 and imp != "__future__" and not imp.startswith("__future__."))
    assert bad == []


def test_the_views_import_only_flet_and_the_view_models():
    bad = offenders("companion.ui.views", ("companion.engine", "companion.storage", "companion.formats",
                                           "companion.history", "companion.service", "companion.i18n",
                                           "companion.bootstrap", "companion.records", "tinydb"))
    assert bad == []


def test_the_view_models_import_neither_flet_nor_storage_nor_the_bootstrap():
    assert offenders("companion.ui.viewmodel", ("flet", "flet_charts", "tinydb", "companion.storage",
                                                "companion.bootstrap")) == []


def test_the_service_knows_storage_only_through_its_protocol():
    assert offenders("companion.service", ("companion.storage", "companion.ui", "flet", "tinydb", "filelock")) == []


def test_storage_imports_only_the_services_port_never_its_use_cases():
    assert offenders("companion.storage", ("companion.service.table", "companion.service.library",
                                           "companion.service.backups", "flet")) == []


# The sync package is an adapter beside storage: it serves the service's sync use case and imports none of
# storage, the UI or the network layer; importing it loads no HTTP library (the browser build has none: it
# uses `fetch`).
def test_sync_imports_neither_storage_nor_the_ui():
    assert offenders("companion.sync", ("companion.storage", "companion.ui", "companion.net",
                                        "companion.history", "flet", "tinydb")) == []


def test_the_layering_check_sees_what_sync_imports():
    assert "companion.sync.errors imports companion.engine.messages" in offenders("companion.sync", ("companion.engine",))


def test_importing_sync_loads_no_http_library_flet_or_tinydb():
    code = ("import sys, companion.sync, companion.sync.couch;"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('httpx', 'httpcore', 'flet', 'tinydb', 'pyodide', 'js'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


def circles(root: Path = PACKAGE) -> list[str]:
    """Every module of the app that imports, through others, a module that imports it back (a type-only
    import under TYPE_CHECKING too: it is still a circle in the design)."""
    found = modules("companion", root)
    names = set(found)

    def target(imp: str) -> str | None:
        return imp if imp in names else (imp.rpartition(".")[0] if imp.rpartition(".")[0] in names else None)

    # A package importing its own modules (its __init__ gathering them) is how a package is made, not a circle;
    # nor is a module naming its own package to reach a sibling (`from . import files`).
    graph = {mod: {t for t in map(target, imps)
                   if t and t != mod and not t.startswith(mod + ".") and not mod.startswith(t + ".")}
             for mod, imps in found.items()}

    def reaches(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    return sorted(m for m in names if m in reaches(m))


def test_no_module_imports_another_that_imports_it_back():
    assert circles() == []


def test_the_circle_check_catches_one_planted_in_a_copy_of_the_tree(tmp_path):
    copy = tmp_path / "companion"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "assets", "data"))
    errors = copy / "sync" / "errors.py"
    errors.write_text(errors.read_text(encoding="utf-8") + "\n\nif False:\n    from .transport import Transport\n",
                      encoding="utf-8")
    assert circles(copy) == ["companion.sync.errors", "companion.sync.transport"]


def test_the_sync_domain_is_pure_and_below_the_service_and_storage():
    """The group's documents, how they add up, the diff and the bounds: no I/O, nothing of the layers above."""
    assert offenders("companion.changes", ("companion.service", "companion.storage", "companion.sync",
                                           "companion.ui", "companion.net", "companion.history", "flet", "tinydb",
                                           "os", "io", "pathlib", "socket", "asyncio", "threading", "time",
                                           "subprocess", "shutil", "random")) == []
    assert offenders("companion.storage", ("companion.service.changes", "companion.service.diff",
                                           "companion.service.sync")) == []


@pytest.mark.parametrize("module", ["companion.engine", "companion.changes", "companion.formats.matchfile", "companion.formats.sheet",
                                    "companion.service", "companion.history.stats", "companion.ui.viewmodel",
                                    "companion.bootstrap"])
def test_importing_the_pure_layers_loads_neither_flet_nor_tinydb(module):
    code = (f"import sys, {module};"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('flet', 'tinydb', 'flet_web', 'filelock'));"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_engine_modules_import_no_os_time_or_random():
    forbidden = {"os", "time", "random", "flet", "tinydb"}
    for mod, found in modules("companion.engine").items():
        assert not {imp.split(".")[0] for imp in found} & forbidden, mod


def test_the_network_layer_imports_only_the_standard_library_where_the_view_models_read_it():
    # The view models read the access levels: that module must stay as light as they are.
    found = modules("companion.net.access")["companion.net.access"]
    assert sorted(imp for imp in found if imp.split(".")[0] not in sys.stdlib_module_names
                  and imp.split(".")[0] != "__future__") == []


TESTS = Path(__file__).resolve().parent


def modules_importing_tests(root: Path = TESTS) -> list[str]:
    """Every module of the tests or the benchmarks that imports a test module or a conftest.py. Shared helpers live in helper modules
    (tests/app_server.py, tests/e2e/chromium.py, …): running one file then neither collects another's tests
    nor depends on them, and a conftest.py is left to pytest, which loads it by path, not by import."""
    found = modules("tests", root)
    private = {m for m in found if m.rpartition(".")[2].startswith("test_") or m.rpartition(".")[2] == "conftest"}
    importers = {**found, **modules("benchmarks", root.parent / "benchmarks")}   # the benchmarks use them too
    return sorted({f"{mod} imports {imp if imp in private else imp.rpartition('.')[0]}"
                   for mod, imps in importers.items() for imp in imps
                   if (imp in private or imp.rpartition(".")[0] in private) and imp != mod})


def test_no_test_module_imports_another():
    assert modules_importing_tests() == []


def test_the_check_catches_a_test_module_importing_another_planted_in_a_copy(tmp_path):
    copy = tmp_path / "tests"
    shutil.copytree(TESTS, copy, ignore=shutil.ignore_patterns("__pycache__", "*.json"))
    assert modules_importing_tests(copy) == []
    (copy / "ui" / "test_planted.py").write_text("from tests.sync.test_hostile import failure\n"
                                                 "from ..test_layering import TESTS\n", encoding="utf-8")
    (copy / "sync" / "planted.py").write_text("from tests.e2e.conftest import PHONE\n", encoding="utf-8")
    assert modules_importing_tests(copy) == ["tests.sync.planted imports tests.e2e.conftest",
                                             "tests.ui.test_planted imports tests.sync.test_hostile",
                                             "tests.ui.test_planted imports tests.test_layering"]
