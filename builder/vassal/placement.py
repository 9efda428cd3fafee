"""Where a save puts its pieces: the positions VASSAL ends up with after loading it.

A piece's own BasicPiece state holds a map and a position, but the Stack or Deck that lists
it as a member is authoritative (vassal-format.md §4.6): old saves store ``null`` maps in
member pieces, and a stack without a map takes its members off the map.

>>> from builder.vassal.commands import parse_commands
>>> root = parse_commands("begin_save\\x1b+/1/piece;;;;A/Main;0;0;;0\\x1b+/2/stack/Main;10;20;1;@@1\\x1bend_save")
>>> p = initial_placements(root)["1"]
>>> (p.map_id, p.x, p.y, p.container, p.index)
('Main', 10, 20, '2', 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.vassal.commands import AddPiece, Node, iter_leaves
from builder.vassal.errors import VassalFormatError

__all__ = ["Placement", "initial_placements"]


@dataclass
class Placement:
    piece_id: str
    name: str
    map_id: str | None
    x: int
    y: int
    kind: str = "piece"              # piece | stack | deck
    container: str | None = None     # id of the Stack/Deck holding the piece
    index: int | None = None         # position in the container, 0 = bottom
    members: tuple[str, ...] = ()    # for stacks and decks


def initial_placements(root: Node) -> dict[str, Placement]:
    """Every piece, stack and deck added by the save part of *root* (logged commands are
    not replayed), with container membership applied as VASSAL applies it."""
    out: dict[str, Placement] = {}
    for _, c in iter_leaves(root):
        if not isinstance(c, AddPiece) or c.piece_id is None:
            continue
        try:
            p = c.piece
        except VassalFormatError:
            continue
        x, y = p.position
        kind = "stack" if p.is_stack else "deck" if p.is_deck else "piece"
        pl = Placement(c.piece_id, p.display_name if kind == "piece" else "", p.map_id, x, y, kind)
        out[c.piece_id] = pl
        if kind == "piece":
            continue
        # members are looked up when the container's state is applied: only pieces that
        # already exist join, and a piece leaves the container it was in before
        members = []
        for mid in p.inner.members:
            m = out.get(mid)
            if m is None or m.kind != "piece":
                continue
            if m.container is not None and m.container in out:
                old = out[m.container]
                old.members = tuple(x for x in old.members if x != mid)
            members.append(mid)
        pl.members = tuple(members)
        for i, mid in enumerate(members):
            m = out[mid]
            m.map_id, m.x, m.y = pl.map_id, pl.x, pl.y
            m.container, m.index = pl.piece_id, i
    return out
