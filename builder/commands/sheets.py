"""``vassal-builder sheets GAME``: printable counter sheets (PDF) with duplex-aligned backs."""

from __future__ import annotations

import sys
from pathlib import Path

from builder.errors import BuildError
from builder.commands.common import Refused, out_problem, valid_game
from builder.progress import Progress
from builder.publish.sheet_layout import PAPER_MM


def register(sub, name, summary):
    p = sub.add_parser(name, help=summary, description=(
        "Write GAME's counters as a printable PDF (default ./dist/GAME-counters.pdf in the current folder): every counter at its true "
        "size in its printed quantity, grouped by side and nationality, each front page followed by its backs "
        "mirrored for long-edge duplex, with crop marks and a last calibration sheet to measure the printer's "
        "back offset."))
    p.add_argument("game", metavar="GAME", help="a shipped game name or a path to a game's data")
    p.add_argument("--paper", choices=sorted(PAPER_MM), default="a4", help="paper size (default a4)")
    p.add_argument("--back-offset", default="0,0", metavar="X,Y",
                   help="move every back by X,Y mm (right, down as seen on the back) to cancel duplex drift; "
                        "read it off the calibration sheet")
    p.add_argument("--bleed", type=float, default=0.0, metavar="MM",
                   help="extend each counter's edges by MM so off-line cuts show no white (default 0)")
    p.add_argument("--no-crop-marks", action="store_true", help="omit crop marks")
    p.add_argument("--no-calibration", action="store_true", help="omit the duplex calibration sheet")
    p.add_argument("--dpi", type=int, default=None, help="counter image resolution (default the game's print_dpi)")
    p.add_argument("--out", type=Path, default=None, help="PDF path (default ./dist/GAME-counters.pdf in the current folder)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress output")
    return p


def parse_offset(text: str) -> tuple[float, float]:
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"--back-offset {text!r}: expected X,Y in mm, e.g. 0.5,-1")
    try:
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"--back-offset {text!r}: expected two numbers X,Y in mm") from None


def run(args) -> int:
    from builder.publish.sheets import write_sheets  # reportlab is imported only when sheets are made

    try:
        offset = parse_offset(args.back_offset)
    except ValueError as exc:
        print(f"vassal-builder: sheets: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.bleed <= 5:
        print("vassal-builder: sheets: --bleed must be between 0 and 5 mm", file=sys.stderr)
        return 2
    if args.dpi is not None and not 72 <= args.dpi <= 1200:
        print("vassal-builder: sheets: --dpi must be between 72 and 1200", file=sys.stderr)
        return 2
    try:
        report = valid_game(args.game, "sheets", "no sheets written")
    except Refused as exc:
        return exc.code
    out = args.out or (Path("dist") / f"{report.game}-counters.pdf")
    problem = out_problem(out, folder=False)
    if problem:
        print(f"vassal-builder: sheets: --out {problem}", file=sys.stderr)
        return 2
    progress = Progress(enabled=not args.quiet)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"vassal-builder: sheets: --out {out}: cannot create {out.parent}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    try:
        facts = write_sheets(report.model, out, args.paper, offset, args.bleed, not args.no_crop_marks,
                             not args.no_calibration, progress, args.dpi)
    except (BuildError, ValueError) as exc:
        print(f"vassal-builder: sheets: {report.game}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"vassal-builder: sheets: {report.game}: cannot write {exc.filename or out}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1
    progress.note(f"{report.game}: wrote {facts['path']}: {facts['counters']} counters on {facts['pages']} pages "
                  f"({args.paper}) in {facts['seconds']:.1f} s")
    return 0
