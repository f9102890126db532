"""Build hook: a wheel carries the app's shipped data inside the package (see companion/resources.py).

`data/rules/` and `data/i18n/` stay the one source in the repository; building a wheel copies every
file in them to `companion/data/` in the wheel, where the app reads them with importlib.resources.
An editable install reads the checkout's `data/` directly, so nothing is copied for it. All other
settings are in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = ("rules", "i18n")  # the same folders as companion.resources.SHIPPED


class BuildPyWithData(build_py):
    """`build_py`, then every file of data/rules/ and data/i18n/ into the built package's data/."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in SHIPPED:
            source = ROOT / "data" / name
            target = Path(self.build_lib) / "companion" / "data" / name
            if target.exists():
                shutil.rmtree(target)
            target.mkdir(parents=True)
            for path in sorted(source.iterdir()):
                if path.is_file() and not path.name.startswith("."):
                    shutil.copy2(path, target / path.name)


setup(cmdclass={"build_py": BuildPyWithData})
