"""The QR code of the join link, as SVG text and as a base64 PNG, for the owner's screen.

segno is imported when a code is first drawn, not with the app: no start-up screen shows one, and in the browser
build every module imported at start costs the first visit (issue #27)."""

from __future__ import annotations

import base64
import io

from .access import TableInfo


def table_info(url: str, code: str) -> TableInfo:
    """How phones join: the address, the code, and the QR code of the address with the code in it."""
    import segno

    join_url = f"{url}?code={code}"
    qr = segno.make(join_url, error="m")
    svg = io.BytesIO()
    # omitsize: a viewBox instead of width/height and a scale() transform, which Flet's SVG renderer draws
    # with hairline modules; a white background keeps it scannable on the dark theme.
    qr.save(svg, kind="svg", border=2, xmldecl=False, omitsize=True, light="#fff")
    png = io.BytesIO()
    qr.save(png, kind="png", scale=8, border=2)
    # base64 text, not bytes: on a plain-HTTP LAN address (not a secure context) Chromium shows PNG bytes
    # handed to an image as nothing at all, and a base64 string fine.
    return TableInfo(url=url, code=code, join_url=join_url, qr_svg=svg.getvalue().decode("utf-8"),
                     qr_png=base64.b64encode(png.getvalue()).decode("ascii"))


def terminal_qr(text: str) -> str:
    """The QR code of `text` drawn with block characters, for a console (a laptop without a browser)."""
    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def qr_png(text: str) -> str:
    """The QR code of `text` as a base64 PNG (see `table_info` for why base64), big enough to scan across a table."""
    import segno

    png = io.BytesIO()
    segno.make(text, error="m").save(png, kind="png", scale=8, border=2)
    return base64.b64encode(png.getvalue()).decode("ascii")
