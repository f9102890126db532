"""Where the shipped data lives: rule sets, translation catalogs (and, in a checkout, example match files).

The repository's top-level `data/` folder is the one source. A built wheel (and the browser build)
carries `data/rules/` and `data/i18n/` inside the package, as `companion/data/` (pyproject.toml maps the
package `companion.data` to `data/`), read here with `importlib.resources` so the installed app needs no
checkout. A checkout, an editable install and a `flet build` of the project folder read `data/` itself.
See docs/decisions.md ("Shipped data").
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["CHECKOUT_DATA", "PACKAGED", "SHIPPED", "data_root", "read_shipped", "shipped"]

PACKAGED = "data"
"""The folder inside the package that a wheel's build fills from the checkout's `data/`."""
SHIPPED = ("rules", "i18n")
"""The folders of `data/` that the app reads and a wheel therefore carries."""
CHECKOUT_DATA = Path(__file__).resolve().parent.parent / "data"
"""The repository's `data/` folder, when the app runs from a checkout."""


def data_root() -> Traversable:
    """The shipped data. In a checkout (its `pyproject.toml` and `data/` beside the package), the checkout's
    own `data/`: a copy left inside the package by an old build or a browser-build staging must never win
    over it. Installed (a wheel, the browser build's zip, a packaged phone app), the package's copy."""
    if (CHECKOUT_DATA / SHIPPED[0]).is_dir() and (CHECKOUT_DATA.parent / "pyproject.toml").is_file():
        return CHECKOUT_DATA
    return files(__package__) / PACKAGED


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

