"""``tokenizer.json`` loading and saving against HF ``tokenizers``: Split behaviours,
Oniguruma-specific regex syntax, ByteLevel without regex, UnicodeScripts, and errors."""

from __future__ import annotations

import json

import pytest
from formats_corpus import ADVERSARIAL, PROSE

from codetok.errors import FormatError, UnknownComponentError
from codetok.formats.hf_json import load_tokenizer_json, save_tokenizer_json

BEHAVIORS = ["Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous"]
PATTERNS = [
    {"Regex": r"\p{N}{1,3}+"},  # Oniguruma: (?:\p{N}{1,3})+, not possessive
    {"Regex": r"\s+"},
    {"Regex": r"[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}|\s*[\r\n]"},
    {"Regex": r"(?i:'s|'t)|\w+"},
    {"String": " "},
    {"String": "ab"},
]
TEXTS = [
    "a 1999-20011 99999x it's 'S",
    "  two  spaces \n\n and\tTAB ",
    "abab cab ba ab",
    *PROSE[:3],
    *ADVERSARIAL[3:12],
]


def _wordlevel_json(pre_tokenizer):
    return {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": None,
        "decoder": None,
        "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"},
    }


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: next(iter(p.values())))
@pytest.mark.parametrize("invert", [False, True])
def test_split_every_behavior_matches_hf(pattern, invert, hf_tokenizers, tmp_path):
    for behavior in BEHAVIORS:
        data = _wordlevel_json(
            {"type": "Split", "pattern": pattern, "behavior": behavior, "invert": invert}
        )
        path = tmp_path / "tokenizer.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        ct = load_tokenizer_json(path)
        hf = hf_tokenizers.Tokenizer.from_file(str(path))
        for text in TEXTS:
            want = hf.pre_tokenizer.pre_tokenize_str(text)
            assert ct.pre_tokenizer.pre_tokenize_str(text) == want, (behavior, text[:40])


@pytest.mark.parametrize(
    "pre_tokenizer",
    [
        {"type": "UnicodeScripts"},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
        {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": False},
        {
            "type": "Sequence",
            "pretokenizers": [
                {
                    "type": "Split",
                    "pattern": {"Regex": r"\p{N}{1,3}| ?\p{L}+|\s+"},
                    "behavior": "Isolated",
                    "invert": False,
                },
                {
                    "type": "ByteLevel",
                    "add_prefix_space": False,
                    "trim_offsets": True,
                    "use_regex": False,
                },
            ],
        },
    ],
    ids=["UnicodeScripts", "ByteLevel-noregex", "ByteLevel-noregex-prefix", "Split+ByteLevel"],
)
def test_pre_tokenizers_match_hf(pre_tokenizer, hf_tokenizers, tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(_wordlevel_json(pre_tokenizer)), encoding="utf-8")
    ct = load_tokenizer_json(path)
    hf = hf_tokenizers.Tokenizer.from_file(str(path))
    texts = TEXTS + ["  lead", "   ", "ひらがなカタカナー漢字", "x1.5y", "日本語 english ΑΒΓ"]
    for text in texts:
        assert ct.pre_tokenizer.pre_tokenize_str(text) == hf.pre_tokenizer.pre_tokenize_str(text)
    out = tmp_path / "saved.json"
    save_tokenizer_json(ct, out)
    assert json.loads(out.read_text())["pre_tokenizer"] == json.loads(hf.to_str())["pre_tokenizer"]
    hf_tokenizers.Tokenizer.from_file(str(out))  # HF loads what codetok wrote


def test_unknown_component_names_type_path_and_file(tmp_path):
    data = _wordlevel_json(
        {"type": "Sequence", "pretokenizers": [{"type": "Whitespace"}, {"type": "Telepathy"}]}
    )
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(UnknownComponentError) as info:
        load_tokenizer_json(path)
    msg = str(info.value)
    assert "Telepathy" in msg and "pretokenizers[1]" in msg and str(path) in msg


def test_malformed_json_names_the_line(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text('{\n  "version": "1.0",\n  "model": {,\n}', encoding="utf-8")
    with pytest.raises(FormatError, match=r"line 3"):
        load_tokenizer_json(path)


def test_codetok_settings_key_and_hf(tmp_path, hf_tokenizers):
    """HF ``tokenizers`` refuses unknown top-level keys: by default the settings are left
    out so HF loads the file; ``codetok_settings=True`` keeps them for codetok."""
    from codetok import Tokenizer
    from codetok.models import WordLevel

    tok = Tokenizer(WordLevel({"a": 0, "[UNK]": 1}, "[UNK]"))
    tok.model_max_length = 7
    keep, drop = tmp_path / "keep.json", tmp_path / "drop.json"
    save_tokenizer_json(tok, keep, codetok_settings=True)
    save_tokenizer_json(tok, drop)
    tok.save(tmp_path / "plain.json")
    assert hf_tokenizers.Tokenizer.from_file(str(tmp_path / "plain.json")).encode("a").ids == [0]
    assert load_tokenizer_json(keep).model_max_length == 7
    with pytest.raises(Exception):  # noqa: B017 - HF raises a bare Exception
        hf_tokenizers.Tokenizer.from_file(str(keep))
    assert hf_tokenizers.Tokenizer.from_file(str(drop)).encode("a").ids == [0]


GENERAL = [
    *({"type": "Punctuation", "behavior": b} for b in BEHAVIORS),
    {"type": "Digits", "individual_digits": True},
    {"type": "Digits", "individual_digits": False},
    {"type": "CharDelimiterSplit", "delimiter": "-"},
    {"type": "Whitespace"},
    {"type": "WhitespaceSplit"},
    {"type": "BertPreTokenizer"},
    {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": True},
    {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": False},
]


@pytest.mark.parametrize("pre_tokenizer", GENERAL, ids=lambda d: "-".join(map(str, d.values())))
def test_general_pre_tokenizers_match_hf(pre_tokenizer, hf_tokenizers, tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(_wordlevel_json(pre_tokenizer)), encoding="utf-8")
    ct = load_tokenizer_json(path)
    hf = hf_tokenizers.Tokenizer.from_file(str(path))
    for text in TEXTS + ["a-b--c 12-345", "x.,;!? (y) ¿z¡ «w»"]:
        assert ct.pre_tokenizer.pre_tokenize_str(text) == hf.pre_tokenizer.pre_tokenize_str(text)


def _model_json(kind, token_id):
    """A tokenizer.json whose model gives the token 'abc' the id ``token_id``."""
    vocab = {"[UNK]": 0, "a": 1, "abc": token_id}
    if kind == "BPE":
        model = {"type": "BPE", "vocab": vocab, "merges": [], "unk_token": "[UNK]"}
    elif kind == "WordPiece":
        model = {
            "type": "WordPiece",
            "vocab": vocab,
            "unk_token": "[UNK]",
            "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100,
        }
    else:
        model = {"type": "WordLevel", "vocab": vocab, "unk_token": "[UNK]"}
    return dict(_wordlevel_json({"type": "WhitespaceSplit"}), model=model)


def _added(token_id):
    return {
        "id": token_id,
        "content": "<x>",
        "single_word": False,
        "lstrip": False,
        "rstrip": False,
        "normalized": False,
        "special": True,
    }


@pytest.mark.parametrize("kind", ["BPE", "WordPiece", "WordLevel"])
@pytest.mark.parametrize("bad", [-1, 2**32, 10**20, 1.5, True, "3"])
def test_vocab_ids_outside_u32_are_refused(kind, bad, tmp_path, hf_tokenizers):
    """HF holds ids as u32 and refuses the file; codetok names the file and the token."""
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(_model_json(kind, bad)), encoding="utf-8")
    with pytest.raises(Exception):  # noqa: B017 - HF raises a bare Exception
        hf_tokenizers.Tokenizer.from_file(str(path))
    with pytest.raises(FormatError) as info:
        load_tokenizer_json(path)
    assert str(info.value).startswith(f"{path}: at model.vocab['abc']: ")
    assert "0..4294967295" in str(info.value)


@pytest.mark.parametrize("kind", ["BPE", "WordPiece", "WordLevel"])
def test_the_largest_u32_id_loads(kind, tmp_path, hf_tokenizers):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(_model_json(kind, 2**32 - 1)), encoding="utf-8")
    assert hf_tokenizers.Tokenizer.from_file(str(path)).token_to_id("abc") == 2**32 - 1
    assert load_tokenizer_json(path).token_to_id("abc") == 2**32 - 1


@pytest.mark.parametrize("model", ["WordLevel", "Unigram"])
@pytest.mark.parametrize("bad", [-1, 2**32, 2.0, None])
def test_added_token_ids_outside_u32_are_refused(model, bad, tmp_path, hf_tokenizers):
    data = _wordlevel_json({"type": "WhitespaceSplit"})
    if model == "Unigram":
        data["model"] = {"type": "Unigram", "unk_id": 0, "vocab": [["[UNK]", 0.0], ["a", -1.0]]}
    data["added_tokens"] = [_added(1), _added(bad)]
    data["added_tokens"][0]["content"] = "<y>"
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(Exception):  # noqa: B017 - HF raises a bare Exception
        hf_tokenizers.Tokenizer.from_file(str(path))
    with pytest.raises(FormatError) as info:
        load_tokenizer_json(path)
    assert str(info.value).startswith(f"{path}: at added_tokens[1].id: ")


@pytest.mark.parametrize("bad", [{}, None, "x", {"0": _added(0)}])
def test_added_tokens_must_be_a_list(bad, tmp_path, hf_tokenizers):
    data = dict(_wordlevel_json({"type": "WhitespaceSplit"}), added_tokens=bad)
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(Exception):  # noqa: B017 - HF raises a bare Exception
        hf_tokenizers.Tokenizer.from_file(str(path))
    with pytest.raises(FormatError) as info:
        load_tokenizer_json(path)
    assert str(info.value).startswith(f"{path}: at added_tokens: ") and "list" in str(info.value)


@pytest.mark.parametrize("bad", [-1, 1.5, "100", None, True, 2**64])
def test_max_input_chars_per_word_must_be_a_count(bad, tmp_path, hf_tokenizers):
    data = _model_json("WordPiece", 2)
    data["model"]["max_input_chars_per_word"] = bad
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(Exception):  # noqa: B017 - HF raises a bare Exception
        hf_tokenizers.Tokenizer.from_file(str(path))
    with pytest.raises(FormatError) as info:
        load_tokenizer_json(path)
    assert str(info.value).startswith(f"{path}: at model.max_input_chars_per_word: ")
    data["model"]["max_input_chars_per_word"] = 0  # HF takes 0: every word is unknown
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_tokenizer_json(path).encode("a").tokens == ["[UNK]"]
    assert hf_tokenizers.Tokenizer.from_file(str(path)).encode("a").tokens == ["[UNK]"]


# ------------------------------------------------------- malformed files found by test_fuzz.py

_TEMPLATE = {"type": "TemplateProcessing", "pair": "$A $B", "special_tokens": {}}

#: (section, value, JSON path of the error): each raised something other than a codetok
#: error naming the file (TypeError, OverflowError, a ConfigurationError without the file),
#: at load or only later, inside encode or decode.
MALFORMED = [
    ("normalizer", {"type": ["Lowercase"]}, "normalizer.type"),
    ("model", {"type": {"x": 1}, "vocab": {}}, "model.type"),
    ("decoder", {"type": "WordPiece", "prefix": ["#"], "cleanup": True}, "decoder.prefix"),
    ("model.unk_token", ["[UNK]"], "model.unk_token"),
    ("normalizer", {"type": "Replace", "pattern": {"String": "a"}, "content": ["b"]}, "normalizer.content"),
    ("pre_tokenizer", {"type": "Metaspace", "replacement": "", "prepend_scheme": "always"}, "pre_tokenizer"),
    ("post_processor", dict(_TEMPLATE, single="[CLS]"), "post_processor"),
    ("post_processor", dict(_TEMPLATE, single=[{"Sequence": {"id": "A", "type_id": 2**32}}]), "post_processor"),
    # special-token ids that are not u32 ints loaded and failed inside encode (long fuzz run)
    ("post_processor", dict(_TEMPLATE, special_tokens={"[S]": {"id": "[S]", "ids": [None], "tokens": ["[S]"]}}), "post_processor"),
    ("post_processor", dict(_TEMPLATE, special_tokens={"[S]": {"id": "[S]", "ids": ["7"], "tokens": ["[S]"]}}), "post_processor"),
    ("post_processor", dict(_TEMPLATE, special_tokens={"[S]": {"id": "[S]", "ids": [-1], "tokens": ["[S]"]}}), "post_processor"),
    ("post_processor", dict(_TEMPLATE, special_tokens={"[S]": {"id": "[S]", "ids": [1, 2], "tokens": ["[S]"]}}), "post_processor"),
    ("post_processor", dict(_TEMPLATE, special_tokens={"[S]": {"id": "[S]", "ids": [1], "tokens": [{}]}}), "post_processor"),
    ("post_processor", dict(_TEMPLATE, special_tokens={"[S]": ["[S]", 1]}), "post_processor"),
    ("normalizer", {"type": "Sequence", "normalizers": [None]}, "normalizer.normalizers[0]"),
    ("truncation", {"max_length": float("inf"), "stride": 0}, "truncation"),
    ("padding", {"strategy": {"Fixed": 2**63}, "pad_id": 0, "pad_token": "[PAD]"}, "padding"),
    ("padding", {"strategy": "BatchLongest", "pad_id": 0, "pad_token": ["[PAD]"]}, "padding"),
    ("codetok", ["settings"], "codetok"),
    ("codetok", {"model_max_length": "many"}, "codetok.model_max_length"),
    ("codetok", {"padding_side": 1}, "codetok.padding_side"),
]  # fmt: skip


@pytest.mark.parametrize(("section", "value", "where"), MALFORMED, ids=lambda v: str(v)[:40])
def test_malformed_sections_name_the_file(section, value, where, tmp_path):
    data = _wordlevel_json({"type": "WhitespaceSplit"})
    if "." in section:
        head, key = section.split(".")
        data[head][key] = value
    else:
        data[section] = value
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_tokenizer_json(path)
    assert str(info.value).startswith(f"{path}: at {where}")


def test_type_ids_past_int32_run_the_python_post_processor(tmp_path):
    # u32 type ids load (as in HF); the native layouts hold int32, and a larger one raised
    # a pybind cast RuntimeError inside encode (found by the long fuzz run).
    data = _model_json("BPE", 2)
    data["post_processor"] = dict(_TEMPLATE, single=[{"Sequence": {"id": "A", "type_id": 2**31}}])
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    enc = load_tokenizer_json(path).encode("a abc")
    assert enc.ids == [1, 1, 0, 0] and enc.type_ids == [2**31] * 4


def test_added_token_ids_past_int32_run_in_python(tmp_path):
    """The native plan holds int32 ids; a larger (u32) added id runs the Python pipeline,
    where it raised inside encode."""
    data = _model_json("BPE", 2)
    data["added_tokens"] = [_added(2**32 - 1)]
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    tok = load_tokenizer_json(path)
    assert tok.encode("a <x> abc").ids == [1, 2**32 - 1, 1, 0, 0]  # no merges: a, [UNK] x2
    assert tok.engine == "python"
