"""The dump report's JSON path: masking decided on the encoded text gives exactly what the
structural walk gives, and the report text is the report object."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from builder.vassal.report import Masker, save_report, save_report_json
from codec_support import sample_save

_CHARS = st.sampled_from(["x", "p", "w", "a", ";", "/", "\t", "\\", ",", "|", ":", " ", "<", '"', "\n",
                          "\x1c", "\x0b", "\xa0", "é", "'"])
_TEXT = st.lists(st.one_of(_CHARS, st.just("pw")), max_size=10).map("".join)
_VALUES = st.recursive(st.one_of(_TEXT, st.integers(-3, 3), st.none(), st.booleans()),
                       lambda inner: st.one_of(st.lists(inner, max_size=4),
                                               st.dictionaries(_TEXT, inner, max_size=4)),
                       max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.sets(st.sampled_from(["x", "pw", "a b", "é"]), min_size=1))
def test_masking_on_the_encoded_text_equals_the_walk(obj, secrets):
    m = Masker(secrets)
    assert json.loads(m.dumps(obj)) == m(obj)


def test_secrets_with_characters_json_escapes_are_always_walked():
    m = Masker({'p"w'})
    assert json.loads(m.dumps({"note": 'say p"w'})) == {"note": "say ********"}


def test_report_text_is_the_report_object():
    save = sample_save()
    assert json.loads(save_report_json(save)) == save_report(save)
    assert json.loads(save_report_json(save, mask=None)) == save_report(save, mask=None)
