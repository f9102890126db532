"""The engine stays pure: importing it loads neither flet nor tinydb (nor os-level services)."""

import subprocess
import sys


def test_importing_the_engine_loads_neither_flet_nor_tinydb():
    code = (
        "import sys, companion.engine, companion.matchfile, companion.sheet;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('flet', 'tinydb', 'flet_web', 'filelock'));"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_engine_modules_import_no_os_time_or_random():
    import ast
    from pathlib import Path

    engine = Path(__file__).resolve().parent.parent / "companion" / "engine"
    forbidden = {"os", "time", "random", "flet", "tinydb"}
    for path in engine.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"
