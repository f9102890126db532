"""Where the shipped data lives: rule sets, translation catalogs (and, in a checkout, example match files).

The repository's top-level `data/` folder is the one source. A built wheel (and the browser build)
carries `data/rules/` and `data/i18n/` inside the package, as `companion/data/` (pyproject.toml maps the
package `companion.data` to `data/`), read here with `importlib.resources` (from the browser build's zip: through
the package's zip importer, `_zipped`) so the installed app needs no checkout. A checkout, an editable install
and a `flet build` of the project folder read `data/` itself.
See docs/decisions.md ("Shipped data").
"""

from __future__ import annotations

import os
import zipfile
import zipimport
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


def _in_checkout() -> bool:
    return (CHECKOUT_DATA / SHIPPED[0]).is_dir() and (CHECKOUT_DATA.parent / "pyproject.toml").is_file()


def data_root() -> Traversable:
    """The shipped data. In a checkout (its `pyproject.toml` and `data/` beside the package), the checkout's
    own `data/`: a copy left inside the package by an old build or a browser-build staging must never win
    over it. Installed (a wheel, the browser build's zip, a packaged phone app), the package's copy."""
    if _in_checkout():
        return CHECKOUT_DATA
    return files(__package__) / PACKAGED


@cache
def _zipped() -> tuple[zipimport.zipimporter, str, frozenset[str]] | None:
    """When the package is imported from a zip (the browser build's app.zip) and no checkout wins: its importer,
    where the data folder is inside the archive, and the archive's names there. None otherwise.

    The archive is listed once here, and its files are read through the importer, whose table of the archive
    zipimport already holds. Through `importlib.resources` every call opened the archive and worked out every
    folder of its 600 names: about a third of the browser build's first screen after an installed start."""
    loader = __spec__.loader if __spec__ is not None else None
    if not isinstance(loader, zipimport.zipimporter) or _in_checkout():
        return None
    inside = os.path.relpath(os.path.dirname(__file__), loader.archive).replace(os.sep, "/")
    prefix = f"{inside}/{PACKAGED}/"
    with zipfile.ZipFile(loader.archive) as archive:   # closed at once: see `read_shipped`
        names = frozenset(name for name in archive.namelist() if name.startswith(prefix))
    return loader, prefix, names


def _files(folder: str) -> list[str]:
    """The names of the files directly in `data/<folder>/`, from the browser build's zip or the folder."""
    zipped = _zipped()
    if zipped is not None:
        _loader, prefix, names = zipped
        here = f"{prefix}{folder}/"
        return [name[len(here):] for name in names if name.startswith(here) and "/" not in name[len(here):]]
    where = data_root() / folder
    return [entry.name for entry in where.iterdir() if entry.is_file()] if where.is_dir() else []


@cache
def shipped(folder: str) -> tuple[str, ...]:
    """The names of the JSON files shipped in `data/<folder>/` (without `.json`), sorted: whatever files
    the folder holds."""
    return tuple(sorted(name[: -len(".json")] for name in _files(folder)
                        if name.endswith(".json") and not name.startswith(".")))


def read_shipped(folder: str, name: str) -> str:
    """The text of `data/<folder>/<name>.json`, one of `shipped(folder)`.

    Opened anew at every call, never kept open: in the browser build the package is a zip, and a start
    from a memory snapshot (pwa/web/python-worker.js) restores Python's memory without its open files.
    """
    if name not in shipped(folder):
        raise FileNotFoundError(f"no {folder}/{name}.json is shipped")
    zipped = _zipped()
    if zipped is not None:
        loader, prefix, _names = zipped
        return loader.get_data(f"{loader.archive}/{prefix}{folder}/{name}.json").decode("utf-8")
    return (data_root() / folder / f"{name}.json").read_text(encoding="utf-8")

