"""The ``codetok`` command line: each sub-command, its help, and clear errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from codetok.cli import main

SOURCE = 'class Greeter:\n    """Say hello."""\n\n    def greet(self, name):\n        return f"Hello, {name}!"  # hi\n'


@pytest.fixture()
def source_file(tmp_path):
    path = tmp_path / "greeter.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def test_lex_table_and_json(source_file, capsys):
    assert main(["lex", str(source_file)]) == 0
    out = capsys.readouterr().out
    assert "python" in out and "DOCSTRING" in out and "KEYWORD" in out and "INDENT" in out
    assert main(["lex", str(source_file), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["language"] == "python"
    assert "".join(row["text"] for row in data["lexemes"]) == SOURCE


def test_split(capsys):
    assert main(["split", "parseHTTPResponse", "XMLHttpRequest2"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "parseHTTPResponse\tparse HTTP Response",
        "XMLHttpRequest2\tXML Http Request 2",
    ]


def test_encode_and_analyze_with_a_tokenizer_file(bert_dir, source_file, capsys):
    tok = str(bert_dir / "tokenizer.json")
    assert main(["encode", str(source_file), "--tokenizer", tok, "--format", "tokens"]) == 0
    tokens = capsys.readouterr().out.split()
    assert tokens[0] == "[CLS]" and "greet" in tokens
    assert main(["analyze", str(source_file), "--tokenizer", tok]) == 0
    assert "| tokenizer |" in capsys.readouterr().out


def test_errors_are_one_line_not_a_traceback(tmp_path, capsys):
    assert main(["lex", str(tmp_path / "missing.py")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("codetok: error:") and "missing.py" in err and "Traceback" not in err
    odd = tmp_path / "notes.xyz"
    odd.write_text("just some words", encoding="utf-8")
    assert main(["lex", str(odd)]) == 2
    assert "codetok: error:" in capsys.readouterr().err


def test_console_script_help():
    exe = shutil.which("codetok") or shutil.which(
        "codetok", path=str(__import__("pathlib").Path(sys.executable).parent)
    )
    if exe is None:
        pytest.skip("the codetok console script is not on PATH (package not installed)")
    for args in (["--help"], ["lex", "--help"], ["split", "--help"], ["encode", "--help"]):
        out = subprocess.run([exe, *args], capture_output=True, text=True, check=True).stdout
        assert "usage: codetok" in out
        if args != ["--help"]:
            assert "examples:" in out
