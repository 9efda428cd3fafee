"""Where the data that ships with the tool lives: the JSON Schemas and the shipped games (counters/, maps/).

In a checkout (and an editable install) these are the repository's top-level folders. A wheel carries copies
under ``builder/_shipped/`` (setup.py's build step puts them there), so an installed tool finds them without
the checkout. ``vassal-builder schema --path`` prints the schema folder a designer's ``$schema`` line can name.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
INSTALLED = _PACKAGE / "_shipped"
CHECKOUT = _PACKAGE.parent


def data_root() -> Path:
    """The folder holding ``schemas/``, ``counters/`` and ``maps/``: the package's copy when installed from a
    wheel, else the checkout."""
    return INSTALLED if (INSTALLED / "schemas").is_dir() else CHECKOUT


DATA_ROOT = data_root()
SCHEMA_DIR = DATA_ROOT / "schemas"
