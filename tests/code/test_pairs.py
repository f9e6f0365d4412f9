"""Program-synthesis pairs (codetok.code.applications.pairs) and AST-aware truncation.

Hand-checked pairs for a sample per language, truncation properties (the kept code is a
prefix ending at a statement or lexeme end, its ids are exactly the tokenizer's ids of that
prefix and fit the budget), JSONL round trip, and the ``pairs`` sub-command.
"""

from __future__ import annotations

import argparse
import json
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from codetok.cli.pairs import (
    iter_source_files,
    pairs_from_files,
    read_jsonl,
    register,
    write_jsonl,
)
from codetok.code import LexemeKind, lex
from codetok.code.applications.pairs import PairEncoder, extract_pairs
from codetok.code.applications.truncation import statement_units, truncate_code
from codetok.errors import ConfigurationError, FormatError, LanguageError

PYTHON = '''\
import os


@cache
def area(w, h):
    """Return the area.

    Args:
        w: width.
    """
    s = w * h
    return s


def bare():
    """Only a docstring."""


class Box:
    def size(self):
        r"""Size of the box."""
        if self.w:
            return self.w
        return 0

    def nodoc(self):
        return 1
'''

JAVA = """\
package p;

public class Calc {
    /**
     * Adds two ints.
     *
     * @param a first
     * @return the sum
     */
    @Override
    public int add(int a, int b) {
        int s = a + b;
        return s;
    }

    // Makes a calc.
    // Twice.
    public Calc() { super(); }

    int x = 1; // trailing comment
    void none() {}

    /* spaced */

    void gap() {}
}
"""

CSHARP = """\
namespace N
{
    public class Greeter
    {
        /// <summary>Greets someone.</summary>
        /// <param name="who">Whom.</param>
        [Obsolete]
        public string Greet(string who)
        {
            var s = "Hi " + who;
            return s;
        }

        // Plain comment.
        public static Greeter operator +(Greeter a, Greeter b) { return a; }

        public void Undocumented() { }
    }
}
"""

JAVASCRIPT = """\
// Module header.

/**
 * Adds numbers.
 * @param {number} a
 */
export function add(a, b) {
  const s = a + b;
  return s;
}

// Squares x.
const square = (x) => x * x;

class Shape {
  /** Area of the shape. */
  area() { return 0; }
}

// Handler.
obj.onClick = function () { go(); };

const api = {
  // Fetches.
  get: async function (url) { return fetch(url); },
};

x = 1; // not a doc
function plain() {}
"""

SAMPLES = {"python": PYTHON, "java": JAVA, "csharp": CSHARP, "javascript": JAVASCRIPT}

EXPECTED = {
    "python": [
        ("area", "docstring", "Return the area.\n\nArgs:\n    w: width.",
         "@cache\ndef area(w, h):\n    s = w * h\n    return s"),
        ("Box.size", "docstring", "Size of the box.",
         "def size(self):\n        if self.w:\n            return self.w\n        return 0"),
    ],
    "java": [
        ("Calc.add", "doc", "Adds two ints.\n\n@param a first\n@return the sum",
         "@Override\n    public int add(int a, int b) {\n        int s = a + b;\n"
         "        return s;\n    }"),
        ("Calc.Calc", "line", "Makes a calc.\nTwice.", "public Calc() { super(); }"),
    ],
    "csharp": [
        ("Greeter.Greet", "doc", '<summary>Greets someone.</summary>\n<param name="who">Whom.</param>',
         '[Obsolete]\n        public string Greet(string who)\n        {\n'
         '            var s = "Hi " + who;\n            return s;\n        }'),
        ("Greeter.operator+", "line", "Plain comment.",
         "public static Greeter operator +(Greeter a, Greeter b) { return a; }"),
    ],
    "javascript": [
        ("add", "doc", "Adds numbers.\n@param {number} a",
         "export function add(a, b) {\n  const s = a + b;\n  return s;\n}"),
        ("square", "line", "Squares x.", "const square = (x) => x * x"),
        ("Shape.area", "doc", "Area of the shape.", "area() { return 0; }"),
        ("obj.onClick", "line", "Handler.", "obj.onClick = function () { go(); }"),
        ("get", "line", "Fetches.", "get: async function (url) { return fetch(url); }"),
    ],
}  # fmt: skip


class WordTokenizer:
    """A stand-in with only ``encode(text)``: one id per whitespace-separated word."""

    def encode(self, text: str) -> list[int]:
        return [len(w) for w in text.split()]


class FakeCodeTokenizer:
    """Duck-typed CodeTokenizer: ``encode(src, language=...)`` and ``encode_text``."""

    def __init__(self) -> None:
        self.languages: list[str | None] = []

    def encode(self, src: str, language: str | None = None):  # noqa: ANN201
        self.languages.append(language)
        return np.array([ord(c) for c in src if not c.isspace()], np.int64)

    def encode_text(self, text: str) -> list[int]:
        return [0] * len(text.split())


@pytest.fixture(scope="module")
def gpt2(gpt2_files, tmp_path_factory):
    """GPT-2 byte-level BPE from the real files, loaded through codetok's folder loader."""
    from codetok.formats.pretrained import load_pretrained_dir

    encoder, merges = gpt2_files
    folder = tmp_path_factory.mktemp("gpt2")
    (folder / "vocab.json").write_bytes(encoder.read_bytes())
    (folder / "merges.txt").write_bytes(merges.read_bytes())
    (folder / "tokenizer_config.json").write_text('{"tokenizer_class": "GPT2Tokenizer"}')
    return load_pretrained_dir(folder)


# ----------------------------------------------------------------------------- extraction


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_hand_checked_pairs(language):
    pairs = extract_pairs(SAMPLES[language], language, path=f"x.{language}")
    got = [(p.name, p.doc_style, p.docstring, p.code) for p in pairs]
    assert got == EXPECTED[language]
    data = SAMPLES[language].encode()
    for p in pairs:
        assert p.language == language and p.path == f"x.{language}"
        a, b = p.docstring_span
        assert data[a:b].decode().startswith(("/*", "//", "#", '"""', 'r"""'))
        s, e = p.span
        assert p.code.splitlines()[0] in data[s:e].decode()
        assert p.lines[0] == data[:s].count(b"\n") + 1
        assert p.lines[1] == data[: e - 1].count(b"\n") + 1


def test_python_docstring_kept_on_request():
    (pair,) = [p for p in extract_pairs(PYTHON, "python", keep_docstring=True) if p.name == "bare"]
    assert pair.code == 'def bare():\n    """Only a docstring."""'
    one = extract_pairs("def f(): 'Doc.'; return 1\n", "python")[0]
    assert one.code == "def f(): return 1" and one.docstring == "Doc."


def test_real_stdlib_file():
    path = Path(sysconfig.get_paths()["stdlib"]) / "textwrap.py"
    pairs = {p.name: p for p in extract_pairs(path.read_bytes(), path=path)}
    assert pairs["dedent"].docstring.startswith("Remove any common leading whitespace")
    assert pairs["TextWrapper.wrap"].code.startswith("def wrap(self, text):")
    assert '"""' not in pairs["dedent"].code.split("\n")[1]


def test_unknown_language_is_an_error():
    with pytest.raises(LanguageError):
        extract_pairs("x", "klingon")


# ----------------------------------------------------------------------------- truncation


def test_truncate_known_answer():
    code = b"def f():\n    a = 1\n    if a:\n        b = 2\n        c = 3\n    return a\n"
    units = statement_units(lex(code, "python").tree.root_node, "python")
    assert [code[s:e] for s, e in units] == [
        b"a = 1", b"if a:\n        b = 2\n        c = 3", b"b = 2", b"c = 3", b"return a",
    ]  # fmt: skip
    n_words = len(code.split())
    cut, rep = truncate_code(code, lambda b: len(b.split()), n_words - 4, units)
    assert code[:cut] == b"def f():\n    a = 1\n    if a:\n        b = 2"
    assert (rep.boundary, rep.statements_dropped, rep.open_blocks) == ("statement", 2, 1)
    assert rep.bytes_dropped == len(code) - cut and rep.tokens_after <= n_words - 4
    cut, rep = truncate_code(code, lambda b: len(b.split()), 100, units)
    assert cut == len(code) and not rep.truncated
    with pytest.raises(ValueError):
        truncate_code(code, len, -1, units)


@pytest.mark.parametrize("language", sorted(SAMPLES))
@pytest.mark.parametrize("budget", [1, 6, 12, 20, 40])
def test_truncation_never_cuts_inside_a_statement_or_token(gpt2, language, budget):
    enc = PairEncoder(gpt2, max_code_tokens=budget)
    for pair in extract_pairs(SAMPLES[language], language):
        rec = enc.encode(pair)
        t = rec["truncation"]
        code = rec["code"]
        assert pair.code.startswith(code)
        assert rec["code_ids"] == gpt2.encode(code).ids  # the prefix, encoded on its own
        assert len(rec["code_ids"]) == t["tokens_after"]
        assert t["tokens_before"] == len(gpt2.encode(pair.code).ids)
        if not t["truncated"]:
            assert code == pair.code and t["boundary"] is None
            continue
        cut = len(code.encode())
        assert t["bytes_dropped"] == len(pair.code.encode()) - cut
        if t["boundary"] == "statement":
            assert t["tokens_after"] <= budget
            assert cut in {e for _, e in pair.statements}
            # no statement is cut: each one is kept whole, dropped whole, or encloses the cut
            for s, e in pair.statements:
                assert e <= cut or s >= cut or t["open_blocks"] > 0
        elif t["boundary"] == "lexeme":
            assert t["tokens_after"] <= budget
            assert cut in set(pair.lexeme_ends)
        # the cut lands on a lexeme boundary of the function
        lx = lex(pair.code, language)
        assert cut in set(lx.byte_ends.tolist()) | {0}


def test_docstring_budget_and_duck_typed_code_tokenizer():
    fake = FakeCodeTokenizer()
    enc = PairEncoder(fake, max_code_tokens=15, max_docstring_tokens=2)
    rec = enc.encode(extract_pairs(JAVA, "java")[0])
    assert rec["docstring_ids"] == [0, 0] and rec["truncation"]["docstring_truncated"]
    assert rec["truncation"]["docstring_tokens_before"] == 9
    assert len(rec["code_ids"]) <= 15 and set(fake.languages) == {"java"}
    with pytest.raises(ConfigurationError):
        PairEncoder(object())
    with pytest.raises(ConfigurationError):
        PairEncoder(WordTokenizer(), max_code_tokens=-1)


# ----------------------------------------------------------------------------- files, JSONL, CLI


def write_tree(root: Path) -> None:
    for name, lang in [("a.py", "python"), ("B.java", "java"), ("C.cs", "csharp")]:
        (root / name).write_text(SAMPLES[lang], encoding="utf-8")
    (root / "sub").mkdir()
    (root / "sub" / "d.js").write_text(JAVASCRIPT, encoding="utf-8")
    (root / "notes.txt").write_text("not code", encoding="utf-8")


def test_jsonl_round_trip(tmp_path):
    write_tree(tmp_path)
    files = iter_source_files(tmp_path)
    assert [f.name for f in files] == ["B.java", "C.cs", "a.py", "d.js"]
    recs = list(pairs_from_files(files, PairEncoder(WordTokenizer()), root=tmp_path))
    assert len(recs) == sum(len(v) for v in EXPECTED.values())
    out = tmp_path / "pairs.jsonl"
    assert write_jsonl(recs, out) == len(recs)
    assert read_jsonl(out) == json.loads(json.dumps(recs))
    assert {r["path"] for r in recs} == {"B.java", "C.cs", "a.py", "sub/d.js"}
    (tmp_path / "bad.jsonl").write_text('{"a": 1}\n[1]\n', encoding="utf-8")
    with pytest.raises(FormatError, match="bad.jsonl:2"):
        read_jsonl(tmp_path / "bad.jsonl")


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="codetok")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli(tmp_path, gpt2_files, capsys):
    (tmp_path / "src").mkdir()
    write_tree(tmp_path / "src")
    tok_dir = tmp_path / "tok"
    tok_dir.mkdir()
    encoder, merges = gpt2_files
    (tok_dir / "vocab.json").write_bytes(encoder.read_bytes())
    (tok_dir / "merges.txt").write_bytes(merges.read_bytes())
    (tok_dir / "tokenizer_config.json").write_text('{"tokenizer_class": "GPT2Tokenizer"}')
    out = tmp_path / "out.jsonl"
    argv = ["pairs", str(tmp_path / "src"), "-o", str(out), "-t", str(tok_dir)]
    assert run_cli([*argv, "--max-tokens", "10", "-q"]) == 0
    recs = read_jsonl(out)
    assert len(recs) == 11 and all(len(r["code_ids"]) <= 10 for r in recs)
    assert any(r["truncation"]["truncated"] for r in recs)
    assert run_cli([*argv, "--language", "java"]) == 0
    assert {r["language"] for r in read_jsonl(out)} == {"java"}
    assert "2 pairs from 1 files" in capsys.readouterr().err
    assert run_cli(["pairs", str(tmp_path / "src"), "-o", str(out), "--no-ids", "-q"]) == 0
    assert "code_ids" not in read_jsonl(out)[0]
    with pytest.raises(ConfigurationError):
        run_cli(["pairs", str(tmp_path / "src"), "-o", str(out), "--no-ids", "--max-tokens", "5"])
    with pytest.raises(SystemExit):
        run_cli(["pairs", "--help"])
    assert "codetok pairs src/ -o pairs.jsonl" in capsys.readouterr().out


def test_lexeme_kinds_of_pair_code_are_code():
    """The code side holds no documentation comment of its own pair."""
    for language, src in SAMPLES.items():
        for p in extract_pairs(src, language):
            lx = lex(p.code, language)
            texts = [lx.text(int(i)) for i in lx.indices(LexemeKind.DOCSTRING)]
            assert all(p.docstring.splitlines()[0] not in t for t in texts)
