"""Where the shipped data lives: rule sets, translation catalogs (and, in a checkout, example match files).

The repository's top-level `data/` folder is the one source. A built wheel (and the browser build)
carries a copy of `data/rules/` and `data/i18n/` inside the package, as `companion/data/` (made by
`setup.py` when the wheel is built, every file in those folders), read here with `importlib.resources`
so the installed app needs no checkout. A checkout, an editable install and a `flet build` of the
project folder read `data/` itself. See docs/decisions.md ("Shipped data").
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["CHECKOUT_DATA", "DATA_DIR", "PACKAGED", "SHIPPED", "data_root", "read_shipped", "shipped"]

PACKAGED = "data"
"""The folder inside the package that a wheel's build fills from the checkout's `data/`."""
SHIPPED = ("rules", "i18n")
"""The folders of `data/` that the app reads and a wheel therefore carries."""
CHECKOUT_DATA = Path(__file__).resolve().parent.parent / "data"
"""The repository's `data/` folder, when the app runs from a checkout."""
DATA_DIR: Traversable
"""The folder holding `rules/` and `i18n/` (and, in a checkout, `examples/`): `data_root()`, looked up at
each use. The app reads through `shipped` and `read_shipped`; this is for tools and tests."""


def data_root() -> Traversable:
    """The shipped data: the package's own copy when it has one (a wheel, the browser build's zip),
    else the checkout's `data/`."""
    packaged = files(__package__) / PACKAGED
    if (packaged / SHIPPED[0]).is_dir():
        return packaged
    return CHECKOUT_DATA


@cache
def shipped(folder: str) -> tuple[str, ...]:
    """The names of the JSON files shipped in `data/<folder>/` (without `.json`), sorted: whatever files
    the folder holds."""
    where = data_root() / folder
    if not where.is_dir():
        return ()
    return tuple(sorted(entry.name[: -len(".json")] for entry in where.iterdir()
                        if entry.name.endswith(".json") and not entry.name.startswith(".") and entry.is_file()))


def read_shipped(folder: str, name: str) -> str:
    """The text of `data/<folder>/<name>.json`, one of `shipped(folder)`.

    Opened anew at every call, never kept open: in the browser build the package is a zip, and a start
    from a memory snapshot (pwa/web/python-worker.js) restores Python's memory without its open files.
    """
    if name not in shipped(folder):
        raise FileNotFoundError(f"no {folder}/{name}.json is shipped")
    return (data_root() / folder / f"{name}.json").read_text(encoding="utf-8")


def __getattr__(name: str) -> Traversable:
    if name == "DATA_DIR":
        # Looked up when asked, not at import: nothing of the package's zip stays open in a snapshot.
        return data_root()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
