"""Chart windows from the data: the terrain effects chart (the map's terrain and hexside types), the
sequence of play (the game's player-turns and phases), and the turn record (the calendar with its
dates and events). Each chart is an image drawn here with Pillow and the shipped font, so equal data
give equal bytes; a chart the data cannot give is not invented. A combat results table is the data's
(``combat_results``), its authored parts shown as such on the chart.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from builder import buildcache
from builder.render import fonts
from builder.render.counter_build import png_bytes
from builder.render.map_style import draw_pattern, rgba
from builder.vassal.buildfile import P

from .deploy import movement_class

INK, RULE, HEAD, BG = (20, 20, 20), (150, 150, 150), (228, 222, 205), (255, 255, 255)
PAD, LINE = 8, 18
MAX_CELL = 420              # a cell wider than this wraps


def _wrap(draw, text: str, font, width: int) -> list[str]:
    out = []
    for para in str(text).split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if line and draw.textlength(trial, font=font) > width:
                out.append(line)
                line = word
            else:
                line = trial
        out.append(line)
    return out or [""]


def table_image(title: str, header: list[str], rows: list[list], note: str = "") -> bytes:
    """A table: ``rows`` of cells, each a string or (swatch colour, pattern, text) for a terrain sample.
    In a build it is cached under what it shows: every module build would draw it again."""
    key = buildcache.digest("chart-table", buildcache.source_version("module/charts.py", "render"),
                            title, header, rows, note)
    return buildcache.current().cached(None, key, lambda: _draw_table(title, header, rows, note))


def _draw_table(title: str, header: list[str], rows: list[list], note: str) -> bytes:
    font, bold, big = fonts.font(13), fonts.font(13, "bold"), fonts.font(18, "bold")
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    sw = 26

    def text_of(cell):
        return cell[2] if isinstance(cell, tuple) else str(cell)

    widths = []
    for c in range(len(header)):
        cells = [text_of(r[c]) for r in rows] + [header[c]]
        w = max(probe.textlength(line, font=bold) for cell in cells for line in str(cell).split("\n"))
        extra = sw + PAD if any(isinstance(r[c], tuple) for r in rows) else 0
        widths.append(min(MAX_CELL, int(w)) + extra + 2 * PAD)
    wrapped = [[_wrap(probe, text_of(cell), font, widths[c] - 2 * PAD - (sw + PAD if isinstance(cell, tuple) else 0))
                for c, cell in enumerate(r)] for r in rows]
    heights = [max(len(lines) for lines in r) * LINE + 2 * PAD for r in wrapped]
    head_h = LINE + 2 * PAD
    # at least as wide as the title, and wide enough for a long note to read as a paragraph
    inner = max(sum(widths), int(probe.textlength(title, font=big)) + PAD, min(640, 9 * len(note)) if note else 0)
    if inner > sum(widths):
        widths[-1] += inner - sum(widths)
    note_lines = _wrap(probe, note, font, sum(widths) - 2 * PAD) if note else []
    width = sum(widths) + 2 * PAD
    height = 40 + head_h + sum(heights) + (len(note_lines) * LINE + PAD if note else 0) + 2 * PAD
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    d.text((PAD, PAD), title, font=big, fill=INK)
    y = 40
    x = PAD
    d.rectangle((PAD, y, width - PAD, y + head_h), fill=HEAD)
    for c, h in enumerate(header):
        d.text((x + PAD, y + PAD), h, font=bold, fill=INK)
        x += widths[c]
    y += head_h
    for r, lines_row, h in zip(rows, wrapped, heights):
        x = PAD
        d.line((PAD, y, width - PAD, y), fill=RULE)
        for c, cell in enumerate(r):
            tx = x + PAD
            if isinstance(cell, tuple):
                colour, pattern, _ = cell
                fill = rgba(colour, "chart swatch") if colour else (255, 255, 255, 255)
                cy = y + PAD + sw // 2
                d.rectangle((tx, y + PAD, tx + sw, y + PAD + sw), fill=fill[:3], outline=INK)
                if pattern:
                    draw_pattern(d, pattern, tx + sw / 2, cy, sw * 1.1, fill)
                tx += sw + PAD
            for k, line in enumerate(lines_row[c]):
                d.text((tx, y + PAD + k * LINE), line, font=font, fill=INK)
            x += widths[c]
        y += h
    d.line((PAD, y, width - PAD, y), fill=RULE)
    for k, line in enumerate(note_lines):
        d.text((PAD, y + PAD + k * LINE), line, font=font, fill=INK)
    return png_bytes(img)


def _cost(v) -> str:
    return "—" if v is None else str(v)


def terrain_chart(game) -> bytes | None:
    md = game.map_doc or {}
    types = [t for t in md.get("terrain_types") or [] if isinstance(t, dict)]
    if not types:
        return None
    sides = [t for t in md.get("hexside_types") or [] if isinstance(t, dict)]
    classes = []
    for t in types + sides:
        for k in (t.get("movement") or {}):
            if k not in classes:
                classes.append(k)
    classes.sort(key=lambda k: (k != "all", k))
    # "all" is the cost of units of no listed class: a column only when some unit has none of them
    unit_classes = {movement_class(game, u) for u in game.units.values()}
    if "all" in classes and unit_classes <= set(classes) - {"all"}:
        classes.remove("all")
    names = {c: (game.by_id["movement_classes"].get(c) or {}).get("name") or c for c in classes}
    names["all"] = "Other units" if len(classes) > 1 else "All units"
    header = ["Terrain"] + [names[c] for c in classes] + ["Other effects"]
    rows = []
    for t in types + sides:
        mv = t.get("movement") or {}
        effects = []
        if t.get("playable") is False:
            effects.append("not playable")
        if t.get("zoc") is False:
            effects.append("no ZOC into it")
        if isinstance(t.get("stacking_factor"), (int, float)) and not isinstance(t.get("stacking_factor"), bool):
            effects.append(f"stacking x {t['stacking_factor']:g}")
        combat = [(k.replace("_", " "), v) for k, v in (t.get("combat") or {}).items()]
        words = [k if v is True else f"no {k}" if v is False else f"{k} {v}" for k, v in combat]
        if words:
            effects.append("combat: " + ", ".join(words))
        rule = t.get("source") or t.get("rule")
        if rule:
            effects.append(f"({rule})")
        cost = [_cost(mv.get(c, mv.get("all") if c != "all" else None)) for c in classes]
        label = t.get("name") or t["id"]
        rows.append([(t.get("color"), t.get("pattern"), label if t in types else f"{label} (hexside)")] + cost
                    + ["; ".join(effects)])
    authored = [t.get("name") or t["id"] for t in types + sides if t.get("authored")]
    note = ("Movement point costs to enter the hex (or cross the hexside); — = no separate cost. "
            + (f"Authored where the rulebook is silent: {', '.join(authored)}." if authored else ""))
    return table_image(f"Terrain Effects Chart — {(game.doc.get('game') or {}).get('title') or game.id}",
                       header, rows, note)


def sequence_chart(game, sequence=None, title=None) -> bytes | None:
    seq = [pt for pt in (sequence or game.doc.get("sequence") or []) if isinstance(pt, dict)]
    if not seq:
        return None
    rows = []
    for pt in seq:
        for i, ph in enumerate(p for p in pt.get("phases") or [] if isinstance(p, dict)):
            rows.append([pt.get("name") or pt.get("id") if i == 0 else "", ph.get("name") or ph.get("id"),
                         ph.get("rule") or "", ph.get("notes") or ""])
    return table_image(title or "Sequence of Play", ["Player-turn", "Phase", "Rule", "Notes"], rows)


def turn_chart(game, turns=None, title=None) -> bytes | None:
    turns = [t for t in (turns or game.doc.get("turns") or []) if isinstance(t, dict) and "turn" in t]
    if not turns:
        return None
    rows = [[str(t["turn"]), t.get("label") or t.get("date") or "", t.get("weather") or "",
             "; ".join(str(e) for e in t.get("events") or [])] for t in turns]
    return table_image(title or "Turn Record", ["Turn", "Date", "Weather", "Events"], rows)


def _stack(pngs: list[bytes]) -> bytes:
    """Images one under the other, left-aligned, on the chart's background."""
    ims = [Image.open(io.BytesIO(b)).convert("RGB") for b in pngs]
    out = Image.new("RGB", (max(i.width for i in ims), sum(i.height for i in ims)), BG)
    y = 0
    for im in ims:
        out.paste(im, (0, y))
        y += im.height
    return png_bytes(out)


def crt_chart(game, table: dict) -> bytes:
    """A combat results table (data: ``combat_results``): its heading rows (e.g. each terrain line's odds
    per result column), a row per die roll, then what the results mean and the shifts and modifiers. A
    table with authored parts says so in its title and lists why under it."""
    authored = table.get("authored") or {}
    title = table["name"] + (f" ({table['roll']})" if table.get("roll") else "")
    if authored:
        title += " — AUTHORED, not in the rulebook"
    heads, corner = table["headings"], table.get("corner") or ""
    if len(heads) == 1:
        header, rows = [corner] + list(heads[0]["cells"]), []
    else:        # the heading lines (e.g. each terrain's odds), then the corner's label over the results
        header = [heads[0]["label"]] + list(heads[0]["cells"])
        rows = [[h["label"]] + list(h["cells"]) for h in heads[1:]] + [[corner] + [""] * (len(header) - 1)]
    rows += [[r["label"]] + list(r["cells"]) for r in table["rows"]]
    notes = [table["notes"].rstrip(".") + "."] if table.get("notes") else []
    notes += [f"AUTHORED ({part}): {why.rstrip('.')}." for part, why in authored.items()]
    parts = [table_image(title, header, rows, " ".join(notes))]
    key = [[k["result"], k["meaning"], k.get("rule") or ""] for k in table.get("key") or []]
    if key:
        parts.append(table_image("Results", ["Result", "Meaning", "Rule"], key))
    mods = [[m["value"], m["when"], m.get("rule") or ""] for m in table.get("modifiers") or []]
    if mods:
        parts.append(table_image("Shifts and modifiers", ["Value", "When", "Rule"], mods))
    return _stack(parts)


def charts(game) -> list[tuple[str, str, bytes]]:
    """(tab name, image file, PNG bytes) of every chart the data gives."""
    out = []
    for name, file, data in (("Terrain Effects", "chart-terrain.png", terrain_chart(game)),
                             ("Sequence of Play", "chart-sequence.png", sequence_chart(game)),
                             ("Turn Record", "chart-turns.png", turn_chart(game))):
        if data is not None:
            out.append((name, file, data))
    for t in game.doc.get("combat_results") or []:
        if isinstance(t, dict) and t.get("headings") and t.get("rows"):
            out.append((t["name"], f"chart-crt-{t['id']}.png", crt_chart(game, t)))
    for sid, sc in game.by_id["scenarios"].items():
        label = sc.get("name") or sid
        if sc.get("sequence"):
            out.append((f"Sequence: {label}", f"chart-sequence-{sid}.png",
                        sequence_chart(game, sc["sequence"], f"Sequence of Play — {label}")))
        if sc.get("turns"):
            out.append((f"Turns: {label}", f"chart-turns-{sid}.png",
                        turn_chart(game, sc["turns"], f"Turn Record — {label}")))
    return out


def add_chart_window(root, items) -> None:
    if not items:
        return
    win = root.add(P + "ChartWindow", name="Charts", text="Charts", tooltip="Charts and tables", hotkey="67,650",
                   icon="")
    tabs = win.add("VASSAL.build.widget.TabWidget", entryName="Charts")
    for name, file, _ in items:
        tabs.add("VASSAL.build.widget.Chart", chartName=name, fileName=file, description=name)
