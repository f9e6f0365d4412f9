"""Fill-in-the-middle transforms: layouts, losslessness, AST-FIM middles, determinism."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok.code import CodeTokenizer, lex
from codetok.code.fim import FimTransform, ast_span, fim_ids, undo_fim
from codetok.errors import ConfigurationError, VocabularyError

ROOT = Path(__file__).resolve().parents[2]
STDLIB = Path(sysconfig.get_paths()["stdlib"])
FILES = [
    (STDLIB / "textwrap.py", "python"),
    (STDLIB / "colorsys.py", "python"),
    (STDLIB / "bisect.py", "python"),
    *[(p, "csharp") for p in sorted((ROOT / "corpora/samples/csharp").rglob("*.cs"))[:3]],
    *[(p, "java") for p in sorted((ROOT / "corpora/samples/java").rglob("*.java"))[:3]],
]
JS = "function area(r) {\n  // circle\n  const pi = 3.14;\n  return pi * r * r;\n}\nexport { area };\n"


@pytest.fixture(scope="module")
def tok():
    return CodeTokenizer()


@pytest.fixture(scope="module")
def docs():
    return [(p.read_text(encoding="utf-8"), lang) for p, lang in FILES] + [(JS, "javascript")]


def test_psm_and_spm_layouts(tok):
    fp, fm, fs = (tok.control_id(r) for r in ("fim_prefix", "fim_middle", "fim_suffix"))
    p, m, s = "def f(x):\n    return ", "x + 1", "\n\nprint(f(2))\n"

    def enc(part):
        return tok.encode(part, "python").ids

    psm = fim_ids(tok, p, m, s, "psm", "python")
    spm = fim_ids(tok, p, m, s, "spm", "python")
    assert psm == [fp, *enc(p), fs, *enc(s), fm, *enc(m)]
    assert spm == [fp, fs, *enc(s), fm, *enc(p), *enc(m)]
    for ids in (psm, spm):
        assert undo_fim(tok, ids) == p + m + s
        assert undo_fim(tok, ids + [tok.control_id("eos")]) == p + m + s
    shown = tok.decode(psm, skip_special_tokens=False)
    assert shown == f"<fim_prefix>{p}<fim_suffix>{s}<fim_middle>{m}"
    assert fim_ids(tok, "", m, s, "psm", "python")[:2] == [fp, fs]
    assert undo_fim(tok, fim_ids(tok, "", m, s, "psm", "python")) == m + s
    with pytest.raises(ConfigurationError, match="psm"):
        fim_ids(tok, p, m, s, "pms", "python")


@settings(max_examples=60, deadline=None)
@given(
    which=st.integers(0, len(FILES)),
    seed=st.integers(0, 2**32),
    mode=st.sampled_from(["psm", "spm", "mixed"]),
    spans=st.sampled_from(["ast", "random"]),
)
def test_undoing_fim_gives_the_document_back(tok, docs, which, seed, mode, spans):
    source, language = docs[which]
    ex = FimTransform(tok, rate=1.0, mode=mode, spans=spans, seed=seed).apply(
        source, language, which
    )
    assert undo_fim(tok, ex.ids) == source
    assert ex.mode in ("psm", "spm")
    assert ex.prefix + ex.middle + ex.suffix == source
    fm = tok.control_id("fim_middle")
    tail = ex.ids[ex.ids.index(fm) + 1 :]
    want = (ex.prefix if ex.mode == "spm" else "") + ex.middle
    assert tok.decode(tail) == want  # each part's ids decode to the part


def test_ast_middles_are_nodes_or_sibling_runs(tok, docs):
    import random

    seen = {"node": 0, "run": 0}
    for k, (source, language) in enumerate(docs):
        lx = lex(source, language)
        tree, base = lx.tree, lx.tree_offset  # tree bytes count from after a BOM
        data = source.encode("utf-8")
        spans, runs = set(), set()
        stack = [tree.root_node]
        while stack:
            node = stack.pop()
            kids = [c for c in node.named_children if c.end_byte > c.start_byte]
            for c in kids:
                spans.add((c.start_byte, c.end_byte))
            for i, a in enumerate(kids):
                for b in kids[i + 1 :]:
                    runs.add((a.start_byte, b.end_byte))
            stack.extend(node.named_children)
        for seed in range(25):
            got = ast_span(source, language, random.Random(f"{k}/{seed}"))
            assert got is not None
            a, b = (len(source[:x].encode("utf-8")) for x in got)
            assert (a - base, b - base) in spans or (a - base, b - base) in runs, (
                language,
                source[got[0] : got[1]][:60],
            )
            seen["node" if (a - base, b - base) in spans else "run"] += 1
            assert data[a:b].decode("utf-8") == source[got[0] : got[1]]
    assert seen["node"] and seen["run"]


def test_a_transform_is_deterministic_and_keeps_its_rate(tok, docs):
    source, language = docs[0]
    fim = FimTransform(tok, rate=0.5, mode="mixed", spans="random", seed=3)
    again = FimTransform(tok, rate=0.5, mode="mixed", spans="random", seed=3)
    runs = [fim.apply(source, language, key) for key in range(200)]
    assert [e.ids for e in runs[:20]] == [again.apply(source, language, k).ids for k in range(20)]
    done = [e for e in runs if e.mode is not None]
    assert 70 <= len(done) <= 130  # binomial(200, 0.5): far outside is a broken rate
    assert {e.mode for e in done} == {"psm", "spm"}
    assert len({(e.prefix, e.middle) for e in done}) > len(done) // 2
    whole = FimTransform(tok, rate=0.0, seed=3).apply(source, language, 1)
    assert whole.mode is None and whole.ids == tok.encode(source, language).ids
    other = FimTransform(tok, rate=1.0, spans="random", seed=4).apply(source, language, 0)
    assert (
        other.ids
        != FimTransform(tok, rate=1.0, spans="random", seed=3).apply(source, language, 0).ids
    )


def test_bad_settings_and_old_vocabularies(tok):
    for kwargs in ({"rate": 1.5}, {"mode": "pms"}, {"spans": "tree"}, {"spm_rate": -1}):
        with pytest.raises(ConfigurationError):
            FimTransform(tok, **kwargs)
    old = tok.to_dict()
    old["added_tokens"] = [t for t in old["added_tokens"] if not t["content"].startswith("<fim")]
    with pytest.raises(VocabularyError, match="fim_prefix"):
        FimTransform(CodeTokenizer.from_dict(old))
    with pytest.raises(VocabularyError, match="order"):
        fp, fm, fs = (tok.control_id(r) for r in ("fim_prefix", "fim_middle", "fim_suffix"))
        undo_fim(tok, [fp, fm, 5, fs])
