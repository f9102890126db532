// Xeri Companion: flet-web's python.js, changed to start the Python worker as soon as the page loads,
// in parallel with Flutter's engine, instead of when Dart calls jsConnect (after main.dart.js has
// been fetched, compiled and started). Python runs the app module and waits; Dart's first message
// (register client) starts the session as before. The messages are flet's. Copied by pwa/build.py.
let _apps = {};
let _documentUrl = document.URL;
let _prestarted = null;

// What the app keeps in the browser (Flutter's SharedPreferences: localStorage, keys "flutter.<key>", values
// JSON), read here for Python before it starts: where the phone was, without a round trip through a Flutter
// still drawing its first frame (a worker has no localStorage). Read anew for every worker started.
function _keptPrefs() {
    const kept = {};
    try {
        for (let i = 0; i < localStorage.length; i++) {
            const key = localStorage.key(i);
            if (key && key.startsWith("flutter.xeri.")) kept[key.slice(8)] = localStorage.getItem(key);
        }
    } catch (e) { return null; }   // storage refused (a privacy setting): Python asks Flutter instead
    return JSON.stringify(kept);
}

function _startWorker(args) {
    const base = flet.entrypointBaseUrl.endsWith("/") ? flet.entrypointBaseUrl.slice(0, -1) : flet.entrypointBaseUrl;
    const app = { dartOnMessage: null, pending: [], error: undefined };
    app.worker = new Worker(base + "/python-worker.js", { type: "module" });
    app.initialized = new Promise((resolve) => {
        app.worker.onmessage = (event) => {
            if (typeof event.data === "string") {
                if (event.data != "initialized") {
                    app.error = event.data;
                    if (window.xeriFailed) xeriFailed(event.data);
                }
                resolve();
            } else if (app.dartOnMessage) {
                if (window.xeriTrace) xeriMark("tap:to-page");   // ?trace=1 (benchmarks): when Python's answer arrives
                app.dartOnMessage(event.data);
            } else {
                app.pending.push(event.data);
            }
        };
    });
    app.worker.postMessage({
        pyodideUrl: flet.pyodideUrl || "./pyodide/pyodide.mjs",
        args: args,
        documentUrl: _documentUrl,
        keptPrefs: _keptPrefs(),
        appPackageUrl: flet.appPackageUrl,
        micropipIncludePre: flet.micropipIncludePre,
        pythonModuleName: flet.pythonModuleName,
    });
    return app;
}

if (flet.pyodide) {
    _prestarted = _startWorker({});
    if (window.xeriMark) xeriMark("page:worker-started");
}

globalThis.jsConnect = async function (appId, args, dartOnMessage) {
    if (window.xeriMark) xeriMark("page:jsConnect");
    let app = _prestarted;
    _prestarted = null;
    if (!app) app = _startWorker(args);   // a second connection (a reconnect): a fresh worker
    app.dartOnMessage = dartOnMessage;
    _apps[appId] = app;
    for (const data of app.pending.splice(0)) dartOnMessage(data);
    await app.initialized;
    if (app.error) {
        console.error("Python worker init error:", app.error);
        await jsDisconnect(appId);
        throw app.error;
    }
    if (window.xeriMark) xeriMark("page:python-connected");
}

globalThis.jsSend = async function (appId, data) {
    if (appId in _apps) {
        _apps[appId].worker.postMessage(data, [data.buffer]);
    }
}

globalThis.jsDisconnect = async function (appId) {
    if (appId in _apps) {
        const app = _apps[appId];
        delete _apps[appId];
        app.worker.terminate();
        app.worker.onmessage = null;
        app.worker.onerror = null;
    }
}
