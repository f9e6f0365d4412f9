"""The fuzzing harness in CI (issue 11 item 20): bounded hypothesis runs of its generators.

The generators (tests/fuzz_generators.py) and properties (tests/fuzz_checks.py) are the
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
  the native router = the Python router = the pure-Python kernels.
"""

from __future__ import annotations

import pytest
from fuzz_checks import Harness, gen_text_case
from fuzz_generators import BASE_NAMES, LoaderCase, gen_code, gen_loader_case
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

RNG = st.randoms(use_true_random=False)


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
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
