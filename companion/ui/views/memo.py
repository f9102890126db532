"""Parts of a screen kept from one redraw to the next while what they show is unchanged.

Every intent redraws the whole page, and building Flet controls costs: a score sheet of a few hands was
half of a scoreboard's redraw, most of it in the controls' own constructors, and in the browser build
(Python in WebAssembly) a redraw is most of a tap's time. A part built from the same values as in the
redraw just before is given back as the very same controls: Flet then skips it when it compares the new
page with the old (a frozen control identical to the one it replaces is not compared). Only a part used in
the previous redraw is given back, so a control is never put back on a page it has left.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

T = TypeVar("T")


class _Redraws:
    __slots__ = ("count", "parts")

    def __init__(self) -> None:
        self.count = 0
        self.parts: dict[str, tuple[Hashable, int, Any]] = {}


_pages: WeakKeyDictionary[Any, _Redraws] = WeakKeyDictionary()


def redraw(session: Any) -> None:
    """A redraw of this session's page begins (`views.render` calls it)."""
    _pages.setdefault(session, _Redraws()).count += 1


def kept(session: Any, part: str, key: Hashable, build: Callable[[], T]) -> T:
    """The controls of `part`: those of the previous redraw when it was built from the same `key`, else
    `build()`."""
    page = _pages.get(session)
    if page is None:
        return build()
    found = page.parts.get(part)
    if found is not None and found[1] == page.count - 1 and found[0] == key:
        page.parts[part] = (key, page.count, found[2])
        return found[2]
    value = build()
    page.parts[part] = (key, page.count, value)
    return value
