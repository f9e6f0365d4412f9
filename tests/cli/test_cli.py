"""The ``codetok`` command line: each sub-command, its help, and clear errors."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys

import pytest

from codetok.cli.app import main

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
    from codetok.code import lex

    assert data["lexemes"] == [
        {
            "kind": lx.kind.name,
            "text": lx.text,
            "node_type": lx.node_type,
            "parent_type": lx.parent_type,
            "byte_span": list(lx.byte_span),
            "char_span": list(lx.char_span),
            "line": lx.line,
            "col": lx.col,
        }
        for lx in lex(source_file.read_bytes(), path=source_file)
    ]


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
    for args in (
        ["--help"],
        ["lex", "--help"],
        ["split", "--help"],
        ["encode", "--help"],
        ["train", "--help"],
    ):
        out = subprocess.run([exe, *args], capture_output=True, text=True, check=True).stdout
        assert "usage: codetok" in out
        if args != ["--help"]:
            assert "examples:" in out


def test_encode_source_with_the_builtin_code_tokenizer(source_file, capsys):
    from codetok.code import CodeTokenizer

    assert main(["encode", str(source_file)]) == 0
    ids = [int(x) for x in capsys.readouterr().out.split()]
    assert CodeTokenizer.default().decode(ids) == SOURCE
    assert main(["encode", str(source_file), "--format", "tokens"]) == 0
    tokens = capsys.readouterr().out.split()
    assert tokens[0] == "<py:class>" and "<INDENT>" in tokens and "<doc>" in tokens
    assert main(["encode", str(source_file), "--format", "json", "--drop-comments"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["language"] == "python" and data["lossless"] is False
    assert "COMMENT" not in data["kinds"] and len(data["ids"]) == len(data["spans"])


def test_encode_and_lex_read_standard_input(source_file, monkeypatch, capsys):
    """``-`` reads the source from standard input (the language from --language or its text)."""
    import io

    from codetok.code import CodeTokenizer

    data = source_file.read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["encode", "-", "--language", "python"]) == 0
    ids = [int(x) for x in capsys.readouterr().out.split()]
    assert CodeTokenizer.default().decode(ids) == SOURCE
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["lex", "-", "--language", "python", "--format", "json"]) == 0
    assert capsys.readouterr().out.strip()


def test_encode_html_is_self_contained(source_file, tmp_path, capsys):
    out = tmp_path / "page.html"
    assert main(["encode", str(source_file), "--format", "html", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "KEYWORD" in page and "DOCSTRING" in page
    assert "<script" not in page and "http" not in page.replace("http-equiv", "")


def test_train_then_encode_with_the_result(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text(SOURCE * 3, encoding="utf-8")
    (src / "B.java").write_text("class B { int x = 1; }\n" * 3, encoding="utf-8")
    out = tmp_path / "code.json"
    args = ["train", str(src), "--vocab-size", "1300", "--model", "bpe", "-o", str(out)]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "lex+count" in err and out.exists()
    assert main(["encode", str(src / "B.java"), "--tokenizer", str(out), "--format", "tokens"]) == 0
    assert capsys.readouterr().out.split()[0] == "<java:class>"


def test_encode_with_a_tiktoken_file(cl100k, cl100k_file, source_file, capsys):
    """--tokenizer takes any format codetok.load reads, told from the content."""
    assert main(["encode", str(source_file), "--tokenizer", str(cl100k_file)]) == 0
    ids = [int(x) for x in capsys.readouterr().out.split()]
    assert ids == cl100k.encode(SOURCE).ids


def test_tokenizer_errors_name_the_file(tmp_path, source_file, capsys):
    for name, content in [("deep.json", "[" * 100_000), ("notes.dat", "plain words here")]:
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        assert main(["encode", str(source_file), "--tokenizer", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("codetok: error:") and str(path) in err, err


def _one_error_line(err: str) -> str:
    """The single ``codetok: error:`` line a failing command printed (no traceback)."""
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("codetok: error: "), err
    return lines[0]


@pytest.mark.parametrize("command", ["encode", "pairs", "train"])
@pytest.mark.parametrize("where", ["missing folder", "a folder"])
def test_bad_output_path_is_one_line(command, where, source_file, tmp_path, monkeypatch, capsys):
    """-o into a missing folder, or -o naming a folder: one line, exit 2; train checks the
    path before it trains (training here would raise)."""
    from codetok.code import CodeTokenizer

    def no_training(*args, **kwargs):
        raise AssertionError("trained before checking -o")

    monkeypatch.setattr(CodeTokenizer, "train", no_training)
    out = tmp_path / "no" / "such" / "out.txt" if where == "missing folder" else tmp_path
    argv = {
        "encode": ["encode", str(source_file)],
        "pairs": ["pairs", str(source_file), "--no-ids"],
        "train": ["train", str(tmp_path), "--vocab-size", "1300"],
    }[command]
    assert main([*argv, "-o", str(out)]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert str(out) in line and "-o" in line


def test_analyze_missing_file_or_folder_is_one_line(bert_dir, tmp_path, capsys):
    tok = str(bert_dir / "tokenizer.json")
    assert main(["analyze", str(tmp_path / "missing.txt"), "--tokenizer", tok]) == 2
    assert "missing.txt: no such file" in _one_error_line(capsys.readouterr().err)
    assert main(["analyze", str(tmp_path), "--tokenizer", tok]) == 2
    assert "is a directory" in _one_error_line(capsys.readouterr().err)


def test_ctrl_c_exits_130_without_a_traceback(source_file, monkeypatch, capsys):
    def interrupted(path):
        raise KeyboardInterrupt

    monkeypatch.setattr("codetok.cli.app.read_source", interrupted)
    assert main(["encode", str(source_file)]) == 130
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "codetok: interrupted\n"


def test_interrupted_pairs_leaves_no_output_file(tmp_path, monkeypatch, capsys):
    """An interrupt half-way through ``pairs -o`` leaves the old file and no temp files."""
    from codetok.cli import pairs as pairs_cli

    src = tmp_path / "src"
    src.mkdir()
    for name in ("a.py", "b.py", "c.py"):
        (src / name).write_text(SOURCE, encoding="utf-8")
    out = tmp_path / "out" / "pairs.jsonl"
    out.parent.mkdir()
    out.write_text("old\n", encoding="utf-8")
    real = pairs_cli.extract_pairs
    seen = []

    def extract_then_interrupt(*args, **kwargs):
        seen.append(1)
        if len(seen) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(pairs_cli, "extract_pairs", extract_then_interrupt)
    assert main(["pairs", str(src), "-o", str(out), "--no-ids", "-q"]) == 130
    assert capsys.readouterr().err.endswith("codetok: interrupted\n")
    assert out.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in out.parent.iterdir()] == ["pairs.jsonl"]


def _blocked_reading_stdin(pid: int) -> bool | None:
    """Whether process ``pid`` sits in ``read(0, ...)`` (``/proc/PID/syscall``), or None
    when this machine cannot tell."""
    import platform
    from pathlib import Path

    read = {"x86_64": "0", "aarch64": "63"}.get(platform.machine())
    try:
        fields = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return None
    if read is None:
        return None
    return len(fields) > 1 and fields[0] == read and fields[1] == "0x0"


def test_sigint_exits_130_without_a_traceback():
    """A real SIGINT while ``codetok encode -`` waits for standard input."""
    import os
    import signal
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])
    )
    # Python turns SIGINT into KeyboardInterrupt unless its parent ignored the signal, and a
    # test run started in the background of a shell without job control ignores it (and
    # so does every child): the command would then read on and exit 0. Ctrl-C in a terminal
    # always has the default handler, so the child starts with it.
    code = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "from codetok.cli.app import main; sys.exit(main())"
    )
    argv = [sys.executable, "-c", code, "encode", "-", "--language", "python"]
    proc = subprocess.Popen(
        argv,
        cwd=root,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wchan = Path(f"/proc/{proc.pid}/wchan")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until it blocks reading standard input
            reading = _blocked_reading_stdin(proc.pid)
            if reading is None:  # no syscall file: a pipe read is the best sign there is
                try:
                    reading = "pipe" in wchan.read_text()
                except OSError:
                    pytest.skip("no /proc/PID files here to tell when the command waits")
            if reading:
                break
            time.sleep(0.05)
        else:
            pytest.skip("the command never blocked on standard input")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130
    assert err.decode() == "codetok: interrupted\n"


LATIN1_CS = b'// caf\xe9\nclass A { string s = "na\xefve"; }\n'  # a real Latin-1 C# file


@pytest.fixture()
def latin1_file(tmp_path):
    path = tmp_path / "Cafe.cs"
    path.write_bytes(LATIN1_CS)
    return path


def test_non_utf8_source_html_file_is_utf8_with_visible_escapes(latin1_file, tmp_path, capsys):
    out = tmp_path / "Cafe.html"
    assert main(["encode", str(latin1_file), "--format", "html", "-o", str(out)]) == 0
    page = out.read_bytes().decode("utf-8")  # strict: raises on invalid UTF-8
    assert '<span class="nb" title="byte 0xE9 is not UTF-8">\\xE9</span>' in page
    assert '<span class="nb" title="byte 0xEF is not UTF-8">\\xEF</span>' in page
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("fmt", ["ids", "tokens", "json", "html"])
def test_non_utf8_source_stdout_is_utf8_and_ids_round_trip(fmt, latin1_file, capsysbinary):
    from codetok.code import CodeTokenizer

    assert main(["encode", str(latin1_file), "--format", fmt]) == 0
    text = capsysbinary.readouterr().out.decode("utf-8")
    if fmt in ("ids", "json"):
        ids = [int(x) for x in text.split()] if fmt == "ids" else json.loads(text)["ids"]
        decoded = CodeTokenizer.default().decode(ids)
        assert decoded.encode("utf-8", "surrogateescape") == LATIN1_CS


def test_non_utf8_source_lex_json_is_utf8_and_exact(latin1_file, capsysbinary):
    assert main(["lex", str(latin1_file), "--format", "json"]) == 0
    data = json.loads(capsysbinary.readouterr().out.decode("utf-8"))
    text = "".join(row["text"] for row in data["lexemes"])
    assert text.encode("utf-8", "surrogateescape") == LATIN1_CS
    assert main(["lex", str(latin1_file)]) == 0
    capsysbinary.readouterr().out.decode("utf-8")


def test_non_utf8_source_text_tokenizer_and_pairs(bert_dir, tmp_path, capsysbinary):
    from codetok.cli.pairs import read_jsonl

    path = tmp_path / "legacy.py"
    path.write_bytes(b'def f():\n    """R\xe9sum\xe9 of it."""\n    return "\xe9"\n')
    tok = str(bert_dir / "tokenizer.json")
    for fmt in ("ids", "tokens", "json"):
        assert main(["encode", str(path), "-t", tok, "--format", fmt]) == 0
        capsysbinary.readouterr().out.decode("utf-8")
    out = tmp_path / "pairs.jsonl"
    assert main(["pairs", str(path), "-o", str(out), "-q"]) == 0
    out.read_bytes().decode("utf-8")
    (rec,) = read_jsonl(out)
    assert rec["docstring"].encode("utf-8", "surrogateescape") == b"R\xe9sum\xe9 of it."
    assert main(["pairs", str(path), "-o", "-", "-q", "--no-ids"]) == 0
    (line,) = capsysbinary.readouterr().out.decode("utf-8").splitlines()
    assert json.loads(line)["docstring"] == rec["docstring"]


def test_a_failed_render_leaves_no_output_file(latin1_file, tmp_path, monkeypatch, capsys):
    from codetok.code.applications import html

    def broken(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(html, "render_html", broken)
    out = tmp_path / "page.html"
    assert main(["encode", str(latin1_file), "--format", "html", "-o", str(out)]) == 130
    assert list(tmp_path.iterdir()) == [latin1_file]


def test_analyze_counts_no_padding(bert_dir, source_file, capsys):
    """The BERT file pads to 128: analyze measures the lines as they are (issue 11 item 12)."""
    from codetok import Tokenizer

    plain = Tokenizer.from_file(bert_dir / "tokenizer.json")
    plain.no_padding()
    plain.no_truncation()
    lines = SOURCE.splitlines(keepends=True)
    expected = sum(len(plain.encode(line, add_special_tokens=False).ids) for line in lines)
    assert main(["analyze", str(source_file), "--tokenizer", str(bert_dir / "tokenizer.json")]) == 0
    header, _, row = capsys.readouterr().out.splitlines()
    cells = dict(zip(header.strip("| ").split(" | "), row.strip("| ").split(" | "), strict=True))
    assert int(cells["tokens"]) == expected and float(cells["chars_per_token"]) > 2


def test_encode_with_a_padding_tokenizer_file_encodes_the_whole_input(bert_dir, tmp_path, capsys):
    """The BERT file pads and truncates to 128: the CLI encodes everything, unpadded, and
    says so in one note; --keep-padding-truncation keeps the file's settings (item 13)."""
    path = tmp_path / "words.txt"
    path.write_text("word " * 1000, encoding="utf-8")
    tok = str(bert_dir / "tokenizer.json")
    assert main(["encode", str(path), "--tokenizer", tok]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.split()) == 1002  # [CLS], 1000 words, [SEP]
    (note,) = captured.err.splitlines()
    assert note.startswith("codetok: note: ") and "pads to 128" in note
    assert "truncates at 128" in note and "--keep-padding-truncation" in note
    assert main(["encode", str(path), "--tokenizer", tok, "--keep-padding-truncation"]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.split()) == 128 and captured.err == ""
    short = tmp_path / "short.txt"
    short.write_text("two words", encoding="utf-8")
    assert main(["encode", str(short), "--tokenizer", tok, "--format", "tokens"]) == 0
    assert capsys.readouterr().out.split() == ["[CLS]", "two", "words", "[SEP]"]


def test_pairs_with_a_padding_tokenizer_file_does_not_pad(bert_dir, tmp_path, capsys):
    from codetok.cli.pairs import read_jsonl

    src = tmp_path / "area.py"
    src.write_text('def area(r):\n    """Area of a circle."""\n    return 3.14 * r * r\n')
    out = tmp_path / "pairs.jsonl"
    tok = str(bert_dir / "tokenizer.json")
    assert main(["pairs", str(src), "-o", str(out), "-t", tok, "-q"]) == 0
    assert "pads to 128" in capsys.readouterr().err
    recs = read_jsonl(out)
    assert recs and all(0 not in r["code_ids"] and len(r["code_ids"]) < 128 for r in recs)


def test_messages_name_cli_flags_not_python_arguments(tmp_path, capsys):
    """What the CLI user reads names --flags; the library keeps its argument names (item 14)."""
    from codetok.code import lex
    from codetok.errors import LanguageError

    odd = tmp_path / "notes.xyz"
    odd.write_text("just some words", encoding="utf-8")
    tool = tmp_path / "tool"
    tool.write_text("#!/opt/bin/frobnicate\nputs 1\n", encoding="utf-8")
    for argv in (["lex", str(odd)], ["encode", str(tool)]):
        assert main(argv) == 2
        line = _one_error_line(capsys.readouterr().err)
        assert "pass --language NAME" in line and "language=" not in line
    with pytest.raises(LanguageError, match="pass language= explicitly"):
        lex("just some words", path="notes.xyz")

    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text(SOURCE, encoding="utf-8")
    out = str(tmp_path / "code.json")
    assert main(["train", str(src), "--vocab-size", "600", "-o", out, "-q"]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line.startswith("codetok: error: --vocab-size 600 is smaller than")
    found = re.search(
        r"the (\d+) special tokens plus the 256 chars.*\((\d+)\); raise --vocab-size above (\d+)$",
        line,
    )
    assert found, line
    specials, total, above = map(int, found.groups())
    assert total == above == specials + 256 and specials > 600 - 256
    assert "limit_alphabet" not in line and "vocab_size" not in line
    assert main(["train", str(src), "--vocab-size", "0", "-o", out, "-q"]) == 2
    assert "error: --vocab-size must be" in _one_error_line(capsys.readouterr().err)
    (tmp_path / "empty").mkdir()
    assert main(["train", str(tmp_path / "empty"), "-o", out, "-q"]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert "--languages" in line and "languages=" not in line


@pytest.mark.parametrize("command", ["encode", "lex"])
def test_a_non_code_file_needs_language(command, tmp_path, capsys):
    """notes.txt is refused with a pointer to --language, not read as Python without a
    word; with --language it is read (issue 11 item 16). README.md names Markdown, a
    language of tree-sitter-language-pack (issue 32)."""
    readme = tmp_path / "README.md"
    readme.write_text(
        "# Title\n\nSome prose with code: `import os`.\n\n    def f(x):\n        return x\n"
    )
    notes = tmp_path / "notes.txt"
    notes.write_text("import os\nprint(os.getcwd())\n")
    for path, ext in ((notes, ".txt"),):
        assert main([command, str(path)]) == 2
        line = _one_error_line(capsys.readouterr().err)
        assert f"{path}: {ext} is not" in line and "pass --language NAME" in line
        assert ".py" in line and ".java" in line
    assert main([command, str(notes), "--language", "python"]) == 0
    captured = capsys.readouterr()
    assert captured.out and captured.err == ""
    if importlib.util.find_spec("tree_sitter_language_pack") is not None:
        assert main([command, str(readme)]) == 0  # Markdown, a generic language, by its name
        assert capsys.readouterr().err == ""


@pytest.mark.parametrize("command", ["encode", "lex"])
def test_a_language_guessed_from_content_is_named_on_stderr(command, tmp_path, monkeypatch, capsys):
    import io

    script = tmp_path / "build"  # no extension, no shebang
    script.write_text(SOURCE, encoding="utf-8")
    assert main([command, str(script)]) == 0
    assert capsys.readouterr().err == (
        f"codetok: note: {script}: no --language and no known extension; read as python "
        "(detected from its content)\n"
    )
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(SOURCE.encode())))
    assert main([command, "-"]) == 0
    assert "note: standard input: no --language" in capsys.readouterr().err
    shebang = tmp_path / "run"
    shebang.write_text("#!/usr/bin/env python3\n" + SOURCE, encoding="utf-8")
    py = tmp_path / "greeter.py"
    py.write_text(SOURCE, encoding="utf-8")
    for path in (shebang, py):
        assert main([command, str(path)]) == 0
        assert capsys.readouterr().err == ""


@pytest.mark.parametrize("flag", ["--max-tokens", "--max-docstring-tokens"])
@pytest.mark.parametrize("value", ["0", "-3"])
def test_pairs_budgets_below_one_are_refused(flag, value, source_file, tmp_path, capsys):
    """A budget of 0 would write empty code or docstrings for every pair (issue 11 item 17)."""
    out = tmp_path / "pairs.jsonl"
    assert main(["pairs", str(source_file), "-o", str(out), flag, value]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert f"{flag} must be at least 1" in line and f"got {value}" in line
    assert not out.exists()


def test_split_of_a_non_utf8_argument_prints_utf8(capsysbinary):
    """A command-line argument that is not UTF-8 reaches Python as surrogates (item 11)."""
    assert main(["split", "caf\udce9Name"]) == 0
    out = capsysbinary.readouterr().out.decode("utf-8")
    assert out.startswith("caf\\xE9Name\t") and out.endswith(" Name\n")


def test_output_to_a_named_pipe_is_written_in_place(source_file, tmp_path, capsys):
    """-o onto a FIFO (or /dev/null) writes into it; it is not replaced by a regular file."""
    import os
    import stat

    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    fifo = tmp_path / "ids.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert main(["encode", str(source_file), "-o", str(fifo)]) == 0
        assert stat.S_ISFIFO(os.stat(fifo).st_mode)
        ids = os.read(reader, 1 << 16).split()
    finally:
        os.close(reader)
    assert ids and all(x.isdigit() for x in ids)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["greeter.py", "ids.fifo"]
