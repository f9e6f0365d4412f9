"""The ``Precompiled`` normalizer (SentencePiece's compiled charsmap) against HF ``tokenizers``.

The charsmap comes from a Unigram model trained here with SentencePiece's default
``nmt_nfkc`` rules. Normalized text *and* the per-character alignment to the original
must equal HF's, quirks included (rules per grapheme cluster under 6 bytes, shortest
key match, removal deficits charged to the previous char).
"""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from _sentencepiece_helpers import CASES, train_models

from codetok import Tokenizer
from codetok.errors import FormatError
from codetok.formats.precompiled import CharsMap, Precompiled
from codetok.formats.sentencepiece_model import ModelProto
from codetok.normalizers import REGISTRY, normalizer_from_dict
from codetok.reference.grapheme import PREPEND, props_table
from codetok.tokenizer.offsets import NormalizedString

tokenizers = pytest.importorskip("tokenizers", reason="test extra tokenizers is missing")

QUIRKS = [
    "ｆｕｌｌ width ＡＢＣ",
    "e\u0301 café",  # the cluster 'é' (3 bytes) has a rule keyed on 'e'... or not
    "ｅ\u0301",  # shortest key 'ｅ' rewrites the whole cluster: the accent is dropped
    "\r\n x\t\ty\r",
    "ﬁ ﬂ ① ㍿ ½",
    "\u200bab\u200b",  # removal at the very start: HF shifts the alignment
    "\u200b\u200bab",
    "x\u200b\u200b\u200by",
    "ﬃ\u200bz",
    "ガ ｶﾞ ﾊﾟﾊﾟ",
    "\x00\x01 a \x7f",
    "\u2028\u00a0\u3000z",
    "아기 ᄋ\u1161",
    "👩\u200d👩\u200d👧 🇫🇷 1\ufe0f\u20e3",
    "Å\u0301\u0327x",
]


@pytest.fixture(scope="module")
def charsmap(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    paths = train_models(tmp_path_factory.mktemp("spm"))
    blob = ModelProto.load(paths["unigram"]).normalizer_spec.precompiled_charsmap
    assert blob
    return blob


def _hf_char_tokenizer(charsmap: bytes) -> object:
    """A HF tokenizer whose tokens are the normalized chars: offsets = their alignment."""
    spec = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": Precompiled(charsmap).to_dict(),
        "pre_tokenizer": {
            "type": "Split",
            "pattern": {"Regex": "[\\s\\S]"},
            "behavior": "Isolated",
            "invert": False,
        },
        "post_processor": None,
        "decoder": None,
        "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"},
    }
    return tokenizers.Tokenizer.from_str(json.dumps(spec))


@pytest.mark.parametrize("text", QUIRKS + CASES)
def test_text_and_alignment_match_hf(charsmap: bytes, text: str) -> None:
    hf = _hf_char_tokenizer(charsmap)
    ours = Precompiled(charsmap)
    ns = NormalizedString(text)
    ours.normalize(ns)
    assert ns.text == hf.normalizer.normalize_str(text)  # type: ignore[attr-defined]
    assert ns.spans() == hf.encode(text).offsets  # type: ignore[attr-defined]


#: First chars of a cluster, one of each kind the cluster rules treat apart.
CLUSTER_STARTS = [
    "a", "\r", "\u1100", "\u1161", "\u11a8", "\uac00", "\uac01", "\U0001f1e6",
    "\U0001f600", "\u0915", "\u200d", "\u0300", "\u0903",
]  # fmt: skip


@pytest.fixture(scope="module")
def rule_charsmap(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A charsmap whose only rules rewrite the starts above and every Prepend char.

    HF applies the first (shortest) key to a whole cluster under 6 bytes, so with these
    rules its output shows where each of its clusters ends.
    """
    spm = pytest.importorskip("sentencepiece", reason="test extra sentencepiece is missing")
    base = tmp_path_factory.mktemp("rules")
    table = props_table()
    firsts = CLUSTER_STARTS + [chr(c) for c in range(0x110000) if table[c] & 0x0F == PREPEND]
    rules = "".join(f"{ord(c):X}\t{0xE000 + i:X}\n" for i, c in enumerate(firsts))
    (base / "rules.tsv").write_text(rules, encoding="utf-8")
    (base / "corpus.txt").write_text("hello world\n" * 50, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(base / "corpus.txt"),
        model_prefix=str(base / "rules"),
        model_type="char",
        vocab_size=12,
        normalization_rule_tsv=str(base / "rules.tsv"),
        minloglevel=2,
    )
    blob = ModelProto.load(base / "rules.model").normalizer_spec.precompiled_charsmap
    assert CharsMap(blob).lookup_first("a") == "\ue000"
    return blob


def _every_code_point(step: int = 1) -> list[str]:
    """Chunks of every ``step``-th code point outside the surrogates (HF takes no lone ones)."""
    points = [c for c in range(0, 0x110000, step) if not 0xD800 <= c <= 0xDFFF]
    return ["".join(map(chr, points[k : k + 0x8000])) for k in range(0, len(points), 0x8000)]


@pytest.fixture(scope="module")
def every_code_point() -> list[str]:
    """:func:`_every_code_point`, built once for every start below."""
    return _every_code_point()


def _interleave(sep: str, chunk: str) -> str:
    """``sep + sep.join(chunk)`` for a one-char ``sep``, built as an array of code points
    (``str.join`` makes a str object of each char first)."""
    cps = np.empty(2 * len(chunk), "<u4")
    cps[0::2] = ord(sep)
    cps[1::2] = np.frombuffer(chunk.encode("utf-32-le"), "<u4")
    return cps.tobytes().decode("utf-32-le")


def test_cluster_ends_match_hf_on_every_code_point(
    rule_charsmap: bytes, every_code_point: list[str]
) -> None:
    # Every code point after and before each start: the native walk (the Python one is
    # checked equal to it on every code point in test_native_unigram.py).
    core = pytest.importorskip("codetok._core")
    hf = tokenizers.normalizers.Precompiled(rule_charsmap)
    for start in CLUSTER_STARTS:
        for chunk in every_code_point:
            text = _interleave(start, chunk)
            got = core.precompiled_normalize(rule_charsmap, text)[0]
            assert got == hf.normalize_str(text), (start, hex(ord(chunk[0])))


def test_reference_clusters_match_hf(rule_charsmap: bytes) -> None:
    # The Python walk on every code point with a grapheme property and a sample of the rest.
    table = np.frombuffer(props_table(), np.uint8)
    points = np.flatnonzero((table != 0) | (np.arange(0x110000) % 61 == 0))
    points = points[(points < 0xD800) | (points > 0xDFFF)]
    chunk = points.astype("<u4").tobytes().decode("utf-32-le")
    hf = tokenizers.normalizers.Precompiled(rule_charsmap)
    ours = Precompiled(rule_charsmap)
    for start in CLUSTER_STARTS:
        text = start + start.join(chunk)
        assert ours.normalize_str(text) == hf.normalize_str(text), start


def test_known_answers(charsmap: bytes) -> None:
    p = Precompiled(charsmap)
    assert p.normalize_str("ｆｕｌｌ") == "full"
    assert p.normalize_str("ﬁ①") == "fi1"
    # HF: a 6-byte cluster is mapped char by char; SentencePiece takes the longest key.
    assert p.normalize_str("ｶﾞ") == "カ\u3099"
    assert p.charsmap.lookup_longest("ｶﾞ".encode()) == ("ガ", 6)
    assert p.charsmap.lookup_first("ｶﾞ") == "カ"
    ns = NormalizedString("\u200bab")
    p.normalize(ns)  # the removed first char's alignment moves to 'a' (HF's behaviour)
    assert (ns.text, ns.spans()) == (" ab", [(0, 1), (1, 2), (2, 3)])


def test_json_round_trip_and_registry(charsmap: bytes, tmp_path) -> None:
    assert REGISTRY["Precompiled"] is Precompiled
    d = Precompiled(charsmap).to_dict()
    assert d == {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(charsmap).decode()}
    back = normalizer_from_dict(d)
    assert isinstance(back, Precompiled) and back == Precompiled(charsmap)
    # A tokenizer.json written by codetok with it loads in HF and normalizes the same.
    tok = Tokenizer.from_dict(
        {
            "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"},
            "normalizer": d,
        }
    )
    path = tmp_path / "tokenizer.json"
    tok.save(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    assert hf.normalizer.normalize_str("ｆｕｌｌ ﬁ") == tok.normalizer.normalize_str("ｆｕｌｌ ﬁ")


def test_empty_charsmap_is_identity() -> None:
    p = Precompiled(b"")
    assert p.normalize_str("ｆｕｌｌ\u200b") == "ｆｕｌｌ\u200b"
    assert normalizer_from_dict({"type": "Precompiled", "precompiled_charsmap": ""}) == p


def test_malformed_charsmaps_raise_format_error(charsmap: bytes) -> None:
    with pytest.raises(FormatError, match="trie"):
        CharsMap(charsmap[:100])
    with pytest.raises(FormatError, match="4-byte"):
        CharsMap(b"\x01")
    with pytest.raises(FormatError, match="base64") as e:
        Tokenizer.from_str(
            json.dumps(
                {
                    "model": {"type": "WordLevel", "vocab": {"a": 0}, "unk_token": "a"},
                    "normalizer": {"type": "Precompiled", "precompiled_charsmap": "%%%"},
                }
            ),
            path="tok.json",
        )
    assert "tok.json" in str(e.value) and "precompiled_charsmap" in str(e.value)


def test_long_runs_are_fast(charsmap: bytes) -> None:
    p = Precompiled(charsmap)
    text = "ａ" * 200_000 + "a" * 200_000
    out = p.normalize_str(text)
    assert out == "a" * 400_000


def test_a_replacement_inside_a_character_is_refused(charsmap: bytes) -> None:
    # A damaged charsmap whose value points inside a multi-byte replacement: the Python
    # reader raised UnicodeDecodeError on looking it up (at load for an ASCII key), while the
    # native one decoded the broken bytes as something else. Found by tests/fuzz/test_fuzz.py.
    size = int.from_bytes(charsmap[:4], "little")
    units = np.frombuffer(charsmap, "<u4", size // 4, 4).copy()
    pool = charsmap[4 + size :]
    values = units & 0x7FFFFFFF
    k = next(i for i in range(len(units)) if units[i] >= 2**31 and pool[int(values[i])] >= 0xC0)
    units[k] += 1  # one byte into the character
    damaged = charsmap[:4] + units.tobytes() + pool
    with pytest.raises(FormatError, match="not the start of one"):
        CharsMap(damaged)
    with pytest.raises(FormatError, match="damaged"):
        normalizer_from_dict(
            {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(damaged).decode()}
        )
