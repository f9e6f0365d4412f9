"""``CodeTokenizer.__call__``: model inputs from code, laid out as ``transformers`` lays them.

The layout oracle is ``transformers`` itself: a ``PreTrainedTokenizerFast`` over a
word-level HF ``tokenizers`` model whose word ``t<id>`` is token ``id`` (the control tokens
keep their own names), with the code tokenizer's template as its post-processor. Fed the
code tokenizer's ids spelled that way, it pads, truncates, windows and marks them as it
would its own; ``CodeTokenizer.__call__`` on the sources must give the same columns.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from _call_helpers import outcome

from codetok.code import CodeTokenizer, LexemeKind
from codetok.errors import CodetokError, ConfigurationError, VocabularyError

SOURCES = [
    "def add(a, b):\n    return a + b\n",
    "x = 1\n",
    "class Box:\n    def get(self):\n        # the value\n        return self.value\n",
    "print('Ünïcödé naïve café, 日本語')\n",
]
PAIRS = [
    "y = add(1, 2)\n",
    "for i in range(10):\n    total += i * i\n    print(total)\n",
    "pass\n",
    "'''<|endoftext|> in a string'''\n",
]
KEYS = [
    "input_ids",
    "token_type_ids",
    "attention_mask",
    "special_tokens_mask",
    "overflow_to_sample_mapping",
    "length",
]


@pytest.fixture(scope="module")
def tok():
    t = CodeTokenizer()
    t.model_max_length = 64
    return t


@pytest.fixture(scope="module")
def hf(tok, transformers_mod):
    tokenizers = pytest.importorskip("tokenizers")
    control = {tok.control_id(r) for r in ("pad", "eos", "unk", "mask")}
    vocab = {(tok.id_to_token(i) if i in control else f"t{i}"): i for i in range(tok.vocab_size)}
    inner = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="<unk>"))
    inner.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    single, pair = tok.post_processor.to_dict()["single"], tok.post_processor.to_dict()["pair"]
    assert single and pair
    inner.post_processor = tokenizers.processors.TemplateProcessing(
        single="$A <|endoftext|>",
        pair="$A <|endoftext|> $B:1 <|endoftext|>:1",
        special_tokens=[("<|endoftext|>", tok.control_id("eos"))],
    )
    return transformers_mod.PreTrainedTokenizerFast(
        tokenizer_object=inner,
        pad_token="<pad>",
        eos_token="<|endoftext|>",
        model_max_length=tok.model_max_length,
        model_input_names=tok.model_input_names,
    )


def spelled(tok, source):
    """The source's ids as the oracle's words."""
    return " ".join(f"t{i}" for i in tok.encode(source, "python").ids)


def compare(tok, hf, sources, pairs, **kwargs):
    hf.padding_side = tok.padding_side = kwargs.pop("_padding_side", "right")
    hf.truncation_side = tok.truncation_side = kwargs.pop("_truncation_side", "right")
    batched = isinstance(sources, list)
    text = [spelled(tok, s) for s in sources] if batched else spelled(tok, sources)
    text_pair = None
    if pairs is not None:
        text_pair = [spelled(tok, s) for s in pairs] if batched else spelled(tok, pairs)
    h_status, h = outcome(hf, dict(text=text, text_pair=text_pair, **kwargs))
    c_status, c = outcome(
        lambda **kw: tok(sources, "python", source_pair=pairs, **kw), dict(kwargs)
    )
    if h_status == "error":
        assert c_status == "error", f"transformers failed ({h!r}) but codetok gave {c}"
        assert isinstance(c, CodetokError), f"codetok raised a non-codetok error: {c!r}"
        return
    assert c_status == "ok", f"codetok failed where transformers did not: {c!r}"
    assert sorted(c.keys()) == sorted(k for k in h.keys() if k != "offset_mapping")
    for key in KEYS:
        if key in h:
            assert c[key] == h[key], f"{key} differs for {kwargs}"


PADDING = [False, True, "max_length"]
TRUNCATION = [None, True, "only_first", "only_second"]


@pytest.mark.parametrize("padding", PADDING)
@pytest.mark.parametrize("truncation", TRUNCATION)
@pytest.mark.parametrize("is_pair", [False, True])
def test_layout_matches_transformers(tok, hf, padding, truncation, is_pair):
    for max_length, stride, (pside, tside), multiple, overflow in itertools.product(
        [None, 9, 16],
        [0, 3],
        [("right", "right"), ("left", "left"), ("right", "left")],
        [None, 8],
        [False, True],
    ):
        compare(
            tok,
            hf,
            SOURCES,
            PAIRS if is_pair else None,
            padding=padding,
            truncation=truncation,
            max_length=max_length,
            stride=stride,
            pad_to_multiple_of=multiple,
            return_overflowing_tokens=overflow,
            return_special_tokens_mask=True,
            return_length=True,
            _padding_side=pside,
            _truncation_side=tside,
        )


@pytest.mark.parametrize("is_pair", [False, True])
def test_one_source_unbatched(tok, hf, is_pair):
    for source, pair in zip(SOURCES, PAIRS, strict=True):
        p = pair if is_pair else None
        compare(tok, hf, source, p, return_token_type_ids=True)
        compare(tok, hf, source, p, add_special_tokens=False)
        compare(
            tok,
            hf,
            source,
            p,
            max_length=7,
            truncation=True,
            padding="max_length",
            return_overflowing_tokens=True,
            stride=2,
            _padding_side="left",
        )


@pytest.mark.parametrize("tensors", ["np", "pt"])
def test_return_tensors(tok, hf, tensors):
    if tensors == "pt":
        pytest.importorskip("torch")
    h = hf([spelled(tok, s) for s in SOURCES], padding=True, return_tensors=tensors)
    c = tok(SOURCES, "python", padding=True, return_tensors=tensors)
    assert sorted(c.keys()) == sorted(h.keys())
    for key in h:
        assert type(c[key]) is type(h[key])
        assert np.array_equal(np.asarray(c[key]), np.asarray(h[key]))


def test_code_columns_follow_the_tokens(tok):
    """Kinds, node types and offsets are each kept token's own, -1 / (0, 0) elsewhere,
    through padding, truncation and windows."""
    encs = [tok.encode(s, "python") for s in SOURCES]
    out = tok(
        SOURCES,
        "python",
        padding=True,
        truncation=True,
        max_length=12,
        stride=2,
        return_overflowing_tokens=True,
        return_kinds=True,
        return_node_types=True,
        return_offsets_mapping=True,
    )
    seen = set()
    for row, sample in enumerate(out["overflow_to_sample_mapping"]):
        enc = encs[sample]
        spans = [tuple(s) for s in enc.spans.tolist()]
        for j, w in enumerate(out.encodings[row].word_ids):
            if w is None:
                assert out["kinds"][row][j] == -1 and out["node_types"][row][j] == -1
                assert out["offset_mapping"][row][j] == (0, 0)
                continue
            seen.add((sample, w))
            assert out["input_ids"][row][j] == enc.ids[w]
            assert out["kinds"][row][j] == int(enc.kinds[w])
            assert out["node_types"][row][j] == int(enc.node_type_ids[w])
            assert out["offset_mapping"][row][j] == spans[w]
    assert seen == {(k, w) for k, e in enumerate(encs) for w in range(len(e))}
    kinds = tok("x = 1\n", "python", return_kinds=True)["kinds"]
    assert kinds == [LexemeKind.IDENTIFIER, LexemeKind.OPERATOR, LexemeKind.NUMBER,
                     LexemeKind.NEWLINE, -1]  # fmt: skip


def test_statement_truncation_cuts_between_statements(tok):
    source = SOURCES[2] + "x = [1, 2, 3]\ny = x\n"
    full = tok.encode(source, "python")
    for max_length in range(3, len(full) + 2):
        ids = tok(source, "python", truncation="statement", max_length=max_length)["input_ids"]
        assert len(ids) <= max_length and ids[-1] == tok.control_id("eos")
        kept = tok.decode(ids)
        assert source.startswith(kept)
        assert ids[:-1] == full.ids[: len(ids) - 1]

    def cut(max_length):
        return tok.decode(
            tok(source, "python", truncation="statement", max_length=max_length)["input_ids"]
        )

    assert cut(len(full) + 1) == source
    assert cut(len(full)) == source[:-1]  # "y = x" ends before its newline
    assert (
        cut(len(full) - 1) == "class Box:\n    def get(self):\n        # the value\n"
        "        return self.value\nx = [1, 2, 3]"
    )
    assert (
        cut(23) == "class Box:\n    def get(self):\n        # the value\n        return self.value"
    )
    assert cut(13) == "class Box:\n    def get(self):\n        "  # no statement fits: a lexeme
    with pytest.raises(ConfigurationError, match="statement"):
        tok(source, "python", source_pair="x = 1\n", truncation="statement", max_length=8)


def test_the_call_leaves_the_tokenizer_as_it_was(tok):
    before = tok.to_str()
    sides = (tok.padding_side, tok.truncation_side, tok.model_max_length)
    tok(SOURCES, "python", padding="max_length", max_length=40, padding_side="left",
        truncation_side="left", truncation=True)  # fmt: skip
    assert tok.to_str() == before
    assert (tok.padding_side, tok.truncation_side, tok.model_max_length) == sides


def test_unknown_options_and_padding_without_pad(tok):
    with pytest.raises(ConfigurationError, match="retrun_tensors"):
        tok("x = 1\n", "python", retrun_tensors="np")
    with pytest.raises(ConfigurationError, match="padding"):
        tok(["x = 1\n"], "python", padding="sideways")


def test_control_tokens_of_the_default():
    """The default has every control token, as a special token after the ids it had
    before, decoded only on request and never matched in source text."""
    tok = CodeTokenizer.default()
    ids = {role: tok.control_id(role) for role in ("pad", "eos", "unk", "mask", "fim_prefix",
           "fim_middle", "fim_suffix", "fim_pad", "file_sep", "repo_name")}  # fmt: skip
    assert len(set(ids.values())) == len(ids)
    assert tok.control_id("bos") == ids["eos"]
    for tid in ids.values():
        token = tok.id_to_token(tid)
        assert tok.decode([tid]) == ""
        assert tok.decode([tid], skip_special_tokens=False) == token
    src = "s = '<|endoftext|><fim_prefix>'\n"
    enc = tok.encode(src, "python")
    assert not set(enc.ids) & set(ids.values())
    assert tok.decode(enc.ids + [ids["eos"]], skip_special_tokens=False) == src + "<|endoftext|>"
    assert tok.special_tokens_map == {
        "bos_token": "<|endoftext|>",
        "eos_token": "<|endoftext|>",
        "pad_token": "<pad>",
        "unk_token": "<unk>",
        "mask_token": "<mask>",
    }
    with pytest.raises(VocabularyError, match="role"):
        tok.control_id("sep")


def test_a_file_without_control_tokens_keeps_its_ids():
    """A file saved before control tokens loads with the ids it had and says what it
    lacks; a new tokenizer over it adds them after every existing id."""
    old = CodeTokenizer.default().to_dict()
    fim = {"<mask>", "<fim_prefix>", "<fim_middle>", "<fim_suffix>", "<fim_pad>",
           "<file_sep>", "<repo_name>"}  # fmt: skip
    old["added_tokens"] = [t for t in old["added_tokens"] if t["content"] not in fim]
    old["post_processor"] = None
    loaded = CodeTokenizer.from_dict(old)
    assert loaded.vocab_size == CodeTokenizer.default().vocab_size - len(fim)
    with pytest.raises(VocabularyError, match="fim_middle"):
        loaded.control_id("fim_middle")
    assert loaded.post_processor is None
    assert loaded("x = 1\n", "python")["input_ids"] == loaded.encode("x = 1\n", "python").ids
    fresh = CodeTokenizer(loaded.tokenizer, languages=list(loaded.reserved.keywords),
                          **loaded.options.to_dict())  # fmt: skip
    assert fresh.control_id("fim_middle") >= loaded.vocab_size
    src = SOURCES[2]
    assert fresh.encode(src, "python").ids == loaded.encode(src, "python").ids


def test_the_array_path_gives_what_the_encodings_give(tok):
    """Single sources go straight from id arrays to columns; every column equals the
    general path's (through encodings), and the encodings are there when read."""
    from codetok.code.model_inputs import code_call

    eos = tok.control_id("eos")
    for kwargs in itertools.chain(
        (
            dict(
                padding=p,
                truncation=t,
                max_length=m,
                pad_to_multiple_of=k,
                padding_side=s,
                truncation_side=ts,
                return_special_tokens_mask=True,
                return_length=True,
                return_position_ids=True,
                return_token_type_ids=True,
                return_kinds=True,
                return_node_types=True,
            )  # fmt: skip
            for p, t, m, k, s, ts in itertools.product(
                [False, True, "max_length"],
                [None, True],
                [None, 5, 40],
                [None, 8],
                ["right", "left"],
                ["right", "left"],
            )  # fmt: skip
        ),
        [dict(add_special_tokens=False, padding=True), dict(return_attention_mask=False)],
    ):
        for sources in (SOURCES, SOURCES[1]):
            f_status, fast = outcome(
                code_call, dict(tok=tok, source=sources, language="python", **kwargs)
            )
            s_status, slow = outcome(
                code_call, dict(tok=tok, source=sources, language="python", _general=True, **kwargs)
            )
            assert f_status == s_status, (kwargs, fast, slow)
            if s_status == "error":
                assert type(fast) is type(slow) and isinstance(fast, CodetokError)
                continue
            assert sorted(fast.keys()) == sorted(slow.keys()), kwargs
            for key in slow.keys():
                assert fast[key] == slow[key], (key, kwargs)
            assert [e.ids for e in fast.encodings] == [e.ids for e in slow.encodings]
    arrays = tok(SOURCES, "python", padding=True, return_tensors="np", return_kinds=True)
    assert (
        arrays["input_ids"].dtype == np.int64 and arrays["kinds"].shape == arrays["input_ids"].shape
    )
    assert (arrays["input_ids"] == eos).sum() == len(SOURCES)
    with pytest.raises(CodetokError, match="padding=True"):
        tok(SOURCES, "python", return_tensors="np")


def test_a_natural_language_part(tok, hf):
    """``language="text"``: a docstring (or a query) before its code, its words through
    the comment channel without a parse; laid out as transformers lays the same ids."""
    docs = ["Add two numbers.", "Return the stored value; naïve café 日本 \u2014 ok"]
    codes = [SOURCES[0], SOURCES[2]]
    out = tok(docs, ("text", "python"), source_pair=codes, return_token_type_ids=True,
              return_offsets_mapping=True, return_kinds=True)  # fmt: skip
    eos = tok.control_id("eos")
    for row, doc, code in zip(range(2), docs, codes, strict=True):
        plain = tok.encode_plain(doc)
        ids = out["input_ids"][row]
        assert ids == plain + [eos] + tok.encode(code, "python").ids + [eos]
        assert tok.decode(ids[: len(plain)]) == doc
        assert out["kinds"][row][: len(plain)] == [-1] * len(plain)
        spans = out["offset_mapping"][row][: len(plain)]
        assert spans[0][0] == 0 and spans[-1][1] == len(doc)
        assert all(a <= b for a, b in spans) and sorted(spans) == spans
        covered = {k for a, b in spans for k in range(a, b)}
        assert covered == set(range(len(doc)))
        if doc.isascii():
            assert "".join(doc[a:b] for a, b in spans) == doc
    text = [" ".join(f"t{i}" for i in tok.encode_plain(d)) for d in docs]
    pair = [spelled(tok, c) for c in codes]
    h = hf(text, pair, truncation=True, max_length=24, padding=True)
    c = tok(docs, ("text", "python"), source_pair=codes, truncation=True,
            max_length=24, padding=True)  # fmt: skip
    assert c["input_ids"] == h["input_ids"] and c["attention_mask"] == h["attention_mask"]


def test_copies_keep_the_call_settings():
    import copy
    import pickle

    tok = CodeTokenizer()
    tok.model_max_length, tok.padding_side, tok.truncation_side = 12, "left", "left"
    tok.model_input_names = ["input_ids"]
    for other in (copy.deepcopy(tok), pickle.loads(pickle.dumps(tok))):
        assert (other.model_max_length, other.padding_side, other.truncation_side) == (
            12,
            "left",
            "left",
        )
        assert other.model_input_names == ["input_ids"]
        got = other(SOURCES, "python", padding=True, truncation=True)
        assert (
            got["input_ids"] == tok(SOURCES, "python", padding=True, truncation=True)["input_ids"]
        )
        assert list(got.keys()) == ["input_ids"]
