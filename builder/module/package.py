"""Build step 'module': dist/GAME/GAME.vmod, a VASSAL 3.6 module VASSAL opens as a playable game.

Everything is assembled in memory (the images go straight into the archive), then written in one go
(atomically, or into the build's staged folder), so a failing build never leaves a half-written module
over a good one. In a build the archive is cached under a hash of its inputs: unchanged, it is reused.
Deterministic: fixed zip timestamps and order, fixed XML formatting, fixed save key and dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from builder.errors import BuildError
from builder.progress import SILENT
from builder.render.counter_build import counter_info
from builder import buildcache
from builder.vassal.archive import zip_bytes
from builder.vassal.buildfile import BuildFile, P
from builder.vassal.errors import VassalFormatError
from builder.vassal.piece import piece_images
from builder.vassal.savefile import make_metadata

from . import gamedata_entry
from . import images as images_mod
from . import badges, behaviour, charts, cups, maps, palettes, pieces, prototypes, setups, turns
from .names import safe, side_name

VASSAL_VERSION = "3.6.0"
DEFAULT_DICE = ("1d6",)      # when the data declares no game.dice
MODULE_SOURCES = ("module", "vassal", "render", "geometry", "gamedata")   # the packager's version


def module_path(out_dir: Path, game_id: str) -> Path:
    return Path(out_dir) / f"{game_id}.vmod"


def build(report, out_dir: Path, progress=SILENT) -> list[Path]:
    game = report.model
    if game is None:
        raise BuildError("the game did not validate; no module")
    imgs = images_mod.collect(report, out_dir, progress)
    ctx = buildcache.current()
    # cached under what it is made of: the packager's sources, the data and every image's bytes
    key = buildcache.digest("module", buildcache.source_version(*MODULE_SOURCES), report.game, game.doc,
                            game.map_doc, sorted((n, buildcache.digest(b)) for n, b in imgs.files.items()))
    target = module_path(out_dir, report.game)
    data = ctx.lookup(key)
    if data is None:
        try:   # the parts a build prepared beside the drawing steps (see prepare), else made here
            entries = assemble(report, imgs, progress, ctx.prepared.pop("module", None))
        except VassalFormatError as exc:   # the codec refused something we built: a bug here, say so
            raise BuildError(f"module encoding failed: {exc}") from None
        data = zip_bytes(entries)
        ctx.store(key, data)
        ctx.count("module", rebuilt=1)
        progress.note(f"{report.game}: {target.name} ({len(entries)} entries)")
    else:
        ctx.count("module", reused=1)
    ctx.write(target, data)
    return [target]


@dataclass
class Parts:
    """The module without the bytes of its counter and map images: entries before the images, the
    images it makes itself, the names of every image it uses, and the scenario saves after them."""
    head: list
    extra: dict
    used: set
    saves: list


def prepare(report, progress=SILENT) -> Parts:
    """The module's parts from the data and the images' names alone: a build makes them in a process
    of their own while the map and the counters are drawn (builder.background), so the module step
    that follows only adds the images."""
    return _parts(report, images_mod.names(report), progress)


def assemble(report, imgs, progress=SILENT, parts: Parts | None = None) -> list[tuple]:
    """The module's zip entries, in order: buildFile.xml, moduledata, the game data (for the audit), images (stored: PNGs are
    already compressed), then one .vsav per scenario. ``parts``: made beforehand by :func:`prepare`."""
    if parts is None:
        parts = _parts(report, imgs, progress)
    # Only the images something uses: a blank face the counters step prints (e.g. the back of a
    # multi-step unit's last counter) has no layer in the module.
    files = {name: data for name, data in {**imgs.files, **parts.extra}.items() if name in parts.used}
    return parts.head + [(f"images/{name}", data, False) for name, data in sorted(files.items())] + parts.saves


def _parts(report, imgs, progress) -> Parts:
    game, grid = report.model, report.grid
    info = game.doc.get("game") or {}
    title = info.get("title") or game.id
    version = str(info.get("version") or "1.0")
    description = " — ".join(x for x in (title, info.get("series"), info.get("publisher")) if x)
    defs = pieces.build_defs(game, imgs.counters)
    layout = maps.Layout(game, grid, imgs)
    cals, cal_of = turns.calendars(game)

    bf = BuildFile.new(title, version=version, vassal_version=VASSAL_VERSION, description=description,
                       next_piece_slot_id=len(defs) + 1)
    root = bf.root
    roster = root.child("PlayerRoster")
    roster.set("buttonKeyStroke", "").set("buttonText", "Retire").set("buttonToolTip", "Switch sides")
    for s in game.doc.get("sides") or []:
        roster.add("entry", side_name(game, s["id"]))
    opts = root.child("GlobalOptions")
    for k, v in (("autoReport", "Always"), ("chatterHTMLSupport", "Never"), ("hotKeysOnClosedWindows", "Never"),
                 ("inventoryForAll", "Always"), ("nonOwnerUnmaskable", "Never"), ("playerIdFormat", "$PlayerName$"),
                 ("promptString", "Opponents can unmask my pieces"), ("sendToLocationMoveTrails", "Never")):
        opts.set(k, v)
    protos = root.child("PrototypesContainer")
    sends = lambda d: behaviour.send_traits(game, layout, d.side) if d.kind == "unit" else []  # noqa: E731
    for name, desc, piece in prototypes.build(defs, sends):
        protos.add(P + "PrototypeDefinition", piece.add_piece_string(), name=name, description=desc)

    maps.add_maps(root, layout)
    palettes.add_palette(root, game, defs, counter_info(game)["image_px"])
    for dice in info.get("dice") or DEFAULT_DICE:
        n, sides = dice.split("d")
        root.add(P + "DiceButton", addToTotal=0, canDisable=False, hotkey="", icon="", nDice=int(n),
                 nSides=int(sides), name=dice, plus=0, prompt=False, reportTotal=int(n) > 1,
                 reportFormat="** $name$ = $result$ *** <$PlayerName$>", text=dice, tooltip=f"Roll {dice}")
    turns.add_trackers(root, cals)
    behaviour.add_windows(root, game)
    chart_items = charts.charts(game)
    charts.add_chart_window(root, chart_items)

    saves = []
    scenarios = [sc for sc in game.by_id["scenarios"].values()]
    if scenarios:
        menu = root.add(P + "PredefinedSetup", isMenu=True, name="Scenarios", useFile=False, file="",
                        description="Scenario set-ups")
        for sc in scenarios:
            plan = setups.ScenarioPlan(game, layout, defs, sc)
            file = f"{safe(sc['id'])}.vsav"
            saves.append((file, setups.save_bytes(plan, cal_of.get(sc["id"]), title, version), True))
            menu.add(P + "PredefinedSetup", isMenu=False, name=sc.get("name") or sc["id"], useFile=True,
                     file=file, description=f"Scenario {sc['id']}")
            progress.note(f"{report.game}: scenario {sc['id']}: {len(plan.placements)} pieces")

    head = [("buildFile.xml", bf.to_bytes(), True),
            ("moduledata", make_metadata(name=title, version=version, vassal_version=VASSAL_VERSION,
                                         description=description, date_saved=0), True),
            (gamedata_entry.ENTRY, gamedata_entry.pack(report), True)]   # what the audit reads
    used = {name for d in defs for name in piece_images(d.piece)}
    used |= {Path(m.file).name for m in imgs.maps} | set(layout.extra_images) | {f for _, f, _ in chart_items}
    px = counter_info(game)["image_px"]
    extra = {**layout.extra_images, **badges.images_for(game, defs, px, pieces.tag_markers(game)),
             behaviour.MOVED_IMAGE: behaviour.moved_icon(px), **{f: data for _, f, data in chart_items},
             cups.BACK_IMAGE: cups.back_image(px)}
    return Parts(head, extra, used, saves)
