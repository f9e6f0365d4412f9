"""Loading and saving ``tokenizer.json`` pause the cyclic garbage collector
(:mod:`codetok.engine.collector`) and leave it as they found it, errors included."""

from __future__ import annotations

import gc

import pytest

from codetok import Tokenizer
from codetok.errors import FormatError
from codetok.models import BPE


def _tokenizer() -> Tokenizer:
    return Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]))


def test_save_and_load_pause_the_collector_and_restore_it(monkeypatch):
    seen: list[bool] = []
    original = Tokenizer.from_dict.__func__  # type: ignore[attr-defined]

    def spy(cls, data, *args, **kwargs):
        seen.append(gc.isenabled())
        return original(cls, data, *args, **kwargs)

    monkeypatch.setattr(Tokenizer, "from_dict", classmethod(spy))
    tok = _tokenizer()
    assert gc.isenabled()
    text = tok.to_str()
    assert gc.isenabled()
    again = Tokenizer.from_str(text)
    assert seen == [False], "from_dict ran with the collector paused"
    assert gc.isenabled()
    assert again.encode("ab").ids == tok.encode("ab").ids == [2]


def test_a_collector_switched_off_by_the_caller_stays_off():
    gc.disable()
    try:
        Tokenizer.from_str(_tokenizer().to_str())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_bad_file_raises_with_the_collector_back_on():
    with pytest.raises(FormatError):
        Tokenizer.from_str('{"model": ')
    assert gc.isenabled()
    with pytest.raises(FormatError):
        Tokenizer.from_str('{"model": {"type": "BPE", "vocab": 3}}')
    assert gc.isenabled()
