"""Turn trackers: the calendar (one level item per turn, with its date label) and, nested, the sequence
of play — one phase list per player-turn, run one after the other within a turn. Changes are reported
to the chat, so logs carry every turn and phase.

A scenario with its own ``turns``/``sequence`` (EotID's Let History Judge) gets its own tracker, its
button named after the scenario; the game's calendar's button then names its dates ("Turn (2 Jan 45 –
27 Jan 45)"), and each tracker's tooltip lists the scenarios played on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.vassal.buildfile import P
from builder.vassal.commands import TurnTracker as TurnCommand
from builder.vassal.sequence import encode_str

from .maps import UNMOVED_KEY

TURNPKG = P + "turn."


@dataclass
class Calendar:
    name: str                 # tracker name (TurnTracker<i> in document order)
    turns: list               # turn numbers
    labels: list              # one level item per turn
    sequence: list            # [(player-turn name, [phase names])]
    tracker_id: str = ""
    span: str = ""            # the calendar's first and last dates ("2 Jan 45 - 27 Jan 45")
    button: str = ""          # the toolbar button's text (default: the name)
    users: list = None        # the names of the scenarios played on it

    def state(self, turn: int) -> str:
        """TURN state at the start of *turn* (§4.7): the turn's index, first player-turn, first phase."""
        idx = self.turns.index(turn) if turn in self.turns else 0
        subs = [encode_str(["0", "0", "0", _flags(len(ph))], ";") for _, ph in self.sequence]
        top = encode_str([str(idx), "0", "0", _flags(len(self.turns)), *subs], ";")
        return encode_str(["0", top], "|")

    def command(self, turn: int) -> TurnCommand:
        return TurnCommand(self.tracker_id, self.state(turn))


def _flags(n: int) -> str:
    return encode_str(["true"] * n, ",")


def _label(t: dict) -> str:
    label = t.get("label") or t.get("date") or ""
    return f"Turn {t['turn']}" + (f" ({label})" if label else "")


def _calendar(name, turns, sequence) -> Calendar | None:
    turns = [t for t in turns or [] if isinstance(t, dict) and isinstance(t.get("turn"), int)]
    if not turns:
        return None
    seq = [(pt.get("name") or pt.get("id") or "", [ph.get("name") or ph.get("id") for ph in pt.get("phases") or []])
           for pt in sequence or [] if isinstance(pt, dict)]
    dates = [str(t.get("label") or t.get("date") or "") for t in (turns[0], turns[-1])]
    span = " – ".join(dates) if all(dates) else ""
    return Calendar(name, [t["turn"] for t in turns], [_label(t) for t in turns], [s for s in seq if s[1]], span=span)


def calendars(game) -> tuple[list, dict]:
    """(calendars, scenario id -> calendar)."""
    base = _calendar("Turn", game.doc.get("turns"), game.doc.get("sequence"))
    out, by_scenario = ([base] if base else []), {}
    for sid, sc in game.by_id["scenarios"].items():
        cal = base
        if sc.get("turns") or sc.get("sequence"):
            cal = _calendar(f"Turn ({sc.get('name') or sid})", sc.get("turns") or game.doc.get("turns"),
                            sc.get("sequence") or game.doc.get("sequence"))
            out.append(cal)
        if cal is not None:
            by_scenario[sid] = cal
    for i, cal in enumerate(out):
        cal.tracker_id = f"TurnTracker{i}"
        cal.users = [game.by_id["scenarios"][sid].get("name") or sid for sid, c in by_scenario.items() if c is cal]
        # beside a scenario's own calendar the game's is named by its dates, so each button says whose it is
        cal.button = cal.name if len(out) == 1 or cal is not base or not cal.span else f"Turn ({cal.span})"
    return out, by_scenario


def add_trackers(root, cals) -> None:
    for cal in cals:
        users = "; ".join(cal.users or [])
        tt = root.add(TURNPKG + "TurnTracker", buttonText=cal.button or cal.name, hotkey="", icon="",
                      lengthStyle="Maximum", name=cal.name, nexthotkey="78,520", prevhotkey="80,520",
                      tooltip="Turn and phase" + (f" of: {users}" if users else ""),
                      turnFormat="$level1$ - $level2$", reportFormat="* <<< $newTurn$ >>> *")
        turn = tt.add(TURNPKG + "ListTurnLevel", configFirst=False, configList=False, list=cal.labels,
                      name="Turn", property="Turn", prompt="", turnFormat="$value$")
        # the maps' moved marks are cleared at every change of turn or phase
        tt.add(TURNPKG + "TurnGlobalHotkey", name="Clear moved marks", hotkey=UNMOVED_KEY, match="", reportFormat="")
        multi = len(cal.sequence) > 1
        for i, (pt_name, phases) in enumerate(cal.sequence):
            turn.add(TURNPKG + "ListTurnLevel", configFirst=False, configList=False, list=phases,
                     name=pt_name, property=f"Phase{i + 1}" if multi else "Phase", prompt="",
                     turnFormat=f"{pt_name}: $value$" if multi else "$value$")
