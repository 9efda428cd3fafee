"""Check ``images``: every image the module names exists under ``images/`` (names are
case-sensitive, as for VASSAL on Linux); images nobody names are reported as unused (warning).

Images are named by boards, component icons (toolbar buttons, ``AboutScreen``, charts, zoomers…),
piece traits (BasicPiece image, Layer levels, Mask image, Mark When Moved icon) of PieceSlots,
prototypes and marker definitions, and by the pieces of predefined-setup saves.
"""

from __future__ import annotations

from collections.abc import Iterator

from builder.lint.model import ERROR, WARNING, Finding, Module
from builder.vassal.piece import piece_images

# component attributes that hold an image name (besides any *icon / *IconName attribute)
_FILE_ATTRS = {("Board", "image"), ("AboutScreen", "fileName"), ("Chart", "fileName"),
               ("SpecialDieFace", "icon")}


def _component_images(mod: Module) -> Iterator[tuple[str, int | None, str]]:
    """(image name, line, what) for component attributes."""
    for c in mod.buildfile.root.iter():
        short = c.short
        for k, v in c.el.attrib.items():
            kl = k.lower()
            if (short, k) in _FILE_ATTRS or kl.endswith("icon") or kl.endswith("iconname"):
                if v and not v.startswith("/"):
                    yield v, mod.line(c), f"{short} {c.name or ''}".rstrip() + f" ({k})"


def _setup_piece_images(mod: Module) -> Iterator[tuple[str, str]]:
    from builder.vassal.commands import AddPiece
    for s in mod.setups:
        if s.save is None:
            continue
        for _, c in s.save.leaves():
            if isinstance(c, AddPiece) and not c.is_stack and not c.is_deck:
                try:
                    p = c.piece
                except Exception:  # noqa: BLE001
                    continue
                for im in piece_images(p):
                    yield im, s.file


def _found(mod: Module, name: str) -> bool:
    imgs = mod.image_entries
    # DataArchive also retries the name + ".gif" (legacy) (vassal-format.md §1.4)
    return name in imgs or f"{name}.gif" in imgs


def check(mod: Module) -> Iterator[Finding]:
    if mod.buildfile is None or mod.zip is None:
        return
    bf_entry = mod.buildfile_entry
    lower = {k.lower(): k for k in mod.image_entries}
    used: set[str] = set()
    reported: set[str] = set()   # each missing name once, at its first use

    def missing(name: str, entry: str, line: int | None, what: str) -> Finding | None:
        used.add(name)
        used.add(f"{name}.gif")
        if _found(mod, name) or name in reported:
            return None
        reported.add(name)
        hint = ""
        other = lower.get(name.lower())
        if other is not None:
            hint = f" (images/{other} exists: names are case-sensitive)"
        return Finding("images.missing", ERROR, f"image {name!r} used by {what} is not in the module: "
                       f"no entry images/{name}{hint}", entry=entry, line=line)

    for name, line, what in _component_images(mod):
        f = missing(name, bf_entry, line, what)
        if f:
            yield f
    for d in mod.definitions:
        if d.piece is None:
            continue
        for name in piece_images(d.piece):
            f = missing(name, bf_entry, d.line, d.label)
            if f:
                yield f
    for name, entry in _setup_piece_images(mod):
        f = missing(name, entry, None, "a piece of this setup")
        if f:
            yield f
    for rel, full in sorted(mod.image_entries.items()):
        if rel not in used:
            yield Finding("images.unused", WARNING, "image is not used by any board, component or piece "
                          "(it may still be named in HTML text or an expression)", entry=full)
