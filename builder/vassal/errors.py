"""One exception hierarchy for everything the VASSAL codec rejects.

Every error carries a short, human-readable message that names what was wrong
(and, where known, which entry or command), so a CLI can print it on one line.
"""

from __future__ import annotations


class VassalFormatError(ValueError):
    """The input is not a well-formed VASSAL file, archive or string."""

    def __init__(self, message: str, *, where: str | None = None) -> None:
        self.where = where
        text = f"{where}: {message}" if where else message
        super().__init__(" ".join(text.split()) if "\n" in text or "\r" in text else text)


class ArchiveError(VassalFormatError):
    """The ZIP container is unreadable or unsafe (not a zip, zip-slip, bomb, too large)."""


class PayloadError(VassalFormatError):
    """The ``savedGame`` payload cannot be decoded (truncated, bad hex, bad XZ, not UTF-8)."""


class CommandError(VassalFormatError):
    """A command string cannot be decoded."""


class PieceError(VassalFormatError):
    """A piece type or state string cannot be decoded."""


class BuildFileError(VassalFormatError):
    """A buildFile is unreadable, unsafe or structurally wrong."""


class NotAVassalFile(VassalFormatError):
    """The input is not the kind of file asked for at all (not a ZIP, a ZIP without savedGame, a module
    where a save was expected): a command cannot use it, as opposed to a damaged file of the right kind."""


class NotAZip(ArchiveError, NotAVassalFile):
    """Not a ZIP archive at all (every VASSAL module, save and log is one)."""


class TruncatedError(PayloadError):
    """The file or its ``savedGame`` ends early. ``offset`` is where it broke (in the payload, or in the
    decoded command text when ``command`` is set: the 1-based number of the top-level command)."""

    def __init__(self, message: str, *, offset: int | None = None, command: int | None = None,
                 where: str | None = None) -> None:
        self.offset, self.command = offset, command
        super().__init__(message, where=where)
