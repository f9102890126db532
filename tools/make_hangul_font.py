"""Make companion/ui/assets/fonts/XeriHangul.{woff2,ttf}: the Hangul of NanumGothic, renamed as its licence asks;
and XeriNames.ttf, the few glyphs the language picker needs ("한국어"), small enough to load on every page.

Needs Debian's `fonts-nanum` and `pip install fonttools brotli` (not app dependencies). Run from the repo:

    python tools/make_hangul_font.py [/usr/share/fonts/truetype/nanum/NanumGothic.ttf]

NanumGothic is under the SIL Open Font License 1.1 with Reserved Font Names ("Nanum", "NanumGothic", …): a
subset is a Modified Version and may not carry them, so it is renamed XeriHangul (the licence text is kept
beside it as XeriHangul-LICENSE.txt).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FONTS = Path(__file__).resolve().parent.parent / "companion" / "ui" / "assets" / "fonts"
HANGUL = "U+1100-11FF,U+3000-3011,U+3131-318E,U+AC00-D7A3,U+FF01-FF60"
"""Jamo, CJK punctuation, compatibility Jamo, all 11,172 syllables, fullwidth forms. Hangul only: the font is a
fallback, so Latin (Turkish ğ ı İ ş included) stays in the theme's own font."""
FAMILY = "XeriHangul"
NOTE = ("XeriHangul is a subset of NanumGothic (c) 2010 NAVER Corporation, made for Xeri Companion; "
        "licensed under the SIL Open Font License 1.1. Not the original NanumGothic.")


def rename(path: Path, family: str = FAMILY) -> None:
    """Replace every name that carries a Reserved Font Name; say where the font comes from."""
    from fontTools.ttLib import TTFont

    font = TTFont(path)
    name = font["name"]
    for record in list(name.names):
        if record.nameID in (1, 3, 4, 6, 16, 17, 18, 21, 22):
            name.removeNames(nameID=record.nameID)
    for nid, value in ((1, family), (2, "Regular"), (3, f"{family}-Regular;subset"), (4, f"{family} Regular"),
                       (6, f"{family}-Regular"), (5, "Version 1.0; subset of NanumGothic 3.020"),
                       (10, NOTE.replace(FAMILY, family)),
                       (13, "This Font Software is licensed under the SIL Open Font License, Version 1.1."),
                       (14, "https://openfontlicense.org")):
        name.setName(value, nid, 3, 1, 0x409)
        name.setName(value, nid, 1, 0, 0)
    font.save(path)


def names_text() -> str:
    """The Hangul of the language names (`companion.i18n.LANGUAGES`): what XeriNames must draw."""
    sys.path.insert(0, str(FONTS.parents[3]))
    from companion.i18n import LANGUAGES
    from companion.ui.fonts import SCRIPT_FONTS

    return "".join(sorted({ch for name in LANGUAGES.values() for ch in name
                           if any(font.pattern.match(ch) for font in SCRIPT_FONTS)}))


def main(source: str = "/usr/share/fonts/truetype/nanum/NanumGothic.ttf") -> None:
    common = ["--layout-features=*", "--no-hinting", "--drop-tables+=TSI0,TSI1,TSI2,TSI3,TSI5", "--name-IDs=*",
              "--name-languages=*"]
    for flavor, out in ((None, FONTS / f"{FAMILY}.ttf"), ("woff2", FONTS / f"{FAMILY}.woff2")):
        args = [sys.executable, "-m", "fontTools.subset", source, f"--unicodes={HANGUL}", *common,
                f"--output-file={out}"] + ([f"--flavor={flavor}"] if flavor else [])
        subprocess.run(args, check=True)
        rename(out)
        print(out, out.stat().st_size, "bytes")
    # The language picker names Korean in Korean on every phone; a page in another language has not
    # loaded XeriHangul, so these few glyphs come in a font of their own (a TrueType: every client reads it).
    text = names_text()
    out = FONTS / "XeriNames.ttf"
    subprocess.run([sys.executable, "-m", "fontTools.subset", source, f"--text={text}", *common,
                    f"--output-file={out}"], check=True)
    rename(out, "XeriNames")
    (FONTS / "XeriNames.txt").write_text(text + "\n", encoding="utf-8")
    print(out, out.stat().st_size, "bytes, for", text)


if __name__ == "__main__":
    main(*sys.argv[1:])
