"""Hex-ID templates such as "{row}{col}" or "{sheet}{col}.{row:02}"."""
import re
from dataclasses import dataclass

from . import labels
from .errors import GridSpecError

_TOKEN = re.compile(r"\{(sheet|col|row)(?::0([1-9]))?\}")


@dataclass(frozen=True)
class Token:
    name: str          # 'sheet', 'col' or 'row'
    width: int = 0     # zero-padding width for numeric labels (0 = none)


@dataclass(frozen=True)
class IdTemplate:
    """A compiled template: literal strings and Tokens, in order."""

    source: str
    parts: tuple  # of str | Token
    col_labels: str
    row_labels: str

    @classmethod
    def compile(cls, text, path: str, has_sheets: bool, col_labels: str = "numbers",
                row_labels: str = "numbers") -> "IdTemplate":
        if not isinstance(text, str) or not text:
            raise GridSpecError(path, f"expected a non-empty string, got {text!r}")
        if "$" in text:
            # '$' delimits variables in VASSAL's locationFormat; a literal one cannot be kept.
            raise GridSpecError(path, f"'$' is not allowed in an ID template: {text!r}")
        parts, pos, seen = [], 0, set()
        for m in _TOKEN.finditer(text):
            literal = text[pos:m.start()]
            if "{" in literal or "}" in literal:
                raise GridSpecError(path, f"bad token in {text!r} near {literal!r}; "
                                    "tokens are {sheet} {col} {row} {col:0N} {row:0N}")
            if literal:
                parts.append(literal)
            name, width = m.group(1), int(m.group(2) or 0)
            if name in seen:
                raise GridSpecError(path, f"token {{{name}}} appears twice in {text!r}")
            seen.add(name)
            axis_labels = {"col": col_labels, "row": row_labels}.get(name, "numbers")
            if width and (name == "sheet" or axis_labels == "letters"):
                raise GridSpecError(path, f"{{{name}}} cannot take a width in {text!r} "
                                    "(only numeric labels are zero-padded)")
            parts.append(Token(name, width))
            pos = m.end()
        tail = text[pos:]
        if "{" in tail or "}" in tail:
            raise GridSpecError(path, f"bad token in {text!r} near {tail!r}; "
                                "tokens are {sheet} {col} {row} {col:0N} {row:0N}")
        if tail:
            parts.append(tail)
        for needed in ("col", "row"):
            if needed not in seen:
                raise GridSpecError(path, f"{{{needed}}} is missing from {text!r}")
        if has_sheets and "sheet" not in seen:
            raise GridSpecError(path, f"{{sheet}} is missing from {text!r} (the grid has sheets)")
        if not has_sheets and "sheet" in seen:
            raise GridSpecError(path, f"{{sheet}} used in {text!r} but the grid has no sheets")
        return cls(text, tuple(parts), col_labels, row_labels)

    def format(self, sheet: str | None, col: int, row: int, col_first: int,
               row_first: int) -> str:
        """The ID of local (col, row) on ``sheet``; *_first give the letter 'A' index."""
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
            elif part.name == "sheet":
                out.append(sheet or "")
            elif part.name == "col":
                out.append(label(col, col_first, self.col_labels, part.width))
            else:
                out.append(label(row, row_first, self.row_labels, part.width))
        return "".join(out)

    def token(self, name: str) -> Token | None:
        for part in self.parts:
            if isinstance(part, Token) and part.name == name:
                return part
        return None


def label(index: int, first: int, style: str, width: int = 0) -> str:
    """The label of one index: letters count from ``first`` (= A), numbers are the index."""
    if style == "letters":
        return labels.letters(index - first)
    return labels.number(index, width)
