"""Readable at arm's length: every text/background pair of both themes meets WCAG AA, and the screens take
their colours from the palette or the theme's roles, never a fixed colour of their own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.ui.views.palette import DARK, LIGHT, contrast, readable_pairs

VIEWS = Path(__file__).resolve().parents[2] / "companion" / "ui" / "views"


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_every_text_and_background_pair_meets_wcag_aa(palette):
    weak = [f"{what}: {fg} on {bg} is {contrast(fg, bg):.2f}:1, needs {least}:1"
            for what, fg, bg, least in readable_pairs(palette) if contrast(fg, bg) < least]
    assert weak == []


def test_the_contrast_formula_matches_wcag_examples():
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)
    assert contrast("#FFFFFF", "#FFFFFF") == pytest.approx(1.0)


def test_the_screens_use_no_fixed_colour_outside_the_palette():
    fixed = re.compile(r"ft\.Colors\.(?!ON_|PRIMARY|SECONDARY|TERTIARY|ERROR|SURFACE|OUTLINE|TRANSPARENT)[A-Z_]+")
    found = [f"{path.name}: {m.group(0)}" for path in VIEWS.glob("*.py")
             for m in fixed.finditer(path.read_text(encoding="utf-8"))]
    assert found == []
