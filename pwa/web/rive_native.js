// Xeri Companion: a stand-in for Rive's runtime. flet-web's client loads it at every start, from a CDN, for
// a control (Rive animations) this app never shows: offline the request failed, and where the network's
// name lookup hangs it held the page's load event for 25 s. This file is served from the site instead
// (pwa/build.py points the client here); its loader is never answered, as it never was when the CDN failed.
self.RiveNative = function () { return new Promise(function () {}); };
