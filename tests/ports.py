"""A free TCP port, for the servers the tests start (the app, PouchDB Server, a static site, a proxy)."""

from __future__ import annotations

import socket


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on now at `host` ("" for every address, as the app serving a LAN binds)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]
