"""A TCP proxy on 127.0.0.1 that a test controls: the network between a device and its server.

    with Proxy(couch.port) as proxy:         # the client talks to 127.0.0.1:proxy.port
        proxy.cut()                          # live connections reset, new ones refused
        proxy.cut(silent=True)               # live connections go quiet, new ones are accepted and ignored
        proxy.restore()                      # forwarding again
        proxy.latency = 0.2                  # seconds added to every chunk, both ways
        proxy.cut_response_after(1000)       # each connection reset once 1,000 bytes of answer went through

Threads and the standard library only: two threads a connection, one pumping each way.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from typing import Self

RECV = 64 * 1024


def _reset(sock: socket.socket) -> None:
    """Close `sock` at once, with an RST rather than a polite FIN where the system allows."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    try:
        sock.shutdown(socket.SHUT_RDWR)  # wakes a thread blocked in recv() on it
    except OSError:
        pass
    sock.close()


class _Link:
    """One client connection and its connection to the target."""

    def __init__(self, proxy: Proxy, client: socket.socket, upstream: socket.socket | None):
        self.proxy, self.client, self.upstream = proxy, client, upstream
        self.frozen = upstream is None
        """Nothing is forwarded any more (a silent cut): what arrives is dropped."""
        self.down = 0
        """Bytes of answer forwarded to the client."""
        self.dead = threading.Event()
        self.threads: list[threading.Thread] = []
        if upstream is not None:
            for source, sink, answer in ((client, upstream, False), (upstream, client, True)):
                thread = threading.Thread(target=self._pump, args=(source, sink, answer), daemon=True)
                self.threads.append(thread)
                thread.start()

    def _pump(self, source: socket.socket, sink: socket.socket, answer: bool) -> None:
        try:
            while not self.dead.is_set():
                data = source.recv(RECV)
                if not data:
                    break
                if self.frozen:
                    continue
                if self.proxy.latency:
                    time.sleep(self.proxy.latency)
                limit = self.proxy.cut_after
                if answer and limit is not None and self.down + len(data) >= limit:
                    sink.sendall(data[: max(0, limit - self.down)])
                    self.down = limit
                    break
                sink.sendall(data)
                if answer:
                    self.down += len(data)
        except OSError:
            pass
        self.kill()

    def kill(self) -> None:
        if self.dead.is_set():
            return
        self.dead.set()
        for sock in (self.client, self.upstream):
            if sock is not None:
                _reset(sock)
        self.proxy._forget(self)


class Proxy:
    """Forwards 127.0.0.1:`port` to `target_host`:`target_port` until cut; see the module's docstring."""

    def __init__(self, target_port: int, target_host: str = "127.0.0.1"):
        self.target = (target_host, target_port)
        self.latency = 0.0
        """Seconds added before each chunk is passed on, either way."""
        self.cut_after: int | None = None
        """Reset each connection once this many bytes of answer went through it (None: never)."""
        self.accepted = 0
        """Connections accepted so far."""
        self._mode = "open"
        self._links: set[_Link] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._listener = self._listen(0)
        self.port: int = self._listener.getsockname()[1]
        self._acceptor = self._accept_in_background()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _listen(self, port: int) -> socket.socket:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(64)
        listener.settimeout(0.05)  # the accept loop looks up now and then to see whether to stop
        return listener

    def _accept_in_background(self) -> threading.Thread:
        listener = self._listener
        thread = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        thread.start()
        return thread

    def _accept(self, listener: socket.socket) -> None:
        while not self._closed and self._listener is listener:
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                break
            client.settimeout(None)
            self.accepted += 1
            upstream = None
            if self._mode == "open":
                try:
                    upstream = socket.create_connection(self.target, timeout=10)
                    upstream.settimeout(None)
                except OSError:
                    _reset(client)  # the target is down: the client sees its connection refused
                    continue
            with self._lock:
                self._links.add(_Link(self, client, upstream))  # upstream None: accepted and ignored
        listener.close()

    def _forget(self, link: _Link) -> None:
        with self._lock:
            self._links.discard(link)

    def _live(self) -> list[_Link]:
        with self._lock:
            return list(self._links)

    def cut(self, *, silent: bool = False) -> None:
        """The network goes away. By default live connections are reset and new ones refused (the port is
        closed). `silent=True`: live connections stop passing anything on, new ones are accepted and never
        answered: what a dropped Wi-Fi looks like, where only a deadline ends the wait."""
        if silent:
            self._mode = "blackhole"
            for link in self._live():
                link.frozen = True
            return
        self._mode = "refuse"
        self._listener = None  # type: ignore[assignment]  # the accept loop closes it and ends
        self._acceptor.join(5)
        for link in self._live():
            link.kill()

    def restore(self) -> None:
        """The network is back: new connections are forwarded (connections from before the cut stay dead)."""
        for link in self._live():
            if link.frozen:
                link.kill()
        self.cut_after = None
        previous, self._mode = self._mode, "open"
        if previous == "refuse":
            self._listener = self._listen(self.port)
            self._acceptor = self._accept_in_background()

    def cut_response_after(self, size: int) -> None:
        """Reset every connection once `size` bytes of answer went through it: a cut mid-transfer."""
        self.cut_after = size

    def close(self) -> None:
        self._closed = True
        self._acceptor.join(5)
        links = self._live()
        for link in links:
            link.kill()
        for link in links:
            for thread in link.threads:
                thread.join(5)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
