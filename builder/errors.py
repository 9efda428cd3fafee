"""Exceptions shared across stages."""


class BuildError(Exception):
    """A build step could not finish; the message says why. Nothing partial is left behind."""
