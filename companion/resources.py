"""Where the shipped data lives: rule sets, translation catalogs and example match files."""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
"""The repository's `data/` folder (the app runs from a checkout, installed in editable mode)."""
