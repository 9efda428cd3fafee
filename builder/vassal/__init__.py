"""VASSAL file-format codec: sequence encoding, traits, pieces, commands, saves and buildFiles.

Modules (one job each):

* :mod:`.sequence` — VASSAL's ``SequenceEncoder``/``Decoder`` escaping (``encode``/``decode``).
* :mod:`.traits` — one class per trait, type and state codecs; unknown traits pass through.
* :mod:`.piece` — decorator chains (TAB-layered ``type``/``state`` strings) ⇄ :class:`~.piece.Piece`.
* :mod:`.commands` — the ESC-nested command tree and typed commands (AddPiece, MovePiece, Log…).
* :mod:`.placement` — where a save puts its pieces (stack/deck membership applied as VASSAL does).
* :mod:`.savefile` — ``.vsav``/``.vlog`` containers (``!VCSK``, XZ, VOBS, plain payloads),
  ``moduledata``/``savedata`` metadata.
* :mod:`.buildfile` — secure ``buildFile.xml`` reading/writing with typed accessors.
* :mod:`.archive` — safe ZIP reading and deterministic, atomic ZIP writing.
* :mod:`.report` — password-safe decoded views (what ``vassal-builder dump`` prints).
* :mod:`.errors` — the exception hierarchy (:class:`VassalFormatError` and subclasses).

Quick start::

    from builder.vassal.savefile import read_save
    from builder.vassal.commands import AddPiece, Log, MovePiece

    save = read_save("game.vlog")                 # raises VassalFormatError with a clear message
    for depth, cmd in save.leaves():              # typed leaf commands, document order
        if isinstance(cmd, Log) and isinstance(cmd.inner, MovePiece):
            print(cmd.inner.new_map, cmd.inner.new_x, cmd.inner.new_y)
        elif isinstance(cmd, AddPiece) and not cmd.is_stack:
            print(cmd.piece.display_name, cmd.piece.position)
    save.to_bytes() == save.source                # True while nothing was changed

    from builder.vassal.piece import Piece
    from builder.vassal.traits import BasicPiece, Delete, Embellishment
    piece = Piece([Delete(command_name="Delete"),
                   Embellishment(images=["a.png", "b.png"], level_names=["", ""], name="Step"),
                   BasicPiece(image="a.png", name="Tank")])
    piece.type_string(), piece.state_string(), piece.add_piece_string()   # PieceSlot text

    from builder.vassal.buildfile import BuildFile, P
    from builder.vassal.archive import write_zip_atomic
    bf = BuildFile.new("My Game", version="1.0", vassal_version="3.6.0")
    bf.root.add(P + "Map", mapName="Main Map")
    write_zip_atomic("dist/game.vmod", [("buildFile.xml", bf.to_bytes()), ...])

Nothing here performs I/O at import time.
"""

from builder.vassal.errors import (  # noqa: F401
    ArchiveError,
    BuildFileError,
    CommandError,
    PayloadError,
    PieceError,
    VassalFormatError,
)
