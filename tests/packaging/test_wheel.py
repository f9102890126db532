"""The built wheel works away from the checkout: rules, catalogs and fonts travel inside the package.

The wheel is built from a copy of the repository's files (what a fresh clone has), installed with its
dependencies into a fresh venv in a temporary folder, and run from there. It needs pip to reach the
package index (or its cache), as `make setup` does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ("classic", "plain", "greek-online", "partnership", "pisti")
EXAMPLES = sorted((ROOT / "data" / "examples").glob("*.json"))


def repository_files() -> list[str]:
    """The files a fresh clone has (tracked), plus new ones not ignored (this working tree's additions)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                         capture_output=True, check=True).stdout.decode()
    return [name for name in out.split("\0") if name and (ROOT / name).is_file()]


BUILD_SAID: list[str] = []
"""What building the wheel printed (`installed`)."""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv, outside the checkout, with the wheel built from the repository's files installed."""
    if shutil.which("git") is None:
        pytest.skip("needs git to list the repository's files")
    base = tmp_path_factory.mktemp("wheel")
    source, wheels, venv = base / "source", base / "wheels", base / "venv"
    for name in repository_files():
        if name.startswith(("docs/screenshots/", "tests/")):
            continue  # not part of the package; saves copying megabytes
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    built = subprocess.run(pip + ["wheel", "--no-deps", "-w", str(wheels), str(source)], check=True,
                           capture_output=True, text=True)
    BUILD_SAID.append(built.stdout + built.stderr)
    wheel = next(wheels.glob("xeri_companion-*.whl"))
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    str(wheel)], check=True, capture_output=True)
    return venv


def run_installed(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8", timeout=120)


def test_the_wheel_carries_every_rule_set_catalog_and_font_of_the_repository(installed, tmp_path):
    code = ("import json; from importlib.resources import files; import companion;"
            "pkg = files('companion');"
            "print(json.dumps({'rules': sorted(p.name for p in (pkg / 'data' / 'rules').iterdir()),"
            " 'i18n': sorted(p.name for p in (pkg / 'data' / 'i18n').iterdir()),"
            " 'fonts': sorted(p.name for p in (pkg / 'ui' / 'assets' / 'fonts').iterdir()),"
            " 'file': companion.__file__}))")
    out = run_installed(installed, str(installed / "bin" / "python"), "-c", code, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found["file"].startswith(str(installed)), "companion came from the checkout, not the wheel"
    assert found["rules"] == sorted(p.name for p in (ROOT / "data" / "rules").iterdir())
    assert found["i18n"] == sorted(p.name for p in (ROOT / "data" / "i18n").iterdir())
    assert found["fonts"] == sorted(p.name for p in (ROOT / "companion" / "ui" / "assets" / "fonts").iterdir())


@pytest.mark.parametrize("rules", PRESETS)
def test_the_installed_command_scores_the_examples_with_each_preset_as_the_checkout_does(installed, tmp_path, rules):
    scored = 0
    for example in EXAMPLES:
        copy = tmp_path / example.name
        shutil.copy2(example, copy)
        got = run_installed(installed, str(installed / "bin" / "xeri-companion"), "score", str(copy),
                            "--rules", rules, cwd=tmp_path)
        want = subprocess.run([sys.executable, "-m", "companion", "score", str(copy), "--rules", rules], cwd=ROOT,
                              capture_output=True, text=True, encoding="utf-8",
                              env={**os.environ, "PYTHONIOENCODING": "utf-8"})
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr), example.name
        assert "there are no" not in got.stderr  # the preset itself was found
        scored += got.returncode == 0
    # Every preset but Pişti (whose deck differs from every example's) scores at least one example.
    assert scored >= (0 if rules == "pisti" else 1)


def test_the_installed_app_module_imports_and_speaks_greek(installed, tmp_path):
    code = ("import json, companion.ui.app, companion.ui.inplace; from companion.i18n import t;"
            "from companion.formats.presets import preset_names;"
            "print(json.dumps([t('app.title', 'el'), list(preset_names())]))")
    out = run_installed(installed, str(installed / "bin" / "python"), "-c", code, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    greek = json.loads((ROOT / "data" / "i18n" / "el.json").read_text(encoding="utf-8"))["app.title"]
    assert json.loads(out.stdout) == [greek, list(PRESETS)]


def test_every_package_of_the_app_is_listed_for_the_wheel():
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "companion").rglob("__init__.py")}
    # and the folders of data, as packages of data (companion.data is data/, outside the package's folder)
    data = {"companion.data", *(f"companion.data.{name}" for name in ("rules", "i18n")),
            *(".".join(d.relative_to(ROOT).parts) for d in (ROOT / "companion" / "ui" / "assets").rglob("*")
              if d.is_dir()), "companion.ui.assets"}
    assert found | data == listed


def test_an_install_says_nothing_that_reads_as_broken(installed):
    # Every install printed two 40-line setuptools warnings ("Package 'companion.ui.assets.fonts' is absent
    # from the `packages` configuration"): a newcomer took it for a broken install.
    assert BUILD_SAID and "absent from the `packages` configuration" not in BUILD_SAID[0]
    assert "Warning" not in BUILD_SAID[0], BUILD_SAID[0][-2000:]


def test_the_wheel_names_its_licence_and_carries_it(installed, tmp_path):
    code = ("import json; from importlib.metadata import distribution as d; m = d('xeri-companion');"
            "print(json.dumps([m.metadata['License-Expression'], any(f.name == 'LICENSE' for f in m.files)]))")
    out = run_installed(installed, str(installed / "bin" / "python"), "-c", code, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == ["MIT", True]


def test_a_copy_of_the_data_left_inside_a_checkouts_package_never_wins(tmp_path, monkeypatch):
    # A browser-build staging or an old build left companion/data/ in the checkout (it is ignored by git):
    # the checkout's data/ is still what the app reads, so an edited catalog is never hidden by a stale one.
    import companion.resources as resources

    assert resources.data_root() == resources.CHECKOUT_DATA
    stale = tmp_path / "companion"
    (stale / "data" / "rules").mkdir(parents=True)
    monkeypatch.setattr(resources, "files", lambda _package: stale)
    assert resources.data_root() == resources.CHECKOUT_DATA
    monkeypatch.setattr(resources, "CHECKOUT_DATA", tmp_path / "elsewhere" / "data")   # installed: no checkout
    assert resources.data_root() == stale / "data"
