"""The dump report's JSON path: masking decided on the encoded text gives exactly what the
structural walk gives, and the report text is the report object."""

import json
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from builder.vassal.report import MASK, Masker, _entries, collect_secrets, save_report, save_report_json
from builder.vassal.savefile import read_save
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


def _report_by_objects(save, mask=MASK) -> str:
    """save_report_json as it was written before layers were encoded once each: every entry an object."""
    masker = Masker(collect_secrets(save) if mask is not None else set(), mask or MASK)
    counts = Counter()
    commands = ",".join(masker.dumps(e) for e in _entries(save, counts, mask))
    head = json.dumps({"encoding": save.encoding, "counts": dict(sorted(counts.items()))}, ensure_ascii=False)
    return head[:-1] + ', "commands": [' + commands + "]}"


def _real_saves() -> list[Path]:
    real = Path(__file__).resolve().parents[1].parent / "shared" / "real-vassal"
    return sorted(p for p in real.glob("*.v[sl][ao][vg]")) if real.is_dir() else []


def test_report_text_is_byte_identical_to_encoding_each_entry_whole():
    saves = [sample_save()] + [read_save(p) for p in _real_saves()]
    for save in saves:
        for mask in (MASK, None):
            assert save_report_json(save, mask=mask) == _report_by_objects(save, mask)


def test_a_long_report_masks_in_every_chunk_as_entry_by_entry():
    # more commands than one chunk of save_report_json_chunks holds; the password shows up in
    # chats of the first, a middle and the last chunk, and as a part of longer words elsewhere
    from builder.vassal.commands import BeginSave, Chat, Compound, EndSave, Log, NullCommand, Player
    from builder.vassal.report import _CHUNK, save_report_json_chunks
    from builder.vassal.savefile import SaveFile
    n = 3 * _CHUNK + 17
    chats = [Log(Chat(f"<Alice> - {'my pw1 is out' if i in (3, _CHUNK + 5, n - 1) else 'pw10 pw1x x'}"))
             for i in range(n)]
    save = SaveFile.new(Compound([BeginSave(), NullCommand(), Player("pw1", "Alice", "Blue"), EndSave(), *chats]))
    parts = save_report_json_chunks(save)
    assert len(parts) == 2 + -(-(n + 4) // _CHUNK)
    text = "".join(parts)
    assert text == save_report_json(save) == _report_by_objects(save)
    assert text.count("my ******** is out") == 2 * 3 and "pw10 pw1x" in text and " pw1 " not in text
