"""The native kernels (``codetok._core``) against their pure-Python twins.

Three kinds of checks:

- differential property tests: each native kernel class and its twin in
  ``codetok/reference`` get the same random inputs (vocabularies, merges with odd ranks,
  every BPE option, pieces with astral chars and lone surrogates) and must give the same
  outputs;
- the real GPT-2 and BERT files on standard-library text: native == reference == HF
  ``tokenizers``;
- the model and parity test modules re-run here under both backends (markupsafe style):
  their tests are imported into this module, where a parametrized autouse fixture switches
  the backend with :func:`codetok.engine.native.use_native`.

Robustness: bad inputs raise Python exceptions, never crash the interpreter.
"""

from __future__ import annotations

import importlib
import inspect
import json
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok.engine import native as _backend
from codetok.models.base import Token
from codetok.reference import bpe as ref_bpe
from codetok.reference import unigram as ref_unigram
from codetok.reference import wordpiece as ref_wordpiece

core = pytest.importorskip("codetok._core", reason="the native extension is not built")

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BACKENDS = ["native", "pure"]

# Kernels return millions of tokens here (a 1 MB piece, hypothesis batches): no collector
# passes over the heap while a test runs.
pytestmark = pytest.mark.usefixtures("gc_paused")


@pytest.fixture(autouse=True, scope="module", params=BACKENDS)
def backend(request):
    """Run every test of this module (borrowed ones included) under both backends."""
    previous = _backend.use_native(request.param == "native")
    yield request.param
    _backend.use_native(previous)


# -- the borrowed test modules ----------------------------------------------------------------

BORROWED = {
    "bpe": "models/test_models_bpe",
    "unigram": "models/test_models_unigram",
    "gpt2": "parity/test_parity_gpt2",
    "bert": "parity/test_tokenizer_bert_parity",
}
TESTS = Path(__file__).resolve().parents[1]
#: Borrowed fixtures that hold only oracle data no test changes (tiktoken's reading of the
#: GPT-2 files, its ``Encoding``): built once for both backends.
SHARED_ORACLES = {"gpt2_ranks", "tiktoken_gpt2"}


def _per_backend(fixture_def):
    """The same fixture, rebuilt for each backend (borrowed fixtures may hold mutated state),
    but for the ``SHARED_ORACLES``."""
    unwrap = getattr(fixture_def, "_get_wrapped_function", None)
    marker = getattr(fixture_def, "_fixture_function_marker", None)
    if unwrap is None or marker is None or fixture_def.name in SHARED_ORACLES:
        return fixture_def
    fn = unwrap()
    sig = inspect.signature(fn)
    if "backend" in sig.parameters:
        return fixture_def
    if inspect.isgeneratorfunction(fn):

        def wrapper(*args, backend, **kwargs):
            yield from fn(*args, **kwargs)

    else:

        def wrapper(*args, backend, **kwargs):
            return fn(*args, **kwargs)

    extra = inspect.Parameter("backend", inspect.Parameter.KEYWORD_ONLY)
    wrapper.__signature__ = sig.replace(parameters=[*sig.parameters.values(), extra])
    wrapper.__name__ = fn.__name__
    return pytest.fixture(scope=marker.scope, params=marker.params, name=fixture_def.name)(wrapper)


def _borrow() -> None:
    """Import the tests and fixtures of ``BORROWED`` modules into this one."""
    for short, where in BORROWED.items():
        folder, module_name = where.split("/")
        if str(TESTS / folder) not in sys.path:  # as pytest's prepend import mode does
            sys.path.insert(0, str(TESTS / folder))
        try:
            mod = importlib.import_module(module_name)
        except pytest.skip.Exception:
            continue
        for name, obj in vars(mod).items():
            if name.startswith("test_") and callable(obj):
                globals()[f"test_{short}__{name[5:]}"] = obj
            elif type(obj).__name__ == "FixtureFunctionDefinition" and name not in globals():
                globals()[name] = _per_backend(obj)


_borrow()


def test_backend_switch_takes_effect(backend) -> None:
    from codetok.models import BPE

    model = BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")])
    assert model.tokenize("ab") == [Token(2, "ab", (0, 2))]
    assert _backend.native() == (backend == "native")
    assert isinstance(model._built_kernel, core.BpeCore) == (backend == "native")


# -- differential: BPE ------------------------------------------------------------------------

# ASCII, 2-byte, 3-byte, astral, a lone surrogate and chars that spell byte tokens.
ALPHABET = "ab<0x>é€😀\ud800"


@st.composite
def bpe_case(draw: st.DrawFn):
    prefix = draw(st.sampled_from(["", "##", "é"]))
    suffix = draw(st.sampled_from(["", "</w>", "😀"]))
    chars = draw(st.lists(st.sampled_from(ALPHABET), unique=True, max_size=len(ALPHABET)))
    strings = list(chars)
    strings += [prefix + c for c in chars if prefix] + [c + suffix for c in chars if suffix]
    strings += [prefix + c + suffix for c in chars if prefix and suffix]
    strings += [f"<0x{b:02X}>" for b in draw(st.sets(st.integers(0, 255), max_size=40))]
    strings += draw(st.lists(st.text(ALPHABET, min_size=2, max_size=4), max_size=6))
    strings = list(dict.fromkeys(strings))
    ids = draw(st.permutations(range(len(strings) + 8)))
    vocab = {s: ids[i] for i, s in enumerate(strings)}
    id_pool = sorted(vocab.values())
    merges = []
    if id_pool:
        n = draw(st.integers(0, 40))
        for _ in range(n):
            a = draw(st.sampled_from(id_pool))
            b = draw(st.sampled_from(id_pool))
            rank = draw(st.integers(0, 30))  # duplicate ranks on purpose
            new = draw(st.sampled_from(id_pool))
            merges.append((a, b, rank, new))
    values: list[str | None] = [None] * (max(id_pool, default=-1) + 1)
    for s, i in vocab.items():
        values[i] = s
    unk_id = draw(st.sampled_from([-1, -2, *id_pool[:3]]))
    options = {
        "prefix": prefix,
        "suffix": suffix,
        "unk_id": unk_id,
        "fuse_unk": draw(st.booleans()),
        "byte_fallback": draw(st.booleans()),
        "ignore_merges": draw(st.booleans()),
    }
    return vocab, merges, values, options


PIECES = st.lists(st.text(ALPHABET + "cz", max_size=60), max_size=8)


@SETTINGS
@given(bpe_case(), PIECES)
def test_bpe_kernel_matches_reference(case, pieces: list[str]) -> None:
    vocab, merges, values, options = case
    native = core.BpeCore(vocab, merges, values, Token, **options)
    ref = ref_bpe.BpeCore(vocab, merges, values, Token, **options)
    for piece in pieces:
        assert native.encode(piece) == ref.encode(piece), repr(piece)
    assert native.encode_batch(pieces) == ref.encode_batch(pieces)
    assert native.tokenize_batch(pieces) == ref.tokenize_batch(pieces)


@SETTINGS
@given(st.data())
def test_bpe_long_pieces_use_heap_identically(data: st.DataObject) -> None:
    # Dense merges over a two-letter alphabet: long pieces take the heap path in both.
    vocab = {"a": 0, "b": 1, "aa": 2, "ab": 3, "ba": 4, "bb": 5, "aab": 6, "abab": 7}
    pairs = [(0, 0, 2), (0, 1, 3), (1, 0, 4), (1, 1, 5), (2, 1, 6), (3, 3, 7), (2, 3, 6)]
    ranks = data.draw(st.permutations(range(len(pairs))))
    merges = [(a, b, r, n) for (a, b, n), r in zip(pairs, ranks)]
    values = list(vocab)
    opts = dict(prefix="", suffix="", unk_id=-1, fuse_unk=False)
    opts |= dict(byte_fallback=False, ignore_merges=False)
    native = core.BpeCore(vocab, merges, values, Token, **opts)
    ref = ref_bpe.BpeCore(vocab, merges, values, Token, **opts)
    piece = data.draw(st.text("ab", min_size=20, max_size=300))
    assert native.encode(piece) == ref.encode(piece)


# -- differential: WordPiece ------------------------------------------------------------------


@st.composite
def wordpiece_case(draw: st.DrawFn):
    prefix = draw(st.sampled_from(["##", "", "@@", "é"]))
    words = draw(st.lists(st.text(ALPHABET, min_size=1, max_size=4), max_size=25))
    strings = list(dict.fromkeys(words + [prefix + w for w in words[::2]] + ["[UNK]"]))
    ids = draw(st.lists(st.integers(0, 60), min_size=len(strings), max_size=len(strings)))
    vocab = dict(zip(strings, ids))  # duplicate ids on purpose
    return vocab, prefix, draw(st.integers(-1, 30))


@SETTINGS
@given(wordpiece_case(), PIECES)
def test_wordpiece_kernel_matches_reference(case, pieces: list[str]) -> None:
    vocab, prefix, max_chars = case
    args = dict(prefix=prefix, max_input_chars_per_word=max_chars)
    native = core.WordPieceCore(vocab, Token, **args)
    ref = ref_wordpiece.WordPieceCore(vocab, Token, **args)
    assert native.tokenize_batch(pieces) == ref.tokenize_batch(pieces)


# -- differential: Unigram --------------------------------------------------------------------


@st.composite
def unigram_case(draw: st.DrawFn):
    pieces = draw(st.lists(st.text(ALPHABET, max_size=4), max_size=25))  # "" and repeats too
    scores = draw(
        st.lists(
            st.sampled_from([-1.0, -1.5, -2.0, -2.5, -3.0, -0.5]),  # ties on purpose
            min_size=len(pieces),
            max_size=len(pieces),
        )
    )
    unk_id = draw(st.integers(-1, len(pieces) - 1))
    unk_score = draw(st.sampled_from([-13.0, -1.0, -2.5]))
    return pieces, scores, unk_id, unk_score


@SETTINGS
@given(unigram_case(), PIECES)
def test_unigram_kernel_matches_reference(case, texts: list[str]) -> None:
    pieces, scores, unk_id, unk_score = case
    native = core.UnigramCore(pieces, scores, unk_id=unk_id, unk_score=unk_score)
    ref = ref_unigram.UnigramCore(pieces, scores, unk_id=unk_id, unk_score=unk_score)
    assert native.viterbi_batch(texts) == ref.viterbi_batch(texts)
    for text in texts:
        assert native.viterbi(text) == ref.viterbi(text)


# -- robustness: errors, never crashes --------------------------------------------------------

OK_BPE = dict(prefix="", suffix="", unk_id=-1, fuse_unk=False)
OK_BPE |= dict(byte_fallback=True, ignore_merges=True)


@pytest.mark.parametrize(
    "vocab, merges, values, error",
    [
        ({"a": 2**40}, [], [], ValueError),
        ({"a": -1}, [], [], ValueError),
        ({"a": True}, [], [], TypeError),
        ({1: 0}, [], [], TypeError),
        ({"a": 0}, [(0, 0, 0)], [], ValueError),
        ({"a": 0}, [(0, 0, -5, 0)], [], ValueError),
        ({"a": 0}, [(0, 0, 0, "x")], [], TypeError),
        ({"a": 0}, [5], [], TypeError),
        ({"a": 0}, [], [b"a"], TypeError),
    ],
)
def test_bpe_core_rejects_bad_input(vocab, merges, values, error) -> None:
    with pytest.raises(error):
        core.BpeCore(vocab, merges, values, Token, **OK_BPE)


def test_cores_reject_bad_arguments() -> None:
    bpe = core.BpeCore({"a": 0}, [], ["a"], Token, **OK_BPE)
    for bad in (["a", 3], [None], 5):
        with pytest.raises(TypeError):
            bpe.tokenize_batch(bad)
    with pytest.raises(TypeError):
        bpe.encode(b"a")
    with pytest.raises(TypeError):
        core.BpeCore({"a": 0}, [], ["a"], dict, **OK_BPE)
    with pytest.raises(ValueError):
        core.UnigramCore(["a"], [0.0], unk_id=1, unk_score=-10.0)
    with pytest.raises(ValueError):
        core.UnigramCore(["a"], [0.0, 1.0], unk_id=-1, unk_score=-10.0)
    with pytest.raises(TypeError):
        core.UnigramCore(["a"], ["x"], unk_id=-1, unk_score=-10.0)
    with pytest.raises(TypeError):
        core.WordPieceCore({"a": 0}, Token, prefix="##", max_input_chars_per_word=1.5)


def test_unknown_ids_give_none_not_a_crash() -> None:
    # unk_id -2 (the model's "unk_token missing") has no value: tokenize_batch says None.
    opts = dict(OK_BPE, unk_id=-2, byte_fallback=False)
    native = core.BpeCore({"a": 0}, [], ["a"], Token, **opts)
    ref = ref_bpe.BpeCore({"a": 0}, [], ["a"], Token, **opts)
    assert native.tokenize_batch(["a", "ab", ""]) == ref.tokenize_batch(["a", "ab", ""])
    assert native.tokenize_batch(["ab"]) == [None]
    assert native.encode("ab") == ([0, -2], [(0, 1), (1, 2)])


def test_huge_and_odd_inputs() -> None:
    from codetok.models import BPE, Unigram, WordPiece

    bpe = BPE({"a": 0, "aa": 1, "<unk>": 2}, [("a", "a")], unk_token="<unk>", fuse_unk=True)
    big = "a" * 1_000_001
    toks = bpe.tokenize_many([big, "\ud800\udfff", "", "a\U0010ffffa"])
    assert [t.id for t in toks[0]] == [1] * 500_000 + [0]
    assert toks[0][-1].offsets == (1_000_000, 1_000_001)
    assert toks[1] == [Token(2, "<unk>", (0, 2))]
    assert toks[2] == []
    assert [t.offsets for t in toks[3]] == [(0, 1), (1, 2), (2, 3)]
    wp = WordPiece({"[UNK]": 0, "a": 1, "##a": 2}, max_input_chars_per_word=10**9)
    assert len(wp.tokenize_many([big])[0]) == len(big)
    uni = Unigram([("<unk>", 0.0), ("a", -1.0), ("aa", -1.5)], 0)
    assert "".join(t.value for t in uni.tokenize_many([big])[0]) == big


def test_threads_share_a_core() -> None:
    vocab = {c: i for i, c in enumerate("abcd")} | {"ab": 4, "cd": 5, "abcd": 6}
    merges = [(0, 1, 0, 4), (2, 3, 1, 5), (4, 5, 2, 6)]
    values = list(vocab)
    bpe = core.BpeCore(vocab, merges, values, Token, **OK_BPE)
    pieces = ["abcd" * k + "dcba" for k in range(300)]
    want = ref_bpe.BpeCore(vocab, merges, values, Token, **OK_BPE).tokenize_batch(pieces)
    with ThreadPoolExecutor(4) as ex:
        results = list(ex.map(lambda _: bpe.tokenize_batch(pieces), range(8)))
    assert all(r == want for r in results)


# -- real files: native == reference == HF tokenizers ------------------------------------------


def stdlib_texts(limit: int = 150_000) -> list[str]:
    root = Path(sysconfig.get_paths()["stdlib"])
    out, size = [], 0
    for name in ("textwrap.py", "difflib.py", "argparse.py", "email/_header_value_parser.py"):
        path = root / name
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            out.append(text)
            size += len(text)
        if size > limit:
            break
    out += ["naïve café — 日本語 😀 \ud800 end", "a" * 5000, "", " \n\t "]
    return out


@pytest.fixture(scope="module")
def gpt2_pair(gpt2_files, hf_tokenizers, tmp_path_factory):
    from codetok.formats.pretrained import load_pretrained_dir

    vocab, merges = gpt2_files
    folder = tmp_path_factory.mktemp("gpt2_native")
    shutil.copy(vocab, folder / "vocab.json")
    shutil.copy(merges, folder / "merges.txt")
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"tokenizer_class": "GPT2Tokenizer"}), encoding="utf-8"
    )
    hf = hf_tokenizers.Tokenizer(hf_tokenizers.models.BPE.from_file(str(vocab), str(merges)))
    hf.pre_tokenizer = hf_tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    return load_pretrained_dir(folder), hf


@pytest.fixture(scope="module")
def bert_pair(bert_dir, hf_tokenizers):
    from codetok import Tokenizer

    path = str(bert_dir / "tokenizer.json")
    return Tokenizer.from_file(path), hf_tokenizers.Tokenizer.from_file(path)


def _pieces(tok, texts: list[str]) -> list[str]:
    return [p for t in texts for p, _, tid in tok.pre_tokenize(t) if tid is None]


@pytest.fixture(scope="module")
def pure_tokens():
    """``pure_tokens(which, model, pieces)``: the pure-Python kernel's tokens of ``pieces``,
    computed once for both backends (again if the pieces differ)."""
    done: dict[str, tuple[list[str], list]] = {}

    def get(which: str, model, pieces: list[str]) -> list:
        if which not in done or done[which][0] != pieces:
            previous = _backend.use_native(False)
            try:
                done[which] = pieces, model.tokenize_many(pieces)
            finally:
                _backend.use_native(previous)
        return done[which][1]

    return get


@pytest.mark.parametrize("which", ["gpt2", "bert"])
def test_real_files_native_equals_reference_equals_hf(which, request, pure_tokens) -> None:
    ct, hf = request.getfixturevalue(f"{which}_pair")
    texts = [t for t in stdlib_texts() if "\ud800" not in t]  # HF takes valid UTF-8 only
    for text in texts:
        want = hf.encode(text, add_special_tokens=False)
        got = ct.encode(text, add_special_tokens=False)
        assert got.ids == want.ids, repr(text[:60])
        assert got.offsets == want.offsets, repr(text[:60])
    pieces = _pieces(ct, stdlib_texts())
    model = ct.model  # the same model for both backends (gpt2_pair, bert_pair)
    pure = pure_tokens(which, model, pieces)
    previous = _backend.use_native(True)
    try:
        native = model.tokenize_many(pieces)
    finally:
        _backend.use_native(previous)
    assert native == pure
