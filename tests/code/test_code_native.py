"""The native code router (codetok/code/routing/native.py) against the Python router it repeats.

Every test encodes the same lexemes twice, with native plans on and off
(``conftest.python_pipeline``), and compares every field of the two encodings. Lexemes come
from the real lexer (fixtures, the standard library, generated code) and from synthetic
streams where each lexeme kind gets arbitrary text (identifier rules, piece patterns on any
Unicode, docstring cuts), which the lexer would rarely produce.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import numpy as np
import pytest
from _code_helpers import code_state
from conftest import python_pipeline
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok.code import CodeTokenizer, LexemeKind, lex
from codetok.code.front.lexemes import Lexemes
from codetok.code.routing.native import code_classes, run_router
from codetok.code.routing.pieces import PieceSplitter
from codetok.code.routing.router import RouterOptions, route

pytest.importorskip("codetok._core")

DATA = Path(__file__).parents[1] / "data" / "code"
FIXTURES = sorted(p for p in DATA.iterdir() if p.suffix in (".py", ".java", ".cs", ".jsx"))
K = LexemeKind


@pytest.fixture(scope="module")
def tok() -> CodeTokenizer:
    return CodeTokenizer.train([DATA], vocab_size=1300, show_progress=False)


def units(tok: CodeTokenizer, lexemes: Lexemes, opts: RouterOptions) -> tuple:
    """The units both routers cut (pieces a BPE would merge back are told apart here)."""
    router = tok._router(lexemes.language, opts)
    if isinstance(router, str):
        routed = route(
            lexemes,
            tok.reserved,
            tok._index,
            opts,
            PieceSplitter(opts.digits, max_piece=opts.max_piece),
        )
    else:
        routed = run_router(router, lexemes, tok._index, opts).routed
    return list(routed.starts), list(routed.ends), list(routed.lexemes), routed.lossless


def both(tok: CodeTokenizer, lexemes: Lexemes, opts: RouterOptions | None = None) -> tuple:
    opts = opts or tok.options
    native = (code_state(tok._encode_lexemes(lexemes, opts)), units(tok, lexemes, opts))
    with python_pipeline():
        reference = (code_state(tok._encode_lexemes(lexemes, opts)), units(tok, lexemes, opts))
    return native, reference


def test_native_router_is_used(tok: CodeTokenizer) -> None:
    assert not isinstance(tok._router("python", tok.options), str)
    with python_pipeline():
        assert "switched off" in tok._router("python", tok.options)
    assert "Python" in tok._router("python", RouterOptions(normalize_whitespace=True))
    assert "Python" in tok._router("python", RouterOptions(statistical_split=True))


def test_code_classes_follow_regex() -> None:
    table = code_classes()
    assert len(table) == 0x110000
    assert table[ord("\u0301")] == 2  # a combining mark
    assert table[ord("\u0663")] == 4  # ARABIC-INDIC DIGIT THREE
    assert table[ord("\u00b2")] == 0  # superscript two: a number, not Nd
    assert table[0x3000] == 8  # ideographic space
    assert table[0xD800] == 0  # a lone surrogate is in no class


# ------------------------------------------------------------------------ real lexemes

OPTIONS = [
    RouterOptions(),
    RouterOptions(digits="single", max_piece=3),
    RouterOptions(digits="whole", split_identifiers=False, keyword_tokens=False),
    RouterOptions(comment_markers=False, doc_sections=False),
    RouterOptions(drop_comments=True, drop_docstrings=True),
    RouterOptions(fold_whitespace=False),
    RouterOptions(fold_blank_lines=False, max_piece=3),
    RouterOptions(join_punctuation=False, max_piece=2),
    RouterOptions(fold_whitespace=False, join_punctuation=False, digits="single", max_piece=2),
]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
@pytest.mark.parametrize("opts", OPTIONS, ids=range(len(OPTIONS)))
def test_fixtures(tok: CodeTokenizer, path: Path, opts: RouterOptions) -> None:
    data = path.read_bytes()
    for source in (data, data.decode("utf-8")):
        native, reference = both(tok, lex(source, path=path), opts)
        assert native == reference


def test_stdlib_files(tok: CodeTokenizer) -> None:
    files = sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[:40]
    for path in files:
        source = path.read_bytes()
        native, reference = both(tok, lex(source, "python"))
        assert native == reference, path.name


#: Text made of pieces the patterns treat differently: runs of one or several blanks of
#: each kind (before a letter, a digit or the end), letters with marks, digit groups in
#: several scripts, punctuation runs, and any char.
ATOMS = st.lists(
    st.sampled_from(
        [
            " ",
            "  ",
            "   ",
            "\t",
            "\t\t",
            "\n",
            "\r\n",
            "\u00a0",
            "\u3000\u3000",
            " \t",
            "a",
            "ab",
            "Zeta",
            "é",
            "e\u0301",
            "\u0915\u093f",
            "1",
            "12",
            "1234567",
            "\u0663\u0664",
            "\u00b2",
            ".",
            "::",
            "#",
            "->",
            "_",
            "'",
            "\ud800",
            "\U0001f600",
        ]
    )
    | st.characters(),
    max_size=12,
).map("".join)

#: Bits of code in several languages (the lexer makes every kind of lexeme of them).
CODE_BITS = [
    "def ", "class ", "if ", "return ", "x", "getHTTPName2", "__init__", "$el", "@dec\n", "(", ")",
    "{", "}", "[", "]", ";", ":", ",", ".", " = ", " + ", "==", "\n", "\n    ", "\n\t", "\r\n",
    "  ", "# note  here\n", "// c  x\n", "/* b */", "/** @param x */", '"""Doc.\n\n    Args:\n"""',
    '"s  t"', "'c'", 'f"{a}b"', "`t ${x}`", '$"{a}"', "0x1F", "1_000L", "3.14", "12345", "é", "\u212a",
]  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lang=st.sampled_from(["python", "java", "csharp", "javascript"]),
    text=st.lists(st.sampled_from(CODE_BITS) | st.characters(codec="utf-8"), max_size=40).map(
        "".join
    ),
)
def test_generated_code(tok: CodeTokenizer, lang: str, text: str) -> None:
    native, reference = both(tok, lex(text, lang))
    assert native == reference


# ------------------------------------------------------------------- synthetic lexemes


def synthetic(parts: list[tuple[int, str]], as_bytes: bool = False) -> Lexemes:
    """Lexemes of the given (kind, text) stream, as if the lexer had found them."""
    text = "".join(t for _, t in parts)
    lengths = np.array([len(t) for _, t in parts], np.int64)
    ends = np.cumsum(lengths)
    starts = ends - lengths
    data = text.encode("utf-8", "surrogateescape" if as_bytes else "surrogatepass")
    byte_len = np.array(
        [
            len(t.encode("utf-8", "surrogateescape" if as_bytes else "surrogatepass"))
            for _, t in parts
        ],
        np.int64,
    )
    byte_ends = np.cumsum(byte_len)
    n = len(parts)
    zeros = np.zeros(n, np.int64)
    return Lexemes(
        language="python",
        source=data if as_bytes else text,
        text=text,
        data=data,
        kinds=np.array([k for k, _ in parts], np.uint8),
        node_types=np.zeros(n, np.uint16),
        parent_types=np.zeros(n, np.uint16),
        byte_starts=byte_ends - byte_len,
        byte_ends=byte_ends,
        char_starts=starts,
        char_ends=ends,
        lines=zeros + 1,
        cols=zeros,
        flags=np.zeros(n, np.uint8),
        type_names=("",),
        has_error=False,
    )


IDENT_CHARS = list("aAbBzZsSDdfnthrIPvOuNiOScmE_$@0123456789") + ["é", "\u212a", "\u0130", "ǅ"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=st.lists(st.text(st.sampled_from(IDENT_CHARS), min_size=1, max_size=24), max_size=6),
    cap=st.sampled_from([64, 4, 1]),
)
def test_identifiers(tok: CodeTokenizer, names: list[str], cap: int) -> None:
    lexemes = synthetic([(K.IDENTIFIER, n) for n in names])
    native, reference = both(tok, lexemes, RouterOptions(max_piece=cap))
    assert native == reference


@pytest.mark.parametrize(
    "name",
    ["i18n", "k8s", "a11y", "utf8", "Float64", "hue2rgb", "dict4key", "ticksTo1970", "getIDs",
     "IPv4Address", "parseHTTPResponse", "XMLHttpRequest2", "x86_64", "vec3D", "tex2D", "my2ndTry",
     "__init__", "_", "$el", "@class", "Outer$Inner", "__", "a__b", "HTTPs", "URLsList", "iOSApp",
     "macOS2", "NaNs", "to1970", "md5sum", "a2B", "A2bc", "\u212aoi8", "value", "String", "Ab",
     "ios", "Ios", "Nan", "Oauth", "macos", "Ipv", "AB", "aB", "Zz"],
)  # fmt: skip
def test_identifier_rules(tok: CodeTokenizer, name: str) -> None:
    native, reference = both(tok, synthetic([(K.IDENTIFIER, name)]))
    assert native == reference


def test_pieces_of_every_short_length_anywhere_in_the_text(tok: CodeTokenizer) -> None:
    """Pieces of 1 to 17 chars (a short piece's key holds up to 15), ASCII or not, at the
    start, middle and end of a long one-byte text and of a wider one: the native router's
    word-at-a-time keys give the reference's ids."""
    names = ["".join(chr(97 + (k * 7 + j) % 26) for j in range(n)) for k, n in
             enumerate(range(1, 18))]  # fmt: skip
    for extra in ("", "\u00e9", "\u4e2d"):
        words = [*names, *(n[:-1] + extra for n in names if len(n) > 1), *names]
        parts = []
        for w in words:
            parts += [(K.IDENTIFIER, w), (K.WHITESPACE, " ")]
        native, reference = both(tok, synthetic(parts[:-1]))
        assert native == reference


KINDS = [k for k in K if k not in (K.INDENT, K.DEDENT)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    parts=st.lists(
        st.tuples(
            st.sampled_from(KINDS),
            ATOMS.filter(bool),
        )
        | st.tuples(st.sampled_from([K.INDENT, K.DEDENT]), st.just("")),
        max_size=8,
    ),
    opts=st.sampled_from(OPTIONS),
    as_bytes=st.booleans(),
)
def test_any_lexeme_text(
    tok: CodeTokenizer, parts: list[tuple[int, str]], opts: RouterOptions, as_bytes: bool
) -> None:
    if as_bytes:  # a decoded bytes source holds lone surrogates only as escaped bytes
        parts = [
            (k, t.encode("utf-8", "surrogatepass").decode("utf-8", "surrogateescape"))
            for k, t in parts
        ]
    native, reference = both(tok, synthetic(parts, as_bytes), opts)
    assert native == reference


def test_docstring_sections(tok: CodeTokenizer) -> None:
    doc = '"""Add.\n\n    Args:\n        x: a number.\n    Returns:\n        x+1\n    """'
    lexemes = synthetic([(K.DOCSTRING, doc), (K.NEWLINE, "\n"), (K.DOCSTRING, "/** @param x */")])
    native, reference = both(tok, lexemes)
    assert native == reference
    assert "<doc:param>" in native[0][1] and "<doc:returns>" in native[0][1]


def test_splitter_errors_surface(tok: CodeTokenizer, monkeypatch: pytest.MonkeyPatch) -> None:
    from codetok.code.routing import native

    def broken(name: str) -> list[int]:
        raise RuntimeError(f"cannot split {name}")

    monkeypatch.setattr(native, "_split_lengths", broken)
    tok._routers.clear()
    with pytest.raises(RuntimeError, match="cannot split"):
        tok._encode_lexemes(synthetic([(K.IDENTIFIER, "na\u00efveName")]), tok.options)
    tok._routers.clear()


# ------------------------------------------------------------------------ encode_batch


def test_encode_batch_equals_encode(tok: CodeTokenizer) -> None:
    files = sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[:30]
    sources: list[str | bytes] = [p.read_bytes() for p in files] + [p.read_text() for p in FIXTURES]
    paths = [*files, *FIXTURES]
    # non-ASCII identifiers reach the Python splitter from several threads at once
    sources += [f"na\u00efve_{k} = caf\u00e9{k}\n" * 50 for k in range(8)]
    paths += [Path("x.py")] * 8
    single = [code_state(tok.encode(s, path=p)) for s, p in zip(sources, paths, strict=True)]
    for threads in (1, 2, 4):
        batch = tok.encode_batch(sources, paths=paths, num_threads=threads)
        assert [code_state(e) for e in batch] == single
    dropped = tok.encode_batch(sources[:3], "python", drop_comments=True, num_threads=2)
    assert [code_state(e) for e in dropped] == [
        code_state(tok.encode(s, "python", drop_comments=True)) for s in sources[:3]
    ]


def test_encode_batch_errors(tok: CodeTokenizer) -> None:
    with pytest.raises(ValueError, match="2 sources but 1 paths"):
        tok.encode_batch(["a", "b"], paths=["x.py"])
    with pytest.raises(ValueError, match="num_threads"):
        tok.encode_batch(["a"], "python", num_threads=0)
    with pytest.raises(TypeError):
        tok.encode_batch(["x = 1", 42], "python", num_threads=2)  # type: ignore[list-item]
    assert tok.encode_batch([], "python") == []
