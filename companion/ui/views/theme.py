"""The Flet theme, light and dark, built from the palette: the colours on screen are the palette's."""

from __future__ import annotations

import flet as ft

from .palette import DARK, LIGHT, Palette

SUIT_FONT = "XeriSuits"
TEXT_STYLES = ("display_large", "display_medium", "display_small", "headline_large", "headline_medium",
               "headline_small", "title_large", "title_medium", "title_small", "body_large", "body_medium",
               "body_small", "label_large", "label_medium", "label_small")


def _scheme(p: Palette) -> ft.ColorScheme:
    roles = ("primary", "on_primary", "primary_container", "on_primary_container", "secondary", "on_secondary",
             "secondary_container", "on_secondary_container", "tertiary", "on_tertiary", "tertiary_container",
             "on_tertiary_container", "error", "on_error", "error_container", "on_error_container", "surface",
             "on_surface", "on_surface_variant", "outline", "outline_variant", "surface_container_low",
             "surface_container", "surface_container_high")
    return ft.ColorScheme(**{role: getattr(p, role) for role in roles},
                          surface_container_lowest=p.surface, surface_container_highest=p.surface_container_high,
                          surface_tint=p.surface)


def fallback_fonts() -> list[str]:
    """The bundled fonts every text falls back on: the suit symbols first, then each script's (`ui.fonts`)."""
    from ..fonts import fallback_families

    return [SUIT_FONT, *fallback_families()]


def text_style(**values) -> ft.TextStyle:
    """A text style that keeps the bundled fallback fonts: a button's own text style replaces the theme's,
    and without them a Korean label on it would be drawn as empty boxes."""
    return ft.TextStyle(font_family_fallback=fallback_fonts(), **values)


def theme(p: Palette) -> ft.Theme:
    """The theme of one palette, with the bundled fonts as every style's fallback."""
    # The colour is named too: a text theme without one leaves dark-theme text black on black.
    fallback = text_style(color=p.on_surface)
    return ft.Theme(color_scheme=_scheme(p), scaffold_bgcolor=p.surface,
                    text_theme=ft.TextTheme(**{name: fallback for name in TEXT_STYLES}))


def themes() -> tuple[ft.Theme, ft.Theme]:
    return theme(LIGHT), theme(DARK)
