"""Make companion/ui/views/metrics_data.py: the advance width of every character of Roboto (the web client's
font, as flet-web ships it) in 1/2048 em, so the screens can tell whether a name fits a button before they
draw it (`views.metrics`). Run again when flet-web's Roboto changes:

    .venv/bin/python tools/make_text_metrics.py     # needs `pip install fonttools brotli` (not app dependencies)
"""

from __future__ import annotations

import os
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "companion" / "ui" / "views" / "metrics_data.py"


def main() -> None:
    import flet_web
    from fontTools.ttLib import TTFont

    font = TTFont(os.path.join(flet_web.get_package_web_dir(), "assets", "fonts", "roboto.woff2"))
    scale = 2048 / font["head"].unitsPerEm
    hmtx = font["hmtx"]
    widths = {cp: round(hmtx[glyph][0] * scale) for cp, glyph in sorted(font.getBestCmap().items()) if cp >= 32}
    # Runs of characters as "first:width,width,…" lines: compact, and readable enough to check one by hand.
    lines, run = [], []
    for cp in widths:
        if run and (cp != run[-1] + 1 or len(run) == 16):   # 16 to a line, within the line length
            lines.append(run)
            run = []
        run.append(cp)
    if run:
        lines.append(run)
    body = "\n".join(f"    0x{r[0]:04X}: ({', '.join(str(widths[c]) for c in r)},)," for r in lines)
    OUT.write_text(
        '"""Advance widths of Roboto, the web client\'s font, in 1/2048 em: each key is the first character of a run\n'
        'of consecutive characters, each value their widths in order. Made by tools/make_text_metrics.py."""\n\n'
        f"RUNS: dict[int, tuple[int, ...]] = {{\n{body}\n}}\n", encoding="utf-8")
    print(f"{OUT}: {len(widths)} characters in {len(lines)} runs")


if __name__ == "__main__":
    main()
