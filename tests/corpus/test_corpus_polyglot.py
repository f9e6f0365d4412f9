"""``codetok corpus`` on a polyglot tree: every language with a grammar file gets shards,
a script is known by its ``#!`` line, a ``.h`` header by its content, and what is left out
is counted with its reason (a language read with a generic grammar is taken when named)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from codetok.code import CodeTokenizer  # noqa: E402
from codetok.code.front.languages import grammar_specs  # noqa: E402
from codetok.corpus import CorpusJob, build_corpus, list_sources, shard_paths  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "corpora" / "samples"
CPP_HEADER = "#pragma once\n#include <vector>\nnamespace acme {\ntemplate <class T>\nclass Box {\n public:\n  std::vector<T> items;\n};\n}\n"  # fmt: skip


@pytest.fixture(scope="module")
def polyglot(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("polyglot") / "src"
    shutil.copytree(SAMPLES, root / "samples")
    (root / "tools").mkdir()
    (root / "tools" / "deploy").write_text("#!/bin/sh\nset -e\necho deploying\n", "utf-8")
    (root / "tools" / "box.h").write_text(CPP_HEADER, "utf-8")
    (root / "tools" / "main.ex").write_text("defmodule M do\nend\n", "utf-8")
    return root


def test_every_language_of_a_polyglot_tree_gets_shards(polyglot, tmp_path):
    out = tmp_path / "out"
    manifest = build_corpus([str(polyglot)], str(out), CorpusJob(shard_bytes=60_000))
    assert manifest["status"] == "complete" and manifest["failures"] == []
    sample_languages = {p.name for p in SAMPLES.iterdir() if p.is_dir()}
    assert sample_languages <= set(grammar_specs())
    assert set(manifest["totals"]["languages"]) == sample_languages
    assert manifest["ignored"] == {".ex": 1, ".md": 1}  # counted, never silently dropped
    table = pa.concat_tables([pq.read_table(p) for p in shard_paths(str(out))])
    by_path = {row["path"]: row for row in table.to_pylist()}
    assert by_path[str(polyglot / "tools" / "deploy")]["language"] == "bash"
    assert by_path[str(polyglot / "tools" / "box.h")]["language"] == "cpp"
    ct = CodeTokenizer.default()
    for path, row in by_path.items():
        assert ct.decode(row["ids"], as_bytes=True) == Path(path).read_bytes()


def test_a_generic_language_is_listed_when_asked_for(polyglot):
    pytest.importorskip("tree_sitter_language_pack")
    found = list_sources([str(polyglot)], ["elixir", "bash"])
    assert {(Path(f.shown).name, f.language) for f in found.files} >= {
        ("main.ex", "elixir"),
        ("deploy", "bash"),
    }
