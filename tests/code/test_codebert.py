"""CodeBERT-compatible encoding (codetok.code.applications.codebert) and token/lexeme alignment.

Parity: ``input_ids`` equal ``transformers.AutoTokenizer``'s on a RoBERTa-convention folder
built from the real GPT-2 files, for a slice of the running interpreter's standard library
(>= 50 files) and the Java / C# / JavaScript fixtures. Alignment properties: byte spans
tile the text and give back each token's bytes, every token's offsets fall inside the
lexemes it is mapped to, the primary lexeme follows the documented rule; non-ASCII source.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok.code import LexemeKind, lex
from codetok.code.applications.align import (
    align_to_segments,
    byte_to_char_index,
    bytes_to_char_spans,
)
from codetok.code.applications.codebert import NO_KIND, CodeBertTokenizer, code_tokens, preprocess
from codetok.errors import ConfigurationError
from codetok.unicode.byte_alphabet import CHAR_TO_BYTE

DATA = Path(__file__).parents[1] / "data" / "code"
K = LexemeKind
NON_ASCII = [
    "def héllo(naïve='日本語'):\n    return naïve + '👩\u200d👩\u200d👧'  # café ✓\n",
    '\ufeffclass Ünï {\r\n\tString s = "e\u0301 — ü";\r\n}\r\n',
    "const π = 3.14; // ≈ π\nlet s = `Grüße ${π}`;\n",
    'var s = $"Ωmega {x,5:F2}"; /* ünïcode */\n',
    "x = '<mask> <s> </s>'  # specials inside code\n",
    "",
    "\n\n",
]
LANG_OF = ["python", "java", "javascript", "csharp", "python", "python", "python"]


@pytest.fixture(scope="module")
def hf(codebert_dir, transformers_mod):
    transformers_mod.utils.logging.set_verbosity_error()  # long files warn about 512
    return transformers_mod.AutoTokenizer.from_pretrained(str(codebert_dir))


@pytest.fixture(scope="module")
def cb(codebert_dir) -> CodeBertTokenizer:
    return CodeBertTokenizer(codebert_dir)


def stdlib_slice(n: int = 60, max_bytes: int = 12_000) -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(
        p
        for p in root.rglob("*.py")
        if "site-packages" not in p.parts and p.stat().st_size <= max_bytes
    )
    step = max(1, len(files) // n)
    return files[::step][:n]


def check_alignment(enc) -> None:  # noqa: ANN001
    """The alignment invariants every CodeBertEncoding must satisfy."""
    lx = enc.lexemes
    data = enc.text.encode("utf-8")
    content = np.flatnonzero(enc.special_tokens_mask == 0)
    special = np.flatnonzero(enc.special_tokens_mask == 1)
    assert (enc.lexeme_index[special] == -1).all() and (enc.kinds[special] == NO_KIND).all()
    bs, be = enc.byte_starts[content], enc.byte_ends[content]
    if content.size:
        # untrimmed byte spans tile the text and hold exactly each token's bytes
        assert bs[0] == 0 and be[-1] == len(data) and (bs[1:] == be[:-1]).all()
        for i in content.tolist():
            tok = enc.tokens[i]
            if all(c in CHAR_TO_BYTE for c in tok):
                piece = bytes(CHAR_TO_BYTE[c] for c in tok)
                assert data[enc.byte_starts[i] : enc.byte_ends[i]] == piece
    live = content[be > bs]
    assert (enc.lexeme_index[live] >= 0).all()
    first, stop, prim = enc.lexeme_starts[live], enc.lexeme_ends[live], enc.lexeme_index[live]
    assert ((first <= prim) & (prim < stop)).all()
    # the tokenizer's (trimmed) offsets and the untrimmed spans lie inside the lexemes
    lo, hi = lx.char_starts[first], lx.char_ends[stop - 1]
    offs = np.array([enc.offsets[i] for i in live.tolist()], np.int64).reshape(-1, 2)
    assert ((offs[:, 0] >= lo) & (offs[:, 1] <= hi)).all()
    assert ((enc.char_starts[live] >= lo) & (enc.char_ends[live] <= hi)).all()
    assert ((enc.char_starts[live] <= offs[:, 0]) & (offs[:, 1] <= enc.char_ends[live])).all()
    assert (enc.kinds[live] == lx.kinds[prim]).all()
    assert (enc.node_types[live] == lx.node_types[prim]).all()
    # primary = first non-layout lexeme touched, else the first one
    layout = np.isin(lx.kinds, [K.WHITESPACE, K.NEWLINE, K.INDENT, K.DEDENT])
    for f, s, p in zip(first.tolist(), stop.tolist(), prim.tolist(), strict=True):
        code = [j for j in range(f, s) if not layout[j]]
        assert p == (code[0] if code else f)


# ----------------------------------------------------------------------------- parity


def test_stdlib_slice_matches_transformers(cb, hf):
    files = stdlib_slice()
    assert len(files) >= 50
    for path in files:
        text = path.read_text(encoding="utf-8")
        enc = cb.encode(text, "python")
        assert enc.input_ids == hf(text)["input_ids"], path
        check_alignment(enc)


@pytest.mark.parametrize("name", ["Sample.java", "Sample.cs", "sample.jsx", "sample.py"])
def test_fixtures_match_transformers(cb, hf, name):
    text = (DATA / name).read_text(encoding="utf-8")
    enc = cb.encode(text, path=name)
    assert enc.input_ids == hf(text)["input_ids"]
    assert enc.offsets == [
        tuple(o) for o in hf(text, return_offsets_mapping=True)["offset_mapping"]
    ]
    check_alignment(enc)


@pytest.mark.parametrize("i", range(len(NON_ASCII)))
def test_non_ascii_matches_transformers(cb, hf, i):
    text = NON_ASCII[i]
    enc = cb.encode(text, LANG_OF[i])
    assert enc.input_ids == hf(text)["input_ids"]
    check_alignment(enc)


def test_bytes_source_and_no_special_tokens(cb, hf):
    text = NON_ASCII[0]
    enc = cb.encode(text.encode("utf-8"), "python", add_special_tokens=False)
    assert enc.input_ids == hf(text, add_special_tokens=False)["input_ids"]
    check_alignment(enc)
    with pytest.raises(ConfigurationError, match="not valid UTF-8"):
        cb.encode(b"x = '\xff'\n", "python")


def test_wraps_hf_tokenizers_backend(hf, cb):
    """Any tokenizer with the encode()/get_vocab() protocol works (HF tokenizers here)."""
    other = CodeBertTokenizer(hf.backend_tokenizer)
    text = NON_ASCII[0] + NON_ASCII[4]
    a, b = other.encode(text, "python"), cb.encode(text, "python")
    assert a.input_ids == b.input_ids == hf(text)["input_ids"]
    assert (a.lexeme_index == b.lexeme_index).all() and (a.byte_starts == b.byte_starts).all()


def test_rejects_non_tokenizers():
    with pytest.raises(ConfigurationError, match="tokenizer must be"):
        CodeBertTokenizer(42)


# ----------------------------------------------------------------------------- known answers


def test_known_alignment_table(cb):
    enc = cb.encode("x = (1)\n", "python")
    rows = [(r["token"], r["kind"], r["lexemes"]) for r in enc.rows()]
    assert rows == [
        ("<s>", None, []),
        ("x", "IDENTIFIER", [0]),
        ("Ġ=", "OPERATOR", [1, 2]),
        ("Ġ(", "PUNCTUATION", [3, 4]),
        ("1", "NUMBER", [5]),
        (")", "PUNCTUATION", [6]),
        ("Ċ", "NEWLINE", [7]),
        ("</s>", None, []),
    ]
    assert enc.node_type(3) == "(" and enc.parent_type(3) == "parenthesized_expression"
    assert enc.offsets[3] == (4, 5) and (enc.char_starts[3], enc.char_ends[3]) == (3, 5)


def test_split_multibyte_char_spans(cb):
    enc = cb.encode("s = '日'\n", "python")
    parts = [i for i, o in enumerate(enc.offsets) if o == (5, 6)]
    assert len(parts) >= 2  # GPT-2 splits 日 into byte tokens
    assert all(enc.kind(i) == K.STRING for i in parts)
    assert sum(int(enc.byte_ends[i] - enc.byte_starts[i]) for i in parts) >= 3
    assert all((enc.char_starts[i], enc.char_ends[i])[1] == 6 for i in parts)


def test_lstrip_mask_token_owns_its_space(cb):
    enc = cb.encode("x = '<mask>'\n", "python")
    i = enc.tokens.index(next(t for t in enc.tokens if t.strip() == "<mask>"))
    assert enc.kind(i) == K.STRING
    check_alignment(enc)


# ----------------------------------------------------------------------------- preprocessing


def test_code_tokens_per_language():
    assert code_tokens("int f(int x) { return x; } // done", "java") == [
        "int", "f", "(", "int", "x", ")", "{", "return", "x", ";", "}",
    ]  # fmt: skip
    src = 'def f(a):\n    """Doc."""\n    # note\n    return a  # tail\n'
    assert code_tokens(src, "python") == [
        "def", "f", "(", "a", ")", ":", '"""Doc."""', "return", "a",
    ]  # fmt: skip
    assert '"""Doc."""' not in code_tokens(src, "python", remove_docstrings=True)
    assert "# note" in code_tokens(src, "python", remove_comments=False)
    js = "/** JSDoc */\nconst f = (a) => `t ${a}`; // c\n"
    assert code_tokens(js, "javascript")[:4] == ["const", "f", "=", "("]
    assert "/** JSDoc */" in code_tokens(js, "javascript", remove_comments=False)
    cs = "/// <summary>S</summary>\nint F() => 1;\n"
    assert preprocess(cs, "csharp") == "int F ( ) => 1 ;"


def test_encode_preprocessed_matches_transformers(cb, hf):
    for name in ["Sample.java", "Sample.cs", "sample.jsx", "sample.py"]:
        src = (DATA / name).read_text(encoding="utf-8")
        text = preprocess(src, path=name)
        enc = cb.encode_preprocessed(src, path=name)
        assert enc.text == text
        assert enc.input_ids == hf(text)["input_ids"]
        lx = enc.lexemes
        live = np.flatnonzero(enc.byte_ends > enc.byte_starts)
        assert (enc.lexeme_index[live] >= 0).all()
        # each token's text (minus the separator space) is inside its lexeme's text
        for i in live.tolist():
            piece = text[enc.char_starts[i] : enc.char_ends[i]].lstrip(" ")
            lexeme_text = "".join(lx.texts()[enc.lexeme_starts[i] : enc.lexeme_ends[i]])
            assert piece in lexeme_text or not piece


# ----------------------------------------------------------------------------- align module


def test_align_rule_and_errors():
    a = align_to_segments(
        np.array([0, 1, 0, 4]),
        np.array([3, 2, 0, 6]),
        np.array([0, 1, 2, 4]),
        np.array([1, 2, 4, 6]),
        np.array([True, True, False, True]),
    )
    assert a.primary.tolist() == [2, 1, -1, 3]
    assert a.first.tolist() == [0, 1, -1, 3] and a.stop.tolist() == [3, 2, -1, 4]
    with pytest.raises(ValueError, match="outside"):
        align_to_segments(np.array([0]), np.array([9]), np.array([0]), np.array([2]), [False])


def test_byte_char_maps():
    text = "a日👩b"
    ci = byte_to_char_index(text.encode())
    assert ci.tolist() == [0, 1, 1, 1, 2, 2, 2, 2, 3, 4]
    cs, ce = bytes_to_char_spans(np.array([0, 2, 4, 9]), np.array([2, 5, 9, 9]), ci)
    assert cs.tolist() == [0, 1, 2, 4] and ce.tolist() == [2, 3, 4, 4]


CODE_ALPHABET = st.sampled_from(
    list("abxyz_019 \t\n()[]{}=+-*/.,:;'\"#") + ["é", "日", "👩", "\u200d", "\r\n", "ß", "  "]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(CODE_ALPHABET, max_size=60).map("".join))
def test_alignment_properties_on_random_code(cb, text):
    for lang in ("python", "javascript"):
        enc = cb.encode(text, lang)
        assert enc.input_ids == cb.tokenizer.encode(text).ids
        check_alignment(enc)
        assert len(lex(text, lang)) == len(enc.lexemes)


# ---- lazy annotations ----------------------------------------------------------------------


def test_ids_need_no_parse(cb, monkeypatch):
    """``input_ids`` come from the text tokenizer alone; the parse runs when an annotation
    is first read, once, and gives what an encoding read annotation-first gives."""
    import codetok.code.applications.codebert as codebert

    src = NON_ASCII[0]
    eager = cb.encode(src, "python")
    want = {name: getattr(eager, name) for name in codebert.ANNOTATIONS if name != "lexemes"}
    calls = []

    def counted_lex(*args, **kwargs):
        calls.append(args)
        return lex(*args, **kwargs)

    monkeypatch.setattr(codebert, "lex", counted_lex)
    enc = cb.encode(src, "python")
    assert enc.input_ids == eager.input_ids
    assert len(enc) == len(eager) and enc.tokens == eager.tokens and enc.language == "python"
    assert repr(enc) == repr(eager)
    assert calls == []
    for name, value in want.items():
        np.testing.assert_array_equal(getattr(enc, name), value, err_msg=name)
    assert enc.kind(1) == eager.kind(1)
    assert len(calls) == 1


def test_an_unknown_language_fails_at_encode(cb):
    from codetok.errors import LanguageError

    with pytest.raises(LanguageError):
        cb.encode("x = 1\n", "no-such-language")


def test_ids_alone_take_the_lean_encode(cb, codebert_dir):
    """``ids`` alone come from the native plan's ids-only encode (no offsets, masks or
    token strings), equal to the full encode's, with and without special tokens, with added
    tokens in the text and with more tokens than chars (4-byte chars); the full encode runs
    when tokens or annotations are read. A tokenizer with truncation set takes the full
    encode at once."""
    texts = [
        NON_ASCII[0],
        "x = <mask> + 1  # <s>\n",
        "",
        "\ud800 y = 2\n",
        "s = '\U0001f600𐍈'\n" * 300,
    ]
    for text in texts:
        for special in (True, False):
            full = cb.tokenizer.encode(text, add_special_tokens=special)
            enc = cb.encode(text, "python", add_special_tokens=special)
            assert enc._encoded is None, (text, special)
            assert enc.ids.tolist() == full.ids and enc.input_ids == full.ids
            assert len(enc) == len(full.ids)
            assert enc.tokens == full.tokens and enc._encoded is not None
            if "\ud800" not in text:
                check_alignment(enc)
    cut = CodeBertTokenizer(codebert_dir)
    cut.tokenizer.enable_truncation(max_length=5)
    enc = cut.encode(texts[0], "python")
    assert enc._encoded is not None and enc.ids.tolist() == cut.tokenizer.encode(texts[0]).ids
