"""HTML building blocks for the web viewer: escaping, layout, tables, badges and the score chart.

Everything shown is escaped here, in one place: agents' replies and notes are untrusted text. The
pages carry a strict Content-Security-Policy (scripts and styles from this server only, no inline
script or style), so even a missed escape could not run code; the SVG chart is drawn inline with
presentation attributes only.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlencode

CSP = ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


class Markup(str):
    """Text that is already HTML (built here from escaped parts); everything else gets escaped.

    Adding plain text to Markup escapes the text, so concatenation is safe by default.
    """

    def __add__(self, other: Any) -> Markup:
        return Markup(str.__add__(self, e(other)))

    def __radd__(self, other: Any) -> Markup:
        return Markup(str.__add__(e(other), self))


def e(value: Any) -> Markup:
    """Escape anything for HTML text or a quoted attribute; Markup passes through."""
    if isinstance(value, Markup):
        return value
    if value is None:
        return Markup("&ndash;")
    if isinstance(value, bool):
        value = "true" if value else "false"
    elif isinstance(value, float):
        value = f"{value:.4f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.1f}"
    elif not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)
    return Markup(html.escape(value, quote=True))


def join(parts: Iterable[Any], sep: str = "") -> Markup:
    return Markup(sep.join(e(p) for p in parts))


VOID = frozenset({"input", "meta", "link", "br", "img"})


def tag(element: str, content: Any = "", /, **attrs: Any) -> Markup:
    """``<element attrs>content</element>``; attribute names use ``_`` for ``-`` and a trailing
    ``_`` for Python keywords (``class_``). None and False attributes are left out."""
    rendered = "".join(
        f' {k.rstrip("_").replace("_", "-")}' + ("" if v is True else f'="{e(v)}"')
        for k, v in attrs.items() if v is not None and v is not False)
    if element in VOID:
        return Markup(f"<{element}{rendered}>")
    return Markup(f"<{element}{rendered}>{e(content)}</{element}>")


def link(href: str, text: Any, **attrs: Any) -> Markup:
    return tag("a", text, href=href, **attrs)


def url(path: str, **params: Any) -> str:
    query = urlencode({k: v for k, v in params.items() if v not in (None, "")})
    return f"{path}?{query}" if query else path


def table(columns: Sequence[str], rows: Iterable[Sequence[Any]], *, class_: str = "grid",
          row_attrs: Iterable[dict[str, Any]] | None = None) -> Markup:
    head = tag("thead", tag("tr", join(tag("th", c) for c in columns)))
    attrs_list = list(row_attrs) if row_attrs is not None else None
    body_rows = []
    for index, row in enumerate(rows):
        attrs = attrs_list[index] if attrs_list is not None else {}
        body_rows.append(tag("tr", join(tag("td", cell) for cell in row), **attrs))
    return tag("table", head + tag("tbody", join(body_rows)), class_=class_)


def badge(text: str, kind: str, **attrs: Any) -> Markup:
    return tag("span", text, class_=f"badge badge-{kind}", **attrs)


def signed(value: float | None) -> Markup:
    if value is None:
        return e(None)
    kind = "pos" if value > 0 else "neg" if value < 0 else "zero"
    text = f"{value:+.4f}".rstrip("0").rstrip(".") if value else "0"
    return tag("span", text, class_=f"reward reward-{kind}")


def score_meter(score: float) -> Markup:
    return Markup(tag("meter", "", value=f"{score:.4f}", min="0", max="1", low="0.5", high="0.8",
                      optimum="1") + " " + e(score))


def page(title: str, body: Any, *, nav: Sequence[tuple[str, str]] = ()) -> str:
    """A whole document: head with our stylesheet and script, header with navigation, then body."""
    crumbs = join([link("/ui", "Episodes"), " · ", link("/ui/runs", "Runs")]
                  + [item for href, text in nav for item in (" · ", link(href, text))])
    head = (Markup('<meta charset="utf-8">')
            + Markup('<meta name="viewport" content="width=device-width, initial-scale=1">')
            + tag("title", f"{title} · TicketLedger")
            + Markup('<link rel="stylesheet" href="/ui/static/style.css">')
            + Markup('<script src="/ui/static/app.js" defer></script>'))
    header = tag("header", tag("strong", "TicketLedger audit") + " " + tag("nav", crumbs))
    body_html = header + tag("main", tag("h1", title) + e(body))
    return Markup("<!doctype html>\n") + tag("html", tag("head", head) + tag("body", body_html), lang="en")


def score_chart(points: Sequence[tuple[int, float]], *, width: int = 640, height: int = 200,
                divergent: set[int] | None = None) -> Markup:
    """An inline SVG line chart of the running score by step (step 0 = reset, score 0)."""
    pad_l, pad_r, pad_t, pad_b = 40, 16, 12, 28
    steps = max((s for s, _ in points), default=1) or 1
    inner_w, inner_h = width - pad_l - pad_r, height - pad_t - pad_b

    def xy(step: int, score: float) -> tuple[float, float]:
        clamped = min(1.0, max(0.0, score))
        return (round(pad_l + inner_w * step / steps, 1), round(pad_t + inner_h * (1 - clamped), 1))

    parts = []
    for level in (0.0, 0.5, 1.0):
        _, y = xy(0, level)
        parts.append(Markup(f'<line class="grid-line" x1="{pad_l}" x2="{width - pad_r}" y1="{y}" y2="{y}"/>'))
        parts.append(tag("text", f"{level:.1f}", x=str(pad_l - 6), y=str(y + 4), class_="axis",
                         text_anchor="end"))
    coords = [xy(s, v) for s, v in points]
    if coords:
        path = " ".join(f"{x},{y}" for x, y in coords)
        parts.append(Markup(f'<polyline class="score-line" points="{path}"/>'))
    for (step, value), (x, y) in zip(points, coords, strict=True):
        kind = "point bad" if divergent and step in divergent else "point"
        parts.append(tag("circle", tag("title", f"step {step}: score {value}"), cx=str(x), cy=str(y),
                         r="4", class_=kind, data_step=str(step)))
        parts.append(tag("text", str(step), x=str(x), y=str(height - 8), class_="axis",
                         text_anchor="middle"))
    return tag("svg", join(parts), class_="chart", id="score-chart", viewBox=f"0 0 {width} {height}",
               width=str(width), height=str(height), role="img",
               aria_label="running score by step", xmlns="http://www.w3.org/2000/svg")
