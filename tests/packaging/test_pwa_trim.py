"""What the browser build leaves out of a first visit (pwa/build.py, issue #27), checked without building: the
Material icon font cut to the icons the app names, the Cupertino icon font dropped, the Python archives stored
uncompressed and without the standard library's unused parts. The built site itself: tests/e2e/test_pwa.py."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pwa import build

from .imports import import_without

ROOT = Path(__file__).resolve().parents[2]
COMPANION = ROOT / "companion"


@pytest.fixture(scope="module")
def client_js() -> str:
    return (build.flet_web_dir() / "main.dart.js").read_text(encoding="utf-8")


def app_sources() -> list[Path]:
    return [ROOT / "main.py", *sorted(COMPANION.rglob("*.py"))]


def test_the_scan_finds_every_way_the_app_names_a_material_icon(tmp_path):
    (tmp_path / "companion").mkdir()
    (tmp_path / "main.py").write_text("import flet as ft\nICON = ft.Icons.STAR\n")
    (tmp_path / "companion" / "view.py").write_text(
        "from flet import Icons\nb = ft.IconButton(Icons.HOME_OUTLINED)\nc = ft.CupertinoIcons.ADD\n")
    assert build.icons_used(tmp_path) == {"STAR", "HOME_OUTLINED"}
    # The one way the app names an icon, so the scan sees them all: never by a string, an index or getattr.
    other = re.compile(r"""\bicon\s*=\s*["']|Icons\s*\[|getattr\(\s*(ft\.)?Icons\b""")
    assert not [str(p) for p in app_sources() if other.search(p.read_text(encoding="utf-8"))]


def test_icon_names_map_to_the_code_points_flutter_draws(client_js):
    codes = build.icon_codepoints(client_js, ["PLAY_ARROW", "ARROW_BACK", "HOME", "RADIO_BUTTON_OFF",
                                              "WARNING_AMBER_ROUNDED"])
    # Flutter's Icons.play_arrow, arrow_back, home; radio_button_off is an alias of radio_button_unchecked.
    assert codes["PLAY_ARROW"] == 0xE4CB and codes["ARROW_BACK"] == 0xE092 and codes["HOME"] == 0xE318
    assert codes["RADIO_BUTTON_OFF"] == 0xE504
    with pytest.raises(SystemExit, match="NOT_AN_ICON"):
        build.icon_codepoints(client_js, ["NOT_AN_ICON"])
    with pytest.raises(SystemExit, match="table of Material icons"):
        build.icon_codepoints(client_js.replace('"MaterialIcons"', '"OtherIcons"'), ["HOME"])


def test_every_icon_the_app_names_is_in_the_subset_font(client_js, tmp_path):
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont

    used = build.icons_used()
    assert len(used) > 20 and "PLAY_ARROW" in used          # the scan found the app's icons
    kept = build.icon_codepoints(client_js, used | set(build.FRAMEWORK_ICONS))
    target = tmp_path / "icons.otf"
    build.subset_icon_font(build.flet_web_dir() / build.ICON_FONT, target, kept.values())
    cmap = TTFont(target).getBestCmap()
    missing = sorted(name for name, code in build.icon_codepoints(client_js, used).items() if code not in cmap)
    assert not missing, f"icons the app names but the browser build's font lacks: {missing}"
    assert target.stat().st_size < 40_000                    # from 1.26 MB
    # A glyph is drawn, not only mapped: the subset kept its outline.
    font = TTFont(target)
    glyph = font.getGlyphSet()[cmap[kept["PLAY_ARROW"]]]
    pen = BoundsPen(font.getGlyphSet())
    glyph.draw(pen)
    assert pen.bounds is not None


def test_the_cupertino_icon_font_is_needed_by_nothing_the_app_shows(tmp_path):
    # Only flet's ft.CupertinoIcons and its Cupertino (or `adaptive`) controls draw with it.
    cupertino = re.compile(r"\bCupertino|\badaptive\b")
    assert not [str(p) for p in app_sources() if cupertino.search(p.read_text(encoding="utf-8"))]
    # flet-web lists it in FontManifest.json (Flutter then loads it at every start); the build drops it.
    source = json.loads((build.flet_web_dir() / "assets" / "FontManifest.json").read_text())
    assert any("cupertino" in f["family"].lower() for f in source)
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "FontManifest.json").write_text(json.dumps(source))
    build.patch_fonts(tmp_path)
    families = [f["family"] for f in json.loads((tmp_path / "assets" / "FontManifest.json").read_text())]
    assert "MaterialIcons" in families and "Roboto" in families
    assert not [f for f in families if "cupertino" in f.lower() or "flutter_math" in f]
    assert "assets/packages/cupertino_icons" in build.SITE_UNUSED


def test_the_archives_are_stored_for_the_host_to_compress(tmp_path):
    stage = tmp_path / "stage"
    (stage / "pkg").mkdir(parents=True)
    (stage / "pkg" / "mod.py").write_text("x = 1\n" * 1000)
    build.app_zip(stage, tmp_path / "app.zip")
    with zipfile.ZipFile(tmp_path / "app.zip") as archive:
        assert [(i.filename, i.compress_type) for i in archive.infolist()] == [("pkg/mod.py", zipfile.ZIP_STORED)]

    stdlib = tmp_path / "python_stdlib.zip"
    with zipfile.ZipFile(stdlib, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in ("json/__init__.py", "unittest/case.py", "pdb.py", "pdbx.py", "_pyrepl/main.py", "abc.py"):
            archive.writestr(name, f"# {name}\n" * 50)
    assert build.restock_stdlib(stdlib) == ["_pyrepl", "pdb.py", "unittest"]
    with zipfile.ZipFile(stdlib) as archive:
        assert sorted(archive.namelist()) == ["abc.py", "json/__init__.py", "pdbx.py"]
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}
        assert archive.read("pdbx.py") == b"# pdbx.py\n" * 50


def test_the_browser_builds_app_starts_without_the_standard_library_left_out():
    # What the browser build imports (as test_pwa_build.py's server-only check), with every module of
    # STDLIB_UNUSED made impossible to import: one the app needs would stop it before its first screen.
    left_out = sorted(name.rstrip("/").removesuffix(".py") for name in build.STDLIB_UNUSED)
    done = import_without(left_out, "left out of the browser build",
                          "companion.ui.browser_build, companion.ui.views, companion.sync.runner, "
                          "companion.formats.archive, companion.history, flet, flet_charts")
    assert done.returncode == 0, done.stderr[-2000:]


STDLIB_IMPORTS_ALLOWED = {
    ("site.py", "_pyrepl"): "the interactive prompt's line editing (sys.__interactivehook__), never in the app",
    ("_sitebuiltins.py", "pydoc"): "help(), never called by the app",
    ("heapq.py", "doctest"): "under `if __name__ == '__main__'`",
    ("concurrent/futures/process.py", "multiprocessing"): "ProcessPoolExecutor: Pyodide starts no processes",
    ("logging/config.py", "multiprocessing"): "a queue handler's configuration, inside the function that needs it",
    ("asyncio/__main__.py", "_pyrepl"): "`python -m asyncio`, the asyncio prompt",
}
"""Modules left in the build that do import one left out, and why that import never runs in the app."""


IMPORT_LINE = re.compile(rb"^[ \t]*(?:import[ \t]+([\w., \t]+)|from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b)", re.M)


def imports_of(source: bytes) -> set[str]:
    """The top-level modules a Python source imports (absolute imports, anywhere in it). By its syntax tree, or,
    for syntax newer than this Python's (the stdlib is 3.14's), by its lines."""
    import ast

    found = set()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        for names, module in IMPORT_LINE.findall(source):
            if module:
                found.add(module.decode())
            for name in names.split(b","):
                if name.strip():
                    found.add(name.split()[0].split(b".")[0].decode())
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_nothing_left_in_the_build_imports_the_standard_library_left_out():
    left_out = build.STDLIB_UNUSED
    names = {name.rstrip("/").removesuffix(".py") for name in left_out}
    sources: dict[str, bytes] = {}
    with zipfile.ZipFile(build.flet_web_dir() / "pyodide" / "python_stdlib.zip") as stdlib:
        for member in stdlib.namelist():
            if member.endswith(".py") and not member.startswith(left_out):
                sources[member] = stdlib.read(member)
    assert "json/__init__.py" in sources and "unittest/case.py" not in sources
    for path in app_sources():
        sources[path.relative_to(ROOT).as_posix()] = path.read_bytes()
    wheels = sorted(build.WHEELS.glob("*.whl"))                # the packages, when a build has fetched them
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.endswith(".py"):
                    sources[f"{wheel.name}:{member}"] = archive.read(member)
    found = {(where, name) for where, source in sources.items() for name in imports_of(source) & names}
    # Only from packages' parts the build leaves out (flet's servers and CLI, babel's gettext tools), or allowed.
    unexplained = sorted((where, name) for where, name in found if (where, name) not in STDLIB_IMPORTS_ALLOWED
                         and not any(f":{part}" in where for part in build.FLET_UNUSED))
    assert not unexplained, f"modules left in the browser build import what it leaves out: {unexplained}"


def test_the_benchmark_counts_a_first_visit_as_a_host_sends_it(tmp_path, monkeypatch):
    # benchmarks/bench_pwa.py: every file the first screen fetched, then the service worker's list and Chrome's
    # CanvasKit; raw, gzip and brotli bytes per file.
    from benchmarks import bench_pwa

    monkeypatch.setattr(bench_pwa, "COMPRESSED_CACHE", tmp_path / "compressed.json")
    site = tmp_path / "site"
    (site / "canvaskit" / "chromium").mkdir(parents=True)
    (site / "index.html").write_text("<html>" + "a" * 10_000)
    (site / "app.zip").write_bytes(bytes(range(256)) * 40)
    (site / "canvaskit" / "chromium" / "canvaskit.wasm").write_bytes(b"\0" * 5000)
    (site / "flutter_service_worker.js").write_text('const PRECACHE = [\n"./",\n"app.zip?b=abc"\n];\nconst LAZY = [];')
    assert bench_pwa.offline_paths(site) == ["index.html", "app.zip", "canvaskit/chromium/canvaskit.wasm"]
    assert bench_pwa.site_path("http://127.0.0.1:8/app.zip?b=1", "http://127.0.0.1:8") == "app.zip"
    assert bench_pwa.site_path("http://127.0.0.1:8/?hooks=1", "http://127.0.0.1:8") == "index.html"
    assert bench_pwa.site_path("https://cdn.example/x.js", "http://127.0.0.1:8") is None
    first = bench_pwa.transfer(site, ["index.html", "missing.js"])
    assert first["files"] == 1 and first["raw"] == 10_006 and first["gzip"] < 200
    whole = bench_pwa.transfer(site, ["index.html", *bench_pwa.offline_paths(site)])
    assert whole["files"] == 3 and whole["raw"] == 10_006 + 10_240 + 5000
    assert whole["gzip"] < whole["raw"] and (whole["brotli"] is None or whole["brotli"] < whole["gzip"])
    assert json.loads((tmp_path / "compressed.json").read_text())   # kept for the next run


def test_what_only_a_later_screen_needs_is_not_imported_at_start_but_is_in_the_snapshot(monkeypatch):
    # Issue #27: a first visit pays for every module imported before the first screen; what no start-up screen
    # needs waits for its screen, and the snapshot for the next start holds it all the same (report_modules).
    import types

    from companion.ui import browser_build

    started = subprocess.run([sys.executable, "-c", "import sys, companion.ui.browser_build, companion.ui.app; "
                              "print(sorted(set(sys.argv[1:]) & set(sys.modules)))", *browser_build.SNAPSHOT_ALSO],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert (started.returncode, started.stdout.strip()) == (0, "[]"), started.stderr
    told: list[list[str]] = []
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(xeriModules=lambda text: told.append(json.loads(text))))
    browser_build.report_modules()
    assert set(browser_build.SNAPSHOT_ALSO) <= set(told[0]) and "companion.ui.app" in told[0]


def test_the_bytecode_keeps_a_classs_first_docstring_line_and_nothing_else(tmp_path):
    # As python -OO, but a dataclass without a docstring makes one at its creation from inspect.signature (a
    # first visit made 300-odd of flet's), so a class keeps its docstring's first line, or its name.
    if shutil.which("node") is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs); it runs Pyodide's compiler")
    stage = tmp_path / "stage"
    stage.mkdir()
    (stage / "mod.py").write_text('''"""The module."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Told:
    """First line.

    More lines.
    """
    x: int = 1


@dataclass
class Untold:
    y: int = 2


@dataclass
class Blank:
    """ """
    z: int = 3


def only_a_docstring():
    """Nothing else."""


def checked():
    """Checks."""
    assert False, "asserts are gone"
    return "ran"


def second():
    """The docstring."""
    "Not a docstring."


SLOTS = ("a", "__doc__")


class Slotted:
    __slots__ = SLOTS


class Typed:
    __slots__ = ("__doc__",)
''')
    plain = tmp_path / "plain"     # the standard library's mode: exactly -OO
    plain.mkdir()
    (plain / "mod.py").write_text((stage / "mod.py").read_text())
    assert build.compile_bytecode(stage)
    assert build.compile_bytecode(plain, build.STDLIB_ZIP, "OO")
    assert sorted(p.name for p in stage.iterdir()) == ["mod.pyc"]
    assert imported_docs(tmp_path, stage) == [None, "First line.", "Untold", "Blank", None, None, "ran", None, None,
                                              "member_descriptor", "member_descriptor"]
    assert imported_docs(tmp_path, plain)[1:4] == ["Told(x: 'int' = 1)", "Untold(y: 'int' = 2)", "Blank(z: 'int' = 3)"]


def imported_docs(tmp_path, stage):
    probe = tmp_path / "probe.mjs"
    probe.write_text(f"""
const {{ loadPyodide }} = await import({json.dumps(str(build.flet_web_dir() / "pyodide" / "pyodide.mjs"))});
const py = await loadPyodide();
py.FS.mkdirTree("/stage");
py.FS.mount(py.FS.filesystems.NODEFS, {{ root: {json.dumps(str(stage))} }}, "/stage");
console.log(py.runPython(`
import json, sys
sys.path.insert(0, "/stage")
import mod
json.dumps([mod.__doc__, mod.Told.__doc__, mod.Untold.__doc__, mod.Blank.__doc__, mod.only_a_docstring(),
            mod.only_a_docstring.__doc__, mod.checked(), mod.checked.__doc__, mod.second.__doc__,
            type(mod.Slotted.__doc__).__name__, type(mod.Typed.__doc__).__name__])
`));
""")
    said = subprocess.run(["node", str(probe)], capture_output=True, text=True, timeout=120)
    assert said.returncode == 0, said.stderr[-2000:]
    return json.loads(said.stdout.strip().splitlines()[-1])


def test_the_standard_librarys_modules_a_first_visit_imports_are_compiled_into_its_zip(tmp_path):
    if shutil.which("node") is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs); it runs Pyodide's compiler")
    stdlib = tmp_path / "python_stdlib.zip"
    with zipfile.ZipFile(stdlib, "w") as archive:
        for name in ("a.py", "b.py", "pkg/__init__.py", "pkg/data.txt"):
            archive.writestr(name, f"X = {name!r}\n")
    assert build.compile_stdlib(stdlib, ["a.py", "pkg/__init__.py", "gone.py"]) == 2
    with zipfile.ZipFile(stdlib) as archive:
        assert archive.namelist() == ["a.pyc", "b.py", "pkg/__init__.pyc", "pkg/data.txt"]
        assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_STORED}
        assert archive.read("b.py") == b"X = 'b.py'\n" and not archive.read("a.pyc").startswith(b"X =")
