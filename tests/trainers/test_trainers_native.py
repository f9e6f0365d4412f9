"""The trainers' native loops against their pure-Python references (codetok/reference)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok import AddedToken, Tokenizer
from codetok import normalizers as nm
from codetok import pre_tokenizers as pt
from codetok.engine import native as _backend
from codetok.engine import plan as _plan
from codetok.models import BPE, Unigram, WordPiece
from codetok.reference import bpe_train as reference
from codetok.trainers import BpeTrainer
from codetok.trainers.api import _Pieces
from codetok.trainers.bpe import train_merges
from codetok.trainers.word_counts import count_words

pytestmark = pytest.mark.skipif(not _backend.available(), reason="codetok._core is not built")

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def merge_problems(draw: st.DrawFn) -> tuple:
    """Words over a small alphabet (ties everywhere), with or without a prefix."""
    n_chars = draw(st.integers(1, 6))
    alphabet = [chr(ord("a") + i) for i in range(n_chars)]
    prefix = draw(st.sampled_from([None, "##"]))
    tokens = alphabet + ([prefix + c for c in alphabet] if prefix else [])
    word = st.lists(st.integers(0, n_chars - 1), min_size=1, max_size=9)
    raw = draw(st.lists(word, min_size=1, max_size=25))
    words = [[w[0]] + [c + (n_chars if prefix else 0) for c in w[1:]] for w in raw]
    counts = draw(st.lists(st.integers(1, 6), min_size=len(words), max_size=len(words)))
    options = {
        "vocab_size": len(tokens) + draw(st.integers(0, 40)),
        "min_frequency": draw(st.sampled_from([0, 1, 3, 8])),
        "max_token_length": draw(st.sampled_from([None, 2, 3, 5])),
        "prefix": prefix,
    }
    return words, counts, tokens, options


@SETTINGS
@given(merge_problems())
def test_native_merge_loop_equals_the_reference(problem: tuple) -> None:
    words, counts, tokens, options = problem
    ref_tokens, nat_tokens = list(tokens), list(tokens)
    ref_ids = {t: i for i, t in enumerate(tokens)}
    nat_ids = dict(ref_ids)
    expected = reference.train_merges(copy.deepcopy(words), counts, ref_tokens, ref_ids, **options)
    assert _backend.native()
    got = train_merges(words, counts, nat_tokens, nat_ids, **options)
    assert got == expected
    assert nat_tokens == ref_tokens
    assert nat_ids == ref_ids


def test_progress_is_reported_and_an_error_in_it_stops_training() -> None:
    counts = {f"w{i:04d}x": 1 + i % 7 for i in range(400)}
    seen: list[int] = []
    trainer = BpeTrainer(vocab_size=600)
    first = trainer._initial_tables(counts)
    merges = train_merges(
        first[2], first[3], first[0], first[1], vocab_size=600, on_merge=seen.append
    )
    assert seen and seen[-1] == len(merges) and seen == sorted(seen)

    def stop(done: int) -> None:
        raise KeyboardInterrupt

    again = trainer._initial_tables(counts)
    with pytest.raises(KeyboardInterrupt):
        train_merges(again[2], again[3], again[0], again[1], vocab_size=600, on_merge=stop)


def test_pure_python_backend_still_runs_the_reference() -> None:
    previous = _backend.use_native(False)
    try:
        model = BpeTrainer(vocab_size=8).train({"abab": 3, "ab": 1})
    finally:
        _backend.use_native(previous)
    assert model.get_merges()[0] == ("a", "b")


# ----------------------------------------------------------------------------- counting
def _counting_tokenizers() -> dict[str, Tokenizer]:
    cl100k = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
    out = {
        "byte-level": Tokenizer(BPE(), pre_tokenizer=pt.ByteLevel(add_prefix_space=False)),
        "byte-level, prefix space": Tokenizer(
            BPE(), pre_tokenizer=pt.ByteLevel(add_prefix_space=True)
        ),
        "cl100k split": Tokenizer(
            BPE(),
            pre_tokenizer=pt.Sequence(
                [
                    pt.Split({"Regex": cl100k}, "isolated"),
                    pt.ByteLevel(add_prefix_space=False, use_regex=False),
                ]
            ),
        ),
        "whitespace": Tokenizer(BPE(), pre_tokenizer=pt.Whitespace()),
        "whitespace split, NFKC lowercase": Tokenizer(
            BPE(),
            normalizer=nm.Sequence([nm.NFKC(), nm.Lowercase()]),
            pre_tokenizer=pt.WhitespaceSplit(),
        ),
        "byte-level, NFC": Tokenizer(
            BPE(), normalizer=nm.NFC(), pre_tokenizer=pt.ByteLevel(add_prefix_space=True)
        ),
    }
    out["bert"] = Tokenizer(
        WordPiece(), normalizer=nm.BertNormalizer(), pre_tokenizer=pt.BertPreTokenizer()
    )
    out["bert, cased"] = Tokenizer(
        WordPiece(),
        normalizer=nm.BertNormalizer(lowercase=False, strip_accents=False),
        pre_tokenizer=pt.BertPreTokenizer(),
    )
    for scheme in ("always", "first", "never"):
        for split in (True, False):
            out[f"metaspace {scheme} split={split}"] = Tokenizer(
                Unigram(), pre_tokenizer=pt.Metaspace(prepend_scheme=scheme, split=split)
            )
    out["whitespace split + metaspace, NFKC"] = Tokenizer(
        Unigram(),
        normalizer=nm.NFKC(),
        pre_tokenizer=pt.Sequence([pt.WhitespaceSplit(), pt.Metaspace(prepend_scheme="first")]),
    )
    with_added = Tokenizer(BPE(), pre_tokenizer=pt.ByteLevel(add_prefix_space=False))
    with_added.add_special_tokens(["<|endoftext|>", AddedToken("<mask>", lstrip=True)])
    with_added.add_tokens(["def"])
    out["byte-level, added tokens"] = with_added
    return out


COUNTING = _counting_tokenizers()


class _InPython:
    """The same pieces, without ``native_counter``: counted in Python."""

    def __init__(self, pieces: _Pieces) -> None:
        self.pieces = pieces

    def __call__(self, text: str) -> list[str]:
        return self.pieces(text)


TEXT = st.text(
    st.characters(blacklist_categories=())
    | st.sampled_from(list(" \t\n\r  defx<|endoftext|><mask>")),
    max_size=60,
)


@pytest.mark.parametrize("name", sorted(COUNTING))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(TEXT, max_size=12), workers=st.sampled_from([1, 2]))
def test_native_counting_equals_pre_tokenize(name: str, texts: list[str], workers: int) -> None:
    pieces = _Pieces(COUNTING[name])
    assert pieces.native_counter() is not None
    expected = count_words(texts, _InPython(pieces))
    got = count_words(texts, pieces, num_workers=workers, batch_lines=5)
    assert got == expected


def test_native_counting_on_real_code_in_threads() -> None:
    import sysconfig
    from pathlib import Path

    files = sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[:40]
    lines = [ln for f in files for ln in f.read_text("utf-8", "replace").splitlines(True)]
    pieces = _Pieces(COUNTING["byte-level"])
    expected = count_words(lines[:3000], _InPython(pieces))
    assert count_words(lines[:3000], pieces, num_workers=2, batch_lines=700) == expected
    assert sum(count_words(lines, pieces, num_workers=2).values()) > len(lines)


def test_unsupported_pre_tokenizer_is_counted_in_python() -> None:
    tok = Tokenizer(BPE(), pre_tokenizer=pt.Sequence([pt.Metaspace(), pt.Digits()]))
    assert _Pieces(tok).native_counter() is None
    assert count_words(["a1 b a"], _Pieces(tok)) == {"▁a": 2, "1": 1, "▁b": 1}


# ----------------------------------------------------------------------------- code training
CODE_DATA = Path(__file__).parents[1] / "data" / "code"


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"fold_whitespace": False, "join_punctuation": False},
        {"split_identifiers": False, "digits": "single", "comment_markers": False},
    ],
)
def test_native_code_counting_equals_the_python_router(options: dict) -> None:
    from codetok.code import training
    from codetok.code.routing import native
    from codetok.code.routing.reserved import ReservedTokens
    from codetok.code.routing.router import RouterOptions

    files = sorted(p for p in CODE_DATA.rglob("*") if p.is_file())
    sources = []
    for f in files:
        data = f.read_bytes()
        sources += [(data, None, f), (data.decode("utf-8", "surrogateescape"), None, f)]
    sources.append((b"x = '\xe9t\xe9'  # caf\xe9 \xed\xa0\x80\n", "python", None))
    sources.append(("s = '\ud800'\n// \udcff\n", "javascript", None))
    reserved = ReservedTokens.for_languages(["python", "java", "csharp", "javascript"])
    opts = RouterOptions(**options)
    index = {t: i for i, t in enumerate(reserved.tokens)}
    assert not isinstance(native.compile_counter(reserved, index, "python", opts), str)
    for separate in (False, True):
        got = training.count_code_pieces(sources, reserved, opts, separate_comments=separate)
        previous = _plan.use_plans(False)  # the Python router counts
        try:
            expected = training.count_code_pieces(
                sources, reserved, opts, separate_comments=separate
            )
        finally:
            _plan.use_plans(previous)
        assert got == expected
        assert (got[0] is got[1]) == (not separate)


def test_training_is_the_same_on_any_number_of_threads(tmp_path: Path) -> None:
    import sysconfig

    from codetok.trainers import train_bpe, train_wordpiece

    files = sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[:30]
    corpus = tmp_path / "corpus.txt"
    corpus.write_bytes(b"".join(f.read_bytes() for f in files))
    for train, size in ((train_bpe, 3000), (train_wordpiece, 2000)):
        one = train(str(corpus), vocab_size=size, num_workers=1)
        two = train(str(corpus), vocab_size=size, num_workers=2)
        assert one.to_str() == two.to_str()


# ----------------------------------------------------------------------------- Unigram EM
# The native Unigram loop (codetok/_native/train/unigram_train.cpp, unigram_seeds.cpp) against
# codetok.reference.unigram_train.train_pieces: the same pieces, bit-identical scores and
# objectives, on any number of threads.
from codetok.reference import unigram_train as unigram_reference  # noqa: E402
from codetok.trainers import UnigramTrainer  # noqa: E402
from codetok.trainers.unigram import required_chars, train_pieces  # noqa: E402

UNIGRAM_CHARS = ["▁", "a", "b", "c", "d", "1", "2", "é", "ǅ", "𝔘"]


@st.composite
def unigram_problems(draw: st.DrawFn) -> tuple:
    """Word counts over a small alphabet (digits, non-BMP chars, a marker that may appear
    inside words), sometimes with long words (log-space forward-backward) and chars left out
    of the required ones (unknown nodes; runs of them leave the linear range)."""
    word = st.text(st.sampled_from(UNIGRAM_CHARS), min_size=1, max_size=12)
    words = draw(st.lists(word, min_size=1, max_size=30, unique=True))
    words += draw(
        st.lists(
            st.sampled_from(["▁" + "ab" * 45, "a" * 81, "ǅ" * 60, "▁" + "d1" * 50, "cé" * 41]),
            max_size=2,
            unique=True,
        )
    )
    words = sorted(set(words))
    counts = draw(st.lists(st.integers(1, 9), min_size=len(words), max_size=len(words)))
    required = required_chars(
        dict(zip(words, counts)),
        character_coverage=draw(st.sampled_from([1.0, 0.95, 0.8])),
    )
    options = {
        "vocab_size": draw(st.integers(1, 40)),
        "max_piece_length": draw(st.integers(1, 6)),
        "seed_size": draw(st.sampled_from([1, 5, 50, 1000])),
        "min_count": draw(st.sampled_from([2, 3])),
        "shrinking_factor": draw(st.sampled_from([0.5, 0.75, 0.9])),
        "n_sub_iterations": draw(st.integers(1, 3)),
        "whitespace_char": "▁",
        "split_by_number": draw(st.booleans()),
    }
    return words, counts, required, options


def _both_or_error(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    try:
        return fn(*args, **kwargs)
    except ValueError:
        return ValueError


@SETTINGS
@given(unigram_problems(), st.integers(1, 4))
def test_native_unigram_loop_equals_the_reference(problem: tuple, threads: int) -> None:
    words, counts, required, options = problem
    expected = _both_or_error(unigram_reference.train_pieces, words, counts, required, **options)
    got = _both_or_error(train_pieces, words, counts, required, num_threads=threads, **options)
    assert got == expected  # pieces, scores and objectives, exactly


def _stdlib_word_counts(n_chars: int, start: int = 0) -> tuple[list[str], list[int]]:
    from test_trainers_bpe import stdlib_texts

    from codetok import pre_tokenizers as cpt
    from codetok.models import Unigram
    from codetok.trainers.api import count_pieces

    tok = Tokenizer(Unigram(), pre_tokenizer=cpt.Metaspace())
    counts = count_pieces(tok, stdlib_texts(n_chars, start=start))
    words = sorted(counts)
    return words, [counts[w] for w in words]


UNIGRAM_OPTIONS = {
    "max_piece_length": 16,
    "seed_size": 1_000_000,
    "min_count": 2,
    "shrinking_factor": 0.75,
    "n_sub_iterations": 2,
    "whitespace_char": "▁",
    "split_by_number": True,
}


def test_native_unigram_loop_equals_the_reference_on_real_code() -> None:
    words, counts = _stdlib_word_counts(150_000, start=3)
    required = required_chars(dict(zip(words, counts)))
    expected = unigram_reference.train_pieces(
        words, counts, required, vocab_size=800, **UNIGRAM_OPTIONS
    )
    for threads in (1, 2, 5):
        got = train_pieces(
            words, counts, required, vocab_size=800, num_threads=threads, **UNIGRAM_OPTIONS
        )
        assert got[0] == expected[0]
        assert got[1] == expected[1]
        assert got[2] == expected[2]


def test_unigram_trainer_gives_one_model_on_any_backend_and_thread_count() -> None:
    words, counts = _stdlib_word_counts(60_000, start=11)
    word_counts = dict(zip(words, counts))
    models = [
        UnigramTrainer(vocab_size=400, num_threads=n).train(word_counts).get_pieces()
        for n in (1, 3)
    ]
    previous = _backend.use_native(False)
    try:
        models.append(UnigramTrainer(vocab_size=400).train(word_counts).get_pieces())
    finally:
        _backend.use_native(previous)
    assert models[0] == models[1] == models[2]


def test_unigram_progress_is_reported_and_stops_on_an_error_or_ctrl_c() -> None:
    import _thread
    import signal
    import threading
    import time

    words, counts = _stdlib_word_counts(600_000)
    required = required_chars(dict(zip(words, counts)))
    steps: list[int] = []
    start = time.perf_counter()
    train_pieces(words, counts, required, vocab_size=500, on_step=steps.append, **UNIGRAM_OPTIONS)
    full = time.perf_counter() - start
    assert len(steps) > 3 and steps[-1] <= 550 and steps[0] > steps[-1]

    def stop(n: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train_pieces(words, counts, required, vocab_size=500, on_step=stop, **UNIGRAM_OPTIONS)
    # Ctrl-C while the native loop runs (no Python callback): it stops at its next check.
    # Python's own SIGINT handler, as in a program (pytest-xdist's workers ignore SIGINT,
    # and interrupt_main does nothing then).
    seen: list[int] = []
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(full / 4, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            train_pieces(
                words, counts, required, vocab_size=500, on_step=seen.append, **UNIGRAM_OPTIONS
            )
            time.sleep(60)  # only reached when training ended first
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert len(seen) < len(steps)


def test_unigram_num_threads_is_checked() -> None:
    from codetok.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="num_threads"):
        UnigramTrainer(num_threads=0)
