"""Fonts for scripts the default font cannot draw, loaded only when a page needs them.

Flutter's web client draws every glyph itself. Offline (`no_cdn=True`) it cannot fetch its Noto
fallbacks, so a script the bundled Roboto lacks shows as empty boxes. Such a script gets a font of its
own in `assets/fonts/`, named in every text style's fallback list from the start (see `views.theme`)
but sent to a browser only when the page shows that language or a name written in that script: a
phone playing in Greek, English or Turkish never downloads the Korean glyphs. See docs/decisions.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class ScriptFont:
    family: str
    pattern: re.Pattern
    """Matches any character of the script."""
    languages: tuple[str, ...]
    """The app languages written in the script: choosing one loads the font at once."""
    web_file: str
    """WOFF2, for the browser (a sixth of the TrueType's size on the wire)."""
    native_file: str
    """TrueType, for the desktop and mobile clients (WOFF2 is not read on every platform)."""


EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u265f\u2668-\u27bf\u2b50\u2b55]")
"""Emoji in a name (the suits ♠♣♥♦, 2660-2667, are XeriSuits'): what XeriEmoji is loaded for."""

SCRIPT_FONTS = (
    ScriptFont("XeriHangul", re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]"), ("ko",),
               "fonts/XeriHangul.woff2", "fonts/XeriHangul.ttf"),
    # Emoji in names (a subset of Noto Emoji, drawn in the text's colour; tools/make_emoji_font.py): offline,
    # Flutter's own fallback for them (Noto Color Emoji from a font CDN) is out of reach, and they were boxes.
    ScriptFont("XeriEmoji", EMOJI, (), "fonts/XeriEmoji.woff2", "fonts/XeriEmoji.ttf"),
)


NAMES_FONT = ("XeriNames", "fonts/XeriNames.ttf")
"""The glyphs of the language names beyond the default font ("한국어", 3 KB), sent to every page: the
language picker names each language in itself whatever the page's language. Made with the script fonts
by `tools/make_hangul_font.py`; `XeriNames.txt` beside it lists what it holds."""


def fallback_families() -> list[str]:
    """The fonts every text style falls back on after the suit symbols: the language names', then each
    script font's (before its file is sent, a family draws nothing)."""
    return [NAMES_FONT[0], *(font.family for font in SCRIPT_FONTS)]


def fonts_needed(lang: str, texts: Iterable[str]) -> list[ScriptFont]:
    """The script fonts that `lang`, or any of `texts`, needs."""
    wanted = [font for font in SCRIPT_FONTS if lang in font.languages]
    rest = [font for font in SCRIPT_FONTS if font not in wanted]
    if rest:
        for text in texts:
            found = [font for font in rest if font.pattern.search(text)]
            wanted += found
            rest = [font for font in rest if font not in found]
            if not rest:
                break
    return wanted
