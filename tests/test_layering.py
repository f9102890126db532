"""The layers stay apart (see docs/architecture.md): read every module's imports and check who may use whom."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "companion"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module `path` imports, relative imports resolved, `from x import y` giving x (and x.y)."""
    name = module_name(path)
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


def modules(under: str) -> dict[str, set[str]]:
    folder = PACKAGE.joinpath(*under.split(".")[1:])
    paths = [folder.with_suffix(".py")] if folder.with_suffix(".py").exists() else sorted(folder.rglob("*.py"))
    return {module_name(p): imports_of(p) for p in paths}


def offenders(under: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(f"{mod} imports {imp}" for mod, found in modules(under).items() for imp in found
                  if any(imp == f or imp.startswith(f + ".") for f in forbidden))


def test_the_engine_imports_nothing_outside_the_standard_library():
    allowed = set(sys.stdlib_module_names) - {"os", "time", "random", "threading", "socket", "subprocess"}
    bad = sorted(f"{mod} imports {imp}" for mod, found in modules("companion.engine").items() for imp in found
                 if not imp.startswith("companion.engine") and imp.split(".")[0] not in allowed
                 and imp != "__future__" and not imp.startswith("__future__."))
    assert bad == []


def test_the_views_import_only_flet_and_the_view_models():
    bad = offenders("companion.ui.views", ("companion.engine", "companion.storage", "companion.formats",
                                           "companion.history", "companion.service", "companion.i18n", "tinydb"))
    assert bad == []


def test_the_view_models_import_neither_flet_nor_storage():
    assert offenders("companion.ui.viewmodel", ("flet", "flet_charts", "tinydb", "companion.storage")) == []


def test_the_service_knows_storage_only_through_its_protocol():
    assert offenders("companion.service", ("companion.storage", "companion.ui", "flet", "tinydb", "filelock")) == []


def test_storage_imports_no_ui():
    assert offenders("companion.storage", ("companion.ui", "flet")) == []


def test_history_and_formats_import_no_storage_or_ui():
    for layer in ("companion.history", "companion.formats", "companion.i18n"):
        assert offenders(layer, ("companion.storage", "companion.ui", "flet", "tinydb")) == [], layer


def test_no_ui_module_imports_another_that_imports_it_back():
    found = modules("companion.ui")
    names = set(found)

    def target(imp: str) -> str | None:
        return imp if imp in names else (imp.rpartition(".")[0] if imp.rpartition(".")[0] in names else None)

    # A package importing its own modules (its __init__ gathering them) is how a package is made, not a circle.
    graph = {mod: {t for t in map(target, imps) if t and t != mod and not t.startswith(mod + ".")}
             for mod, imps in found.items()}

    def reaches(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    assert sorted(m for m in names if m in reaches(m)) == []


@pytest.mark.parametrize("module", ["companion.engine", "companion.formats.matchfile", "companion.formats.sheet",
                                    "companion.service", "companion.history.stats", "companion.ui.viewmodel"])
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


def test_the_network_layer_imports_nothing_of_the_app_and_access_only_the_standard_library():
    assert offenders("companion.net", ("companion.engine", "companion.storage", "companion.service",
                                       "companion.formats", "companion.history", "companion.ui", "tinydb")) == []
    # The view models read the access levels: that module must stay as light as they are.
    found = modules("companion.net.access")["companion.net.access"]
    assert sorted(imp for imp in found if imp.split(".")[0] not in sys.stdlib_module_names
                  and imp.split(".")[0] != "__future__") == []
