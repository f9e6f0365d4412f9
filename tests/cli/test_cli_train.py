"""``codetok train`` on plain text: presets HF loads with the same ids, warnings, reports."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import pytest

import codetok
from codetok.cli import main

tokenizers = pytest.importorskip("tokenizers")


def _stdlib_prose() -> str:
    """The docstrings of some standard-library modules: real English no one wrote here."""
    out = []
    for name in ("argparse", "collections/__init__", "dataclasses", "email/message", "pathlib"):
        path = Path(sysconfig.get_paths()["stdlib"]) / f"{name}.py"
        if not path.exists():
            path = Path(sysconfig.get_paths()["stdlib"]) / name / "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)):
                out.append(ast.get_docstring(node) or "")
    return "\n".join(out) + "\nNaïve café owners in Zürich count croissants.\n"


PROSE = _stdlib_prose()
SAMPLES = ["Tokenizers split text.", "A naïve café in Zürich!", "  two  spaces\tand\ttabs  "]


@pytest.fixture
def corpus(tmp_path):
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / "a.txt").write_text(PROSE, encoding="utf-8")
    (folder / "b.md").write_text(PROSE.upper(), encoding="utf-8")
    (folder / "image.bin").write_bytes(bytes(range(256)))  # not prose: left out
    return folder


@pytest.mark.parametrize(
    ("preset", "specials"),
    [
        ("gpt2", {"<|endoftext|>": 0}),
        ("bert", {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4}),
        ("bert-cased", {"[PAD]": 0, "[UNK]": 1}),
        ("t5", {"<pad>": 0, "</s>": 1, "<unk>": 2}),
    ],
)
def test_text_presets_write_a_tokenizer_hf_loads_with_the_same_ids(
    preset, specials, corpus, tmp_path, capsys
):
    out = tmp_path / f"{preset}.json"
    args = ["train", str(corpus), "--preset", preset, "--vocab-size", "600", "-o", str(out)]
    assert main([*args, "-q"]) == 0
    err = capsys.readouterr().err
    assert "training a text tokenizer on 2 text file(s)" in err and "warning" not in err
    ours = codetok.Tokenizer.from_file(str(out))
    hf = tokenizers.Tokenizer.from_file(str(out))
    assert hf.get_vocab_size() == 600
    for token, tid in specials.items():
        assert hf.token_to_id(token) == ours.token_to_id(token) == tid
    for text in SAMPLES:
        assert hf.encode(text).ids == ours.encode(text).ids
    ids = hf.encode(SAMPLES[0]).ids
    if preset.startswith("bert"):
        assert ids[0] == 2 and ids[-1] == 3
    if preset == "t5":
        assert ids[-1] == 1
    cased = "Tokenizers" in hf.decode(ids)
    assert cased == (preset not in ("bert",))


def test_text_is_told_from_code_and_forced_with_text(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text(PROSE, encoding="utf-8")
    (tmp_path / "tool.py").write_text("def f(x):\n    return x\n" * 50, encoding="utf-8")
    out = tmp_path / "t.json"
    assert main(["train", str(tmp_path), "--vocab-size", "1300", "-o", str(out), "-q"]) == 0
    assert "text tokenizer" not in capsys.readouterr().err  # a .py file: code
    assert codetok.CodeTokenizer.load(out).encode("def g(): pass\n", language="python").ids
    assert main(["train", str(tmp_path / "notes.txt"), "--text", "-o", str(out), "-q"]) == 0
    hf = tokenizers.Tokenizer.from_file(str(out))
    assert hf.encode(SAMPLES[1]).ids == codetok.Tokenizer.from_file(str(out)).encode(SAMPLES[1]).ids
    assert main(["train", str(tmp_path), "--preset", "t5", "-o", str(out), "-q"]) == 2
    assert "--preset is for plain-text training" in capsys.readouterr().err


def test_shortfall_warns_on_stderr_and_report_says_what_training_did(tmp_path, capsys):
    path = tmp_path / "tiny.txt"
    path.write_text("hello world, hello there\n" * 10, encoding="utf-8")
    out = tmp_path / "t.json"
    argv = ["train", str(path), "--vocab-size", "5000", "-o", str(out), "--report", "-q"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    warning = [ln for ln in err.splitlines() if ln.startswith("codetok: warning:")]
    assert len(warning) == 1 and "reached 271 tokens of the --vocab-size 5000" in warning[0]
    assert "BPE training" in err and "10 texts, 250 bytes" in err and "271 of 5,000" in err
    assert "TrainingWarning" not in err  # phrased for the command line, not as Python's
    assert "vocab_size=" not in warning[0] and "smaller --vocab-size" in warning[0]
    assert tokenizers.Tokenizer.from_file(str(out)).get_vocab_size() == 271
