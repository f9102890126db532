"""Just enough of Flet's wire protocol to be a phone without a browser: register, read what the page shows,
tap a control by its test identifier. A hand-made client sends what it likes: what a session may do must be
decided by the server, whatever the page shows."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import websockets
from flet.messaging.protocol import decode_ext_from_msgpack

REGISTER_CLIENT, CONTROL_EVENT, UPDATE_CONTROL_PROPS, INVOKE_METHOD = 1, 3, 4, 5


async def connect(base: str, origin: str | None = "same", cookie: str | None = None, host: str | None = None,
                  language: str | None = None):
    """A WebSocket to the app at `base` (`http://address:port`), with the Origin a page of `base` sends
    (and the Accept-Language of a browser set to `language`)."""
    headers = {}
    if language:
        headers["Accept-Language"] = language
    if cookie:
        headers["Cookie"] = cookie
    if host:
        headers["Host"] = host
    return await websockets.connect(base.replace("http://", "ws://") + "/ws", origin=base if origin == "same" else origin,
                                    additional_headers=headers, open_timeout=15)


def decode(raw: bytes) -> Any:
    return msgpack.unpackb(raw[1:], ext_hook=decode_ext_from_msgpack, strict_map_key=False)


def find(tree: Any, test) -> dict | None:
    """The first control (a dict with `_c`) in `tree` for which `test(control)` holds."""
    if isinstance(tree, dict):
        if "_c" in tree and test(tree):
            return tree
        tree = list(tree.values())
    if isinstance(tree, (list, tuple)):
        for item in tree:
            found = find(item, test)
            if found is not None:
                return found
    return None


class Phone:
    """One Flet session over a bare WebSocket."""

    def __init__(self, ws, answers: bool = True):
        self.ws = ws
        self.answers = answers
        """Whether it answers the page's calls to its services (`answer`); a tab that goes before it answers
        leaves the server waiting on a call."""
        self.seen = b""
        self.messages: list[Any] = []
        """Everything the server sent, decoded: the page, then patches holding the controls drawn."""

    @classmethod
    async def open(cls, base: str, cookie: str | None = None, language: str | None = None,
                   answers: bool = True) -> Phone:
        phone = cls(await connect(base, cookie=cookie, language=language), answers)
        body = {"session_id": "", "page_name": "", "page": {"route": "/", "width": 390, "height": 844, "web": True}}
        await phone.ws.send(b"\x00" + msgpack.packb([REGISTER_CLIENT, body]))
        await phone.read_until(b"app-seen")
        return phone

    async def read_until(self, text: bytes, seconds: float = 20) -> bytes:
        """Gather what the server sends until `text` was among it; everything gathered since the last call."""
        start = len(self.seen)
        end = asyncio.get_running_loop().time() + seconds
        while text not in self.seen[start:]:
            left = end - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"the app never sent {text!r}")
            raw = await asyncio.wait_for(self.ws.recv(), left)
            self.seen += raw
            message = decode(raw)
            self.messages.append(message)
            if self.answers and isinstance(message, list) and message[:1] == [INVOKE_METHOD]:
                await self.answer(message[1])
        return self.seen[start:]

    async def answer(self, call: dict) -> None:
        """Answer a method the page asks of a service as a new browser does: with nothing (no place kept, no
        wake lock to report). Unanswered, the first screen waits out `ui.app.PLACE_WAIT` (2 s a phone)."""
        await self.ws.send(b"\x00" + msgpack.packb([INVOKE_METHOD, {"control_id": call["control_id"],
                                                                    "call_id": call["call_id"],
                                                                    "result": None, "error": None}]))

    def button(self, ident: str) -> int:
        """The id of the button under the Semantics of this identifier, as last drawn."""
        wrapper = find(self.messages[::-1], lambda c: c.get("identifier") == ident)
        assert wrapper is not None, f"no control {ident!r} on the page"
        button = find(wrapper.get("content"), lambda c: "Button" in c["_c"])
        assert button is not None, f"{ident!r} holds no button"
        return button["_i"]

    async def tap(self, ident: str) -> None:
        """Tap the button under the Semantics of this identifier, as Flutter would send it."""
        await self.click(self.button(ident))

    async def click(self, target: int) -> None:
        """A click on the control with this id, as Flutter sends it (whether or not the page still has it)."""
        await self.ws.send(b"\x00" + msgpack.packb([CONTROL_EVENT, {"target": target, "name": "click", "data": None}]))

    async def type(self, ident: str, text: str) -> None:
        """Type `text` into the text field under the Semantics of this identifier, as Flutter sends it: the
        field's new value, then its change event."""
        wrapper = find(self.messages[::-1], lambda c: c.get("identifier") == ident)
        assert wrapper is not None, f"no control {ident!r} on the page"
        field = find(wrapper.get("content"), lambda c: c["_c"] == "TextField")
        assert field is not None, f"{ident!r} holds no text field"
        await self.ws.send(b"\x00" + msgpack.packb([UPDATE_CONTROL_PROPS, {"id": field["_i"], "props": {"value": text}}]))
        await self.ws.send(b"\x00" + msgpack.packb([CONTROL_EVENT, {"target": field["_i"], "name": "change",
                                                                    "data": text}]))

    async def close(self) -> None:
        await self.ws.close()
