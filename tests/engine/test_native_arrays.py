"""One native result as a Python object (``_core.Arrays`` / ``NativeArrays``) and the
``Encoding`` the native plans build over it in C (codetok/_native/bindings/bind_arrays.cpp).

The whole-encoding comparisons with the Python pipeline are in test_native_pipeline.py;
this module checks what the object itself promises: the same ``Encoding`` as
``Encoding._from_native``, read-only views that outlive the encoding and the tokenizer,
lists built on first read (and replaced by assignment), windows sharing one result, and
errors instead of crashes on bad arguments.
"""

from __future__ import annotations

import gc
import os
import pickle

import numpy as np
import pytest
from conftest import encoding_state

from codetok import Tokenizer
from codetok.engine import native as _backend
from codetok.engine.plan import use_plans
from codetok.tokenizer.encoding import Encoding, NativeArrays

core = pytest.importorskip("codetok._core")
pytestmark = pytest.mark.skipif(not _backend.native(), reason="native backend not selected")

TEXT = "The [MASK] café déjà-vu 42\u00a0x\ud800 naïve 👩\u200d💻 [SEP]"


@pytest.fixture(scope="module")
def bert(bert_dir) -> Tokenizer:
    tok = Tokenizer.from_file(str(bert_dir / "tokenizer.json"))
    assert tok.engine == "native", tok.engine_reason
    return tok


@pytest.fixture(scope="module")
def plain(bert_dir) -> Tokenizer:
    """BERT without the file's padding to 128: ``encode`` is then one native call."""
    tok = Tokenizer.from_file(str(bert_dir / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


state = encoding_state


def python_encode(tok: Tokenizer, *args, **kwargs) -> Encoding:
    previous = use_plans(False)
    try:
        return tok.encode(*args, **kwargs)
    finally:
        use_plans(previous)


@pytest.mark.parametrize("add_special_tokens", [True, False])
def test_native_encoding_equals_python_pipeline(bert, add_special_tokens):
    got = bert.encode(TEXT, add_special_tokens=add_special_tokens)
    assert type(got._native) is NativeArrays
    assert state(got) == state(python_encode(bert, TEXT, add_special_tokens=add_special_tokens))


def test_lists_are_built_once_and_assignment_replaces_them(bert):
    enc = bert.encode(TEXT)
    assert enc._ids is None  # nothing built before the first read
    ids = enc.ids
    assert enc.ids is ids  # built once, then kept
    assert type(Encoding.__dict__["ids"]) is core.LazyList
    assert "built on first access" in Encoding.ids.__doc__
    tokens = list(enc.tokens)
    enc.ids = [1, 2, 3] + ids[3:]  # assignment: the other lists are kept, arrays dropped
    assert enc._native is None
    assert enc.tokens == tokens
    assert enc.ids[:3] == [1, 2, 3]
    with pytest.raises(AttributeError):
        del enc.ids


@pytest.mark.parametrize("add_special_tokens", [True, False])
def test_overflowing_and_sequence_ranges_are_made_on_first_read(plain, add_special_tokens):
    enc = plain.encode(TEXT, add_special_tokens=add_special_tokens)
    assert enc._overflowing is None and enc._sequence_ranges is None
    want = python_encode(plain, TEXT, add_special_tokens=add_special_tokens)
    unread = plain.encode(TEXT, add_special_tokens=add_special_tokens)
    back = pickle.loads(pickle.dumps(unread))  # pickling makes them
    assert back.sequence_ranges == want.sequence_ranges and back.overflowing == []
    assert enc.sequence_ranges == want.sequence_ranges
    assert enc.sequence_ranges is enc.sequence_ranges  # made once, then kept
    assert enc.overflowing == [] and enc.overflowing is enc.overflowing
    enc.overflowing = [want]  # assignment replaces; the lists stay over the arrays
    assert enc.overflowing == [want] and enc._native is not None


@pytest.mark.parametrize("direction", ["left", "right"])
def test_padding_before_ranges_are_read_shifts_them_once(plain, direction):
    enc = plain.encode(TEXT)
    assert enc._sequence_ranges is None
    enc.pad(len(enc) + 5, direction=direction)
    want = python_encode(plain, TEXT)
    want.pad(len(want) + 5, direction=direction)
    assert enc._native is not None and enc._native.pad is not None
    assert enc.sequence_ranges == want.sequence_ranges
    assert state(enc) == state(want)


def test_views_are_read_only_and_outlive_encoding_and_tokenizer(bert_dir):
    tok = Tokenizer.from_file(str(bert_dir / "tokenizer.json"))
    tok.no_padding()  # the file pads to 128: the arrays would then be copies
    enc = tok.encode(TEXT, add_special_tokens=False)
    assert enc._native.bare
    ids, offsets = enc.ids_array, enc.offsets_array
    want_ids, want_offsets = list(enc.ids), list(enc.offsets)
    with pytest.raises(ValueError):
        ids[0] = 0
    with pytest.raises(ValueError):
        offsets[0, 0] = 0
    del enc, tok
    gc.collect()
    assert ids.tolist() == want_ids
    assert [tuple(p) for p in offsets.tolist()] == want_offsets
    assert ids.dtype == np.int32 and offsets.dtype == np.int64 and offsets.shape[1] == 2


def test_truncation_windows_share_one_result(bert):
    text = " ".join(["word"] * 40)
    bert.enable_truncation(12, stride=3)
    try:
        got = bert.encode(text)
        want = python_encode(bert, text)
    finally:
        bert.no_truncation()
    assert got.overflowing and got._native is not None
    assert all(o._native is not None for o in got.overflowing)
    assert state(got) == state(want)


def test_pickle_and_copy_hold_lists(bert):
    enc = bert.encode(TEXT)
    back = pickle.loads(pickle.dumps(enc))
    assert back._native is None
    assert state(back) == state(bert.encode(TEXT))


def test_batch_encodings_are_built_natively(bert):
    texts = [TEXT, "", "a b", TEXT[::-1]]
    got = bert.encode_batch(texts)
    assert all(type(e._native) is NativeArrays for e in got)
    assert [state(e) for e in got] == [state(python_encode(bert, t)) for t in texts]


def test_bad_arguments_raise(bert):
    native = bert.encode(TEXT, add_special_tokens=False)._native
    n = len(native.ids)
    with pytest.raises(TypeError):
        core.Arrays()
    with pytest.raises(TypeError):
        NativeArrays()
    with pytest.raises(IndexError):
        native._with(0, n + 1, 0, (), (), None)
    with pytest.raises(IndexError):
        native._with(3, 2, 0, (), (), None)
    with pytest.raises(TypeError):
        native._with(0, n, 0, ((1, "x"),), (), None)  # a special is (id, token, type_id)
    with pytest.raises(TypeError):
        native._with(0, n, 0, (), (), (1, False))  # padding is a 5-tuple
    with pytest.raises(TypeError):
        core.register_encoding_types(object, Encoding)
    with pytest.raises(TypeError):
        core.LazyList(1, 2, 3, 4, 5)
    # Nothing above broke the registered classes.
    assert type(bert.encode(TEXT)._native) is NativeArrays


def test_native_encodings_are_untracked_until_an_attribute_is_assigned(plain):
    import weakref

    enc = plain.encode(TEXT)
    assert not gc.is_tracked(enc)  # a batch of them no longer slows every collection
    assert all(not gc.is_tracked(e) for e in plain.encode_batch([TEXT, "a b"]))
    ids = enc.ids  # lists built on read hold no path back to the encoding
    assert ids and not gc.is_tracked(enc)

    class Sentinel:
        pass

    s = Sentinel()
    gone = weakref.ref(s)
    enc.overflowing = [enc, s]  # a cycle through an assigned attribute is collected
    assert gc.is_tracked(enc)
    del enc, s
    gc.collect()
    assert gone() is None
    other = plain.encode(TEXT)
    other.ids = [1, 2, 3]
    assert gc.is_tracked(other)


def _resident_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads Linux's statm")
def test_results_are_freed_with_their_last_holder(plain):
    """Each native result is freed when the last thing sharing it goes: encodings from
    ``encode`` and from batches, truncation windows and numpy views outliving them. A
    result kept by mistake would grow the process by about 25 MB here."""
    texts = [f"{TEXT} {k}" for k in range(2000)]

    def churn() -> None:
        views = [e.ids_array for e in plain.encode_batch(texts, num_threads=2)]
        views += [plain.encode(t).offsets_array for t in texts]
        del views
        plain.enable_truncation(8, stride=2)
        try:
            windows = [o for t in texts[:500] for o in plain.encode(t).overflowing]
        finally:
            plain.no_truncation()
        assert windows and all(o._native is not None for o in windows)

    churn()  # the allocator's own growth comes first
    gc.collect()
    before = _resident_bytes()
    for _ in range(20):
        churn()
    gc.collect()
    assert _resident_bytes() - before < 8_000_000


def test_ids_array_after_ids_is_the_native_result_not_a_copy(plain):
    """A second view costs nothing: ``ids_array`` after ``ids`` is still the read-only view
    of the native result (special tokens around it: the same values, from the arrays)."""
    enc = plain.encode(TEXT, add_special_tokens=False)
    assert enc.ids and enc._native is not None
    view = enc.ids_array
    assert not view.flags.writeable and view.tolist() == enc.ids
    assert enc.offsets_array.tolist() == [list(o) for o in enc.offsets]
    around = plain.encode(TEXT)
    assert around.ids[0] == plain.token_to_id("[CLS]")
    assert around.ids_array.tolist() == around.ids and around.ids_array.dtype == np.int32
    around.ids = [1, 2]  # an assigned list is the encoding from then on
    assert around.ids_array.tolist() == [1, 2]


def test_big_results_in_reused_blocks_are_whole(plain):
    """Results of 1 MiB and more reuse freed blocks (block_pool.hpp): each is its own text's."""
    texts = [("alpha beta " * 60_000), ("γάμμα δέλτα 12 " * 50_000), ("alpha beta " * 60_000)]
    seen = []
    for text in texts:
        enc = plain.encode(text, add_special_tokens=False)
        assert enc.ids == plain.encode_ordinary(text)
        assert enc.offsets[-1][1] == len(text.rstrip())
        seen.append(enc.ids_array.copy())
        del enc
    assert seen[0].tolist() == seen[2].tolist() != seen[1].tolist()
