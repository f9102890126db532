"""The app's colours, light and dark, named by role, with every text/background pair that must be readable.

The theme is built from these (not seeded), so the colours on screen are the ones written here and a
test can check each pair against WCAG AA: 4.5:1 for text, 3:1 for large text (24 px, or 18.5 px bold).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Palette:
    """One theme's colours (hex)."""

    dark: bool
    surface: str
    on_surface: str
    on_surface_variant: str
    surface_container_low: str
    surface_container: str
    surface_container_high: str
    outline: str
    outline_variant: str
    primary: str
    on_primary: str
    primary_container: str
    on_primary_container: str
    secondary: str
    on_secondary: str
    secondary_container: str
    on_secondary_container: str
    tertiary: str
    on_tertiary: str
    tertiary_container: str
    on_tertiary_container: str
    error: str
    on_error: str
    error_container: str
    on_error_container: str
    sides: tuple[str, str, str, str]
    """Each side's colour as text on the surfaces, and as the fill of its buttons."""
    on_sides: str
    """Text on a side-coloured fill."""
    side_tints: tuple[str, str, str, str]
    """A pale wash of each side's colour, behind card faces held by that side (text on it: `on_surface`)."""
    red_suit: str
    """♦ and ♥ on the surfaces."""
    card_face: str
    """A playing card's face."""
    card_ink: str
    """Black suits and ranks on a card face."""
    card_red: str
    """Red suits and ranks on a card face."""


LIGHT = Palette(
    dark=False,
    surface="#F6FBF3", on_surface="#171D17", on_surface_variant="#3E4A3E",
    surface_container_low="#EEF5EC", surface_container="#E6EEE4", surface_container_high="#DCE6DA",
    outline="#6B776A", outline_variant="#BDC9BB",
    primary="#1B6B2F", on_primary="#FFFFFF", primary_container="#B9F0BE", on_primary_container="#002109",
    secondary="#4A5F4D", on_secondary="#FFFFFF", secondary_container="#CFE6CF", on_secondary_container="#0B1F10",
    tertiary="#2F5F6A", on_tertiary="#FFFFFF", tertiary_container="#C3E9F3", on_tertiary_container="#001F25",
    error="#B3261E", on_error="#FFFFFF", error_container="#F9DEDC", on_error_container="#410E0B",
    sides=("#1259B3", "#B3390B", "#7B1FA2", "#00695C"), on_sides="#FFFFFF",
    side_tints=("#DCEAFB", "#FCE5DB", "#F0E1F6", "#D5EFEA"),
    red_suit="#A91B1B", card_face="#FFFFFF", card_ink="#111111", card_red="#A91B1B",
)

DARK = Palette(
    dark=True,
    surface="#0F1510", on_surface="#E0E6DC", on_surface_variant="#BFCABD",
    surface_container_low="#171D18", surface_container="#1C221C", surface_container_high="#262D26",
    outline="#8A9589", outline_variant="#3F4A3F",
    primary="#9ED7A3", on_primary="#00391A", primary_container="#0F5226", on_primary_container="#C2F5C6",
    secondary="#B4CCB4", on_secondary="#1F3523", secondary_container="#354B39", on_secondary_container="#D2E8D2",
    tertiary="#A2CED9", on_tertiary="#00363F", tertiary_container="#1F4D57", on_tertiary_container="#C6EDF7",
    error="#F2B8B5", on_error="#601410", error_container="#8C1D18", on_error_container="#FCE4E2",
    sides=("#8EC3FF", "#FFAC8A", "#D9A6EC", "#7FD6C8"), on_sides="#0B0F14",
    side_tints=("#DCEAFB", "#FCE5DB", "#F0E1F6", "#D5EFEA"),
    red_suit="#FF8A80", card_face="#F4F4F4", card_ink="#111111", card_red="#A91B1B",
)


def palette(dark: bool) -> Palette:
    return DARK if dark else LIGHT


def readable_pairs(p: Palette) -> list[tuple[str, str, str, float]]:
    """(what, text colour, background colour, least contrast) for every pairing the screens use."""
    text_on = [p.surface, p.surface_container_low, p.surface_container, p.surface_container_high]
    pairs = []
    for bg in text_on:
        pairs += [("text", p.on_surface, bg, 4.5), ("secondary text", p.on_surface_variant, bg, 4.5),
                  ("primary text (outlined buttons, links)", p.primary, bg, 4.5),
                  ("error text", p.error, bg, 4.5), ("red suit", p.red_suit, bg, 4.5)]
        pairs += [(f"side {i + 1} text", side, bg, 4.5) for i, side in enumerate(p.sides)]
    pairs += [
        ("filled button", p.on_primary, p.primary, 4.5),
        ("primary container", p.on_primary_container, p.primary_container, 4.5),
        ("secondary container (notices)", p.on_secondary_container, p.secondary_container, 4.5),
        ("tertiary container (questions, events)", p.on_tertiary_container, p.tertiary_container, 4.5),
        ("error container (problems)", p.on_error_container, p.error_container, 4.5),
        ("card face", p.card_ink, p.card_face, 4.5), ("card face, red", p.card_red, p.card_face, 4.5),
    ]
    pairs += [(f"side {i + 1} button", p.on_sides, side, 4.5) for i, side in enumerate(p.sides)]
    pairs += [(f"held card tint {i + 1}", p.card_ink, tint, 4.5) for i, tint in enumerate(p.side_tints)]
    pairs += [(f"held card tint {i + 1}, red", p.card_red, tint, 4.5) for i, tint in enumerate(p.side_tints)]
    return pairs


def contrast(fg: str, bg: str) -> float:
    """The WCAG 2 contrast ratio of two sRGB colours given as #RRGGBB."""
    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)
