// Xeri Companion: flet-web's python-worker.js, changed for a fast, offline start. The messages to and
// from the page, and the Python bridge (flet_js), are flet's. What differs:
//  - the app archive (app.zip) is fetched at once, while Pyodide loads (flet's waits for Pyodide);
//  - Python imports from the archive directly (zipimport) instead of unpacking it, and the archive
//    holds no requirements.txt or pyproject.toml, so micropip is never loaded: every package is in it;
//  - Python starts from a memory snapshot when this browser has made one for this build; mode
//    "snapshot" makes one (started by the page in the background after a start without one);
//  - time stamps ("marks") go to the page on a BroadcastChannel, for the loading line and profiling.
// Copied into the site by pwa/build.py.
self.flet_js = {};
self.userAppRunning = false;
const marks = new BroadcastChannel("xeri-marks");
self.xeriMark = (name) => marks.postMessage({ name, t: performance.timeOrigin + performance.now() });
// The modules the app has loaded once its first screen is up: what a snapshot should hold.
self.xeriModules = (json) => marks.postMessage({ type: "modules", names: JSON.parse(json), usedSnapshot: !!self.usedSnapshot });
xeriMark("worker:start");

self.flet_js.userAppStarting = function () { self.userAppRunning = true; };
self.sendPythonOutput = function (text, isStderr) {
    if (isStderr) console.error(text);  // Python's errors reach the browser's console too
    if (!self.userAppRunning || !(self.flet_js && self.flet_js.send_python_output)) {
        if (!isStderr) console.log(text);
        return;
    }
    // Pyodide calls this with the GIL released: calling back into Python must wait for a microtask.
    queueMicrotask(function () { self.flet_js.send_python_output(text, isStderr); });
};

async function fetchBytes(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`Could not load the app: HTTP ${response.status} ${url}`);
    return new Uint8Array(await response.arrayBuffer());
}

// --- memory snapshots -----------------------------------------------------------------------------
// A snapshot is Pyodide's whole wasm memory after the app's modules were imported (makeSnapshot). It
// is made in the background by this very browser after a start without one, and kept in the service
// worker's cache of this build; the next start restores it instead of booting Python and importing
// some 500 modules. msgpack's C extension cannot be in a snapshot (its functions live in the wasm
// table, which a snapshot does not hold): the snapshot is made with its pure-Python fallback
// (MSGPACK_PUREPYTHON=1) and the C extension is swapped in after the restore. A snapshot that fails to
// restore is deleted and Python starts the ordinary way.
const SNAPSHOT_ENV = { PYTHONDONTWRITEBYTECODE: "1", MSGPACK_PUREPYTHON: "1" };
const NEVER_PRELOAD = /^(__main__|main|flet_js|pyodide_js|js|msgpack\._cmsgpack|flet\.messaging\.pyodide_connection|_pyodide.*|pyodide.*)$/;

function buildId(url) {
    const m = /[?&]b=([0-9a-f]+)/.exec(url || "");
    return m ? m[1] : null;
}
function snapshotKey(build) { return new URL(`python.snapshot?b=${build}`, self.location.href).href; }

async function cachedSnapshot(build) {
    if (!build || !self.caches) return null;
    try {
        const cache = await caches.open("xeri-" + build);
        const hit = await cache.match(snapshotKey(build));
        return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
    } catch (e) { return null; }
}

async function dropSnapshot(build) {
    try { await (await caches.open("xeri-" + build)).delete(snapshotKey(build)); } catch (e) {}
}

// The archive is not unpacked: Python imports from it. Only msgpack and Babel are extracted (a C extension
// must be a file of its own; Babel lists and opens its CLDR data by path, next to its own modules: from
// the zip every number it formats failed, "Not a directory"); the app's data is read from the zip
// (companion/resources.py). The extracted folder comes first on sys.path.
const APP_ZIP = "/home/pyodide/app.zip";
const APP_PATHS = `
import sys, zipfile
_z = "${APP_ZIP}"
with zipfile.ZipFile(_z) as _f:
    _f.extractall("/home/pyodide", [n for n in _f.namelist()
                                    if n.startswith(("__pypackages__/msgpack/", "__pypackages__/babel/"))])
for _p in (_z + "/__pypackages__", _z, "/home/pyodide/__pypackages__"):
    if _p not in sys.path:
        sys.path.insert(0, _p)
del _z, _f, _p
`;
function installApp(py, bytes) {
    py.FS.mkdirTree("/home/pyodide");
    py.FS.writeFile(APP_ZIP, bytes);
    py.runPython(APP_PATHS);
}

async function makeSnapshot(init) {
    const build = buildId(init.appPackageUrl);
    const archive = fetchBytes(init.appPackageUrl);
    const { loadPyodide } = await import(init.pyodideUrl);
    const py = await loadPyodide({ _makeSnapshot: true, env: SNAPSHOT_ENV });
    installApp(py, await archive);
    const names = (init.preload || []).filter((n) => !NEVER_PRELOAD.test(n));
    py.globals.set("_preload", names);
    const failed = py.runPython(`
import importlib
_failed = []
for _name in _preload:
    try:
        importlib.import_module(_name)
    except BaseException as _e:
        _failed.append(f"{_name}: {type(_e).__name__}")
del _name, _preload
_failed
`).toJs();
    const snapshot = py.makeMemorySnapshot();
    const cache = await caches.open("xeri-" + build);
    await cache.put(snapshotKey(build), new Response(snapshot, {
        headers: { "content-type": "application/octet-stream", "x-modules": String(names.length) } }));
    return `snapshot-done:${snapshot.length}:${names.length}:${failed.length}:${failed.join(",").slice(0, 300)}`;
}

async function bootPython(init) {
    const build = buildId(init.appPackageUrl);
    const archive = fetchBytes(init.appPackageUrl);
    const snapshotBytes = init.noSnapshot ? null : cachedSnapshot(build);
    const { loadPyodide } = await import(init.pyodideUrl);
    xeriMark("worker:pyodide-imported");
    const options = {
        stdout: (text) => self.sendPythonOutput(text, false),
        stderr: (text) => self.sendPythonOutput(text, true),
        env: { PYTHONDONTWRITEBYTECODE: "1" },
    };
    const snapshot = await snapshotBytes;
    let py = null;
    if (snapshot) {
        xeriMark("worker:snapshot-read");
        try {
            py = await loadPyodide({ ...options, env: SNAPSHOT_ENV, _loadSnapshot: snapshot });
            self.usedSnapshot = true;
        } catch (e) {
            console.warn("Python's snapshot could not be restored; starting without it:", e);
            await dropSnapshot(build);
            py = null;
        }
    }
    if (!py) {
        py = await loadPyodide(options);
        self.usedSnapshot = false;
    }
    xeriMark(self.usedSnapshot ? "worker:pyodide-loaded-from-snapshot" : "worker:pyodide-loaded");
    return { py, archive };
}

self.initPyodide = async function (init) {
    try {
        if (init.mode === "snapshot") {
            self.postMessage(await makeSnapshot(init));
            return;
        }
        const { py, archive } = await bootPython(init);
        self.pyodide = py;
        self.pyodide.registerJsModule("flet_js", flet_js);
        flet_js.documentUrl = init.documentUrl;
        flet_js.keptPrefs = init.keptPrefs ?? null;   // python.js, _keptPrefs
        flet_js.usedSnapshot = self.usedSnapshot;
        const bytes = await archive;
        xeriMark("worker:archive-fetched");
        installApp(self.pyodide, bytes);
        xeriMark("worker:archive-ready");
        await self.pyodide.runPythonAsync(`
import flet_js, os, runpy, sys
os.chdir("/home/pyodide")
import msgpack as _msgpack
if os.environ.pop("MSGPACK_PUREPYTHON", None):
    # Restored from a snapshot made with msgpack's pure-Python fallback: swap the C extension in.
    from msgpack import _cmsgpack
    _msgpack.Packer, _msgpack.Unpacker, _msgpack.unpackb = _cmsgpack.Packer, _cmsgpack.Unpacker, _cmsgpack.unpackb

def _send_python_output(text, is_stderr):
    flet_js.receive_callback(bytes([0]) + _msgpack.packb([7, {"text": text, "is_stderr": bool(is_stderr)}]))

flet_js.send_python_output = _send_python_output
flet_js.userAppStarting()
try:
    runpy.run_module(${JSON.stringify(init.pythonModuleName || "main")}, run_name="__main__")
except SystemExit as _exit:
    if _exit.code not in (None, 0):
        raise
`);
        xeriMark("worker:app-module-ran");
        if (typeof self.flet_js.start_connection !== "function") {
            self.postMessage("__flet_no_ui__:The app finished without starting its screen.");
            return;
        }
        await self.flet_js.start_connection(self.receiveCallback);
        self.postMessage("initialized");
    } catch (error) {
        self.postMessage(error.toString());
    }
};

self.receiveCallback = (message) => {
    const bytes = message.toJs();
    self.postMessage(bytes, [bytes.buffer]);
};
self.flet_js.receive_callback = self.receiveCallback;

self.initialized = false;
self.onmessage = async (event) => {
    if (!self.initialized) {
        self.initialized = true;
        self.xeriTrace = /[?&]trace=1/.test(event.data.documentUrl || "");
        self.flet_js.args = event.data.args;
        await self.initPyodide(event.data);
    } else if (typeof flet_js.send === "function") {
        if (self.xeriTrace) xeriMark("tap:to-python");   // ?trace=1 (benchmarks): a tap reached the worker
        flet_js.send(event.data);
    } else {
        console.error("Flet: dropped a message for a Python app that never started.");
    }
};
