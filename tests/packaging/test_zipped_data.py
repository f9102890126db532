"""The shipped data read from a zip, as the browser build imports the app (app.zip, pwa/build.py): the same
names and texts as the checkout's data/, read through the package's zip importer."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

from companion.resources import SHIPPED

ROOT = Path(__file__).resolve().parents[2]


def zipped_app(where: Path) -> Path:
    """The package and its data in a zip laid out as the browser build's stage (`companion/data/<folder>/`),
    with a hidden file and a nested folder that are not shipped data."""
    archive = where / "app.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for path in sorted((ROOT / "companion").rglob("*.py")):
            out.write(path, path.relative_to(ROOT).as_posix())
        for folder in SHIPPED:
            for path in sorted((ROOT / "data" / folder).glob("*.json")):
                out.write(path, f"companion/data/{folder}/{path.name}")
        out.writestr("companion/data/rules/.draft.json", "{}")
        out.writestr("companion/data/rules/old/classic.json", "{}")
    return archive


def test_shipped_data_reads_the_same_from_the_zip_as_from_the_folder(tmp_path):
    archive = zipped_app(tmp_path)
    code = f"""
import json, sys
sys.path.insert(0, {str(archive)!r})
from companion import resources
assert resources.__file__.startswith({str(archive)!r}), resources.__file__
print(json.dumps({{
    "zipped": resources._zipped() is not None,
    "data": {{folder: {{name: resources.read_shipped(folder, name) for name in resources.shipped(folder)}}
             for folder in {list(SHIPPED)!r}}},
}}))
"""
    said = subprocess.run([sys.executable, "-I", "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert said.returncode == 0, said.stderr
    got = json.loads(said.stdout)
    assert got["zipped"]
    assert got["data"] == {folder: {path.stem: path.read_text(encoding="utf-8")
                                    for path in sorted((ROOT / "data" / folder).glob("*.json"))}
                           for folder in SHIPPED}
    assert list(got["data"]["rules"]) == sorted(got["data"]["rules"])
