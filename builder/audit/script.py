"""Scripted games: real ``.vlog``/``.vsav`` files of a game's own module, written from a script of steps.

For tests and examples of the audit (and for designers who want a sample log): the pieces are the
module's palette pieces with their exact type strings (builder.module.pieces), placed at the points
the module's layout gives a hex, a box or a staging zone (builder.module.maps), and the turn
tracker's state is the module's own (builder.module.turns). The files carry the module's
``moduledata``/``savedata`` and load in the real engine.

A script is a start position, then logged steps; each step is one log entry (one player action)::

    from builder.audit.script import ScriptedGame
    from builder.gamedata.validate import validate_game

    g = ScriptedGame(validate_game("iron-dream"), scenario="iron-dream",   # the scenario's set-up,
                     units={"ger-inf-80": "Z13"})                          # ... a unit put on a hex
    g.at(turn=1, phase="axis-operational-movement")      # the start position's tracker
    g.start()                                            # end of the start position; steps are logged
    g.move("ger-inf-80", "Y13", "X12")                   # two drags of one unit
    g.flip("ger-inf-80")                                 # next face (step loss); .flip(u, 1) = front
    g.phase("axis-prepared-assault")                     # the tracker moves on (same turn)
    g.next_phase()                                       # ... or to the next phase (turns roll over)
    g.remove("ger-inf-74")                               # eliminated (RemovePiece)
    g.place("ger-okh", "T21")                            # on the map: moved from where it waits, or added
    g.chat("assault on X12")
    g.write("game.vlog")                                 # the log; g.write("now.vsav") = the position now

Without ``scenario`` the start position is empty; ``units={"blue-1": "B3", "blue-3": ("B4", 2)}``
(a hex, box id, zone name or ``"reinforcements"``/``"to-place"``; with a face level) adds to or
moves scenario units before :meth:`start`, and ``status={"uid": "Support"}`` sets the Status
property. Before :meth:`start`, :meth:`place`, :meth:`flip`, :meth:`set_status` and :meth:`at`
change the start position; after it they are logged. A unit's piece id is its unit id; markers
get ``m1``, ``m2`` ...
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

from builder.module import maps, pieces, turns
from builder.module.pieces import placed_strings
from builder.vassal.commands import (AddPiece, BeginSave, BoardPicker, ChangePiece, Chat, Compound, EndSave, Log,
                                     MovePiece, NullCommand, RemovePiece, TurnTracker)
from builder.vassal.piece import Piece
from builder.vassal.savefile import SaveFile, make_metadata
from builder.vassal.sequence import encode_str

SCRIPT_KEY = 0x21              # fixed obfuscation key: the same script gives the same bytes


class ScriptError(ValueError):
    """A script step that cannot be written (unknown unit, hex, phase ...): one line."""


class GameKit:
    """A validated game with what a script needs: piece definitions, the module's layout (no image
    is drawn) and turn trackers. Build once per game and share (see :func:`kit`)."""

    def __init__(self, report) -> None:
        from builder.render import counter_build, map_build
        if not getattr(report, "ok", True) or report.model is None or report.grid is None:
            raise ScriptError(f"{getattr(report, 'game', '?')}: the game's data does not validate")
        self.report = report
        self.game, self.grid = report.model, report.grid
        counters = {(pid, face): Path(rel).name for pid, face, rel in counter_build.counter_images(self.game)}
        defs = pieces.build_defs(self.game, counters)
        self.defs = {d.key: d for d in defs if d.kind == "unit"}
        self.markers = {d.key: d for d in defs if d.kind == "marker"}
        self.all_defs = defs
        self.layout = maps.Layout(self.game, self.grid,
                                  SimpleNamespace(maps=map_build.game_map_images(self.game, self.grid)), draw=False)
        self.calendars, self.calendar_of = turns.calendars(self.game)
        info = self.game.doc.get("game") or {}
        self.title = info.get("title") or self.game.id
        self.version = str(info.get("version") or "1.0")
        self._ctx = None

    @property
    def ctx(self):
        """The audit's context of the same game (built on first use)."""
        if self._ctx is None:
            from builder.audit.context import AuditContext
            self._ctx = AuditContext.from_report(self.report)
        return self._ctx

    def sequence(self, calendar) -> list:
        """The data's player-turns (with phases) that *calendar* runs, in order."""
        doc_seq = self.game.doc.get("sequence") or []
        for sid, cal in self.calendar_of.items():
            sc = self.game.by_id["scenarios"][sid]
            if cal is calendar and sc.get("sequence"):
                doc_seq = sc["sequence"]
                break
        return [pt for pt in doc_seq if isinstance(pt, dict) and pt.get("phases")]

    def point(self, where: str, side: str | None = None) -> tuple[str, int, int]:
        """The map point of a hex id, a box id, a staging zone's name, ``reinforcements`` (optionally
        ``reinforcements:TURN``) or ``to-place`` (for *side*)."""
        if self.grid.parse(where) is not None:
            return self.layout.hex_point(where)
        p = self.layout.box_point(where)
        if p is not None:
            return p[:3]
        kind, _, turn = where.partition(":")
        if kind in ("reinforcements", "to-place", "staging"):
            zone = maps.TO_PLACE if kind == "to-place" else maps.REINFORCEMENTS
            return self.layout.staging_point(zone, side, int(turn) if turn.isdigit() else None)[:3]
        for plan in self.layout.maps:
            for board in plan.boards:
                if where in board.zones:
                    return maps.zone_point(plan, board, where)[:3]
        raise ScriptError(f"{where!r} is neither a hex, a box nor a zone of the module")


@lru_cache(maxsize=None)
def kit(game: str) -> GameKit:
    """The GameKit of a game name or data path (validated once per process)."""
    from builder.gamedata.validate import validate_game
    report = validate_game(game)
    if not report.ok:
        raise ScriptError(f"{game}: the game's data has {len(report.errors)} error(s)")
    return GameKit(report)


class _Piece:
    __slots__ = ("pid", "d", "map", "x", "y", "level", "status", "losses")

    def __init__(self, pid, d, point, level=1, status="", losses=0):
        self.pid, self.d = pid, d
        self.map, self.x, self.y = point
        self.level, self.status, self.losses = level, status, losses

    def strings(self) -> tuple[str, str]:
        return placed_strings(self.d, self.map, self.x, self.y, self.level, self.status, self.losses)


class ScriptedGame:
    """A scripted game of one module; see the module docstring for the API and an example."""

    def __init__(self, game, scenario: str | None = None, *, units: dict | None = None,
                 status: dict | None = None, turn: int | None = None, phase: str | None = None,
                 player_turn: str | None = None) -> None:
        self.kit = game if isinstance(game, GameKit) else kit(game) if isinstance(game, (str, os.PathLike)) \
            else GameKit(game)
        g = self.kit.game
        self.scenario = g.by_id["scenarios"].get(scenario) if scenario else None
        if scenario and self.scenario is None:
            raise ScriptError(f"no scenario {scenario!r} in {g.id}")
        cal = self.kit.calendar_of.get(scenario) if scenario else (self.kit.calendars or [None])[0]
        self.calendar = cal
        self.seq = self.kit.sequence(cal) if cal else []
        self.pieces: dict[str, _Piece] = {}
        self.order: list[str] = []               # piece ids in placement order
        self.entries: list = []
        self.started = False
        self._start: list = []
        self._markers = 0
        self.turn = (self.scenario or {}).get("first_turn") or (cal.turns[0] if cal else None)
        self.pt_index = self.ph_index = 0
        if self.scenario is not None:
            self._scenario_start()
        for uid, spec in (units or {}).items():
            where, level = (spec, None) if isinstance(spec, str) else spec
            self.place(uid, where, level=level)
        for uid, st in (status or {}).items():
            self.set_status(uid, st)
        if turn is not None or phase is not None:
            self.at(turn=turn, phase=phase, player_turn=player_turn)

    # ------------------------------------------------------------------ start position
    def _scenario_start(self) -> None:
        from builder.module.setups import ScenarioPlan
        plan = ScenarioPlan(self.kit.game, self.kit.layout, self.kit.all_defs, self.scenario)
        for p in plan.placements:
            status = ",".join(str(x) for x in p.entry.get("status") or []) if p.d.kind == "unit" else ""
            pid = p.d.key if p.d.kind == "unit" else self._marker_id()
            self._put(_Piece(pid, p.d, (p.map, p.x, p.y), p.level, status, p.losses))

    def _marker_id(self) -> str:
        self._markers += 1
        return f"m{self._markers}"

    def _put(self, piece: _Piece) -> None:
        if piece.pid not in self.pieces:
            self.order.append(piece.pid)
        self.pieces[piece.pid] = piece

    def _unit(self, uid: str) -> _Piece:
        p = self.pieces.get(uid)
        if p is None:
            raise ScriptError(f"unit {uid!r} is not in the position (place it first)")
        return p

    def _def(self, uid: str):
        d = self.kit.defs.get(uid)
        if d is None:
            raise ScriptError(f"{uid!r} is not a unit of {self.kit.game.id}")
        return d

    def start(self) -> "ScriptedGame":
        """End the start position: later steps are logged entries."""
        if not self.started:
            self._start = self.position_commands()
            self.started = True
        return self

    def _log(self, *commands) -> None:
        self.start()
        self.entries.append(Log(commands[0]) if len(commands) == 1 else Compound([Log(c) for c in commands]))

    # ------------------------------------------------------------------ turn tracker
    def _find_phase(self, phase: str, player_turn: str | None) -> tuple[int, int]:
        for i, pt in enumerate(self.seq):
            if player_turn is not None and pt.get("id") != player_turn:
                continue
            for j, ph in enumerate(p for p in pt["phases"] if isinstance(p, dict)):
                if ph.get("id") == phase:
                    return i, j
        raise ScriptError(f"no phase {phase!r}" + (f" in {player_turn!r}" if player_turn else "")
                          + " in the sequence of play")

    def tracker_command(self) -> TurnTracker:
        """The TURN command of the current (turn, player-turn, phase)."""
        cal = self.calendar
        if cal is None:
            raise ScriptError("the game has no turn tracker")
        flags = lambda n: encode_str(["true"] * n, ",")  # noqa: E731
        subs = [encode_str([str(self.ph_index if i == self.pt_index else 0), "0", "0", flags(len(pt["phases"]))],
                           ";") for i, pt in enumerate(self.seq)]
        top = encode_str([str(cal.turns.index(self.turn)), str(self.pt_index), "0", flags(len(cal.turns)), *subs],
                         ";")
        return TurnTracker(cal.tracker_id, encode_str(["0", top], "|"))

    def at(self, turn: int | None = None, phase: str | int | None = None,
           player_turn: str | int | None = None) -> "ScriptedGame":
        """Set the tracker: a phase by id (optionally within a player-turn id) or by index; before
        :meth:`start` this is the start position's tracker, after it a logged change."""
        if turn is not None:
            if self.calendar is None or turn not in self.calendar.turns:
                raise ScriptError(f"turn {turn} is not on the turn tracker")
            self.turn = turn
        if isinstance(player_turn, int):
            self.pt_index = player_turn
            player_turn = None
        if isinstance(phase, str):
            self.pt_index, self.ph_index = self._find_phase(phase, player_turn)
        elif isinstance(phase, int):
            self.ph_index = phase
        elif isinstance(player_turn, str):
            self.pt_index, self.ph_index = next((i, 0) for i, pt in enumerate(self.seq) if pt.get("id") == player_turn)
        if self.started:
            self._log(self.tracker_command())
        return self

    def phase(self, phase: str | int, turn: int | None = None, player_turn: str | int | None = None) -> "ScriptedGame":
        """Advance the tracker to *phase* (logged once started)."""
        return self.at(turn=turn, phase=phase, player_turn=player_turn)

    def next_phase(self, n: int = 1) -> "ScriptedGame":
        """The tracker's Next button, *n* times (one logged entry per press): the next phase, then the
        next player-turn, then the next turn."""
        for _ in range(n):
            self.ph_index += 1
            if self.ph_index >= len(self.seq[self.pt_index]["phases"]):
                self.ph_index = 0
                self.pt_index += 1
                if self.pt_index >= len(self.seq):
                    self.pt_index = 0
                    turns_ = self.calendar.turns
                    i = turns_.index(self.turn) + 1
                    if i >= len(turns_):
                        raise ScriptError("past the last turn")
                    self.turn = turns_[i]
            if self.started:
                self._log(self.tracker_command())
        return self

    def current_phase(self) -> tuple[int, str, str]:
        """(turn, player-turn id, phase id) of the tracker now."""
        pt = self.seq[self.pt_index]
        return self.turn, pt.get("id"), [p for p in pt["phases"] if isinstance(p, dict)][self.ph_index].get("id")

    # ------------------------------------------------------------------ pieces
    def place(self, uid: str, where: str, level: int | None = None) -> "ScriptedGame":
        """Put a unit at *where*: moved there from where it waits (a staging zone, a box), or added
        from the palette if it is not in the position."""
        d = self._def(uid)
        point = self.kit.point(where, d.side)
        p = self.pieces.get(uid)
        if p is None:
            p = _Piece(uid, d, point, level or 1)
            self._put(p)
            if self.started:
                t, st = p.strings()
                self._log(AddPiece(uid, type_string=t, state_string=st))
            return self
        if level is not None and level != p.level:
            self.flip(uid, level)
        if (p.map, p.x, p.y) != point:
            self.move(uid, where)
        return self

    def move(self, uid: str, *path: str, under: str | None = None) -> "ScriptedGame":
        """Drag a unit to each location of *path* in turn: one log entry per drag."""
        p = self._unit(uid)
        for where in path:
            point = self.kit.point(where, p.d.side)
            old = (p.map, p.x, p.y)
            p.map, p.x, p.y = point
            if self.started:
                self._log(MovePiece(uid, *point, under, *old, None))
        return self

    def move_stack(self, uids: list[str], to: str, stack_id: str | None = None) -> "ScriptedGame":
        """Drag several units as one stack (they must be where the first one is): one entry that
        forms the stack and moves it."""
        first = self._unit(uids[0])
        old = (first.map, first.x, first.y)
        point = self.kit.point(to, first.d.side)
        sid = stack_id or "s" + "+".join(uids)
        for uid in uids:
            p = self._unit(uid)
            p.map, p.x, p.y = point
        if self.started:
            self._log(AddPiece(sid, Piece.new_stack(*old, list(uids), 1)), MovePiece(sid, *point, None, *old, None))
        return self

    def flip(self, uid: str, level: int | None = None) -> "ScriptedGame":
        """Show face level *level* (1 = front of the first counter); by default the next level
        (a step loss), back to the front after the last."""
        p = self._unit(uid)
        n = max(1, len(p.d.levels))
        new = level if level is not None else (p.level % n) + 1
        if not 1 <= new <= n:
            raise ScriptError(f"{uid} has {n} face level(s), not {new}")
        old_state = p.strings()[1]
        p.level = new
        if self.started:
            self._log(ChangePiece(uid, p.strings()[1], old_state))
        return self

    def step_loss(self, uid: str, steps: int = 1) -> "ScriptedGame":
        """Lose *steps* steps: the unit's Losses layer where it has one (BCS), else the next face level(s)."""
        p = self._unit(uid)
        if p.d.max_losses:
            old_state = p.strings()[1]
            p.losses = min(max(p.losses + steps, 0), p.d.max_losses)
            if self.started:
                self._log(ChangePiece(uid, p.strings()[1], old_state))
            return self
        return self.flip(uid, min(p.level + steps, max(1, len(p.d.levels))))

    def set_status(self, uid: str, status: str) -> "ScriptedGame":
        """Set the unit's Status property (BCS Support, Ghost ...): needs a game whose pieces have it."""
        p = self._unit(uid)
        if not p.d.status:
            raise ScriptError(f"{uid}: the pieces of {self.kit.game.id} have no Status property")
        old_state = p.strings()[1]
        p.status = status
        if self.started:
            self._log(ChangePiece(uid, p.strings()[1], old_state))
        return self

    def remove(self, uid: str) -> "ScriptedGame":
        """Delete the piece (an eliminated unit taken off the board)."""
        self._unit(uid)
        self.pieces.pop(uid)
        self.order.remove(uid)
        if self.started:
            self._log(RemovePiece(uid))
        return self

    def eliminate(self, uid: str, box: str | None = None) -> "ScriptedGame":
        """An eliminated unit: moved into *box* (a dead pile) when given, else removed."""
        return self.move(uid, box) if box else self.remove(uid)

    def chat(self, text: str, who: str = "Player") -> "ScriptedGame":
        self._log(Chat(f"<{who}> - {text}"))
        return self

    def add_marker(self, marker_id: str, where: str, level: int = 1) -> str:
        """Place a marker (logged once started); returns its piece id."""
        d = self.kit.markers.get(marker_id)
        if d is None:
            raise ScriptError(f"{marker_id!r} is not a marker of {self.kit.game.id}")
        p = _Piece(self._marker_id(), d, self.kit.point(where, d.side), level)
        self._put(p)
        if self.started:
            t, st = p.strings()
            self._log(AddPiece(p.pid, type_string=t, state_string=st))
        return p.pid

    def where(self, uid: str) -> tuple[str, int, int]:
        p = self._unit(uid)
        return p.map, p.x, p.y

    # ------------------------------------------------------------------ files
    def position_commands(self) -> list:
        """The start position (or, after steps, the current one) as save commands."""
        adds, stacks = [], {}
        for pid in self.order:
            p = self.pieces[pid]
            t, st = p.strings()
            adds.append(AddPiece(pid, type_string=t, state_string=st))
            stacks.setdefault((p.map, p.x, p.y), []).append(pid)
        for n, ((m, x, y), members) in enumerate(stacks.items(), start=1):
            adds.append(AddPiece(f"stack{n}", Piece.new_stack(m, x, y, members, 1)))
        items = [BeginSave(), NullCommand(), Compound([NullCommand(), *adds])]
        for plan in self.kit.layout.maps:
            items.append(BoardPicker(plan.name, plan.selection()))
        if self.calendar is not None:
            items.append(self.tracker_command())
        items.append(EndSave())
        return items

    def _save(self, root) -> bytes:
        k = self.kit
        desc = (self.scenario or {}).get("name") or f"{k.title}: scripted game"   # the scenario's name, as ours
        save = SaveFile.new(root, encoding="vcsk", key=SCRIPT_KEY,
                            savedata=make_metadata(version=k.version, vassal_version="3.6.0", date_saved=0,
                                                   description=desc),
                            moduledata=make_metadata(name=k.title, version=k.version, vassal_version="3.6.0",
                                                     date_saved=0, description=k.title))
        return save.to_bytes()

    def log_bytes(self) -> bytes:
        """The log: the start position, then every step."""
        return self._save(Compound([*self._start_items(), *self.entries]))

    def save_bytes(self) -> bytes:
        """A save of the position now (after every step)."""
        return self._save(Compound(self.position_commands()))

    def _start_items(self) -> list:
        return self._start if self.started else self.position_commands()

    def write(self, path) -> Path:
        """Write the log (``.vlog``, or any other suffix) or the save of the position now (``.vsav``),
        atomically. Returns the path."""
        from builder.atomic import write_bytes
        path = Path(path)
        data = self.save_bytes() if path.suffix == ".vsav" else self.log_bytes()
        write_bytes(path, data)
        return path
