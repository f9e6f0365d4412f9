"""CodeTokenizer: lossless round trips, routing tables per language, spans, options, files."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import numpy as np
import pytest
from _code_helpers import check_token_extents
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok.code import CodeTokenizer, LexemeKind, split_identifier
from codetok.code.routing.pieces import PieceSplitter
from codetok.errors import ConfigurationError, FormatError, VocabularyError

DATA = Path(__file__).parents[1] / "data" / "code"
FIXTURES = sorted(p for p in DATA.iterdir() if p.suffix in (".py", ".java", ".cs", ".jsx"))
LANGS = ("python", "java", "csharp", "javascript")
K = LexemeKind


@pytest.fixture(scope="module")
def tok() -> CodeTokenizer:
    # min_frequency=1: the fixtures are small; every pair seen may become a token.
    return CodeTokenizer.train([DATA], vocab_size=1300, min_frequency=1, show_progress=False)


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture_round_trip(tok: CodeTokenizer, path: Path) -> None:
    data = path.read_bytes()
    enc = tok.encode(data, path=path)
    assert enc.lossless and enc.source_is_bytes
    assert tok.decode(enc.ids, as_bytes=True) == data
    text = data.decode("utf-8")
    assert tok.decode(tok.encode(text, path=path).ids) == text


EDGE_CASES = [
    ("python", ""),
    ("python", "\ufeffx = 1\r\nif x:\r\n\ty = 2\r\n"),
    ("python", "def f(:\n  return ]]\n\x00\x01"),
    ("python", "s = 'caf\u00e9 \U0001f600'\n  \n\n"),
    ("java", "class A { void f() { int x = 0x1F_FFL; } "),
    ("csharp", 'var s = $"{a,5:N2} {{x}}" + @"c:\\dir";\r'),
    ("javascript", "const el = <div a={1}>hi {x}</div>;\n`t ${a + `${b}`}`"),
    ("javascript", "\t\t  \u00a0\u2003x\u200b=1"),
]


@pytest.mark.parametrize(("lang", "src"), EDGE_CASES)
def test_edge_cases_round_trip(tok: CodeTokenizer, lang: str, src: str) -> None:
    assert tok.decode(tok.encode(src, lang).ids) == src
    data = src.encode("utf-8")
    assert tok.decode(tok.encode(data, lang).ids, as_bytes=True) == data


def test_invalid_utf8_bytes_round_trip(tok: CodeTokenizer) -> None:
    data = b"x = '\xff\xfe\xc3'  # \x80 bad\nprint(x)\n"
    enc = tok.encode(data, "python")
    assert tok.decode(enc.ids, as_bytes=True) == data
    assert tok.decode(enc.ids) == data.decode("utf-8", "surrogateescape")


def test_lone_surrogate_str_round_trip(tok: CodeTokenizer) -> None:
    src = "x = '\ud800'\n"
    assert tok.decode(tok.encode(src, "python").ids) == src


@pytest.mark.parametrize("lang", LANGS)
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(max_size=80))
def test_any_text_round_trips(tok: CodeTokenizer, lang: str, text: str) -> None:
    assert tok.decode(tok.encode(text, lang).ids) == text


@pytest.mark.parametrize("lang", ("python", "javascript"))
@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=60))
def test_any_bytes_round_trip(tok: CodeTokenizer, lang: str, data: bytes) -> None:
    assert tok.decode(tok.encode(data, lang).ids, as_bytes=True) == data


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    text=st.text(
        alphabet=st.sampled_from(list("abcXY_ 019\t\n\r\"'#(){}:;=+.\\/*@$`")), max_size=120
    )
)
def test_code_like_text_round_trips(tok: CodeTokenizer, text: str) -> None:
    for lang in LANGS:
        assert tok.decode(tok.encode(text, lang).ids) == text


def test_stdlib_files_round_trip(tok: CodeTokenizer) -> None:
    root = Path(sysconfig.get_paths()["stdlib"])
    names = ["textwrap.py", "string.py", "glob.py", "colorsys.py", "keyword.py"]
    files = [root / n for n in names if (root / n).exists()]
    assert files
    for f in files:
        data = f.read_bytes()
        assert tok.decode(tok.encode(data, "python").ids, as_bytes=True) == data, f.name


# ----------------------------------------------------------------------------- routing tables

# hand-checked: (piece or reserved token, channel) for one sample per language
TABLES = {
    "python": (
        'def f(x):\n    """Doc.\n\n    Args:\n        x: n\n    """\n    return x  # c\n',
        [
            ("<py:def>", "reserved"), (" ", "code"), ("f", "code"), ("(", "code"),
            ("x", "code"), (")", "code"), (":", "code"), ("<NL>", "reserved"),
            ("    ", "code"), ("<INDENT>", "reserved"), ("<doc>", "reserved"),
            ('"""', "comment"), ("Doc", "comment"), (".", "comment"),
            ("\n\n    ", "comment"), ("<doc:param>", "reserved"), ("Args", "comment"),
            (":", "comment"), ("\n       ", "comment"), (" x", "comment"), (":", "comment"),
            (" n", "comment"), ("\n   ", "comment"), (' """', "comment"),
            ("</doc>", "reserved"), ("<NL>", "reserved"), ("    ", "code"),
            ("<py:return>", "reserved"), (" ", "code"), ("x", "code"), ("  ", "code"),
            ("<comment>", "reserved"), ("#", "comment"), (" c", "comment"),
            ("</comment>", "reserved"), ("<NL>", "reserved"), ("<DEDENT>", "reserved"),
        ],
    ),
    "java": (
        "/** Adds. @param a x */\nint add(int a) { return a + 10; }\n",
        [
            ("<doc>", "reserved"), ("/**", "comment"), (" Adds", "comment"),
            (".", "comment"), (" ", "comment"), ("<doc:param>", "reserved"),
            ("@", "comment"), ("param", "comment"), (" a", "comment"), (" x", "comment"),
            (" */", "comment"), ("</doc>", "reserved"), ("<NL>", "reserved"),
            ("<java:int>", "reserved"), (" ", "code"), ("add", "code"), ("(", "code"),
            ("<java:int>", "reserved"), (" ", "code"), ("a", "code"), (")", "code"),
            (" ", "code"), ("{", "code"), (" ", "code"), ("<java:return>", "reserved"),
            (" ", "code"), ("a", "code"), (" ", "code"), ("+", "code"), (" ", "code"),
            ("10", "code"), (";", "code"), (" ", "code"), ("}", "code"), ("<NL>", "reserved"),
        ],
    ),
    "csharp": (
        '/// <summary>Hi</summary>\npublic var s = @"a\\b";\n',
        [
            ("<doc>", "reserved"), ("///", "comment"), (" ", "comment"),
            ("<doc:summary>", "reserved"), ("<", "comment"), ("summary", "comment"),
            (">", "comment"), ("Hi", "comment"), ("</", "comment"), ("summary", "comment"),
            (">", "comment"), ("</doc>", "reserved"), ("<NL>", "reserved"),
            ("<cs:public>", "reserved"), (" ", "code"), ("<cs:var>", "reserved"),
            (" ", "code"), ("s", "code"), (" ", "code"), ("=", "code"), (" ", "code"),
            ('@"', "code"), ("a", "code"), ("\\", "code"), ("b", "code"), ('"', "code"),
            (";", "code"), ("<NL>", "reserved"),
        ],
    ),
    "javascript": (
        "const getHTTPUrl = (a) => `v${a}`; // t\n",
        [
            ("<js:const>", "reserved"), (" ", "code"), ("get", "code"), ("HTTP", "code"),
            ("Url", "code"), (" ", "code"), ("=", "code"), (" ", "code"), ("(", "code"),
            ("a", "code"), (")", "code"), (" ", "code"), ("=>", "code"), (" ", "code"),
            ("`", "code"), ("v", "code"), ("${", "code"), ("a", "code"), ("}", "code"),
            ("`", "code"), (";", "code"), (" ", "code"), ("<comment>", "reserved"),
            ("//", "comment"), (" t", "comment"), ("</comment>", "reserved"),
            ("<NL>", "reserved"),
        ],
    ),
}  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_routing_table(tok: CodeTokenizer, lang: str) -> None:
    """Each lexeme kind's units, whitespace unfolded (see test_fold_whitespace_pieces)."""
    plain = CodeTokenizer(
        tok.tokenizer, tok.comment_tokenizer, fold_whitespace=False, join_punctuation=False
    )
    src, expected = TABLES[lang]
    got = [(piece, channel) for piece, _, channel in plain.pre_tokenize(src, lang)]
    assert got == expected


# (source, language) -> kinds of the reserved tokens, in order
KIND_TABLES = [
    (
        TABLES["python"][0],
        "python",
        ["KEYWORD", "NEWLINE", "INDENT", "DOCSTRING", "DOCSTRING", "DOCSTRING", "NEWLINE",
         "KEYWORD", "COMMENT", "COMMENT", "NEWLINE", "DEDENT"],
    ),
    (
        "class A:\n    def f(self):\n        if x:\n            pass\n    y = 1\n",
        "python",
        ["KEYWORD", "NEWLINE", "INDENT", "KEYWORD", "NEWLINE", "INDENT", "KEYWORD",
         "NEWLINE", "INDENT", "KEYWORD", "NEWLINE", "DEDENT", "DEDENT", "NEWLINE", "DEDENT"],
    ),
    (TABLES["java"][0], "java",
     ["DOCSTRING", "DOCSTRING", "DOCSTRING", "NEWLINE", "KEYWORD", "KEYWORD", "KEYWORD",
      "NEWLINE"]),
    (TABLES["csharp"][0], "csharp",
     ["DOCSTRING", "DOCSTRING", "DOCSTRING", "NEWLINE", "KEYWORD", "KEYWORD", "NEWLINE"]),
    (TABLES["javascript"][0], "javascript",
     ["KEYWORD", "COMMENT", "COMMENT", "NEWLINE"]),
]  # fmt: skip


@pytest.mark.parametrize(("src", "lang", "kinds"), KIND_TABLES)
def test_reserved_token_kinds(tok: CodeTokenizer, src: str, lang: str, kinds: list[str]) -> None:
    plain = CodeTokenizer(
        tok.tokenizer, tok.comment_tokenizer, fold_whitespace=False, join_punctuation=False
    )
    enc = plain.encode(src, lang)
    reserved = set(tok.reserved.tokens)
    got = [k.name for t, k in zip(enc.tokens, enc.kind_list(), strict=True) if t in reserved]
    assert got == kinds


def test_kinds_of_subword_tokens(tok: CodeTokenizer) -> None:
    src = 'x = "hi there"  # note\nclass K:\n    """Doc."""\n'
    enc = tok.encode(src, "python")
    by_text: dict[str, set[str]] = {}
    for i, k in enumerate(enc.kind_list()):
        by_text.setdefault(enc.token_text(i), set()).add(k.name)
    assert by_text["x"] == {"IDENTIFIER"}
    assert "STRING" in by_text['"'] and "DOCSTRING" in by_text["Doc"]
    assert by_text["K"] == {"IDENTIFIER"}
    assert "COMMENT" in by_text["#"]


FOLD_SRC = "def f(x):\n    return x + 1  # c\n\tif y: pass\n"


def test_fold_whitespace_pieces(tok: CodeTokenizer) -> None:
    """A newline and its indentation are one piece; one space joins the code piece after it,
    or a keyword's spaced twin, but not a comment; other whitespace keeps its own piece."""
    folded = CodeTokenizer(
        tok.tokenizer, tok.comment_tokenizer, fold_whitespace=True, join_punctuation=False
    )
    plain = CodeTokenizer(
        tok.tokenizer, tok.comment_tokenizer, fold_whitespace=False, join_punctuation=False
    )
    got = [p for p, _, _ in folded.pre_tokenize(FOLD_SRC, "python")]
    assert got == [
        "<py:def>", " f", "(", "x", ")", ":", "\n    ", "<INDENT>", "<py:return>", " x",
        " +", " 1", "  ", "<comment>", "#", " c", "</comment>", "\n\t", "<py:if>", " y",
        ":", "<py: pass>", "<NL>", "<DEDENT>",
    ]  # fmt: skip
    unfolded = [p for p, _, _ in plain.pre_tokenize(FOLD_SRC, "python")]
    assert unfolded[:3] == ["<py:def>", " ", "f"] and "\n    " not in unfolded
    for t in (folded, plain):
        enc = t.encode(FOLD_SRC, "python")
        assert t.decode(enc.ids) == FOLD_SRC
    # folded tokens take the kind of the lexeme they join (NEWLINE for the layout piece):
    # only the whitespace run that folds nowhere (before the comment) stays WHITESPACE
    enc = folded.encode(FOLD_SRC, "python")
    kinds = enc.kind_list()
    blank = [enc.token_text(i) for i, k in enumerate(kinds) if k == K.WHITESPACE]
    assert blank == ["  "]
    for i, k in enumerate(kinds):
        if enc.token_text(i).startswith("\n"):
            assert k == K.NEWLINE


BLANK_SRC = "class A:\n\n    x = 1 if y else 2\n  \n\n    def f(self): return not x\n\n\nB = A\n"


def test_blank_lines_and_spaced_keywords(tok: CodeTokenizer) -> None:
    """With fold_blank_lines, a newline takes the newlines of the blank lines after it and
    then the indentation (a blank line holding blanks ends the run); with spaced_keywords,
    a single space joins the keyword after it as the keyword's spaced twin, whose token
    spells the space; without either, the pieces are those of fold_whitespace alone."""
    both = CodeTokenizer(tok.tokenizer, tok.comment_tokenizer)
    got = [p for p, _, _ in both.pre_tokenize(BLANK_SRC, "python")]
    assert got == [
        "<py:class>", " A", ":", "\n\n    ", "<INDENT>", "x", " =", " 1", "<py: if>", " y",
        "<py: else>", " 2", "\n  ", "\n\n    ", "<py:def>", " f", "(self", "):",
        "<py: return>", "<py: not>", " x", "\n\n\n", "<DEDENT>", "B", " =", " A", "<NL>",
    ]  # fmt: skip
    assert both.reserved.surfaces["<py: return>"] == " return"
    neither = CodeTokenizer(
        tok.tokenizer, tok.comment_tokenizer, fold_blank_lines=False, spaced_keywords=False
    )
    old = [p for p, _, _ in neither.pre_tokenize(BLANK_SRC, "python")]
    assert old[:6] == ["<py:class>", " A", ":", "<NL>", "\n    ", "<INDENT>"]
    assert "<py: return>" not in old and old.count("<NL>") == 6
    for t in (both, neither):
        enc = t.encode(BLANK_SRC, "python")
        assert t.decode(enc.ids) == BLANK_SRC
        check_token_extents(enc)
    enc = both.encode(BLANK_SRC, "python")
    kinds = enc.kind_list()
    for i, k in enumerate(kinds):
        text = enc.token_text(i)
        if text.startswith("\n"):
            assert k == K.NEWLINE
        if text == " return":
            assert k == K.KEYWORD and enc.tokens[i] == "<py: return>"


def test_join_punctuation_pieces(tok: CodeTokenizer) -> None:
    """A run of touching punctuation is one piece, of the first lexeme's kind; an operator or
    a space ends the run, and max_piece still bounds it. A lone punctuation char joins the
    identifier right after it (not a number, not after a run)."""
    joined = CodeTokenizer(tok.tokenizer, tok.comment_tokenizer, fold_whitespace=False)
    src = "f(g(x[0]));\nh({a: [1]}) ;\n"
    got = [p for p, _, c in joined.pre_tokenize(src, "javascript") if c == "code"]
    assert got == [
        "f", "(g", "(x", "[", "0", "]));", "h", "({", "a", ":", " ", "[", "1", "]})", " ", ";",
    ]  # fmt: skip
    short = CodeTokenizer(tok.tokenizer, tok.comment_tokenizer, max_piece=2)
    assert "]))" not in [p for p, _, _ in short.pre_tokenize(src, "javascript")]
    enc = joined.encode(src, "javascript")
    assert joined.decode(enc.ids) == src
    check_token_extents(enc)


def test_folding_is_off_for_older_files(tok: CodeTokenizer, tmp_path: Path) -> None:
    """A saved tokenizer without the settings (trained before they existed) keeps its routing."""
    import json

    path = tmp_path / "old.json"
    tok.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    section = next(v for v in data.values() if isinstance(v, dict) and "options" in v)
    names = ("fold_whitespace", "join_punctuation", "fold_blank_lines", "spaced_keywords")
    for name in names:
        assert section["options"][name] is True
        del section["options"][name]
    path.write_text(json.dumps(data), encoding="utf-8")
    options = CodeTokenizer.load(path).options
    assert not any(getattr(options, name) for name in names)


# ----------------------------------------------------------------------------- annotations


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_spans_tile_the_source(tok: CodeTokenizer, path: Path) -> None:
    data = path.read_bytes()
    enc = tok.encode(data, path=path)
    bs = enc.byte_spans
    assert bs[0, 0] == 0 and bs[-1, 1] == len(data)
    assert np.all(bs[1:, 0] == bs[:-1, 1])
    check_token_extents(enc)
    lx = enc.lexemes
    li = enc.lexeme_indices
    early = np.flatnonzero(bs[:, 0] < lx.byte_starts[li])
    late = np.flatnonzero(bs[:, 1] > lx.byte_ends[li])
    assert early.size and late.size  # the fixtures fold both ways
    text = lx.source_text
    assert "".join(text[a:b] for a, b in enc.spans.tolist()) == text
    assert enc.lines[0] == 1 and enc.lines[-1] == text[: enc.spans[-1, 0]].count("\n") + 1
    assert len(enc.node_types) == len(enc) == len(enc.kinds)


def test_non_ascii_char_spans(tok: CodeTokenizer) -> None:
    src = "h\u00e9llo = '\u65e5\u672c'\n"
    enc = tok.encode(src, "python")
    pieces = [src[a:b] for a, b in enc.spans.tolist()]
    assert "".join(p for p, n in zip(pieces, enc.tokens, strict=True)).startswith("h\u00e9llo")
    assert enc.spans[-1, 1] == len(src)


# ----------------------------------------------------------------------------- options


def test_drop_comments_is_flagged(tok: CodeTokenizer) -> None:
    src = "x = 1  # note\n/* no */\n"
    enc = tok.encode(src, "python", drop_comments=True)
    assert not enc.lossless
    out = tok.decode(enc.ids)
    assert "note" not in out and out.startswith("x = 1")
    enc = tok.encode('def f():\n    """Doc."""\n    return 1\n', "python", drop_docstrings=True)
    assert "Doc" not in tok.decode(enc.ids) and not enc.lossless


def test_normalize_whitespace(tok: CodeTokenizer) -> None:
    src = "if  x :\r\n\t\ty  =  1   \r\n\r\nz\n"
    enc = tok.encode(src, "python", normalize_whitespace=True)
    assert not enc.lossless
    assert tok.decode(enc.ids) == "if x :\n    y = 1\n\nz\n"
    java = "class A {\n  int   x;  \n}\n"
    assert tok.decode(tok.encode(java, "java", normalize_whitespace=True).ids) == (
        "class A {\n  int x;\n}\n"
    )
    assert tok.encode(src, "python").lossless


def test_digit_policies() -> None:
    assert PieceSplitter("single").texts("number", "2024") == ["2", "0", "2", "4"]
    assert PieceSplitter("group3").texts("number", "1234567") == ["123", "456", "7"]
    assert PieceSplitter("whole").texts("words", "v 12345x") == ["v", " ", "12345", "x"]
    with pytest.raises(ConfigurationError, match="digit policy"):
        PieceSplitter("pairs")


def test_identifier_parts_and_joins(tok: CodeTokenizer) -> None:
    pieces = [p for p, _, _ in tok.pre_tokenize("__get_userHTTPName2__", "python")]
    assert pieces == split_identifier("__get_userHTTPName2__").pieces()


def test_unknown_option() -> None:
    with pytest.raises(ConfigurationError, match="unknown CodeTokenizer option"):
        CodeTokenizer(None, digit="single")


def test_separate_comment_channel() -> None:
    srcs = [("# hello world comment\nx_value = 1  # another comment\n", "python")] * 4
    tok = CodeTokenizer.train(
        srcs, languages=["python"], vocab_size=700, comment_vocab="separate",
        comment_vocab_size=300, show_progress=False, min_frequency=1,
    )  # fmt: skip
    enc = tok.encode(srcs[0][0], "python")
    code_size = tok.tokenizer.get_vocab_size()
    comment_ids = [i for i, k in zip(enc.ids, enc.kinds.tolist(), strict=True) if k == K.COMMENT]
    assert any(i >= code_size for i in comment_ids)
    assert tok.decode(enc.ids) == srcs[0][0]


def test_wrap_plain_byte_level_tokenizer() -> None:
    from codetok.trainers import train_bpe

    base = train_bpe(texts=["def f(): return 1"] * 4, vocab_size=300)
    tok = CodeTokenizer(base, languages=["python"])
    src = "def f():\n    return '\u00e9'\n"
    assert tok.decode(tok.encode(src, "python").ids) == src


def test_non_byte_level_tokenizer_is_refused() -> None:
    from codetok.trainers import train_wordpiece

    base = train_wordpiece(texts=["hello world"] * 4, vocab_size=50)
    with pytest.raises(VocabularyError, match="256 byte-level"):
        CodeTokenizer(base)


def test_wrong_source_type_is_a_codetok_error(tok: CodeTokenizer) -> None:
    """encode(None) and friends raise a codetok error naming the type (still a TypeError)."""
    from codetok.errors import CodetokError, InputError

    for call in (
        lambda: tok.encode(None, "python"),  # type: ignore[arg-type]
        lambda: tok.encode(None),  # type: ignore[arg-type]
        lambda: tok.encode_batch(["x = 1", 42], "python", num_threads=2),  # type: ignore[list-item]
    ):
        with pytest.raises(InputError, match="must be str or bytes, not (NoneType|int)") as err:
            call()
        assert isinstance(err.value, CodetokError) and isinstance(err.value, TypeError)


def test_decode_rejects_bad_ids(tok: CodeTokenizer) -> None:
    with pytest.raises(VocabularyError, match="not in this tokenizer"):
        tok.decode([tok.vocab_size])


# ----------------------------------------------------------------------------- persistence


def test_save_load_identical(tok: CodeTokenizer, tmp_path: Path) -> None:
    path = tmp_path / "code.json"
    tok.save(path)
    again = CodeTokenizer.load(path)
    assert again.to_dict() == tok.to_dict()
    for f in FIXTURES:
        data = f.read_bytes()
        assert again.encode(data, path=f).ids == tok.encode(data, path=f).ids


def test_load_errors(tmp_path: Path) -> None:
    from codetok.trainers import train_bpe

    plain = tmp_path / "tokenizer.json"
    train_bpe(texts=["abc"], vocab_size=260).save(plain)
    with pytest.raises(FormatError, match="not a code tokenizer"):
        CodeTokenizer.load(plain)
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(FormatError, match="invalid JSON"):
        CodeTokenizer.load(bad)


def test_encoding_lists_are_built_on_first_read(tok: CodeTokenizer) -> None:
    enc = tok.encode("def f(x):\n    return x + 1  # one\n", "python")
    assert enc._ids is None and enc._tokens is None  # arrays only, until asked
    assert len(enc) == enc.ids_array.size == len(enc.spans)
    assert enc.ids == enc.ids_array.tolist()
    assert enc.tokens == [tok.id_to_token(i) for i in enc.ids]
    assert enc.to_dict()["tokens"] == enc.tokens
    enc.ids = enc.ids[:3]
    assert enc.ids_array.tolist() == enc.ids and len(enc) == 3


def test_encoding_needs_tokens_or_vocab(tok: CodeTokenizer) -> None:
    from codetok.code.encoding import CodeEncoding

    enc = tok.encode("x\n", "python")
    fields = dict(
        kinds=enc.kinds, node_type_ids=enc.node_type_ids, type_names=enc.type_names,
        lexeme_indices=enc.lexeme_indices, spans=enc.spans, byte_spans=enc.byte_spans,
        lines=enc.lines, language="python", source_is_bytes=False, lossless=True,
        lexemes=enc.lexemes,
    )  # fmt: skip
    with pytest.raises(TypeError, match="tokens or a vocab"):
        CodeEncoding(enc.ids, None, **fields)
    assert CodeEncoding(enc.ids, ["x", "<NL>"], **fields).tokens == ["x", "<NL>"]


def test_damaged_files_are_format_errors(tok: CodeTokenizer, tmp_path: Path) -> None:
    # Each raised something else (UnicodeDecodeError, TypeError later in encode, MemoryError
    # building tables by id) or named no file; found by tests/fuzz/test_fuzz.py.
    import json

    path = tmp_path / "code.json"
    good = tok.to_str()
    path.write_bytes(good.encode("utf-8")[:100] + b"\xff" + good.encode("utf-8")[100:])
    with pytest.raises(FormatError, match="not UTF-8") as info:
        CodeTokenizer.load(path)
    assert str(path) in str(info.value)
    for edit, where in [
        (lambda d: d["codetok_code"].update(options=["digits"]), "options"),
        (lambda d: d["codetok_code"]["options"].update(max_piece="64"), "max_piece"),
        (lambda d: d["codetok_code"]["options"].update(digits="roman"), "digit policy"),
        (lambda d: d["model"]["vocab"].update({"zzz": 2**31 - 5}), "consecutive"),
    ]:
        data = json.loads(good)
        edit(data)
        path.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(FormatError, match=where) as info:
            CodeTokenizer.load(path)
        assert str(path) in str(info.value)
