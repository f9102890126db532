"""Importing the app with some top-level packages made impossible to import, in a Python of its own: what the
browser build does at its start when those packages (or standard library parts) are not shipped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def import_without(blocked: list[str], why: str, modules: str) -> subprocess.CompletedProcess:
    """Run `import {modules}` with every module under the top-level names `blocked` refused (`why` in the error)."""
    script = f"""
import importlib.abc, sys
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {sorted(blocked)!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} ({why})")
        return None
sys.meta_path.insert(0, Refuse())
import {modules}
"""
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
