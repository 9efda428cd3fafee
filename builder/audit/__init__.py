"""Audit saved games and logs against a game's rules: ``vassal-builder audit GAME SAVE_OR_LOG``.

One job per module (the shape of python-chess: a position, a reader feeding visitors, rules apart):

* :mod:`.context`  — what the audit knows of the game without the module: the module's own board
  layout (so a map pixel is named as VASSAL names it), each unit's face levels, the turn trackers,
  terrain per hex, hexside and line features;
* :mod:`.position` — the game position: every unit's location (hex or box/zone), face level, side,
  Marker properties; the current turn and phase;
* :mod:`.replay`   — reads a .vsav/.vlog with builder.vassal, builds the start position, applies each
  logged command in order and feeds events (move, flip, remove, add, phase) to visitors; what it
  cannot interpret becomes a warning, never an exception;
* :mod:`.engines`  — derived state the rules stand on: zones of control, hex control, the activity
  ledger, arrivals against the reinforcement schedule, which phases allow which movement;
* :mod:`.rules`    — rule checks, one small class per rule, configured by the game's data;
* :mod:`.report`   — findings and warnings, as text lines or JSON;
* :mod:`.script`   — scripted games written as real .vlog/.vsav files of the module (tests, examples).

Quick start::

    from builder.gamedata.validate import validate_game
    from builder.audit import audit_file
    result = audit_file(validate_game("iron-dream"), "game.vlog")
    for f in result.findings:
        print(f.line())
"""

from __future__ import annotations

from builder.audit.errors import AuditInputError  # noqa: F401


def audit_file(game, path, rules=None, *, max_saved_game: int | None = None):
    """Replay *path* and check it against the rules; *game* is a validated game's Report (or an
    AuditContext already built from one, to audit many files). Returns an AuditResult; raises
    AuditInputError (one line) for a file that cannot be audited: unreadable, truncated, or a save
    of another module or game (builder.audit.source). *max_saved_game* raises the codec's limit on the
    command text (builder.vassal.savefile.MAX_SAVED_GAME) for a caller that streams larger logs on
    purpose (the benchmark); the replay streams, so memory does not grow with it."""
    import os

    from builder.audit.context import AuditContext
    from builder.audit.replay import open_stream, replay_stream
    from builder.audit.report import AuditResult
    from builder.audit.rules import RuleSet
    from builder.audit.source import check_metadata, check_pieces

    ctx = game if isinstance(game, AuditContext) else AuditContext.from_report(game)
    name = os.fspath(path) if not isinstance(path, (bytes, bytearray)) else "input"
    stream = open_stream(path, max_saved_game)
    check_metadata(stream, ctx, name)
    ruleset = rules if rules is not None else RuleSet.for_game(ctx)
    result = AuditResult(game=ctx.game_id, file=str(name), not_checked=list(ruleset.not_checked),
                         checked=ruleset.checked())
    result.sides = {uid: d.side for uid, d in ctx.defs.items()}
    ruleset.bind(result)
    with _long_lived(ctx):
        stats = replay_stream(stream, ctx, [ruleset], name)
    check_pieces(stats, ctx, name)
    result.absorb(stats)
    return result


class _long_lived:
    """While a log is replayed, the game's data and the audit context (tens of MB of objects that live
    as long as the audit) are left out of the garbage collector's full passes, which would otherwise
    walk them all again and again; they rejoin it afterwards. The replay makes a few short-lived objects
    per command (events, keys) and hardly any cycles, so the collector's youngest generation is examined
    every :data:`YOUNG` allocations instead of every 700 (a tenth of the audit's time went to it)."""

    YOUNG = 10_000

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self._thresholds = None

    def __enter__(self):
        import gc
        gc.freeze()
        self._thresholds = gc.get_threshold()
        young = self._thresholds[0]
        gc.set_threshold(max(self.YOUNG, young) if young else 0, *self._thresholds[1:])   # 0: kept off
        return self

    def __exit__(self, *exc) -> None:
        import gc
        gc.set_threshold(*self._thresholds)
        gc.unfreeze()
