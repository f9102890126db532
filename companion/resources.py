"""Where the shipped data lives: rule sets, translation catalogs (and, in a checkout, example match files).

The repository's top-level `data/` folder is the one source. A built wheel (and the browser build)
carries a copy of `data/rules/` and `data/i18n/` inside the package, as `companion/data/` (made by
`setup.py` when the wheel is built, every file in those folders), read here with `importlib.resources`
so the installed app needs no checkout. A checkout, an editable install and a `flet build` of the
project folder read `data/` itself. See docs/decisions.md ("Shipped data").
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

PACKAGED = "data"
"""The folder inside the package that a wheel's build fills from the checkout's `data/`."""
SHIPPED = ("rules", "i18n")
"""The folders of `data/` that the app reads and a wheel therefore carries."""
CHECKOUT_DATA = Path(__file__).resolve().parent.parent / "data"
"""The repository's `data/` folder, when the app runs from a checkout."""


def data_root() -> Traversable:
    """The shipped data: the package's own copy when it has one (a wheel, the browser build's zip),
    else the checkout's `data/`."""
    packaged = files(__package__) / PACKAGED
    if (packaged / SHIPPED[0]).is_dir():
        return packaged
    return CHECKOUT_DATA


DATA_DIR: Traversable = data_root()
"""The folder holding `rules/` and `i18n/` (and, in a checkout, `examples/`)."""


def json_files(folder: Traversable) -> dict[str, Traversable]:
    """Every `*.json` in `folder` by its name without the suffix: whatever files the folder holds."""
    if not folder.is_dir():
        return {}
    return {entry.name[: -len(".json")]: entry for entry in folder.iterdir()
            if entry.name.endswith(".json") and not entry.name.startswith(".") and entry.is_file()}
