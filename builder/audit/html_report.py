"""``audit --html OUT.html``: one self-contained page per audit (no network, no scripts): the map with
every finding drawn (builder.audit.mapview, embedded as a PNG data URI) beside a numbered table of
the findings, the cheapest path of each movement finding, the warnings and what is not checked."""

from __future__ import annotations

import base64
from html import escape

from builder.audit.report import _fmt

STYLE = """
body{font-family:DejaVu Sans,Verdana,sans-serif;margin:16px;color:#1e1e1e}
h1{font-size:20px;margin:0 0 4px} h2{font-size:16px;margin:18px 0 6px}
.wrap{display:flex;gap:18px;align-items:flex-start}
.map{flex:3 1 0;min-width:0} .map img{width:100%;height:auto;border:1px solid #444}
.side{flex:2 1 0;min-width:300px}
table{border-collapse:collapse;font-size:13px} td,th{border:1px solid #bbb;padding:3px 6px;vertical-align:top}
th{background:#eee;text-align:left} .n{background:#ffd600;font-weight:bold;text-align:center}
.path{font-size:12px;color:#333} .ok{color:#176317;font-weight:bold} ul{font-size:13px}
"""


def page(results: list, pictures: list[bytes]) -> str:
    """The HTML text for audited files (AuditResult each) with their map pictures (PNG bytes)."""
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>vassal-builder audit</title>", f"<style>{STYLE}</style></head><body>"]
    for r, png in zip(results, pictures):
        n = len(r.findings)
        out.append(f"<h1>{escape(r.file)}</h1>")
        out.append(f"<p>{escape(r.game)}: {r.moves} move(s) over {r.turns_replayed} turn(s), "
                   f"<b>{n} finding{'s' * (n != 1)}</b>.</p>")
        out.append('<div class="wrap">')
        uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        out.append(f'<div class="map"><img alt="map of the findings" src="{uri}"></div>')
        out.append('<div class="side">')
        if not r.findings:
            out.append('<p class="ok">No findings: every checked move is legal.</p>')
        else:
            out.append("<table><tr><th>#</th><th>turn, phase</th><th>side</th><th>unit</th><th>move</th>"
                       "<th>rule</th><th>what is wrong</th><th>entry / command</th></tr>")
            for k, f in enumerate(r.findings, 1):
                when = f"{f.turn if f.turn is not None else '?'}, {f.phase}" if f.phase else str(f.turn)
                rule = escape(f.rule) + (f"<br>{escape(f.reference)}" if f.reference else "")
                msg = escape(f.message) + _path_html(f)
                out.append(f'<tr><td class="n">{k}</td><td>{escape(when)}</td><td>{escape(f.side)}</td>'
                           f"<td>{escape(f.unit)}<br>{escape(f.name)}</td>"
                           f"<td>{escape(f.frm)} &rarr; {escape(f.to)}</td><td>{rule}</td><td>{msg}</td>"
                           f"<td>{f.entry} / {f.command}</td></tr>")
            out.append("</table>")
        if r.warnings:
            out.append("<h2>Warnings</h2><ul>" + "".join(f"<li>{escape(w)}</li>" for w in r.warnings) + "</ul>")
        if r.not_checked:
            out.append("<h2>Not checked</h2><ul>" + "".join(f"<li>{escape(w)}</li>" for w in r.not_checked)
                       + "</ul>")
        out.append("</div></div>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _path_html(f) -> str:
    ex = f.explain or {}
    steps = ex.get("path") or []
    if not steps:
        return ""
    parts = []
    for s in steps:
        if s.get("cost") is None:
            parts.append(escape(s["hex"]))
        else:
            parts.append(f"{escape(s['hex'])} (+{_fmt(s['cost'])} = {_fmt(s['total'])})")
    return (f'<div class="path">cheapest path, allowance {_fmt(ex.get("allowance"))} MP: '
            + " &rarr; ".join(parts) + "</div>")
