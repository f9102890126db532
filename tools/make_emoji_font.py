"""Make companion/ui/assets/fonts/XeriEmoji.{woff2,ttf}: the emoji people put in their names, from Noto Emoji
(the monochrome one, drawn in the text's colour), so a name such as "Mia 🐱" is drawn offline, not as a box.

Noto Emoji is under the SIL Open Font License 1.1. It comes from npm's `@fontsource/noto-emoji` (its
`files/noto-emoji-emoji-400-normal.woff2`: every emoji, regular weight), fetched with npm's own client:

    npm pack @fontsource/noto-emoji && tar xzf fontsource-noto-emoji-*.tgz
    .venv/bin/python tools/make_emoji_font.py package/files/noto-emoji-emoji-400-normal.woff2

Needs `pip install fonttools brotli` (not app dependencies). What is kept (`NAMES`): faces and feelings,
hearts, hands and people, animals and plants, food, games and sport, stars and weather, and flags, with
their sequences (skin tones, joined emoji, flags of countries and regions): 711 characters, about 260 KB as
WOFF2 (the whole font is 470 KB). Symbols, objects, transport and the like are left out. No Latin, digits
or suits: as a fallback the font would otherwise take them from Roboto and XeriSuits.
"""

from __future__ import annotations

import sys
from pathlib import Path

FONTS = Path(__file__).resolve().parent.parent / "companion" / "ui" / "assets" / "fonts"
FAMILY = "XeriEmoji"
NOTE = ("XeriEmoji is a subset of Noto Emoji (c) Google LLC, made for Xeri Companion; licensed under the SIL Open "
        "Font License 1.1. Not the original Noto Emoji.")


def _r(a: int, b: int) -> list[int]:
    return list(range(a, b + 1))


NAMES = sorted(set(
    # faces and feelings, hearts
    _r(0x1F600, 0x1F64F) + _r(0x1F910, 0x1F92F) + _r(0x1F970, 0x1F97A) + [0x1F9D0] + _r(0x1FAE0, 0x1FAE8)
    + [0x2639, 0x263A, 0x2620] + _r(0x1F479, 0x1F480) + [0x1F4A9, 0x1F916, 0x2763, 0x2764] + _r(0x1F48B, 0x1F49F)
    + [0x1F5A4, 0x1F90D, 0x1F90E, 0x1F9E1] + _r(0x1FA75, 0x1FA77) + _r(0x1F4A2, 0x1F4AF)
    # hands and people
    + _r(0x1F440, 0x1F450) + [0x1F590, 0x1F595, 0x1F596] + _r(0x270A, 0x270D) + [0x261D] + _r(0x1F918, 0x1F91F)
    + [0x1F4AA] + _r(0x1FAF0, 0x1FAF8) + _r(0x1F466, 0x1F478) + _r(0x1F481, 0x1F487) + _r(0x1F9D1, 0x1F9DF)
    # animals, plants, sky and weather
    + _r(0x1F400, 0x1F43F) + _r(0x1F980, 0x1F9AE) + _r(0x1FAB0, 0x1FABD) + _r(0x1F330, 0x1F344) + [0x1F490, 0x1F940]
    + [0x1F308] + _r(0x2600, 0x2604) + [0x26C4, 0x2B50, 0x1F31F, 0x1F320] + _r(0x1F319, 0x1F31E)
    + [0x2728, 0x26A1, 0x1F525, 0x1F4A7, 0x1F30A]
    # food and drink
    + _r(0x1F345, 0x1F37F) + _r(0x1F950, 0x1F96F) + _r(0x1F9C0, 0x1F9CB) + _r(0x1FAD0, 0x1FADB) + [0x2615]
    + _r(0x1F32D, 0x1F32F)
    # games, sport, celebrations
    + _r(0x1F380, 0x1F393) + _r(0x1F396, 0x1F3CA) + _r(0x1F3CF, 0x1F3D3) + [0x1F3F8, 0x1F3F9, 0x26BD, 0x26BE, 0x26F3]
    + [0x26F8, 0x1F0CF, 0x1F004, 0x1F3B4, 0x265F] + _r(0x1F93A, 0x1F94F) + _r(0x1FA80, 0x1FA88)
    + [0x1F9E9, 0x1F9F8, 0x1F451, 0x1F48E, 0x1F3C6, 0x1F3C5]
    # flags (regional indicator pairs, tag sequences), and what joins emoji into sequences
    + _r(0x1F1E6, 0x1F1FF) + [0x1F3F3, 0x1F3F4, 0x1F6A9, 0x1F3C1] + _r(0xE0020, 0xE007F) + [0x200D, 0xFE0F, 0x20E3]
    + _r(0x1F3FB, 0x1F3FF)
))
"""What the font keeps; `companion.ui.fonts` loads it for a name holding any of these."""


def rename(font) -> None:
    name = font["name"]
    for record in list(name.names):
        if record.nameID in (1, 3, 4, 6, 16, 17, 18, 21, 22):
            name.removeNames(nameID=record.nameID)
    for nid, value in ((1, FAMILY), (2, "Regular"), (3, f"{FAMILY}-Regular;subset"), (4, f"{FAMILY} Regular"),
                       (6, f"{FAMILY}-Regular"), (5, "Version 1.0; subset of Noto Emoji"), (10, NOTE),
                       (13, "This Font Software is licensed under the SIL Open Font License, Version 1.1."),
                       (14, "https://openfontlicense.org")):
        name.setName(value, nid, 3, 1, 0x409)
        name.setName(value, nid, 1, 0, 0)


def main(source: str) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    available = set(TTFont(source).getBestCmap())
    wanted = [cp for cp in NAMES if cp in available]
    for flavor, out in ((None, FONTS / f"{FAMILY}.ttf"), ("woff2", FONTS / f"{FAMILY}.woff2")):
        font = TTFont(source)
        options = subset.Options()
        options.layout_features = ["*"]
        options.drop_tables += ["vhea", "vmtx", "STAT"]
        options.hinting = False
        options.name_IDs = ["*"]
        options.name_languages = ["*"]
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=wanted)
        subsetter.subset(font)
        rename(font)
        font.flavor = flavor
        font.save(out)
        print(f"{out.name}: {len(wanted)} characters, {len(font.getGlyphOrder())} glyphs, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1])
