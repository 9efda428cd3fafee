"""The switch for the audit's optimised paths (on by default).

The audit keeps a plain computation beside each shortcut it takes for speed: the cheap direct-step test
before a bounded path search, memoised unit selectors and phase conditions, rule sets that call only the
rules that can act in the current phase. With the switch off every rule sees every event and every path
is searched in full; tests/test_audit_fastpaths.py audits random logs both ways and asserts identical
findings. Read when a rule set or a cost table is built, so set it before auditing::

    from builder.audit import fastpaths
    with fastpaths.disabled():
        result = audit_file(ctx, "game.vlog")
"""

from __future__ import annotations

from contextlib import contextmanager

ENABLED = True


@contextmanager
def disabled():
    """Audit with every optimised path off (the reference computation)."""
    global ENABLED
    saved, ENABLED = ENABLED, False
    try:
        yield
    finally:
        ENABLED = saved
