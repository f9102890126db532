"""The laptop's front door: the app served to browsers and phones on the network (or in Flet's own window),
its data in a folder on this device's disk."""

from __future__ import annotations

import sys
import webbrowser

import flet as ft

from .. import bootstrap, logs
from ..i18n import DEFAULT_LANGUAGE, Translator
from ..service import StorageError
from .app import ASSETS, make_main, served_session
from .page import PageOptions


def serve(host: str = "127.0.0.1", port: int = 8550, open_browser: bool = True, desktop: bool = False,
          lang: str = DEFAULT_LANGUAGE) -> int:
    """Run the app until it is closed; returns the exit status (2, with a message, when it cannot start). `lang`:
    the language of what it says on its console (each phone picks its own)."""
    logs.configure()
    tr = Translator(lang)
    from ..net import server
    from ..net.access import TableCode, new_code
    from ..net.hosts import is_loopback, join_address, serves_beyond_loopback
    from ..net.qr import table_info, terminal_qr

    try:
        parts = bootstrap.build(bootstrap.open_folder())
    except StorageError as exc:  # held by another app, or a data folder the disk refuses
        print(exc, file=sys.stderr)
        return 2
    options = PageOptions.from_environment()
    with parts:
        parts.start_background()
        if desktop:
            ft.run(make_main(parts, options, served_session(parts)), assets_dir=ASSETS)
            return 0
        code = new_code() if serves_beyond_loopback(host) else None
        url = join_address(host, port) if code else f"http://{host}:{port}/"
        info = table_info(url, code) if code else None
        main = make_main(parts, options, served_session(parts, info))
        app = server.build_app(main, host=host, port=port, code=TableCode(code, port), assets_dir=ASSETS,
                               app_name="Xeri Companion")
        # The laptop's own browser: on loopback it is the owner; a browser on a LAN address needs the code.
        loopback = host in ("0.0.0.0", "::", "", "*") or is_loopback(host)
        own = f"http://127.0.0.1:{port}/" if loopback or info is None else info.join_url

        def ready() -> None:
            print(tr("serve.ready", address=own, folder=str(parts.services.library.folder)), flush=True)
            if info is not None:
                print(f"{tr('serve.join', link=info.join_url, code=info.code)}\n{terminal_qr(info.join_url)}",
                      flush=True)
            if open_browser:
                webbrowser.open(own)

        return server.serve(app, host, port, on_ready=ready)
