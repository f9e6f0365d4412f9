"""The progress line of long ``codetok`` runs: on a terminal or when forced, never in pipes."""

from __future__ import annotations

import io

import pytest

from codetok.cli.app import main
from codetok.cli.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def no_forcing(monkeypatch):
    monkeypatch.delenv("CODETOK_PROGRESS", raising=False)


def test_draws_on_a_terminal_only_after_the_delay():
    quick = Terminal()
    with Progress("job", stream=quick) as p:  # done before the first draw (0.5 s)
        p.stage("counting", total=3)
        p.advance(3)
    assert quick.getvalue() == ""
    tty = Terminal()
    with Progress("job", stream=tty, delay=0, interval=0) as p:
        p.stage("counting", total=4)
        p.advance(2)
        p.stage("writing")
    text = tty.getvalue()
    assert "\rjob: counting |------------------------|   0%" in text
    assert "\rjob: counting |############------------|  50%" in text
    assert "\rjob: writing ... " in text
    assert text.endswith("\r")  # the line is erased at the end
    assert text.rsplit("\r", 2)[-2].strip() == ""


def test_not_drawn_in_a_pipe_unless_forced(monkeypatch):
    pipe = io.StringIO()
    with Progress("job", stream=pipe, delay=0) as p:
        p.stage("counting", now=True)
    assert pipe.getvalue() == ""
    monkeypatch.setenv("CODETOK_PROGRESS", "1")
    with Progress("job", stream=pipe) as p:  # forced: drawn at once
        p.stage("counting")
    assert "\rjob: counting ... " in pipe.getvalue()
    monkeypatch.setenv("CODETOK_PROGRESS", "0")
    tty = Terminal()
    with Progress("job", stream=tty, delay=0) as p:
        p.stage("counting")
    assert tty.getvalue() == ""


def test_the_clock_thread_redraws_and_stops():
    import threading
    import time

    tty = Terminal()
    p = Progress("job", stream=tty, delay=0, interval=0.01)
    p.stage("waiting")
    time.sleep(0.2)
    p.close()
    assert tty.getvalue().count("\rjob: waiting ... ") > 2
    assert not any(t.name == "codetok-progress" for t in threading.enumerate())
    size = len(tty.getvalue())
    p.stage("after close")
    assert len(tty.getvalue()) == size


def test_cli_commands_show_progress_when_forced(bert_dir, tmp_path, monkeypatch, capsys):
    source = tmp_path / "app.py"
    source.write_text("def f(x):\n    return x + 1\n" * 50, encoding="utf-8")
    for argv, stages in (
        (["encode", str(source)], ["encoding", "formatting ids"]),
        (
            ["encode", str(source), "--format", "json", "-o", str(tmp_path / "o.json")],
            ["formatting json", "writing"],
        ),
        (["lex", str(source)], ["lexing", "formatting |"]),
        (["analyze", str(source), "-t", str(bert_dir / "tokenizer.json")], ["measuring |"]),
    ):
        monkeypatch.setenv("CODETOK_PROGRESS", "1")
        assert main(argv) == 0
        err = capsys.readouterr().err
        label = f"\rcodetok {argv[0]}" + (" app.py: " if argv[0] != "analyze" else ": ")
        for stage in stages:
            assert label + stage in err, (argv, err)
        monkeypatch.delenv("CODETOK_PROGRESS")
        assert main(argv) == 0
        assert "\r" not in capsys.readouterr().err
