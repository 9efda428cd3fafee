"""SequenceEncoder/Decoder: VASSAL's escaping rules, known vectors and properties (§3.1)."""
from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from builder.vassal.errors import VassalFormatError
from builder.vassal.sequence import (
    SequenceDecoder,
    SequenceEncoder,
    decode,
    encode,
    java_double,
    parse_java_int,
    roundtrips,
)

TAB, ESC = "\t", "\x1b"


# A literal, slow re-statement of the spec's pseudo-code (vassal-format.md §3.1), used as the
# reference the fast implementation must agree with on every input.
def ref_encode(tokens, d):
    out = []
    for i, s in enumerate(tokens):
        if i:
            out.append(d)
        if not s:
            continue
        e = s.replace(d, "\\" + d)
        if s[0] == "\\" or (s[0] == "'" and s[-1] == "'"):
            e = "'" + e + "'"
        out.append(e)
    return "".join(out) if tokens else None


def ref_decode(v, d):
    def unquote(t):
        return t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t

    if v is None:
        return []
    toks, start, n = [], 0, len(v)
    while True:
        if start == n:
            toks.append("")
            break
        cur, i = "", start
        while i < n:
            if v[i] == d:
                if i > 0 and v[i - 1] == "\\":
                    cur += v[start:i - 1]
                    start = i
                else:
                    cur += v[start:i]
                    start = i + 1
                    break
            i += 1
        else:
            toks.append(unquote(cur + v[start:n]))
            break
        toks.append(unquote(cur))
    return toks


ALPHABET = st.sampled_from([";", "\\", "'", "a", "b", ",", "/", TAB, ESC, "é"])
TOKEN = st.text(ALPHABET, max_size=8)
DELIMS = st.sampled_from([";", ",", "/", TAB, ESC, "|", ":"])


# ------------------------------------------------------------------------------ vectors

@pytest.mark.parametrize("tokens,d,expected", [
    (["a", "b", "c"], ";", "a;b;c"),
    (["a;b"], ";", "a\\;b"),
    (["", None, "x"], ";", ";;x"),
    (["x", ""], ";", "x;"),
    (["\\x"], ";", "'\\x'"),                      # leading backslash → quoted
    (["'q'"], ";", "''q''"),                      # starts and ends with a quote → quoted
    (["'q"], ";", "'q"),                          # only starts with a quote → as is
    (["a\\b"], ";", "a\\b"),                      # inner backslash is not escaped
    (["70,130"], ",", "70\\,130"),
    (["70\\,130", "0\\,0\\,Flip"], ",", "70\\\\,130,0\\\\,0\\\\,Flip"),
    (["+", "null", "delete;Delete;68,130;\tpiece;;;;A", "\tnull;0;0;1;0"], "/",
     "+/null/delete;Delete;68,130;\tpiece;;;;A/\tnull;0;0;1;0"),
    (["</b>"], "/", "<\\/b>"),
])
def test_encode_known_vectors(tokens, d, expected):
    assert encode(tokens, d) == expected
    assert ref_encode(tokens, d) == expected


def test_spec_report_trait_vector():
    # §3.5.6 example: keys array [Ctrl+F] is "70,130" comma-encoded inside a ';' encoding
    inner = encode(["70,130"], ",")
    assert inner == "70\\,130"
    t = "report;" + encode([inner, "$location$: $newPieceName$ flips *", "", "", "Report flip", "false"], ";")
    assert t == "report;70\\,130;$location$: $newPieceName$ flips *;;;Report flip;false"
    assert decode(t, ";")[1] == inner
    assert decode(decode(t, ";")[1], ",") == ["70,130"]


def test_nested_tab_levels_have_linear_backslashes():
    # §3.7: 0, 1, 2 backslashes before successive TABs of the type chain
    layers = ["delete;Delete;68,130;", "emb2;x", "prototype;Blue Unit", "piece;;;;1st Infantry"]
    s = layers[-1]
    for t in reversed(layers[:-1]):
        s = encode([t, s], TAB)
    assert s == "delete;Delete;68,130;\temb2;x\\\tprototype;Blue Unit\\\\\tpiece;;;;1st Infantry"
    # decoding one level removes exactly one backslash before that level's delimiters
    out, rest = [], s
    while True:
        toks = decode(rest, TAB)
        out.append(toks[0])
        if len(toks) == 1:
            break
        assert len(toks) == 2
        rest = toks[1]
    assert out == layers


@given(st.integers(min_value=1, max_value=30))
def test_k_nested_delimiter_has_k_backslashes(k):
    s = "x"
    for _ in range(k):
        s = encode(["a", s], ESC)
    # the innermost ESC was escaped k-1 times
    assert ("\\" * (k - 1) + ESC + "x") in s
    assert ("\\" * k + ESC) not in s
    for _ in range(k):
        a, s = decode(s, ESC)
        assert a == "a"
    assert s == "x"


def test_decode_edge_cases():
    assert decode(None, ";") == []
    assert decode("", ";") == [""]
    assert decode(";", ";") == ["", ""]
    assert decode("a\\;", ";") == ["a;"]
    assert decode("''", ";") == [""]
    assert decode("'", ";") == ["'"]
    assert encode([], ";") is None


def test_known_non_roundtrip_is_reported():
    # a non-last token ending with a backslash makes the next delimiter look escaped
    assert not roundtrips(["a\\", "b"], ";")
    assert decode(encode(["a\\", "b"], ";"), ";") == ["a;b"]
    assert roundtrips(["b", "a\\"], ";")  # fine as the last token


# ----------------------------------------------------------------------------- properties

@settings(max_examples=400, deadline=None)
@given(st.text(ALPHABET, max_size=30), DELIMS)
def test_decode_agrees_with_reference(v, d):
    assert decode(v, d) == ref_decode(v, d)


@settings(max_examples=300, deadline=None)
@given(st.lists(TOKEN, max_size=8), DELIMS)
def test_encode_agrees_with_reference(tokens, d):
    assert encode(tokens, d) == ref_encode(tokens, d)


@settings(max_examples=500, deadline=None)
@given(st.lists(TOKEN, min_size=1, max_size=8), DELIMS)
def test_roundtrip_for_every_list_vassal_roundtrips(tokens, d):
    assume(ref_decode(ref_encode(tokens, d), d) == tokens)   # what VASSAL itself round-trips
    assert decode(encode(tokens, d), d) == tokens
    assert roundtrips(tokens, d)


@settings(max_examples=300, deadline=None)
@given(st.lists(TOKEN, min_size=1, max_size=8), DELIMS)
def test_only_backslash_ended_tokens_fail(tokens, d):
    # §3.1: the only failures are non-last tokens ending with a backslash
    ok = decode(encode(tokens, d), d) == tokens
    suspicious = any(t.endswith("\\") and not t.startswith("\\") for t in tokens[:-1])
    # (a token that starts with a backslash is quoted, so its trailing backslash is harmless)
    assert ok == (not suspicious)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(TOKEN, min_size=1, max_size=4), min_size=1, max_size=4))
def test_two_level_nesting_roundtrips(groups):
    inner = [encode(g, ";") for g in groups]
    assume(all(ref_decode(ref_encode(g, ";"), ";") == g for g in groups))
    assume(ref_decode(ref_encode(inner, TAB), TAB) == inner)
    outer = encode(inner, TAB)
    assert [decode(x, ";") for x in decode(outer, TAB)] == groups


# ---------------------------------------------------------------------- encoder/decoder API

def test_encoder_api_values():
    se = SequenceEncoder(";").append("a;b").append(3).append(True).append(0.3).append(None).append(["x", "y,z"])
    assert se.value() == "a\\;b;3;true;0.3;;x,y\\,z"
    assert SequenceEncoder(";").value() is None
    assert SequenceEncoder(";", "", has_initial=True).value() == ""


def test_decoder_api_defaults():
    d = SequenceDecoder("7;x;true;;1.5", ";")
    assert d.next_int(0) == 7
    assert d.next_int(42) == 42          # "x" does not parse → default
    assert d.next_boolean(False) is True
    assert d.next_char("q") == "q"       # empty token → default
    assert d.next_double(0.0) == 1.5
    assert not d.has_more()
    assert d.next_token("dflt") == "dflt"
    with pytest.raises(VassalFormatError):
        d.next_token()


@pytest.mark.parametrize("x,s", [(1.0, "1.0"), (0.3, "0.3"), (1e-6, "1.0E-6"), (1.5e7, "1.5E7"),
                                 (-2.0, "-2.0"), (0.30000001192092896, "0.30000001192092896"),
                                 (float("nan"), "NaN"), (123456.5, "123456.5")])
def test_java_double(x, s):
    assert java_double(x) == s


@pytest.mark.parametrize("s,v", [("12", 12), ("-3", -3), ("+4", 4), ("", None), ("1.5", None),
                                 ("x", None), ("2147483648", None), ("٣", None),
                                 ("9" * 5000, None), ("-2147483648", -2147483648), ("0000000000012", 12)])
def test_parse_java_int(s, v):
    assert parse_java_int(s) == v


def test_bad_delimiter():
    with pytest.raises(ValueError):
        encode(["a"], ";;")
