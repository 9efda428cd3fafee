"""Derived-state engines: what the rules need beyond the position, kept up to date from the replay.

Each engine is a replay visitor built from the game's data (no game-specific code):

* :mod:`.phases`   — which phase kinds let whom move, and how (``movement.phases``);
* :mod:`.zoc`      — zones of control (``zones_of_control``): who projects, where, what they cost;
* :mod:`.control`  — control of every hex with its history (``control``);
* :mod:`.ledger`   — per unit and phase: moves (how many, by which kind of movement), flips, entries, removals;
* :mod:`.arrivals` — the scenario's reinforcement schedule against what actually entered.

:class:`Engines` builds them for a game and feeds them the replay's events. A rule set calls the
rules first and the engines after, so a rule sees the position after the event and the engines'
state as it stood before it (the ZOC and control a move started under, the unit's moves before
this one).
"""

from __future__ import annotations

from builder.audit.replay import Visitor


class Engines(Visitor):
    """The engines of one game, in the order they update (ZOC before control, which reads it)."""

    def __init__(self, ctx) -> None:
        from .arrivals import Arrivals
        from .control import ControlMap
        from .ledger import Ledger
        from .phases import MovementPermissions
        from .zoc import ZocMap

        self.ctx = ctx
        self.permissions = MovementPermissions(ctx)
        self.zoc = ZocMap(ctx)
        self.control = ControlMap(ctx, self.zoc)
        self.ledger = Ledger(ctx, self.permissions)
        self.arrivals = Arrivals(ctx)
        self.all = [self.zoc, self.control, self.ledger, self.arrivals]
        # per event, the handlers of the engines that have one (not the Visitor's no-op), in order
        self._on = {name: [getattr(e, name) for e in self.all if _handles(e, name)] for name in EVENTS}
        for name in ("move", "flip", "status", "remove", "add", "marker", "end_entry"):   # (end_entry: every entry)
            handlers = self._on[name]
            setattr(self, name, _dispatch(handlers))
        if self._on["move"] == [self.zoc.move, self.control.move, self.ledger.move, self.arrivals.move]:
            self.move = _moves(self.zoc, self.control, self.ledger, self.arrivals)

    @property
    def setup_stage(self) -> bool:
        """True while the log is at its scenario's start and the tracker has not moved yet."""
        return self.arrivals.setup_stage

    @setup_stage.setter
    def setup_stage(self, value: bool) -> None:
        self.arrivals.setup_stage = value

    def is_setup_move(self, ev, pos) -> bool:
        """Whether a move is part of the players' set-up: a unit leaving a "To place" zone, or, while
        the log is at its scenario's start and the tracker has not moved, a unit whose set-up is a
        choice (an area, hexes, near a hex, boxes) moved to a place its set-up entry allows."""
        frm = getattr(ev, "frm", None)
        # ctx.is_staging(frm, "To place") spelt out: three rules ask it for every move
        if frm is not None and frm.kind == "zone" and frm.name.startswith("To place:"):
            return True
        if not self.arrivals.setup_stage:
            return False
        from .arrivals import setup_choice_allows
        return setup_choice_allows(self.ctx, self.arrivals.scenario, ev.unit, ev.to, pos)

    def start_setup_stage(self, pos) -> None:
        """Moves made before the tracker first moves, in a log that starts at its scenario's start
        (first turn, first phase), are the players' set-up: the set-up rule judges them, not the
        movement rules."""
        from .arrivals import at_scenario_start
        self.setup_stage = at_scenario_start(self.arrivals.scenario, pos)

    def _each(self, name: str, *args) -> None:
        for h in self._on[name]:
            h(*args)

    def begin(self, pos) -> None:
        self._each("begin", pos)

    def end(self, pos) -> None:
        self._each("end", pos)

    def phase(self, ev, pos) -> None:
        self.setup_stage = False
        self._each("phase", ev, pos)


EVENTS = ("begin", "end", "end_entry", "phase", "move", "flip", "status", "remove", "add", "marker")


def _handles(engine, name: str) -> bool:
    """Whether the engine does something on event *name* (its class overrides the Visitor's no-op)."""
    return getattr(type(engine), name, None) is not getattr(Visitor, name)


def _moves(zoc, control, ledger, arrivals):
    """The engines' move handlers in order, without the wrappers of engines that do nothing (every move)."""
    zoc_update = zoc._update if zoc.enabled else None
    control_move = control.move if control.enabled else None
    ledger_move, arrivals_move = ledger.move, arrivals.move

    def move(ev, pos) -> None:
        if zoc_update is not None:
            zoc_update(ev.unit, pos)
        if control_move is not None:
            control_move(ev, pos)
        ledger_move(ev, pos)
        arrivals_move(ev, pos)
    return move


def _dispatch(handlers: list):
    """An event handler calling *handlers* in order (the engines' own, bound once; end_entry's take the
    entry's number where the others take the event)."""
    if not handlers:
        return lambda ev, pos: None
    if len(handlers) == 1:
        return handlers[0]

    def handler(ev, pos) -> None:
        for h in handlers:
            h(ev, pos)
    return handler
