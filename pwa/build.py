"""Build the app as a static, installable, offline web app whose Python runs in the browser: `make pwa`.

    .venv/bin/python -m pwa.build                 # -> dist-pwa/ (about 50 MB, 10 MB brotli'd)
    .venv/bin/python -m pwa.build --base-url /xeri/   # hosted in a sub-folder (GitHub Pages: /<repo>/)
    .venv/bin/python -m pwa.build --if-stale      # only when an input changed since the last build
    .venv/bin/python -m pwa.build --deflate-archives  # for a host that does not compress .zip files

Serve dist-pwa/ from any static HTTPS host (see README, "On a phone with no laptop"). What it is made
of, and nothing is downloaded but the first item:

1. The Python packages of pwa/requirements.txt: pip downloads them (exact versions, hash-checked,
   msgpack's Pyodide wheel included) into build/pwa/wheels/ once. Every later build is offline.
2. The web client and Pyodide from the installed flet-web (Flutter's CanvasKit build and Pyodide
   314.0.7, which runs CPython 3.14), with what this app never loads left out: the Material icon font cut
   to the icons the app uses (fontTools), no Cupertino icons, Python's standard library without the
   modules the app never imports, stored uncompressed for the host's brotli or gzip.
3. app.zip (stored, like the standard library): main.py, companion/ (its rule sets and catalogs from data/
   inside it, as a wheel has them) and the packages, as bytecode compiled by Pyodide's own Python when node
   is there (pwa/web/compile_pyc.mjs; without node the build ships the sources and prints so: the first
   start is then about a second slower, nothing else changes).
4. pwa/web/: our Python worker (no micropip, no unpacking, a memory snapshot after the first start),
   python.js (Python starts while Flutter loads), the loading screen, and a precaching service worker
   served under the name Flutter's bootstrap registers. The manifest, colours and names come from
   [tool.flet] in pyproject.toml; the icons from pwa/icons/ (drawn by pwa/icons.py).

Nothing here imports the app: this folder builds any checkout of it. How it works and what each part
costs: docs/pwa.md.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WEB = HERE / "web"
ICONS = HERE / "icons"
REQUIREMENTS = HERE / "requirements.txt"
CACHE = ROOT / "build" / "pwa"
WHEELS = CACHE / "wheels"
DIST = ROOT / "dist-pwa"
APP_ZIP, STDLIB_ZIP = "/home/pyodide/app.zip", "/lib/python314.zip"
"""Where the browser's Python imports the app and the standard library from (pwa/web/python-worker.js; Pyodide)."""
PYODIDE_TAG = ["--platform", "pyemscripten_2026_0_wasm32", "--python-version", "3.14", "--implementation", "cp",
               "--abi", "cp314", "--only-binary=:all:"]
"""The Python in flet-web 1.0.5's Pyodide (314.0.7): what msgpack's wheel must be built for."""

APP_FILES = ["main.py", "companion"]
"""What of the checkout goes into app.zip (the shipped data is added from data/, see `stage`)."""
SHIPPED_DATA = ("rules", "i18n")
"""The folders of data/ the app reads (companion/resources.py: SHIPPED), every file in them."""
NOT_IN_APP = ("companion/ui/assets",)
"""Served from the site itself (the fonts, at fonts/…), not read by Python."""

FLET_UNUSED = ["flet/fastapi", "flet/testing", "flet/cli.py", "flet/pytest_plugin.py",
               "flet/messaging/flet_socket_server.py", "flet/messaging/flet_dart_bridge_server.py",
               "babel/messages", "flutter", "share"]
"""Packages' parts the browser never imports: flet's servers, CLI and tests; babel's gettext tools; the Dart
sources flet-charts ships for `flet build` (`flutter/`, in the client already) and segno's man page."""
DIST_INFO_UNUSED = ("sboms", "direct_url.json")
"""Of each package's .dist-info, what nothing reads: the SBOMs (two of about 495 KB, filelock's and
platformdirs') and pip's record of where the wheel came from. METADATA and entry_points.txt stay
(importlib.metadata reads them)."""

STDLIB_UNUSED = ("_pyrepl/", "unittest/", "pdb.py", "bdb.py", "doctest.py", "pydoc.py", "pydoc_data/", "idlelib/",
                 "tkinter/", "turtle.py", "turtledemo/", "ensurepip/", "venv/", "lib2to3/", "test/", "multiprocessing/",
                 "xmlrpc/", "wsgiref/", "mailbox.py", "imaplib.py", "poplib.py", "pickletools.py", "profile.py",
                 "cProfile.py", "pstats.py", "trace.py", "timeit.py", "tabnanny.py", "pyclbr.py", "zipapp.py",
                 "compileall.py", "modulefinder.py", "pty.py", "sched.py", "shelve.py", "wave.py", "this.py",
                 "antigravity.py", "__phello__/")
"""Of Pyodide's python_stdlib.zip, what the app never imports: the interactive console, the test, debug and
profiling tools, the help system, Tk, processes (which Pyodide cannot start), servers and mail clients, and
modules nothing else imports. tests/packaging/test_pwa_trim.py checks that no module left in the build imports
one of them (but where listed there, and why), and starts the browser build's app with each of them made
impossible to import. The codecs stay: which encoding a file asks for is not the app's to know."""

SITE_UNUSED = ["main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm*", "canvaskit/wimp*",
               "canvaskit/experimental_webparagraph", "**/*.symbols", "**/*.map",
               "pyodide/python", "pyodide/python.bat", "pyodide/python.exe", "pyodide/python_cli_entry.mjs",
               "pyodide/*.d.ts", "pyodide/package.json", "pyodide/pyodide.js", "pyodide/micropip-*.whl",
               "pyodide/packaging-*.whl", "assets/NOTICES", "assets/packages/flutter_math_fork",
               "assets/packages/media_kit", "assets/packages/record_web", "assets/packages/flutter_map",
               "assets/packages/cupertino_icons",
               "icons/*", "favicon.png", "app.tar.gz", "flutter_service_worker.js"]
"""What the CanvasKit (dart2js) build never loads in any browser (checked by logging every request, cold
and warm, and by reading flutter_bootstrap.js), and what this build replaces. Kept on purpose: both
canvaskit/canvaskit.* (Safari, Firefox) and canvaskit/chromium/* (Chrome, Edge, Android). NOTICES is
Flutter's licence page, which the app never opens; KaTeX fonts, media_kit, record and flutter_map
belong to flet controls the app does not use (Math, Video, AudioRecorder, Map). CupertinoIcons (209 KB, loaded
at every start from FontManifest.json) draws only flet's `ft.CupertinoIcons` and Cupertino controls (the app names
neither, and sets no `adaptive`: tests/packaging/test_pwa_trim.py checks); Flutter's Material widgets draw
theirs from MaterialIcons."""

ICON_FONT = "assets/fonts/MaterialIcons-Regular.otf"
"""Flutter's Material icons (8,600 glyphs, 1.26 MB), loaded by every start (FontManifest.json): the build
keeps only the glyphs of the icons the app names (`icons_used`) and FRAMEWORK_ICONS (`subset_icons`)."""
ICON_USE = re.compile(r"\bIcons\.([A-Z][A-Z0-9_]*)\b")
"""How the app names a Material icon: `ft.Icons.PLAY_ARROW` (flet's names: Flutter's, in capitals)."""
FRAMEWORK_ICONS = ("ARROW_BACK", "ARROW_BACK_IOS", "ARROW_BACK_IOS_NEW", "ARROW_FORWARD", "ARROW_FORWARD_IOS",
                   "CLOSE", "MENU", "MORE_VERT", "MORE_HORIZ", "ARROW_DROP_DOWN", "ARROW_DROP_UP", "EXPAND_MORE",
                   "EXPAND_LESS", "ARROW_UPWARD", "ARROW_DOWNWARD", "CHECK", "EDIT", "CALENDAR_TODAY", "KEYBOARD",
                   "ACCESS_TIME", "CHEVRON_LEFT", "CHEVRON_RIGHT", "CANCEL", "SEARCH", "CLEAR", "DRAG_HANDLE",
                   "VISIBILITY", "VISIBILITY_OFF", "ERROR", "ERROR_OUTLINE", "INFO_OUTLINE", "WARNING",
                   "CONTENT_COPY", "CONTENT_CUT", "CONTENT_PASTE", "SELECT_ALL", "REFRESH")
"""Icons Flutter's and flet's own widgets draw without the app naming them (the back and close buttons, the
text selection toolbar's overflow, a dropdown's arrow, a password field's eye, the date and time pickers,
error screens): kept whether the app shows those widgets today or not (a glyph is about 100 bytes)."""
ICON_CONST = re.compile(r'(B\.[\w$]+)=new A\.[\w$]+\(([0-9.e]+),"MaterialIcons"')
ICON_LIST = re.compile(r"\[((?:B\.[\w$]+,){1000,}B\.[\w$]+)\]")

SNAPSHOT_PATCH = ("t&&(s=i.restoreSnapshot(t))", "t&&(e._free(e._malloc(t.length)),s=i.restoreSnapshot(t))")
"""Pyodide 314.0.7 copies a memory snapshot into the wasm memory as it is, which starts smaller than a
snapshot ("RangeError: offset is out of bounds"): one allocation of the snapshot's size first grows the
heap (the snapshot then overwrites it). The build stops if the text is not found (another Pyodide)."""


def log(message: str) -> None:
    print(f"[pwa {time.strftime('%H:%M:%S')}] {message}", flush=True)


# --- what goes in --------------------------------------------------------------------------------------
def flet_web_dir() -> Path:
    import flet_web

    return Path(flet_web.get_package_web_dir())


def flet_web_version() -> str:
    from importlib.metadata import version

    return version("flet-web")


def pinned() -> dict[str, str]:
    """name -> version of every package in pwa/requirements.txt."""
    found = {}
    for line in REQUIREMENTS.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;]+)", line.strip())
        if match:
            found[match.group(1).lower().replace("_", "-")] = match.group(2)
    return found


def app_languages() -> list[str]:
    """The languages the app has catalogs for: every data/i18n/*.json."""
    return sorted(p.stem for p in (ROOT / "data" / "i18n").glob("*.json"))


def input_files() -> list[Path]:
    """Every file the build reads from the checkout."""
    out = [ROOT / "main.py", ROOT / "pyproject.toml", REQUIREMENTS]
    stale = ROOT / "companion" / "data"  # not read: `stage` makes it from data/
    for folder in (ROOT / "companion", WEB, ICONS, *(ROOT / "data" / n for n in SHIPPED_DATA)):
        out += [p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
                and not p.is_relative_to(stale)]
    out.append(Path(__file__))
    return sorted(set(out))


def inputs_digest(pyc: bool, base_url: str, deflate: bool = False) -> str:
    """Changes with any input, with flet-web's version, and with the options: names the build."""
    digest = hashlib.sha256(f"{flet_web_version()}|pyc={pyc}|base={base_url}{'|deflate' if deflate else ''}".encode())
    for path in input_files():
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def config() -> dict[str, str]:
    """Names and colours, from pyproject.toml ([project], [tool.flet], [tool.flet.web])."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    flet = project.get("tool", {}).get("flet", {})
    web = flet.get("web", {})
    return {"name": flet.get("product", "Xeri Companion"), "short_name": web.get("pwa_short_name", "Xeri"),
            "description": project["project"]["description"],
            "theme": web.get("pwa_theme_color", "#1B6B2F"), "background": web.get("pwa_background_color", "#1B6B2F")}


# --- 1. the packages --------------------------------------------------------------------------------
def wheel_for(name: str, version: str) -> Path | None:
    stem = name.replace("-", "_").lower()
    for path in WHEELS.glob("*.whl"):
        parts = path.name.split("-")
        if parts[0].lower().replace("-", "_") == stem and parts[1] == version:
            return path
    return None


def fetch_wheels() -> list[Path]:
    """The pinned wheels, downloaded by pip (the build's only network use) unless already here."""
    wanted = pinned()
    missing = [n for n, v in wanted.items() if wheel_for(n, v) is None]
    if missing:
        WHEELS.mkdir(parents=True, exist_ok=True)
        log(f"pip download {', '.join(missing)} (from the package index, once)")
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                        "--no-deps", "--require-hashes", "-r", str(REQUIREMENTS), "-d", str(WHEELS), *PYODIDE_TAG],
                       check=True)
    wheels = [wheel_for(n, v) for n, v in wanted.items()]
    if None in wheels:
        raise SystemExit(f"pip did not fetch every wheel of {REQUIREMENTS}")
    return wheels  # type: ignore[return-value]


# --- 2. the app, staged ------------------------------------------------------------------------------
def stage(folder: Path, wheels: list[Path]) -> None:
    """main.py, companion/ with its data, and __pypackages__/ (the wheels installed, unused parts left out)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in APP_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, folder / name, ignore=ignore)
        else:
            shutil.copy2(source, folder / name)
    for rel in NOT_IN_APP:
        shutil.rmtree(folder / rel, ignore_errors=True)
    shutil.rmtree(folder / "companion" / "data", ignore_errors=True)  # a copy left by a wheel build: ours is made now
    for name in SHIPPED_DATA:  # as a wheel has them (pyproject.toml: companion.data): companion/data/<name>/
        target = folder / "companion" / "data" / name
        target.mkdir(parents=True)
        for path in sorted((ROOT / "data" / name).iterdir()):
            if path.is_file() and not path.name.startswith("."):
                shutil.copy2(path, target / path.name)
    packages = folder / "__pypackages__"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-index",
                    "--no-deps", "--no-compile", "--target", str(packages), *PYODIDE_TAG, *map(str, wheels)],
                   check=True)
    shutil.rmtree(packages / "bin", ignore_errors=True)
    for rel in FLET_UNUSED:
        path = packages / rel
        shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
    keep = {"root", *app_languages()}
    for path in (packages / "babel" / "locale-data").glob("*.dat"):
        if path.stem not in keep:
            path.unlink()
    for info in packages.glob("*.dist-info"):
        for name in DIST_INFO_UNUSED:
            path = info / name
            shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
    for path in list(packages.rglob("*")):
        if path.is_file() and (path.suffix in (".pyi", ".md", ".typed") or path.name in ("RECORD", "INSTALLER",
                                                                                           "REQUESTED", "AUTHORS")):
            path.unlink()
    for path in sorted(packages.rglob("licenses"), reverse=True) + sorted(packages.rglob("LICENSE*")):
        if path.exists():
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def compile_bytecode(folder: Path, where: str = APP_ZIP, mode: str = "classdocs") -> bool:
    """Every .py under `folder` replaced by its .pyc, compiled by Pyodide's CPython in node (pwa/web/compile_pyc.mjs:
    `where` the browser imports them from, `mode` what is kept of docstrings). False (and the sources stay) when
    node is not there."""
    node = shutil.which("node")
    if node is None:
        log("node not found: shipping Python sources instead of bytecode (the first start is slower)")
        return False
    subprocess.run([node, str(WEB / "compile_pyc.mjs"), str(flet_web_dir() / "pyodide"), str(folder), where, mode],
                   check=True)
    return True


def start_modules(stage_folder: Path) -> list[str]:
    """The files in python_stdlib.zip of the modules a first visit imports: Pyodide's boot, the worker's and the
    app's start, run in node over the stage (pwa/web/start_modules.mjs)."""
    node = shutil.which("node")
    if node is None:
        return []
    said = subprocess.run([node, str(WEB / "start_modules.mjs"), str(flet_web_dir() / "pyodide"), str(stage_folder)],
                          capture_output=True, text=True)
    try:
        if said.returncode != 0:
            raise ValueError(said.stderr.strip()[-500:])
        names = json.loads(said.stdout.strip().splitlines()[-1])
        if not (isinstance(names, list) and all(isinstance(name, str) for name in names)):
            raise ValueError(f"not a list of names: {said.stdout[-200:]}")
    except (ValueError, IndexError) as exc:   # only a first visit's speed depends on it: said, and built without
        log(f"the standard library stays sources: the app's start imports did not run in node ({exc})")
        return []
    return names


def compile_stdlib(path: Path, names: list[str], deflate: bool = False) -> int:
    """python_stdlib.zip with the modules `names` (a first visit's: `start_modules`) as bytecode instead of source;
    returns how many. Pyodide ships the standard library as sources, which a first visit compiled at every import:
    about a second of Pyodide's boot in node (1.6 s to 0.5 s) and 100 ms of the app's imports. Only these: all of it
    as bytecode is 0.64 MB more to download (brotli), these 0.41 MB."""
    if not names:
        return 0
    work = Path(tempfile.mkdtemp(prefix="xeri-stdlib-"))
    try:
        with zipfile.ZipFile(path) as source:
            for name in names:
                if name.endswith(".py") and name in source.NameToInfo:
                    (work / name).parent.mkdir(parents=True, exist_ok=True)
                    (work / name).write_bytes(source.read(name))
        if not compile_bytecode(work, STDLIB_ZIP, "OO"):
            return 0
        compiled = {name: (work / (name + "c")).read_bytes() for name in names if (work / (name + "c")).is_file()}
    finally:
        shutil.rmtree(work)
    rewrite_zip(path, deflate, lambda name, read: (name + "c", compiled[name]) if name in compiled else (name, read()))
    return len(compiled)


def app_zip(folder: Path, path: Path, deflate: bool = False) -> None:
    """The stage as a zip of stored (uncompressed) members: the host's brotli or gzip compresses the whole
    file far better than zip's deflate of each member (which it cannot compress again), and zipimport reads
    stored members without inflating them. `deflate`: for a host that does not compress .zip files."""
    method = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", method, compresslevel=9 if deflate else None) as archive:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                info = zipfile.ZipInfo(file.relative_to(folder).as_posix(), date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = method
                archive.writestr(info, file.read_bytes())


def rewrite_zip(path: Path, deflate: bool, member: Callable[[str, Callable[[], bytes]], tuple[str, bytes] | None]) \
        -> None:
    """The zip at `path` written again, each member as `member(name, read)` says (its new name and bytes, or None to
    leave it out), stored as app.zip's (or deflated: `deflate`), in the same order, with its date and mode."""
    tmp = path.with_suffix(".tmp")
    method = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(tmp, "w", method, compresslevel=9 if deflate else None) \
            as target:
        for info in source.infolist():
            written = member(info.filename, functools.partial(source.read, info))
            if written is None:
                continue
            name, data = written
            stored = zipfile.ZipInfo(name, date_time=info.date_time)
            stored.compress_type, stored.external_attr = method, info.external_attr
            target.writestr(stored, data)
    tmp.replace(path)


def restock_stdlib(path: Path, deflate: bool = False) -> list[str]:
    """Pyodide's python_stdlib.zip (written to /lib/python314.zip and imported from) rewritten without
    STDLIB_UNUSED, its members stored as app.zip's (or deflated: `deflate`); returns the top-level names left
    out."""
    left_out: set[str] = set()

    def kept(name: str) -> bool:
        if name.startswith(STDLIB_UNUSED):
            left_out.add(name.split("/")[0])
            return False
        return True

    rewrite_zip(path, deflate, lambda name, read: (name, read()) if kept(name) else None)
    return sorted(left_out)


# --- the icon font ----------------------------------------------------------------------------------
def icons_used(root: Path = ROOT) -> set[str]:
    """Every Material icon the app's code names (flet's names: PLAY_ARROW, WARNING_AMBER_ROUNDED)."""
    found: set[str] = set()
    for path in [root / "main.py", *sorted((root / "companion").rglob("*.py"))]:
        found.update(ICON_USE.findall(path.read_text(encoding="utf-8")))
    return found


def flet_icon_names() -> dict[str, int]:
    """flet's Material icon names -> their numbers on the wire (flet/controls/material/icons.json: 0x10000 +
    the icon's place in the client's table)."""
    import flet

    return json.loads((Path(flet.__file__).parent / "controls" / "material" / "icons.json").read_text())


def icon_codepoints(client_js: str, names) -> dict[str, int]:
    """flet icon name -> the code point the web client draws it with, read from the client itself: flet's
    main.dart.js holds its table of Material icons (a list of Flutter's IconData constants, in the order of
    icons.json) — what the client draws, including Flutter's aliases (RADIO_BUTTON_OFF is the glyph
    radio_button_unchecked). SystemExit when the table is not found (another flet-web) or a name is unknown."""
    numbers = flet_icon_names()
    constants = {name: int(float(code)) for name, code in ICON_CONST.findall(client_js)}
    table = None
    for match in ICON_LIST.finditer(client_js):
        items = match.group(1).split(",")
        if len(items) == len(numbers) and all(item in constants for item in items):
            table = [constants[item] for item in items]
            break
    if table is None:
        raise SystemExit("main.dart.js changed: flet's table of Material icons was not found (see icon_codepoints)")
    unknown = sorted(set(names) - set(numbers))
    if unknown:
        raise SystemExit(f"not flet Material icons: {unknown}")
    return {name: table[numbers[name] - 0x10000] for name in names}


def subset_icon_font(source: Path, target: Path, codepoints) -> None:
    """Write the Material icon font at `source` to `target` with only the glyphs of `codepoints` (and the
    space), by fontTools (a build-time dependency: pyproject.toml, [test])."""
    try:
        from fontTools import subset
        from fontTools.ttLib import TTFont
    except ImportError:
        raise SystemExit("fontTools is missing: `make setup` (pyproject.toml, [test]) installs it") from None

    font = TTFont(source)
    options = subset.Options()
    options.notdef_outline = True
    options.name_IDs = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted({0x20, *codepoints}))
    subsetter.subset(font)
    font.save(target)


def subset_icons(out: Path) -> int:
    """The site's Material icon font cut to the app's icons and the framework's; returns the glyphs kept."""
    codes = icon_codepoints((out / "main.dart.js").read_text(encoding="utf-8"), icons_used() | set(FRAMEWORK_ICONS))
    path = out / ICON_FONT
    subset_icon_font(path, path, codes.values())
    return len(set(codes.values()))


# --- 3. the site ------------------------------------------------------------------------------------
def copy_client(out: Path) -> list[str]:
    """flet-web's web client and Pyodide, without what this app never loads; returns what was left out."""
    source = flet_web_dir()
    shutil.copytree(source, out)
    left_out = []
    for pattern in SITE_UNUSED:
        for path in sorted(out.glob(pattern)):
            left_out.append(path.relative_to(out).as_posix())
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    return left_out


def copy_assets(out: Path) -> None:
    """The app's web assets (fonts/…, every file but notes) and the icons. A font shipped as WOFF2 too is
    served only as WOFF2: the TrueType twin is for the desktop and phone clients (companion/ui/fonts.py,
    `native_file`), and the service worker would otherwise precache both (XeriHangul: 1.3 MB more)."""
    assets = ROOT / "companion" / "ui" / "assets"
    for path in assets.rglob("*"):
        if path.suffix == ".ttf" and path.with_suffix(".woff2").is_file():
            continue
        if path.is_file() and path.suffix != ".md":
            target = out / path.relative_to(assets)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
    (out / "icons").mkdir(exist_ok=True)
    for name in ("icon-192.png", "icon-512.png", "icon-maskable-192.png", "icon-maskable-512.png",
                 "apple-touch-icon-180.png"):
        shutil.copy2(ICONS / name, out / "icons" / name)
    shutil.copy2(ICONS / "favicon-32.png", out / "favicon.png")


def sw_version(out: Path) -> str:
    """flutter_bootstrap.js registers `flutter_service_worker.js?v=<this>` whenever a registration exists."""
    found = re.search(r'serviceWorkerVersion:\s*"([^"]+)"', (out / "flutter_bootstrap.js").read_text())
    if found is None:
        raise SystemExit("flutter_bootstrap.js has no serviceWorkerVersion: flet-web changed, check the service worker")
    return found.group(1)


def patch_index(out: Path, cfg: dict[str, str], build: str, base_url: str) -> None:
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web import patch_index_html

    index = out / "index.html"
    patch_index_html(index_path=str(index), base_href=base_url, app_name=cfg["name"],
                     app_description=cfg["description"], pyodide=True, pyodide_script_path="main.py",
                     pyodide_version="bundled", app_package_url=f"app.zip?b={build}",
                     web_renderer=WebRenderer.CANVAS_KIT, route_url_strategy=RouteUrlStrategy.PATH, no_cdn=True)
    html = index.read_text(encoding="utf-8")
    # A bare module specifier ("pyodide/pyodide.mjs") does not resolve inside the worker.
    html = html.replace('flet.pyodideUrl="pyodide/pyodide.mjs";', 'flet.pyodideUrl="./pyodide/pyodide.mjs";')
    head = (WEB / "head.html").read_text(encoding="utf-8").replace("__SW_VERSION__", sw_version(out))
    html = html.replace('<script src="python.js"></script>', head + '\n  <script src="python.js"></script>', 1)
    start = html.index('<div id="loading"')
    end = html.index("</div>", start) + len("</div>")
    loading = (WEB / "loading.html").read_text(encoding="utf-8").replace("__GREEN__", cfg["background"])
    html = html[:start] + loading.replace("__APP_NAME__", cfg["name"]) + html[end:]
    html = html.replace('<meta name="apple-mobile-web-app-status-bar-style" content="black">',
                        '<meta name="apple-mobile-web-app-status-bar-style" content="black">\n  '
                        f'<meta name="theme-color" content="{cfg["theme"]}">')
    html = html.replace("icons/apple-touch-icon-192.png", "icons/apple-touch-icon-180.png")
    for needed in ("xeri-loading", "xeriMark", "./pyodide/pyodide.mjs", f"app.zip?b={build}", "theme-color"):
        if needed not in html:
            raise SystemExit(f"index.html could not be patched ({needed} missing): flet-web's index.html changed")
    index.write_text(html, encoding="utf-8")


def write_manifest(out: Path, cfg: dict[str, str]) -> None:
    icons = [{"src": f"icons/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png"} for n in (192, 512)]
    icons += [{"src": f"icons/icon-maskable-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "maskable"}
              for n in (192, 512)]
    manifest = {"id": "./", "name": cfg["name"], "short_name": cfg["short_name"], "description": cfg["description"],
                "start_url": "./", "scope": "./", "display": "standalone", "orientation": "any",
                "background_color": cfg["background"], "theme_color": cfg["theme"], "icons": icons,
                "prefer_related_applications": False}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8")


FONTS_UNUSED = ("packages/flutter_math_fork", "packages/cupertino_icons")


def patch_fonts(out: Path) -> None:
    """Drop the KaTeX and Cupertino icon font families (left out, see SITE_UNUSED) from FontManifest.json:
    Flutter loads every family listed there at start. Add Roboto, bundled for no-CDN builds (as flet publish
    does)."""
    path = out / "assets" / "FontManifest.json"
    fonts = [f for f in json.loads(path.read_text()) if not f["family"].startswith(FONTS_UNUSED)]
    if not any(f["family"] == "Roboto" for f in fonts):
        fonts.append({"family": "Roboto", "fonts": [{"asset": "fonts/roboto.woff2"}]})
    path.write_text(json.dumps(fonts))


RIVE_PATCH = ('"https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"', '"rive/"')
"""flet-web's client loads Rive's runtime (`wasm/rive_native.js`) from a CDN at every start, for a control the
app never shows: offline it failed, and a hanging name lookup held the page's load event for 25 s. The
client is pointed at `rive/` in the site, where pwa/web/rive_native.js stands in for it. The build stops if
the text is not found (another flet-web)."""


def patch_rive(out: Path) -> None:
    path = out / "main.dart.js"
    text = path.read_text(encoding="utf-8")
    if RIVE_PATCH[0] not in text:
        raise SystemExit("main.dart.js changed: the Rive patch no longer applies (see RIVE_PATCH)")
    path.write_text(text.replace(*RIVE_PATCH), encoding="utf-8")
    for folder in ("wasm", "wasm_compatibility"):
        (out / "rive" / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy2(WEB / "rive_native.js", out / "rive" / folder / "rive_native.js")


def patch_pyodide(out: Path) -> None:
    path = out / "pyodide" / "pyodide.mjs"
    text = path.read_text()
    if SNAPSHOT_PATCH[0] not in text:
        raise SystemExit("pyodide.mjs changed: the snapshot patch no longer applies (see SNAPSHOT_PATCH)")
    path.write_text(text.replace(*SNAPSHOT_PATCH))


def site_files(out: Path) -> list[tuple[str, int]]:
    return [(p.relative_to(out).as_posix(), p.stat().st_size) for p in sorted(out.rglob("*"))
            if p.is_file() and p.name not in ("flutter_service_worker.js", "build-info.json")]


def lazy_files(files: list[tuple[str, int]]) -> list[str]:
    """What the service worker caches when a page first fetches it, not at install: each browser's one of the
    two CanvasKits, and the script fonts (Hangul, emoji: 0.5 MB), which only a page showing Korean or such a
    name asks for (companion/ui/fonts.py) -- a phone that never showed them does not download them, and
    once shown online they are kept for offline use (docs/pwa.md)."""
    from companion.ui.fonts import SCRIPT_FONTS

    script = tuple(font.web_file.rsplit(".", 1)[0] for font in SCRIPT_FONTS)   # the font and its licence
    return [rel for rel, _ in files if rel.startswith("canvaskit/") or rel.startswith(script)]


def write_service_worker(out: Path, build: str) -> None:
    files = site_files(out)
    lazy = lazy_files(files)
    eager = ["./"] + [f"{rel}?b={build}" if rel == "app.zip" else rel for rel, _ in files
                      if rel not in lazy and rel != "index.html"]
    sw = (WEB / "service-worker.js").read_text()
    sw = sw.replace("__BUILD_ID__", build).replace("__PRECACHE__", json.dumps(eager, indent=0)) \
        .replace("__LAZY__", json.dumps(lazy, indent=0))
    (out / "flutter_service_worker.js").write_text(sw)


# --- the whole build --------------------------------------------------------------------------------
def build(out: Path = DIST, base_url: str = "/", pyc: bool = True, deflate: bool = False) -> dict:
    """Build the site into `out`; returns what build-info.json says."""
    started = time.monotonic()
    base_url = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    wheels = fetch_wheels()
    work = CACHE / "stage"
    stage(work, wheels)
    compiled = compile_bytecode(work) if pyc else False
    digest = inputs_digest(pyc, base_url, deflate)
    build_id = digest[:12]
    tmp = out.with_name(out.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    left_out = copy_client(tmp)
    copy_assets(tmp)
    app_zip(work, tmp / "app.zip", deflate)
    stdlib = tmp / "pyodide" / "python_stdlib.zip"
    left_out += [f"pyodide/python_stdlib.zip: {name}" for name in restock_stdlib(stdlib, deflate)]
    stdlib_compiled = compile_stdlib(stdlib, start_modules(work), deflate) if compiled else 0
    icons = subset_icons(tmp)
    for name in ("python-worker.js", "python.js"):
        shutil.copy2(WEB / name, tmp / name)
    cfg = config()
    patch_index(tmp, cfg, build_id, base_url)
    write_manifest(tmp, cfg)
    patch_fonts(tmp)
    patch_pyodide(tmp)
    patch_rive(tmp)
    write_service_worker(tmp, build_id)
    files = site_files(tmp)
    info = {"build": build_id, "inputs": digest, "flet_web": flet_web_version(), "bytecode": compiled,
            "stdlib_bytecode": stdlib_compiled,
            "icons": icons, "archives": "deflated" if deflate else "stored", "base_url": base_url,
            "languages": app_languages(), "files": files,
            "bytes": sum(size for _, size in files), "left_out": left_out}
    (tmp / "build-info.json").write_text(json.dumps(info, indent=1))
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)
    log(f"{out}: {len(files)} files, {sum(size for _, size in files) / 1e6:.1f} MB, build {build_id}, "
        f"{'bytecode' if compiled else 'sources'}, {time.monotonic() - started:.0f} s")
    return info


def is_fresh(out: Path = DIST, base_url: str = "/", pyc: bool = True, deflate: bool = False) -> bool:
    """True when `out` was built from exactly the inputs there are now (and node is as it was)."""
    try:
        info = json.loads((out / "build-info.json").read_text())
    except (OSError, ValueError):
        return False
    base_url = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    return (info.get("inputs") == inputs_digest(pyc, base_url, deflate)
            and info.get("bytecode") == (pyc and bool(shutil.which("node"))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pwa.build", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(DIST), help="where to write the site (default: dist-pwa/)")
    parser.add_argument("--base-url", default="/", help="the path the site is served under (default: /)")
    parser.add_argument("--no-pyc", action="store_true", help="ship Python sources, not bytecode")
    parser.add_argument("--deflate-archives", action="store_true",
                        help="compress app.zip's and python_stdlib.zip's members: only for a host that does not "
                             "compress .zip files (docs/pwa.md, \"What a first visit transfers, and serving it\")")
    parser.add_argument("--if-stale", action="store_true", help="build only if an input changed")
    parser.add_argument("--fetch-only", action="store_true", help="only download the pinned wheels")
    args = parser.parse_args(argv)
    if args.fetch_only:
        fetch_wheels()
        return 0
    out = Path(args.out).resolve()
    if args.if_stale and is_fresh(out, args.base_url, not args.no_pyc, args.deflate_archives):
        log(f"{out} is up to date")
        return 0
    build(out, args.base_url, not args.no_pyc, args.deflate_archives)
    return 0


if __name__ == "__main__":
    sys.exit(main())
