"""Xeri Companion run in place: the entry of `flet build apk` / `flet build ipa` (see [tool.flet] in
pyproject.toml) and of the browser build (`make pwa`, which runs it in the browser tab's Python).

On a laptop use `make run` (or `python -m companion`), which serves the app to browsers and phones.
"""

import sys

from companion.ui.inplace import main

if __name__ == "__main__":
    sys.exit(main())
