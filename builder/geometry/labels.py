"""How an index is written in a hex ID: numbers (optionally zero-padded) or letters.

Letters follow VASSAL's alphabetic grid numbering (RegularGridNumbering.getName) so that
our IDs and the names VASSAL reports agree: ordinal 0 -> A ... 25 -> Z, 26 -> AA,
27 -> BB ... 51 -> ZZ, 52 -> AAA (the letter repeats; there is no AB).
"""

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def letters(ordinal: int) -> str:
    """Letter label of a 0-based ordinal (A = 0)."""
    if ordinal < 0:
        raise ValueError(f"letter labels need an ordinal >= 0, got {ordinal}")
    return ALPHABET[ordinal % 26] * (ordinal // 26 + 1)


def letters_ordinal(text: str) -> int | None:
    """Inverse of letters(); None if text is not a valid letter label."""
    if not text or text[0] not in ALPHABET or text != text[0] * len(text):
        return None
    return (len(text) - 1) * 26 + ALPHABET.index(text[0])


def number(value: int, width: int = 0) -> str:
    """Decimal label, zero-padded to at least ``width`` digits (sign not counted)."""
    digits = str(abs(value)).zfill(width)
    return "-" + digits if value < 0 else digits
