"""The C entries of ``Tokenizer.encode`` and ``Tokenizer.encode_ordinary``
(``_core.FastMethod``, codetok/_native/bindings/bind_method.hpp).

Their common calls (``encode``: one str; no pair, truncation, padding or special-token
policy. ``encode_ordinary``: one str) are answered in C from the tokenizer's cached plan;
every other call goes, unchanged, to the Python method, which stays the specification. These tests check that the C answer is the Python
method's answer, that everything else reaches the Python method, and that the method still
looks like the function it wraps.
"""

from __future__ import annotations

import inspect

import pytest
from conftest import encoding_state, python_pipeline

from codetok import Tokenizer
from codetok.components.base import CHANGES
from codetok.engine import native as _backend
from codetok.errors import ConfigurationError

core = pytest.importorskip("codetok._core")
pytestmark = pytest.mark.skipif(not _backend.native(), reason="native backend not selected")

TEXT = "The [MASK] café déjà-vu 42\u00a0x\ud800 naïve 👩\u200d💻 [SEP]"
SPEC = Tokenizer.encode.__wrapped__


@pytest.fixture()
def bert(bert_dir) -> Tokenizer:
    tok = Tokenizer.from_file(str(bert_dir / "tokenizer.json"))
    tok.no_truncation()  # the file pads and truncates to 128; the C entry leaves those to Python
    tok.no_padding()
    assert tok.engine == "native", tok.engine_reason
    return tok


def python_encode(tok: Tokenizer, *args, **kwargs):
    with python_pipeline():
        return SPEC(tok, *args, **kwargs)


class Recorder:
    """A fallback that records the calls the C entry handed over."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def __call__(self, *args, **kwargs):
        self.calls.append((args, kwargs))
        return "fallback"


@pytest.fixture()
def recorded():
    rec = Recorder()
    return rec, core.tokenizer_encode(rec, CHANGES)


COMMON_CALLS = [
    ((TEXT,), {}),
    ((TEXT, None), {}),
    ((TEXT, None, False), {}),
    ((TEXT, None, False, False), {}),
    ((TEXT,), {"add_special_tokens": False}),
    ((TEXT,), {"pair": None, "is_pretokenized": False, "add_special_tokens": True}),
    ((TEXT, None), {"add_special_tokens": False, "is_pretokenized": False}),
]


@pytest.mark.parametrize(("args", "kwargs"), COMMON_CALLS)
def test_common_calls_are_answered_in_c_with_the_python_methods_encoding(
    bert, recorded, args, kwargs
):
    rec, method = recorded
    bert.encode("warm the plan cache")
    got = method(bert, *args, **kwargs)
    assert rec.calls == []
    assert encoding_state(got) == encoding_state(python_encode(bert, *args, **kwargs))
    assert encoding_state(bert.encode(*args, **kwargs)) == encoding_state(got)


def test_bound_unbound_and_stored_calls_agree(bert):
    expected = encoding_state(python_encode(bert, TEXT))
    stored = bert.encode
    assert encoding_state(stored(TEXT)) == expected
    assert encoding_state(Tokenizer.encode(bert, TEXT)) == expected
    assert encoding_state(Tokenizer.encode.__get__(bert, Tokenizer)(TEXT)) == expected


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((TEXT, "a pair"), {}),
        ((TEXT,), {"pair": "a pair"}),
        ((["pre", "tokenized"], None, True), {}),
        ((TEXT,), {"is_pretokenized": 0}),
        ((TEXT,), {"add_special_tokens": 1}),
        ((TEXT,), {"allowed_special": set()}),
        ((TEXT,), {"disallowed_special": "all"}),
        ((TEXT, None, False, True), {"add_special_tokens": False}),  # given twice
        ((TEXT,), {"unknown": 1}),
        ((123,), {}),
        ((), {}),
        ((TEXT, None, False, True, "extra"), {}),
    ],
)
def test_other_calls_reach_the_python_method_unchanged(bert, recorded, args, kwargs):
    rec, method = recorded
    bert.encode("warm the plan cache")
    assert method(bert, *args, **kwargs) == "fallback"
    assert rec.calls == [((bert, *args), kwargs)]


def test_truncation_padding_and_stale_plans_reach_the_python_method(bert, recorded):
    rec, method = recorded
    bert.encode("warm")
    bert.enable_truncation(4)
    assert method(bert, TEXT) == "fallback"
    bert.no_truncation()
    bert.enable_padding(length=64)
    assert method(bert, TEXT) == "fallback"
    bert.no_padding()
    bert.add_special_tokens(["zzqx"])  # the added vocabulary moved: the cached plan is stale
    assert method(bert, TEXT) == "fallback"
    bert.encode("refresh")
    assert method(bert, TEXT) != "fallback"
    bert.model.unk_token = bert.model.unk_token  # an in-place change counts too
    assert method(bert, TEXT) == "fallback"
    assert len(rec.calls) == 4


def test_answers_follow_the_tokenizer(bert):
    before = bert.encode("a zzqx b").ids
    bert.add_special_tokens(["zzqx"])
    after = bert.encode("a zzqx b")
    assert after.ids != before
    assert encoding_state(after) == encoding_state(python_encode(bert, "a zzqx b"))
    bert.enable_truncation(3)
    assert len(bert.encode(TEXT).ids) == 3
    bert.no_truncation()
    with python_pipeline():
        assert bert.encode(TEXT)._native is None  # the Python pipeline ran


def test_errors_are_the_python_methods(bert):
    with pytest.raises(ConfigurationError, match="expected a str"):
        bert.encode(123)
    with pytest.raises(TypeError):
        bert.encode()
    with pytest.raises(TypeError, match="multiple values"):
        bert.encode(TEXT, None, False, True, add_special_tokens=False)
    with pytest.raises(TypeError):
        bert.encode(TEXT, unknown=1)


def test_the_method_looks_like_the_function_it_wraps():
    method = Tokenizer.encode
    assert inspect.isroutine(method)
    assert inspect.signature(method) == inspect.signature(SPEC)
    assert inspect.signature(Tokenizer(_wordlevel()).encode) == inspect.signature(
        SPEC.__get__(object())
    )
    for name in ("__doc__", "__name__", "__qualname__", "__module__"):
        assert getattr(method, name) == getattr(SPEC, name)
    assert method.__get__(None, Tokenizer) is method
    assert "Tokenizer.encode" in repr(method)


def test_subclasses_may_override_it():
    class Shouting(Tokenizer):
        def encode(self, sequence, *args, **kwargs):
            return super().encode(sequence.lower(), *args, **kwargs)

    tok = Shouting(_wordlevel())
    assert tok.encode("A").ids == [0]


def _wordlevel():
    from codetok.models import WordLevel

    return WordLevel({"a": 0, "[UNK]": 1}, "[UNK]")


# ------------------------------------------------------------------ encode_ordinary
ORDINARY_SPEC = Tokenizer.encode_ordinary.__wrapped__


@pytest.fixture()
def recorded_ordinary():
    rec = Recorder()
    return rec, core.tokenizer_encode_ordinary(rec, CHANGES)


@pytest.mark.parametrize("text", [TEXT, "", "[CLS] [SEP] [MASK] as text", "x" * 5000])
def test_encode_ordinary_is_answered_in_c_with_the_python_methods_ids(
    bert, recorded_ordinary, text
):
    rec, method = recorded_ordinary
    bert.encode_ordinary("warm the plan cache")
    bert.enable_truncation(4)  # ordinary ids ignore truncation and padding, as in Python
    got = method(bert, text)
    assert rec.calls == []
    assert got == python_pipeline_ordinary(bert, text)
    assert bert.encode_ordinary(text) == got


@pytest.mark.parametrize(
    ("args", "kwargs"), [((TEXT,), {"unknown": 1}), ((123,), {}), ((), {}), ((TEXT, 1), {})]
)
def test_other_encode_ordinary_calls_reach_the_python_method(bert, recorded_ordinary, args, kwargs):
    rec, method = recorded_ordinary
    bert.encode_ordinary("warm the plan cache")
    assert method(bert, *args, **kwargs) == "fallback"
    assert rec.calls == [((bert, *args), kwargs)]


def test_encode_ordinary_follows_the_tokenizer(bert):
    bert.encode_ordinary("warm")
    bert.add_special_tokens(["zzqx"])
    assert bert.encode_ordinary("a zzqx b") == python_pipeline_ordinary(bert, "a zzqx b")
    assert inspect.signature(Tokenizer.encode_ordinary) == inspect.signature(ORDINARY_SPEC)
    with pytest.raises(ConfigurationError, match="expected a str"):
        bert.encode_ordinary(b"bytes")


def python_pipeline_ordinary(tok: Tokenizer, text: str) -> list[int]:
    with python_pipeline():
        return ORDINARY_SPEC(tok, text)
