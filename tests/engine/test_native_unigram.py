"""The native Unigram plan (codetok/_native/plans/unigram_pipeline.cpp) and its parts against the
Python reference: grapheme clusters against :mod:`codetok.reference.grapheme` (both against HF in
tests/formats/test_precompiled.py), the ``Precompiled``
normalizer against :class:`codetok.formats.precompiled.Precompiled`, and whole
SentencePiece-style tokenizers (models trained here by ``sentencepiece``) against the
Python pipeline (``use_plans(False)``): ids, tokens, offsets and word ids.
"""

from __future__ import annotations

import base64
import gc

import pytest
from _sentencepiece_helpers import CASES, PROSE, corpus_lines, train_models
from conftest import encoding_state
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok import Tokenizer, normalizers
from codetok.engine.plan import use_plans
from codetok.errors import VocabularyError
from codetok.formats.precompiled import Precompiled
from codetok.formats.sentencepiece_model import (
    load_sentencepiece_model,
    tokenizer_from_sentencepiece,
)
from codetok.models import Unigram
from codetok.pre_tokenizers import Metaspace, Sequence, WhitespaceSplit
from codetok.reference.grapheme import cluster_ends
from codetok.tokenizer.offsets import NormalizedString

core = pytest.importorskip("codetok._core")
spm = pytest.importorskip("sentencepiece", reason="test extra sentencepiece is missing")

#: One char of each grapheme-break class (and the GB9c / GB11 properties).
CLASSES = [
    "a",
    "\r",
    "\n",
    "\x01",
    "\x7f",
    "\u0300",
    "\u200d",
    "\u0903",
    "\u0600",
    "\u1100",
    "\u1160",
    "\u11a8",
    "\uac00",
    "\uac01",
    "\U0001f1e6",
    "\U0001f1eb",
    "\U0001f600",
    "\u0915",
    "\u094d",
    "\u093c",
    "\ufe0f",
    "\U0001f3fb",
    "\u00ad",
    "\ud800",
    "日",
    " ",
    "\u0e33",
    "\u0e31",
    "\u2764",
    "\U000e0020",
]


#: Every code point (lone surrogates too), in order: the chunks below are slices of it.
EVERY_CODE_POINT = "".join(map(chr, range(0x110000)))


def code_points_between(start: int, end: int) -> str:
    """The code points ``start`` up to ``end``, the surrogates (U+D800..U+DFFF) left out."""
    return EVERY_CODE_POINT[start : min(end, 0xD800)] + EVERY_CODE_POINT[max(start, 0xE000) : end]


@pytest.mark.parametrize(
    "joiner", ["", "a", "\u0915\u094d", "\U0001f600\u200d", "\u1100", "\U0001f1e6", "\r"]
)
def test_grapheme_clusters_every_code_point(joiner):
    # Every code point after and before each joiner, in chunks: one \X walk each side.
    for start in range(0, 0x110000, 0x10000):
        text = joiner.join(EVERY_CODE_POINT[start : start + 0x10000])
        assert core.grapheme_ends(text) == cluster_ends(text), (hex(start), joiner)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(CLASSES), max_size=24).map("".join))
def test_grapheme_clusters_mixed(text):
    assert core.grapheme_ends(text) == cluster_ends(text)


@pytest.fixture(scope="module")
def spm_models(tmp_path_factory: pytest.TempPathFactory) -> dict:
    paths = dict(train_models(tmp_path_factory.mktemp("spm_native")))
    base = paths["unigram"].parent
    spm.SentencePieceTrainer.train(
        input=str(base / "corpus.txt"),
        model_prefix=str(base / "unigram_bf"),
        model_type="unigram",
        byte_fallback=True,
        vocab_size=1000,
        num_threads=1,
        minloglevel=2,
    )
    paths["unigram_bf"] = base / "unigram_bf.model"
    return paths


@pytest.fixture(scope="module")
def charsmap(spm_models) -> bytes:
    blob = load_sentencepiece_model(spm_models["unigram"]).normalizer_spec.precompiled_charsmap
    assert blob
    return blob


@pytest.fixture(scope="module")
def precompiled(charsmap) -> Precompiled:
    """The reference normalizer of ``charsmap``, parsed once for the module."""
    return Precompiled(charsmap)


def source_starts(ns: NormalizedString) -> list[int]:
    """Where each char of ``ns`` starts in the original: ``[s for s, _ in ns.spans()]``,
    without building the identity spans first when ``ns`` has no alignment of its own."""
    if ns.align is None:
        return list(range(ns.base, ns.base + len(ns.text)))
    return [s for s, _ in ns.align]


def reference_precompiled(normalizer: Precompiled, text: str) -> tuple[str, list[int]]:
    ns = NormalizedString(text)
    normalizer.normalize(ns)
    return ns.text, source_starts(ns)


def test_precompiled_every_code_point(charsmap, precompiled):
    for start in range(0, 0x110000, 0x8000):
        chunk = EVERY_CODE_POINT[start : start + 0x8000]
        assert core.precompiled_normalize(charsmap, chunk) == reference_precompiled(
            precompiled, chunk
        ), hex(start)


SPM_CHARS = ["ｆ", "Ａ", "ﬁ", "①", "㍿", "ｶﾞ", "e\u0301", "Å", "\u3000", "\t", "\r\n", "x"]
PRECOMPILED_MIX = st.sampled_from([*CLASSES, *SPM_CHARS])


@settings(max_examples=400, deadline=None)
@given(st.lists(PRECOMPILED_MIX, max_size=30).map("".join))
def test_precompiled_mixed(charsmap, precompiled, text):
    assert core.precompiled_normalize(charsmap, text) == reference_precompiled(precompiled, text)


# ------------------------------------------------------------------------- whole plans
def variants(path) -> dict[str, Tokenizer]:
    """The converted tokenizer and reshaped copies, each still a native plan."""
    out = {"t5": tokenizer_from_sentencepiece(path, add_eos=True)}
    base = out["t5"]
    for name, pre in [
        ("first", Metaspace("\u2581", "first", True)),
        ("never_nosplit", Metaspace("\u2581", "never", False)),
        ("ws_meta", Sequence([WhitespaceSplit(), Metaspace("\u2581", "always", True)])),
        ("ws_only", WhitespaceSplit()),
        ("none", None),
    ]:
        tok = Tokenizer.from_str(base.to_str())
        tok.pre_tokenizer = pre
        out[name] = tok
    tok = Tokenizer.from_str(base.to_str())
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.Strip(strip_left=True, strip_right=False),
            normalizers.Lowercase(),
            normalizers.Replace("ab", "\u2581X"),
            normalizers.Replace({"Regex": "a+"}, ""),
            normalizers.Prepend("\u2581"),
            *base.normalizer.normalizers,
        ]
    )
    out["steps"] = tok
    tok = Tokenizer.from_str(base.to_str())
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.NFKD(),
            normalizers.StripAccents(),
            normalizers.Lowercase(),
            normalizers.NFC(),
            *base.normalizer.normalizers,
            normalizers.NFD(),
            normalizers.NFKC(),
        ]
    )
    out["unicode"] = tok
    return out


def same_all(cases: list[tuple[Tokenizer, str, dict]]) -> None:
    """Each ``(tokenizer, text, encode keywords)`` encodes natively as the Python pipeline does.

    All native encodings come first, then all Python ones under a single ``use_plans``
    switch: a switch counts as a change, so each tokenizer compiles its plan again after it.
    """
    got = []
    for tok, text, kw in cases:
        assert tok.engine == "native", tok.engine_reason
        got.append(tok.encode(text, **kw))
    previous = use_plans(False)
    try:
        want = [tok.encode(text, **kw) for tok, text, kw in cases]
    finally:
        use_plans(previous)
    for (_, text, _), mine, python in zip(cases, got, want):
        assert mine.ids == python.ids, text
        assert mine.tokens == python.tokens, text
        assert mine.offsets == python.offsets, text
        assert mine.word_ids == python.word_ids, text
        assert mine.type_ids == python.type_ids, text


TEXTS = [*CASES, PROSE, "  lead", "trail  ", "a  b   c", "\u2581\u2581x", "ab aab"]


@pytest.mark.parametrize("model", ["unigram", "unigram_bf"])
def test_plans_equal_python_pipeline(spm_models, model):
    texts = TEXTS + corpus_lines(300)
    for name, tok in variants(spm_models[model]).items():
        same_all([(tok, text, kw) for text in texts for kw in ({}, {"add_special_tokens": False})])
        # Batches (native threads) give the same encodings: tokens (an unknown token's
        # own text, added tokens' matched text), offsets and word ids too.
        want = [encoding_state(tok.encode(t)) for t in TEXTS]
        for threads in (1, 2):
            batch = tok.encode_batch(TEXTS, num_threads=threads)
            assert [encoding_state(e) for e in batch] == want, name


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([*CLASSES, *SPM_CHARS, "def", " ", "  ", "<s>", "</s>", "é", "\u2581"]),
        max_size=20,
    ).map("".join)
)
def test_plans_differential(spm_models, text):
    same_all(
        [
            (_cached_variants(spm_models[model])[name], text, {})
            for model in ("unigram", "unigram_bf")
            for name in ("t5", "ws_meta", "unicode")
        ]
    )


_VARIANTS: dict = {}


def _cached_variants(path) -> dict[str, Tokenizer]:
    if path not in _VARIANTS:
        _VARIANTS[path] = variants(path)
    return _VARIANTS[path]


def test_unknown_tokens_show_their_normalized_text(spm_models):
    tok = tokenizer_from_sentencepiece(spm_models["unigram"])
    enc = tok.encode("x \u2603\u2603 ｱ")  # snowmen: not in the vocabulary
    assert tok.model.unk_id in enc.ids
    previous = use_plans(False)
    try:
        assert enc.tokens == tok.encode("x \u2603\u2603 ｱ").tokens
    finally:
        use_plans(previous)
    assert "\u2603\u2603" in enc.tokens  # one fused unknown run, shown as its text


def test_unknown_token_text_outlives_the_tokenizer(spm_models):
    want = tokenizer_from_sentencepiece(spm_models["unigram"]).encode("x \u2603 y").tokens
    enc = tokenizer_from_sentencepiece(spm_models["unigram"]).encode("x \u2603 y")
    gc.collect()  # the tokenizer that made ``enc`` is gone before its tokens are read
    assert enc.tokens == want
    assert "\u2603" in enc.tokens


def test_no_unknown_token_raises_as_python_does():
    tok = Tokenizer(Unigram([("\u2581a", -1.0), ("a", -2.0), ("\u2581", -3.0)], None))
    tok.pre_tokenizer = Metaspace()
    assert tok.engine == "native", tok.engine_reason
    assert tok.encode("a a").ids == [0, 0]
    with pytest.raises(VocabularyError):
        tok.encode("a b")
    previous = use_plans(False)
    try:
        with pytest.raises(VocabularyError):
            tok.encode("a b")
    finally:
        use_plans(previous)


def test_in_place_changes_recompile(spm_models):
    tok = tokenizer_from_sentencepiece(spm_models["unigram"])
    before = tok.encode("Hello World").ids
    tok.normalizer.normalizers.insert(0, normalizers.Lowercase())  # a list change, in place
    assert tok.engine == "native"
    after = tok.encode("Hello World")
    assert after.ids != before
    assert after.ids == tok.encode("hello world").ids
    tok.pre_tokenizer.prepend_scheme = "never"  # an attribute change
    assert not tok.encode("hello").tokens[0].startswith("\u2581")
    previous = use_plans(False)
    try:
        want = tok.encode("Hello World").ids
    finally:
        use_plans(previous)
    assert tok.encode("Hello World").ids == want


def test_unsupported_parts_run_python(spm_models):
    tok = tokenizer_from_sentencepiece(spm_models["unigram"])
    tok.normalizer = normalizers.Sequence([normalizers.BertNormalizer()])
    assert tok.engine == "python"
    assert "BertNormalizer" in tok.engine_reason
    tok = tokenizer_from_sentencepiece(spm_models["unigram"])
    tok.normalizer.normalizers.append(normalizers.Replace({"Regex": "\\s+"}, " "))
    assert tok.engine == "python"
    tok = tokenizer_from_sentencepiece(spm_models["unigram"])
    tok.model.alpha = 0.1  # sampling runs natively (tests/engine/test_native_sampling.py)
    assert tok.engine == "native", tok.engine_reason
    tok.model._rng = __import__("random").Random(0)  # a caller's generator: drawn in Python
    assert tok.engine == "python" and "random.Random" in tok.engine_reason


@pytest.fixture(scope="module")
def form_texts() -> list[tuple[int, str, str]]:
    """``(start, chunk, marked)`` per 0x2000 code points: the chunk alone and each of its
    chars ``c`` as ``f"a{c}\\u0323\\u0302"``; the same texts for every form."""
    out = []
    for start in range(0, 0x110000, 0x2000):
        chunk = code_points_between(start, start + 0x2000)
        out.append((start, chunk, "a" + "\u0323\u0302a".join(chunk) + "\u0323\u0302"))
    return out


@pytest.mark.parametrize("form", ["NFC", "NFD", "NFKC", "NFKD"])
def test_unicode_forms_every_code_point(form, form_texts):
    # The native forms against the Python reference (itself checked against HF on every
    # code point in tests/unicode/test_bert_unicode_parity.py): text and each char's source.
    mine = getattr(normalizers, form)()
    for start, *texts in form_texts:
        for text in texts:
            ns = NormalizedString(text)
            mine.normalize(ns)
            want = (ns.text, source_starts(ns))
            assert core.unicode_normalize(text, form) == want, (form, hex(start))


@settings(max_examples=300, deadline=None)
@given(st.lists(PRECOMPILED_MIX, max_size=30).map("".join), st.sampled_from(["NFC", "NFKD"]))
def test_unicode_forms_mixed(text, form):
    ns = NormalizedString(text)
    getattr(normalizers, form)().normalize(ns)
    assert core.unicode_normalize(text, form) == (ns.text, [s for s, _ in ns.spans()])


STEP_NORMALIZERS = [
    normalizers.StripAccents(),
    normalizers.Sequence([normalizers.NFKD(), normalizers.StripAccents(), normalizers.Lowercase()]),
    normalizers.Sequence(
        [
            normalizers.Replace("``", '"'),
            normalizers.Replace({"Regex": " {2,}"}, " "),
            normalizers.NFKC(),
            normalizers.Strip(),
            normalizers.Prepend("\u2581"),
            normalizers.NFD(),
            normalizers.StripAccents(),
            normalizers.NFC(),
        ]
    ),
]


def _steps_reference(normalizer, text: str) -> tuple[str, list[int]]:
    ns = NormalizedString(text)
    normalizer.normalize(ns)
    return ns.text, source_starts(ns)


def test_strip_accents_step_every_code_point():
    from codetok.engine.plan import _norm_steps
    from codetok.normalizers import RUST_WHITESPACE

    steps, ws = _norm_steps(normalizers.StripAccents()), "".join(sorted(RUST_WHITESPACE))
    for start in range(0, 0x110000, 0x4000):
        text = "a" + "a".join(code_points_between(start, start + 0x4000))  # "a" before each
        want = _steps_reference(normalizers.StripAccents(), text)
        assert core.norm_steps_normalize(steps, text, ws) == want, hex(start)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*CLASSES, *SPM_CHARS, "``", "  ", " ", "Ä", "ǅ"]), max_size=30).map(
        "".join
    ),
    st.sampled_from(range(len(STEP_NORMALIZERS))),
)
def test_norm_steps_differential(text, k):
    from codetok.engine.plan import _norm_steps
    from codetok.normalizers import RUST_WHITESPACE

    normalizer = STEP_NORMALIZERS[k]
    steps = _norm_steps(normalizer)
    assert not isinstance(steps, str), steps
    got = core.norm_steps_normalize(steps, text, "".join(sorted(RUST_WHITESPACE)))
    assert got == _steps_reference(normalizer, text)


def test_charsmap_blob_errors_are_value_errors():
    with pytest.raises(ValueError):
        core.precompiled_normalize(b"\x10\x00\x00\x00ab", "x")
    assert core.precompiled_normalize(b"", "ｆ") == ("ｆ", [0])


def test_tokenizer_json_round_trip_stays_native(spm_models):
    tok = tokenizer_from_sentencepiece(spm_models["unigram"], add_eos=True)
    again = Tokenizer.from_str(tok.to_str())
    assert again.engine == "native"
    data = base64.b64decode(again.normalizer.normalizers[0].to_dict()["precompiled_charsmap"])
    assert (
        data == load_sentencepiece_model(spm_models["unigram"]).normalizer_spec.precompiled_charsmap
    )
    for text in TEXTS:
        assert again.encode(text).ids == tok.encode(text).ids


def test_batches_leave_the_garbage_collector_as_they_found_it(spm_models):
    tok = tokenizer_from_sentencepiece(spm_models["unigram"])
    assert gc.isenabled()
    assert len(tok.encode_batch(TEXTS)) == len(TEXTS)
    assert gc.isenabled()
    gc.disable()
    try:
        tok.encode_batch(TEXTS)
        assert not gc.isenabled()
    finally:
        gc.enable()
    bad = Tokenizer(Unigram([("\u2581a", -1.0), ("a", -2.0), ("\u2581", -3.0)], None))
    bad.pre_tokenizer = Metaspace()
    with pytest.raises(VocabularyError):
        bad.encode_batch(["a a", "a b"])  # no unknown token: the Python path raises
    assert gc.isenabled()


def test_replaced_parts_are_seen_by_a_cached_plan(spm_models):
    from codetok.tokenizer.added_tokens import AddedVocabulary

    def python_ids(tok: Tokenizer, text: str) -> list[int]:
        previous = use_plans(False)
        try:
            return tok.encode(text).ids
        finally:
            use_plans(previous)

    tok = tokenizer_from_sentencepiece(spm_models["unigram"], add_eos=True)
    tok.add_special_tokens(["World"])
    text = "Hello  World"
    first = tok.encode(text).ids  # the plan is compiled and cached here
    assert first[-2:] == [tok.token_to_id("World"), tok.token_to_id("</s>")]
    steps = [
        ("post_processor", None),
        ("pre_tokenizer", Metaspace("\u2581", "never", True)),
        ("added", AddedVocabulary()),
        ("normalizer", normalizers.Lowercase()),
        ("model", Unigram([("<unk>", 0.0), ("\u2581", -1.0), ("l", -2.0)], 0)),
    ]
    seen = [first]
    for name, value in steps:
        setattr(tok, name, value)
        assert tok.engine == "native", (name, tok.engine_reason)
        got = tok.encode(text).ids
        assert got == python_ids(tok, text), name
        assert got != seen[-1], name  # each replacement changes the ids
        seen.append(got)
        tok.encode(text)  # cache the plan again (use_plans above counts as a change)


def test_many_distinct_short_words_equal_python(spm_models):
    # More distinct short pieces than the plan's hot table has slots (4,096): entries are
    # overwritten, and pieces it cannot hold (non-BMP chars, more than 4 tokens) pass by it.
    import random

    rnd = random.Random(7)
    alphabet = "etaoinshrdlucmfwypvbgkqjxz_0123456789ÉéßЖж\U0001f600\U00010348"
    words = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 9))) for _ in range(9000)]
    texts = [" ".join(words[k : k + 30]) for k in range(0, len(words), 30)]
    for model in ("unigram", "unigram_bf"):
        tok = tokenizer_from_sentencepiece(spm_models[model])
        assert tok.engine == "native"
        got = [e.ids for e in tok.encode_batch(texts + texts, num_threads=2)]
        offsets = [tok.encode(t).offsets for t in texts]
        previous = use_plans(False)
        try:
            want = [tok.encode(t) for t in texts]
        finally:
            use_plans(previous)
        assert got == [e.ids for e in want] * 2, model
        assert offsets == [e.offsets for e in want], model
