"""VASSAL's ``SequenceEncoder`` and ``SequenceEncoder.Decoder`` (vassal-format.md §3.1).

Rules (behaviour of ``VASSAL.tools.SequenceEncoder``):

* Tokens are joined with a one-character delimiter ``d``.
* In a non-empty token every ``d`` is preceded by one backslash; nothing else is escaped.
* A token that starts with a backslash, or starts *and* ends with ``'``, is wrapped in
  single quotes after escaping.
* Decoding: a delimiter is escaped iff the character right before it is a backslash; that
  backslash is dropped. A token of length >= 2 that starts and ends with ``'`` loses them.
* Each nesting level therefore adds exactly one backslash before the outer delimiter.

Known VASSAL non-round-trip: a token that is not the last and ends with a backslash
(see :func:`roundtrips`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from builder.vassal.errors import VassalFormatError

__all__ = [
    "encode",
    "decode",
    "roundtrips",
    "SequenceEncoder",
    "SequenceDecoder",
    "java_double",
    "parse_java_int",
]

BACKSLASH = "\\"
QUOTE = "'"
_LEADS = BACKSLASH + QUOTE   # a token's first characters that may need quoting
# Delimiters for which VASSAL routes number/boolean text through the escaping string path.
_NUMERIC_CHARS = frozenset("-.0123456789EINaefilnrstuy")


def _escape(s: str, d: str) -> str:
    e = s.replace(d, BACKSLASH + d) if d in s else s
    if s[0] == BACKSLASH or (s[0] == QUOTE and s[-1] == QUOTE):
        e = QUOTE + e + QUOTE
    return e


def encode(tokens: Iterable[str | None], d: str) -> str | None:
    """Join *tokens* with delimiter *d* exactly as VASSAL's SequenceEncoder does.

    ``None`` and ``""`` tokens are written as empty tokens. Returns ``None`` for an empty
    token list (VASSAL's ``getValue()`` of an encoder nothing was appended to).
    """
    if len(d) != 1:
        raise ValueError("delimiter must be one character")
    # one join; only a token holding the delimiter or led by a backslash or quote goes through _escape
    # (a module's set-ups encode some 180,000 tokens, nearly all plain)
    out = [(_escape(s, d) if d in s or s[0] in _LEADS else s) if s else "" for s in tokens]
    return d.join(out) if out else None


def encode_str(tokens: Iterable[str | None], d: str) -> str:
    """Like :func:`encode` but an empty list gives ``""``."""
    v = encode(tokens, d)
    return "" if v is None else v


def _unquote(t: str) -> str:
    if len(t) > 1 and t[0] == QUOTE and t[-1] == QUOTE:
        return t[1:-1]
    return t


def decode(v: str | None, d: str) -> list[str]:
    """Split *v* on unescaped *d* exactly as VASSAL's SequenceEncoder.Decoder does.

    ``None`` gives no tokens; ``""`` gives one empty token.
    """
    if v is None:
        return []
    parts = v.split(d)
    if BACKSLASH not in v:
        if QUOTE not in v:
            return parts
        return [_unquote(p) for p in parts]
    toks: list[str] = []
    cur: list[str] = []
    last = len(parts) - 1
    for i, p in enumerate(parts):
        # The delimiter after part i is escaped iff part i is non-empty and ends in "\".
        if i < last and p and p[-1] == BACKSLASH:
            cur.append(p[:-1])
            cur.append(d)
            continue
        if cur:
            cur.append(p)
            toks.append(_unquote("".join(cur)))
            cur = []
        else:
            toks.append(_unquote(p))
    return toks


def roundtrips(tokens: Sequence[str | None], d: str) -> bool:
    """True if VASSAL itself round-trips *tokens* (decode(encode(t)) == t, None read as "")."""
    if not tokens:
        return True
    enc = encode(tokens, d)
    return decode(enc, d) == [t or "" for t in tokens]


# ----------------------------------------------------------------------------- Java values

def java_double(x: float) -> str:
    """``String.valueOf(double)`` (``1.0``, ``0.3``, ``NaN``, ``1.0E-6``, ``1.5E7``)."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if str(x).startswith("-") else "0.0"
    if 1e-3 <= abs(x) < 1e7:
        r = repr(x)
        if "e" in r or "E" in r:
            r = f"{x:f}".rstrip("0")
        return r + "0" if r.endswith(".") else (r if "." in r else r + ".0")
    r = repr(x)
    if "e" in r:
        mant, exp = r.split("e")
    else:  # repr chose fixed notation; normalise to one digit before the point
        mant, exp = "", "0"
        for nd in range(1, 18):
            cand = f"{abs(x):.{nd - 1}e}"
            if float(cand) == abs(x):
                m, e = cand.split("e")
                mant, exp = ("-" if x < 0 else "") + m, e
                break
    if "." not in mant:
        mant += ".0"
    return f"{mant}E{int(exp)}"


def parse_java_int(s: str | None) -> int | None:
    """``Integer.parseInt`` semantics: optional sign and ASCII digits only; else ``None``."""
    if not s:
        return None
    if len(s) < 10 and s.isdigit() and s.isascii():   # the usual case: a short unsigned number
        return int(s)
    t = s[1:] if s[0] in "+-" else s
    if not t or not t.isascii() or not t.isdigit() or len(t.lstrip("0")) > 10:
        return None
    v = int(s)
    if not -(2**31) <= v < 2**31:
        return None
    return v


def _java_bool(b: bool) -> str:
    return "true" if b else "false"


class SequenceEncoder:
    """Builder mirroring VASSAL's ``SequenceEncoder`` API (append then :meth:`value`)."""

    __slots__ = ("delim", "_tokens")

    def __init__(self, delim: str, initial: str | None = None, *, has_initial: bool = False) -> None:
        if len(delim) != 1:
            raise ValueError("delimiter must be one character")
        self.delim = delim
        self._tokens: list[str | None] = []
        if initial is not None or has_initial:
            self._tokens.append(initial)

    def append(self, value: Any) -> "SequenceEncoder":
        if value is None or isinstance(value, str):
            self._tokens.append(value)
        elif isinstance(value, bool):
            self._tokens.append(_java_bool(value))
        elif isinstance(value, int):
            self._tokens.append(str(value))
        elif isinstance(value, float):
            self._tokens.append(java_double(value))
        elif isinstance(value, (list, tuple)):
            self._tokens.append(encode_str(["" if v is None else str(v) for v in value], ","))
        else:
            self._tokens.append(str(value))
        return self

    def value(self) -> str | None:
        return encode(self._tokens, self.delim)

    def __str__(self) -> str:
        return self.value() or ""


class SequenceDecoder:
    """Reader mirroring VASSAL's ``SequenceEncoder.Decoder`` (``next_token(default)``...)."""

    __slots__ = ("_tokens", "_pos")

    _MISSING = object()

    def __init__(self, value: str | None, delim: str) -> None:
        self._tokens = decode(value, delim)
        self._pos = 0

    def has_more(self) -> bool:
        return self._pos < len(self._tokens)

    def remaining(self) -> list[str]:
        rest = self._tokens[self._pos:]
        self._pos = len(self._tokens)
        return rest

    def next_token(self, default: Any = _MISSING) -> Any:
        if self._pos >= len(self._tokens):
            if default is SequenceDecoder._MISSING:
                raise VassalFormatError("no more tokens")
            return default
        t = self._tokens[self._pos]
        self._pos += 1
        return t

    def next_int(self, default: int) -> int:
        t = self.next_token(None)
        v = parse_java_int(t.strip() if t else t)
        return default if v is None else v

    def next_double(self, default: float) -> float:
        t = self.next_token(None)
        try:
            return float(t) if t else default
        except ValueError:
            return default

    def next_boolean(self, default: bool) -> bool:
        t = self.next_token(None)
        return default if t is None else t == "true"

    def next_char(self, default: str) -> str:
        t = self.next_token(None)
        return t[0] if t else default

    def next_string_array(self, minimum: int = 0) -> list[str]:
        t = self.next_token(None)
        items = decode(t, ",") if t else []
        while len(items) < minimum:
            items.append("")
        return items
