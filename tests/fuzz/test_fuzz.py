"""The fuzzing harness in CI (issue 11 item 20): bounded hypothesis runs of its generators.

The generators (tests/fuzz/fuzz_generators.py) and properties (tests/fuzz/fuzz_checks.py) are the
ones ``benchmarks/fuzz_long.py`` runs for a million inputs; here hypothesis drives them
(``st.randoms(use_true_random=False)``: it picks, and shrinks, every random choice) with a
fixed budget of examples, derandomized and without an example database, so CI is
reproducible and stays within about a minute:

- every loader (``codetok.load``, ``Tokenizer.from_file``, ``CodeTokenizer.load``,
  ``tokenizer_from_tiktoken``) on every real file and folder, mutated: it loads, or raises
  a ``CodetokError`` naming the file; a loaded tokenizer encodes and decodes;
- every tokenizer kind on any str: native plan = Python pipeline = pure-Python kernels,
  ``encode_batch`` on two threads = one by one, and the lossless kinds decode it back;
- the default CodeTokenizer on mutated real code, str and bytes: the source comes back, and
  the native router = the Python router = the pure-Python kernels;
- issue 28's categories: pathological parse inputs per language (native lexer; inputs up
  to 20 KB here), threads encoding while another changes the tokenizer, hostile HF caches
  and source trees (once through ``codetok corpus`` on two processes), ``.ctk`` files with
  rewritten tables.

Tests marked ``xfail`` fail on a library defect the harness found (the reason names it);
tests/fuzz/test_fuzz_hostile.py holds one reproducer of each.
"""

from __future__ import annotations

import pytest
from fuzz_checks import Harness, gen_text_case
from fuzz_corpus import CorpusCase, check_corpus_case, gen_corpus
from fuzz_ctk import CTK_BASES, check_ctk_case, ctk_base, gen_ctk
from fuzz_generators import BASE_NAMES, LoaderCase, gen_code, gen_loader_case
from fuzz_hub import check_hub_case, gen_hub
from fuzz_parse import LANGUAGES, gen_parse
from fuzz_threads import THREAD_KINDS, check_thread_case, gen_thread_case
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

RNG = st.randoms(use_true_random=False)

# The cases build whole tokenizers and thousands of encodings: no collector passes over the
# heap while a test runs.
pytestmark = pytest.mark.usefixtures("gc_paused")


def fuzz(examples: int, *, shrink: bool = True) -> settings:
    """``examples`` derandomized examples; ``shrink=False`` reports the first failing one
    as it is (for cases that take a second each, or whose outcome depends on threads)."""
    no_shrink = {} if shrink else {"phases": [Phase.explicit, Phase.reuse, Phase.generate]}
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
        **no_shrink,
    )


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> Harness:
    return Harness(tmp_path_factory.mktemp("fuzz-cache"), tmp_path_factory.mktemp("fuzz-work"))


def _skip_missing(harness: Harness, base: str) -> None:
    if base not in harness.real.bases:
        pytest.skip(f"{base}: {'; '.join(harness.real.missing.values())}")


# ------------------------------------------------------------------------ loaders

#: The full-size files take tens of milliseconds per load: fewer examples.
LARGE = {"bert-full.json", "cl100k-full.tiktoken", "code-default.json"}


@pytest.mark.parametrize("base", BASE_NAMES)
def test_real_files_load(harness: Harness, base: str) -> None:
    _skip_missing(harness, base)
    b = harness.real.bases[base]
    how = "from_file" if b.how == "load" else b.how
    tok = harness.load_case(LoaderCase(base, dict(b.files), b.target, how))
    if how == "code":
        assert tok.decode(tok.encode("x = 1\n", "python").ids) == "x = 1\n"
    else:
        assert tok.encode("Hello, world!").ids


@pytest.mark.parametrize("base", BASE_NAMES)
def test_mutated_files_load_or_name_the_file(harness: Harness, base: str) -> None:
    _skip_missing(harness, base)

    @fuzz(4 if base in LARGE else 25)
    @given(rng=RNG)
    def run(rng) -> None:
        case = gen_loader_case(rng, harness.real, base)
        found = harness.check_load(case)
        assert found is None, f"{found} (how={case.how}, target={case.target!r})"

    run()


# ------------------------------------------------------------------------ tokenizers

KINDS = [
    "gpt2", "gpt2.json", "cl100k", "o200k-pattern", "llama3-pattern", "bert", "bert-trunc",
    "t5", "llama", "bytes", "chars", "graphemes", "whitespace", "words", "patterns",
]  # fmt: skip


def test_every_kind_is_here(harness: Harness) -> None:
    assert set(KINDS) >= set(harness.kinds)


#: Switching these to the pure-Python kernels rebuilds a 100k-merge table (0.3 s): fewer,
#: larger examples.
BIG = {"gpt2", "cl100k", "o200k-pattern", "llama3-pattern"}


@pytest.mark.parametrize("kind", KINDS)
def test_tokenizers_native_equals_reference_and_round_trip(harness: Harness, kind: str) -> None:
    if kind not in harness.kinds:
        pytest.skip(f"{kind}: {'; '.join(harness.real.missing.values()) or 'test extra missing'}")
    examples, batch = (6, 8) if kind in BIG else (20, 3)

    @fuzz(examples)
    @given(rng=RNG)
    def run(rng) -> None:
        cases = [gen_text_case(rng) for _ in range(batch)]
        found = harness.check_texts(kind, cases)
        assert not found, [(f, cases[f[0]]) for f in found]

    run()


# ------------------------------------------------------------------------ code


@pytest.mark.parametrize("as_bytes", [False, True], ids=["str", "bytes"])
def test_code_round_trip_and_native_equals_python(harness: Harness, as_bytes: bool) -> None:
    @fuzz(50)
    @given(rng=RNG)
    def run(rng) -> None:
        cases = [gen_code(rng, as_bytes=as_bytes) for _ in range(3)]
        found = harness.check_code(cases)
        assert not found, [(f, cases[f[0]]) for f in found]

    run()


# ------------------------------------------------------------------------ issue 28


@pytest.mark.parametrize("language", LANGUAGES)
def test_pathological_parse_inputs_encode_or_stop_naming_the_file(harness, language) -> None:
    @fuzz(8, shrink=False)
    @given(rng=RNG)
    def run(rng) -> None:
        case = gen_parse(rng, language, max_size=20_000, python_share=0.0)
        found = harness.check_parse(case)
        assert found is None, (found, case.how, case.budget, repr(case.source)[:200])

    run()


@pytest.mark.parametrize("kind", sorted(THREAD_KINDS))
def test_threads_see_one_published_state(harness, kind) -> None:
    base = THREAD_KINDS[kind]
    _skip_missing(harness, base)
    text = harness.real.bases[base].files["tokenizer.json"].decode("utf-8")

    @fuzz(3, shrink=False)
    @given(rng=RNG)
    def run(rng) -> None:
        case = gen_thread_case(rng, kind)
        found = check_thread_case(text, case)
        assert found is None, found

    run()


def test_hostile_hf_caches_load_the_cache_or_name_the_revision(harness, tmp_path) -> None:
    @fuzz(40, shrink=False)
    @given(rng=RNG)
    def run(rng) -> None:
        case = gen_hub(rng)
        found = check_hub_case(tmp_path, case)
        assert found is None, (found, case.revision, case.entries)

    run()


def test_hostile_source_trees_lose_no_file(harness, tmp_path) -> None:
    tok = harness.code_tokenizer()

    @fuzz(6, shrink=False)
    @given(rng=RNG)
    def run(rng) -> None:
        case = gen_corpus(rng)
        case.cli = False  # the command line runs once, below
        found = check_corpus_case(tmp_path, case, tok)
        assert found is None, (found, case.inputs, case.entries)

    run()


def test_codetok_corpus_on_two_processes_loses_no_file(harness, tmp_path) -> None:
    """A fixed hostile tree through the command line with two worker processes."""
    code = b"def f(x):\n    return x\n"
    entries = [
        ("tree/a", "dir", None),
        ("tree/a/b", "dir", None),
        ("tree/.hidden", "dir", None),
        ("tree/a/x.py", "file", code),
        ("tree/a/b/y.java", "file", b"class Y { int y; }\n"),
        ("tree/a/big.js", "file", b"//" * 400_000),
        ("tree/a/empty.cs", "file", b""),
        ("tree/a/nul.py", "file", b"x = 1\0\n"),
        ("tree/a/bomb.java", "file", b"a<" * 15000),
        ("tree/.hidden/h.py", "file", code),
        ("tree/a/f.js", "fifo", None),
        ("tree/a/b/up", "link", ".."),
        ("tree/a/self", "link", "self"),
        ("tree/a/dead.py", "link", "nowhere.py"),
        ("tree/a/zero.py", "link", "/dev/zero"),
        ("tree/a/same.py", "link", "x.py"),
        ("tree/a/out", "link", "{root}/outside"),
        ("outside/o.py", "file", code),
    ]
    case = CorpusCase(entries, ["tree", "tree/a/b"], True, 1 << 20, 64, None, cli=True)
    assert check_corpus_case(tmp_path, case, harness.code_tokenizer()) is None


@pytest.mark.parametrize("base", CTK_BASES)
def test_rewritten_ctk_tables_are_refused_or_work(harness, base, tmp_path) -> None:
    data = ctk_base(harness.real, base)
    if data is None:
        pytest.skip(f"{base}: {'; '.join(harness.real.missing.values())}")

    @fuzz({"gpt2": 20, "llama": 8, "cl100k": 12}[base], shrink=False)
    @given(rng=RNG)
    def run(rng) -> None:
        case = gen_ctk(rng, data, base)
        found = check_ctk_case(tmp_path, case)
        assert found is None, (found, case.changes)

    run()
