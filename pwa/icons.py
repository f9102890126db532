"""Draw the app's icons: two playing cards fanned on the app's green, the front one marked with a Ξ
(Xeri, Ξερή) and a red diamond (the 10♦ every hand counts), one in each corner as a card's index sits.
Drawn from shapes only: no font, no borrowed artwork.

    .venv/bin/pip install pillow && .venv/bin/python -m pwa.icons      # rewrites the PNGs below

Writes, committed to the repository (the builds only copy them):
  pwa/icons/icon-192.png, icon-512.png            rounded square, for browsers and the install prompt
  pwa/icons/icon-maskable-192.png, -512.png       full bleed, the cards inside the 80 % safe circle
  pwa/icons/apple-touch-icon-180.png              full bleed (iOS rounds the corners itself)
  pwa/icons/favicon-32.png, favicon-48.png        the browser tab
  assets/icon.png                                 1024 px artwork on transparent, for `flet build`
                                                  (which puts it on [tool.flet] icon_background)
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "pwa" / "icons"
GREEN = (0x1B, 0x6B, 0x2F, 255)   # the palette's primary (companion/ui/views/palette.py)
FACE = (0xFF, 0xFF, 0xFF, 255)    # card_face
BACK = (0xB9, 0xF0, 0xBE, 255)    # primary_container: the card behind
RED = (0xA9, 0x1B, 0x1B, 255)     # card_red
EDGE = (0x0F, 0x3D, 0x1B, 90)     # a soft edge between the two cards
SCALE = 4                         # drawn this many times larger, then scaled down: smooth edges


def rotated(points, angle_deg, centre):
    a = math.radians(angle_deg)
    cx, cy = centre
    return [(cx + (x - cx) * math.cos(a) - (y - cy) * math.sin(a), cy + (x - cx) * math.sin(a) + (y - cy) * math.cos(a))
            for x, y in points]


def rounded_rect(x0, y0, x1, y1, r, steps=12):
    """The outline of a rounded rectangle as a polygon (so it can be rotated)."""
    pts = []
    for cx, cy, start in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
        for i in range(steps + 1):
            t = math.radians(start + 90 * i / steps)
            pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
    return pts


def card(draw, centre, w, h, angle, fill, marks: bool, unit: float):
    cx, cy = centre
    outline = rounded_rect(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, w * 0.12)
    shadow = rotated([(x + unit * 0.6, y + unit * 0.9) for x, y in outline], angle, centre)
    draw.polygon(shadow, fill=EDGE)
    draw.polygon(rotated(outline, angle, centre), fill=fill)
    if not marks:
        return
    # Ξ: three bars, the middle one shorter, as the letter is written.
    bar_h = h * 0.10
    for dy, half in ((-0.17, 0.25), (0.02, 0.155), (0.21, 0.25)):
        y = cy + dy * h
        bar = rounded_rect(cx - half * w, y - bar_h / 2, cx + half * w, y + bar_h / 2, bar_h * 0.3)
        draw.polygon(rotated(bar, angle, centre), fill=GREEN)
    # A diamond in the top-left corner.
    for dx, dy in ((cx - w * 0.30, cy - h * 0.375), (cx + w * 0.30, cy + h * 0.375)):
        s = w * 0.095
        diamond = [(dx, dy - s), (dx + s * 0.72, dy), (dx, dy + s), (dx - s * 0.72, dy)]
        draw.polygon(rotated(diamond, angle, centre), fill=RED)


def artwork(size: int, fill_within: float) -> Image.Image:
    """The two cards on transparent, the pair `fill_within` of the image's width across."""
    big = size * SCALE
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    span = big * fill_within
    w, h = span * 0.56, span * 0.78
    unit = big / 100
    card(draw, (big * 0.5 - span * 0.13, big * 0.5 + span * 0.02), w, h, -14, BACK, False, unit)
    card(draw, (big * 0.5 + span * 0.12, big * 0.5 - span * 0.01), w, h, 9, FACE, True, unit)
    return img


def icon(size: int, shape: str) -> Image.Image:
    """`rounded`: a rounded green square with transparent corners; `full`: green to the edges."""
    big = size * SCALE
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if shape == "rounded":
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.22, fill=GREEN)
        cards = artwork(size, 0.80)
    else:
        draw.rectangle((0, 0, big, big), fill=GREEN)
        cards = artwork(size, 0.62)  # within the maskable safe zone (a circle of 80 % of the width)
    img.alpha_composite(cards)
    return img.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    made = {
        OUT / "icon-192.png": icon(192, "rounded"),
        OUT / "icon-512.png": icon(512, "rounded"),
        OUT / "icon-maskable-192.png": icon(192, "full"),
        OUT / "icon-maskable-512.png": icon(512, "full"),
        OUT / "apple-touch-icon-180.png": icon(180, "full").convert("RGB"),
        OUT / "favicon-32.png": icon(32, "rounded"),
        OUT / "favicon-48.png": icon(48, "rounded"),
        ROOT / "assets" / "icon.png": artwork(1024, 0.86).resize((1024, 1024), Image.LANCZOS),
    }
    for path, image in made.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, optimize=True)
        print(f"{path.relative_to(ROOT)}: {image.size[0]}x{image.size[1]}")


if __name__ == "__main__":
    main()
