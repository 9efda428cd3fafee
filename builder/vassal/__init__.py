"""VASSAL file-format codec: sequence encoding, traits, pieces, commands, saves and buildFiles.

Modules (one job each):

* :mod:`.sequence` — VASSAL's ``SequenceEncoder``/``Decoder`` escaping.
* :mod:`.traits` — one class per trait, type and state codecs; unknown traits pass through.
* :mod:`.piece` — decorator chains (``type``/``state`` strings) ⇄ :class:`~.piece.Piece`.
* :mod:`.commands` — the ESC-separated command tree and typed commands.
* :mod:`.savefile` — ``.vsav``/``.vlog`` containers (``!VCSK``, XZ, plain payloads).
* :mod:`.buildfile` — secure ``buildFile.xml`` reading/writing with typed accessors.
* :mod:`.archive` — safe ZIP reading and deterministic atomic ZIP writing.
* :mod:`.errors` — the exception hierarchy.

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
