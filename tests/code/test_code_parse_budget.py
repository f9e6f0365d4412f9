"""Every parse runs under a budget of time and memory: a pathological input gets a
``ParseLimitError`` naming the file and the limit, never a signal or minutes of work.

The inputs are the ones a hostile probe found: ``"a<" * 40000`` in Java makes tree-sitter's
error recovery take minutes and ~19 GB (under a memory limit it aborted the process), and
C# ``"a<a<a>>" * 2300`` 4 s. The subprocess tests run under an address-space limit, so a
parse that grew instead of stopping would kill the child, not pass.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from codetok.code import CodeTokenizer, ParseBudget, get_grammar, lex
from codetok.code.front import language as detect
from codetok.code.front.native import native_lexer
from codetok.errors import ConfigurationError, ParseLimitError

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "corpora" / "samples"
NATIVE = native_lexer(get_grammar("java")) is not None
needs_native = pytest.mark.skipif(not NATIVE, reason="the native lexer is not built")


def run_child(code: str, limit_mb: int = 3000, timeout: float = 120) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter whose address space is capped at ``limit_mb``."""
    prelude = textwrap.dedent(
        f"""
        import resource
        cap = {limit_mb} * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        """
    )
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@needs_native
def test_java_generics_bomb_stops_with_an_error_not_a_signal():
    """80 KB of ``a<`` under a 3 GB address-space cap: a ParseLimitError naming the file
    and the memory limit in well under a minute, the interpreter alive after it."""
    got = run_child(
        """
        import time
        from codetok.code import CodeTokenizer
        from codetok.errors import ParseLimitError
        tok = CodeTokenizer.default()
        start = time.perf_counter()
        try:
            tok.encode("a<" * 40000, "java", path="bomb.java")
        except ParseLimitError as e:
            print("stopped", e.reason, round(time.perf_counter() - start, 1))
            print(e)
        print(tok.encode("class A { int x; }", "java").tokens[:2])
        """
    )
    assert got.returncode == 0, got.stderr[-2000:]
    lines = got.stdout.splitlines()
    reason, seconds = lines[0].split()[1], float(lines[0].split()[2])
    assert reason == "memory" and seconds < 30
    assert "bomb.java" in lines[1] and "memory limit of 336 MB" in lines[1]
    assert lines[2] == "['<java:class>', 'ĠA']"


@needs_native
def test_time_limit_stops_a_parse_inside_one_parser_step():
    """With memory unlimited, the time limit alone stops the same blow-up (it happens
    inside one step of the parser, where tree-sitter calls no progress callback)."""
    got = run_child(
        """
        import time
        from codetok.code import ParseBudget, lex
        from codetok.errors import ParseLimitError
        start = time.perf_counter()
        try:
            lex("a<" * 20000, "java", budget=ParseBudget.fixed(0.5, 0))
        except ParseLimitError as e:
            print(e.reason, time.perf_counter() - start)
        """
    )
    assert got.returncode == 0, got.stderr[-2000:]
    reason, seconds = got.stdout.split()
    assert reason == "time" and float(seconds) < 10


@needs_native
def test_csharp_nested_generics_within_the_default_and_stopped_by_a_small_budget():
    src = "a<a<a>>" * 2300
    # The default memory, with time to spare: the wall clock of a loaded machine (tests
    # run beside each other) is no measure of this input, well within the default alone.
    assert len(lex(src, "csharp", budget=ParseBudget(seconds=60.0))) > 0
    with pytest.raises(ParseLimitError, match="time limit") as info:
        lex(src, "csharp", budget=ParseBudget.fixed(0.01, 0))
    assert info.value.reason == "time"


def test_python_lexer_path_keeps_the_budget():
    """The ``tree-sitter`` bindings' parser (the Python lexer) stops through its progress
    callback too."""
    from codetok.engine.plan import use_plans

    src = (SAMPLES / "java" / "commons-io" / "IOCase.java").read_bytes() * 20
    previous = use_plans(False)
    try:
        assert native_lexer(get_grammar("java")) is None
        with pytest.raises(ParseLimitError, match="x.java: the java parse") as info:
            lex(src, "java", path="x.java", budget=ParseBudget.fixed(1e-6, 0))
        assert info.value.reason == "time" and info.value.path == "x.java"
        assert len(lex(src, "java")) > 1000
    finally:
        use_plans(previous)


def test_detection_counts_a_parse_past_its_budget_as_all_errors():
    data = b"class A { void f() { int x = 1; } }\n"
    assert detect._error_bytes("java", data, None) == 0
    assert detect._error_bytes("java", data, ParseBudget.fixed(0, 1e-6)) == len(data) + 1


@needs_native
def test_budget_holds_on_threads():
    """Each thread parses in its own arena: two bombs at once both stop, and a real file
    lexed beside them is untouched."""
    real = (SAMPLES / "java" / "commons-io" / "IOCase.java").read_bytes()
    expected = lex(real, "java").kinds.tolist()
    out: dict[str, object] = {}

    def bomb(name: str) -> None:
        try:
            lex("a<" * 30000, "java", budget=ParseBudget.fixed(5, 64))
        except ParseLimitError as e:
            out[name] = e.reason

    def good() -> None:
        out["good"] = [lex(real, "java").kinds.tolist() == expected for _ in range(20)]

    threads = [threading.Thread(target=bomb, args=(n,)) for n in ("a", "b")]
    threads.append(threading.Thread(target=good))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out["a"] == out["b"] == "memory"
    assert out["good"] == [True] * 20


def test_no_sample_file_comes_near_the_default():
    """Every real file in corpora/samples parses within a tenth of the default budget."""
    from codetok.engine import native as _backend

    if not NATIVE:
        pytest.skip("the native lexer is not built")
    core = _backend.core()
    tenth = ParseBudget(0.2, 2.0, 25.6, 100.0)
    ext = {".java": "java", ".cs": "csharp", ".py": "python", ".js": "javascript"}
    checked = 0
    for path in sorted(SAMPLES.rglob("*")):
        if path.suffix not in ext:
            continue
        data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
        status, seconds, peak, _ = core.parse_report(
            get_grammar(ext[path.suffix]).capsule, data, *tenth.limits(len(data))
        )
        assert status == "ok", (path, seconds, peak)
        checked += 1
    assert checked >= 10


def test_corpus_records_a_file_past_its_budget_and_goes_on(tmp_path):
    from codetok.corpus import CorpusJob, build_corpus

    src = tmp_path / "src"
    src.mkdir()
    (src / "Good.java").write_text("class Good { int x = 1; }\n")
    (src / "Bomb.java").write_text("a<" * 40000)
    manifest = build_corpus([str(src)], str(tmp_path / "out"), CorpusJob())
    failed = {Path(f["path"]).name: f["reason"] for f in manifest["failures"]}
    assert list(failed) == ["Bomb.java"]
    assert "ParseLimitError" in failed["Bomb.java"] and "memory limit" in failed["Bomb.java"]
    assert manifest["totals"]["files"] == 1


def test_budget_values_and_limits():
    assert ParseBudget().limits(1_000_000) == (22.0, 1_256_000_000)
    assert ParseBudget.fixed(3, 10).limits(10**8) == (3.0, 10_000_000)
    assert ParseBudget.unlimited().limits(10**9) == (0.0, 0)
    for bad in (-1, "1", True, float("nan")):
        with pytest.raises(ConfigurationError, match="ParseBudget.seconds"):
            ParseBudget(seconds=bad)


def test_code_tokenizer_takes_and_keeps_its_budget():
    tight = ParseBudget.fixed(5, 0.001)
    tok = CodeTokenizer.default()
    tok.parse_budget = tight
    with pytest.raises(ParseLimitError, match="memory limit"):
        tok.encode("class A { int x; }\n" * 50, "java")
    assert pickle.loads(pickle.dumps(tok)).parse_budget == tight
    with pytest.raises(ConfigurationError, match="parse_budget"):
        CodeTokenizer(parse_budget=(1, 2))  # type: ignore[arg-type]
    assert CodeTokenizer.default().parse_budget == ParseBudget()


def test_error_names_the_file_the_limit_and_the_way_out():
    err = None
    try:
        lex("class A {}\n" * 100, "java", path=os.path.join("src", "A.java"),
            budget=ParseBudget.fixed(0, 0.0001))  # fmt: skip
    except ParseLimitError as e:
        err = str(e)
    assert err is not None
    assert err.startswith(os.path.join("src", "A.java") + ": the java parse of 1,100 bytes")
    assert "memory limit of 0 MB" in err and "ParseBudget" in err
