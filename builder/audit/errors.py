"""The one exception the audit raises: input it cannot read at all (the command prints it in one line)."""


class AuditInputError(Exception):
    """A save or log that cannot be opened or decoded, or a game with no usable map."""
