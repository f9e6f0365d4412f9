"""The one-call native encode (codetok/code/fused.py) against the separate lexer and router calls.

``CodeTokenizer.encode`` and ``encode_batch`` run each file's parse, walk, columns,
docstring sections and router in one native call (on native threads for a batch). The
separate calls, ``lex`` then the router, are its specification: every test compares the
two on the lexemes (every column) and on the encoding (every field), on real code and on
the inputs that take the rare paths (bytes that are not UTF-8, a byte order mark,
identifiers and docstrings that are not ASCII, which the native side hands to Python).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _code_helpers import code_state

from codetok.code import CodeTokenizer, ParseBudget
from codetok.code import fused as fused_module
from codetok.errors import ParseLimitError

pytest.importorskip("codetok._core")

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "corpora" / "samples"
DATA = Path(__file__).parents[1] / "data" / "code"
LANGS = {
    ".py": "python",
    ".java": "java",
    ".cs": "csharp",
    ".js": "javascript",
    ".jsx": "javascript",
}
COLUMNS = (
    "kinds", "node_types", "parent_types", "byte_starts", "byte_ends", "char_starts",
    "char_ends", "lines", "cols", "flags",
)  # fmt: skip

TRICKY = [
    ("python", '"""Ünïcode doc.\n\nArgs:\n    x: the ẋ\n"""\ndef f(naïveName, x):\n    return x\n'),
    (
        "python",
        b'\xef\xbb\xbfdef f():\n    """Doc \xff\xfe.\n\n    Returns:\n        y\n    """\n    return "\xc3("\n',
    ),
    (
        "java",
        "/** Größe.\n * @param wertÄnderung the change\n */\nclass Größe { int wertÄnderung; }\n",
    ),
    ("csharp", "/// <summary>Ωmega</summary>\nclass Ω { void ΩMethod() {} }\n"),
    ("javascript", "const ünïcodeName = `a ${b} c`; // ☃\nfunction f(){ return 1 }\n"),
    ("python", b"x = '\x00\x80\xff'\nclass A:\n\tpass\n"),
    ("java", ""),
    ("python", "\n\n   \n"),
]


@pytest.fixture(scope="module")
def tok() -> CodeTokenizer:
    return CodeTokenizer()


def sources() -> list[tuple[str, str | bytes]]:
    out = list(TRICKY)
    for path in sorted(SAMPLES.rglob("*")):
        if path.suffix in LANGS and len(out) < 60:
            out.append((LANGS[path.suffix], path.read_bytes()))
    for path in sorted(DATA.iterdir()):
        if path.suffix in LANGS:
            out.append((LANGS[path.suffix], path.read_text(encoding="utf-8")))
    return out


def separate(tok: CodeTokenizer, src: str | bytes, language: str):
    """The specification: the lexer, then the router, as two calls."""
    return tok._encode_lexemes(tok.lex(src, language), tok.options)


def lexeme_state(enc) -> list:
    lx = enc.lexemes
    return [getattr(lx, name).tolist() for name in COLUMNS] + [lx.has_error, lx.language]


def test_the_fused_path_runs(tok):
    """The default tokenizer on a native build takes the one-call path."""
    from codetok.code.front.languages import get_grammar

    assert tok._encoder(get_grammar("python"), tok.options) is not None


@pytest.mark.parametrize("language, src", sources(), ids=lambda v: str(v)[:20])
def test_one_call_equals_the_separate_calls(tok, language, src):
    got, want = tok.encode(src, language), separate(tok, src, language)
    assert lexeme_state(got) == lexeme_state(want)
    assert code_state(got) == code_state(want)
    assert tok.decode(got.ids, as_bytes=isinstance(src, bytes)) == src


def test_a_batch_on_two_threads_equals_one_file_at_a_time(tok):
    srcs = sources()
    for language in sorted({lang for lang, _ in srcs}):
        group = [s for lang, s in srcs if lang == language]
        batch = tok.encode_batch(group, language, num_threads=2)
        assert [code_state(e) for e in batch] == [
            code_state(separate(tok, s, language)) for s in group
        ]
        assert [lexeme_state(e) for e in batch] == [
            lexeme_state(tok.encode(s, language)) for s in group
        ]


def test_a_batch_detects_each_language(tok):
    srcs = sources()[:20]
    paths = [
        f"f{k}{next(e for e, n in LANGS.items() if n == lang)}" for k, (lang, _) in enumerate(srcs)
    ]
    batch = tok.encode_batch([s for _, s in srcs], paths=paths, num_threads=2)
    assert [e.language for e in batch] == [tok.encode(s, lang).language for lang, s in srcs]
    assert [e.ids for e in batch] == [tok.encode(s, lang).ids for lang, s in srcs]


def test_a_batch_raises_the_first_parse_past_its_budget(tok):
    """Two files past the budget among good ones: the error names the first one, from
    whichever thread parsed it."""
    small = CodeTokenizer(
        tok.tokenizer, tok.comment_tokenizer, parse_budget=ParseBudget.fixed(5, 64)
    )
    good = (SAMPLES / "java" / "commons-io" / "IOCase.java").read_bytes()
    bomb = "a<" * 30000
    srcs = [good, good, bomb, good, bomb, good]
    paths = [f"f{k}.java" for k in range(len(srcs))]
    with pytest.raises(ParseLimitError, match="f2.java: the java parse") as info:
        small.encode_batch(srcs, "java", paths=paths, num_threads=2)
    assert info.value.reason == "memory"
    assert [e.ids for e in small.encode_batch([good] * 3, "java", num_threads=2)] == [
        tok.encode(good, "java").ids
    ] * 3


def test_a_callback_error_reaches_the_caller_from_a_worker_thread(tok, monkeypatch):
    """The splitter of non-ASCII identifiers is Python, called from a native thread: what
    it raises is what ``encode_batch`` raises."""

    class Broken(Exception):
        pass

    def broken(name: str) -> list[int]:
        raise Broken(name)

    monkeypatch.setattr(fused_module, "_split_lengths", broken)
    fresh = CodeTokenizer(tok.tokenizer, tok.comment_tokenizer)
    srcs = ["x = 1\n"] * 7 + ["naïveName = 2\n"] + ["y = 3\n"] * 7
    with pytest.raises(Broken, match="naïveName"):
        fresh.encode_batch(srcs, "python", num_threads=2)
    with pytest.raises(Broken, match="naïveName"):
        fresh.encode("naïveName = 2\n", "python")
    assert fresh.encode("x = 1\n", "python").ids == tok.encode("x = 1\n", "python").ids


def test_options_that_are_not_lossless_take_the_separate_calls(tok):
    from codetok.code.front.languages import get_grammar

    opts = tok._options({"drop_comments": True})
    assert tok._encoder(get_grammar("python"), opts) is None
    enc = tok.encode("x = 1  # c\n", "python", drop_comments=True)
    assert not enc.lossless and "<comment>" not in enc.tokens


def test_ids_are_int64_arrays_and_lexemes_stay_lazy(tok):
    enc = tok.encode("def f(x):\n    return x\n", "python")
    assert enc.ids_array.dtype == np.int64
    assert enc.lexeme_indices.dtype == np.int64


def test_the_kept_encoder_follows_options_language_and_switches() -> None:
    """``encode`` keeps its last native encoder: other options, another language, a new
    ``options`` value or plans switched off take theirs, and going back gives the first
    ids again."""
    from codetok.code.front.languages import get_grammar
    from codetok.code.routing.router import RouterOptions
    from codetok.engine.plan import use_plans

    tok = CodeTokenizer()
    src = "x = 1  # note\n"
    first = tok.encode(src, "python").ids
    dropped = tok.encode(src, "python", drop_comments=True).ids
    assert dropped != first
    assert tok.encode(src, "javascript").ids != first
    assert tok.encode(src, "python").ids == first
    tok.options = RouterOptions(drop_comments=True)
    assert tok.encode(src, "python").ids == dropped
    tok.options = RouterOptions()
    assert tok.encode(src, "python").ids == first
    previous = use_plans(False)
    try:
        assert tok._encoder(get_grammar("python"), tok.options) is None
        assert tok.encode(src, "python").ids == first
    finally:
        use_plans(previous)
