"""The code tokenizer's memory: the tree is the floor, and nothing it keeps grows for good.

Each measure runs in a fresh interpreter: the peak resident memory (``VmHWM``, reset just
before the call) above what the process held before it, for tree-sitter's own parse of the
input (the ``tree-sitter`` bindings, holding the tree) and for ``CodeTokenizer.encode``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from codetok.code import get_grammar
from codetok.code.front.native import native_lexer
from codetok.code.routing.cache import BoundedCache
from codetok.code.routing.identifiers import CACHE_SIZE, IdentifierSplitter

SAMPLES = Path(__file__).resolve().parents[2] / "corpora" / "samples"
linux_only = pytest.mark.skipif(
    not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc peak reset"
)
needs_native = pytest.mark.skipif(
    native_lexer(get_grammar("java")) is None, reason="the native lexer is not built"
)

MEASURE = """
import json, sys
from pathlib import Path

def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) * 1024

data = Path(sys.argv[1]).read_bytes()
language = sys.argv[2]
"""


def peak(engine: str, path: Path, language: str) -> int:
    """Bytes above the process's baseline at the peak of one call of ``engine``."""
    run = {
        "tree-sitter": """
            from tree_sitter import Language, Parser
            import tree_sitter_java, tree_sitter_c_sharp
            module = {"java": tree_sitter_java, "csharp": tree_sitter_c_sharp}[language]
            parser = Parser(Language(module.language()))
            parser.parse(b"class A {}")
            call = lambda: parser.parse(data)
        """,
        "codetok": """
            from codetok.code import CodeTokenizer
            tok = CodeTokenizer.default()
            tok.encode(b"class A {}", language)
            call = lambda: tok.encode(data, language).ids_array
        """,
    }[engine]
    code = (
        MEASURE
        + textwrap.dedent(run)
        + textwrap.dedent(
            """
        open("/proc/self/clear_refs", "w").write("5")
        base = status("VmRSS")
        kept = call()
        print(json.dumps(status("VmHWM") - base))
        """
        )
    )
    got = subprocess.run(
        [sys.executable, "-c", code, str(path), language],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(got.stdout.strip().splitlines()[-1])


@linux_only
@needs_native
@pytest.mark.parametrize("language, ext", [("java", "java"), ("csharp", "cs")])
def test_encode_peaks_within_a_third_above_the_tree(tmp_path, language, ext):
    """4 MB of real code: ``encode`` peaks at most 1.3x what tree-sitter's parse alone
    does (it was 2.25x for Java: walk records, columns and per-token annotations piled up
    on the tree)."""
    files = sorted((SAMPLES / language).rglob(f"*.{ext}"))
    body = b"\n".join(p.read_bytes().removeprefix(b"\xef\xbb\xbf") for p in files)
    path = tmp_path / f"big.{ext}"
    path.write_bytes(b"\n".join([body] * (4_000_000 // len(body) + 1)))
    tree, ours = peak("tree-sitter", path, language), peak("codetok", path, language)
    assert ours <= 1.3 * tree, (ours / 1e6, tree / 1e6)


def test_identifier_cache_is_bounded():
    splitter = IdentifierSplitter()
    names = [f"имя{i}Значение" for i in range(3 * CACHE_SIZE)]
    for name in names:
        splitter.split(name)
    assert len(splitter._cache) <= 2 * CACHE_SIZE
    assert splitter.split(names[-1]).join() == names[-1]


def test_bounded_cache_keeps_what_is_used():
    """An entry read between turnovers survives them; the rest go."""
    cache: BoundedCache[int, int] = BoundedCache(4)
    cache.put(0, 0)
    for i in range(1, 100):
        cache.put(i, i)
        assert cache.get(0) == 0
        assert len(cache) <= 8
    assert cache.get(1) is None and cache.get(99) == 99


@linux_only
@needs_native
def test_new_non_ascii_identifiers_do_not_grow_the_process():
    """120k distinct non-ASCII identifiers (split by the Python fallback of the native
    router, and kept by both): the process's memory levels off instead of growing by
    ~88 MB per 120k names for good."""
    code = textwrap.dedent(
        """
        from codetok.code import CodeTokenizer

        def resident():
            for line in open("/proc/self/status"):
                if line.startswith("VmRSS"):
                    return int(line.split()[1]) * 1024

        tok = CodeTokenizer.default()
        def batch(k):
            names = " ".join(f"имя{k}_{i}Знач" for i in range(40000))
            return f"x = [{names.replace(' ', ', ')}]\\n"
        for k in range(2):
            tok.encode(batch(k), "python")
        before = resident()
        for k in range(2, 5):
            tok.encode(batch(k), "python")
        print(resident() - before)
        """
    )
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    grown = int(got.stdout.strip().splitlines()[-1])
    assert grown < 40e6, grown / 1e6
