"""Memory of codetok.models.unigram with one very long piece (issue 28, finding 9).

A ``tokenizer.json`` whose Unigram vocabulary holds a 100k-char piece must load, encode
and give n-best lists in memory linear in the vocabulary's total length, on both backends.
A table of every prefix of every piece (the old loader) held 5 * 10**9 chars for it. Each
case runs in a fresh interpreter (peak RSS is per process) with its address space capped,
so a quadratic table fails fast with ``MemoryError`` instead of filling the machine.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from codetok.engine import native as _backend

LONG_CHARS = 100_000
LIMIT_MB = 200  # peak RSS growth allowed for loading the file, encoding and n-best
LETTERS = "abcdefghijklmnopqrstuvwxyz"

# Runs in the child: argv[1] the tokenizer.json, argv[2] the long piece's id.
CHILD = r"""
import json, resource, sys

def vm_bytes():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024

import codetok

resource.setrlimit(resource.RLIMIT_AS, (vm_bytes() + (1 << 30), resource.RLIM_INFINITY))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tok = codetok.Tokenizer.from_file(sys.argv[1])
piece = tok.model.id_to_token(int(sys.argv[2]))
body = piece[1:]  # Metaspace puts the "▁" back
miss = body[:-1] + ("a" if body[-1] != "a" else "b")  # a near miss: every char alone
out = {
    "piece": tok.encode(body).ids,
    "twice": tok.encode(body + " " + body).ids,
    "miss": len(tok.encode(miss).ids),
    "nbest": [[t.value for t in toks] for toks in tok.model.nbest(piece[:50], 2)],
}
out["grown_mb"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def long_piece_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, str]:
    """A T5-style ``tokenizer.json``: ``<unk>``, ``▁``, the letters and one long piece."""
    rng = random.Random(28)
    long = "▁" + "".join(rng.choice(LETTERS) for _ in range(LONG_CHARS - 1))
    vocab = [["<unk>", 0.0], ["▁", -3.0]] + [[c, -5.0] for c in LETTERS] + [[long, -1.0]]
    data = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": {
            "type": "Metaspace",
            "replacement": "▁",
            "prepend_scheme": "always",
            "split": True,
        },
        "post_processor": None,
        "decoder": None,
        "model": {"type": "Unigram", "unk_id": 0, "vocab": vocab, "byte_fallback": False},
    }
    path = tmp_path_factory.mktemp("unigram_memory") / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, len(vocab) - 1, long


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.parametrize("pure", [False, True], ids=["native", "reference"])
def test_long_piece_loads_and_encodes_in_linear_memory(
    long_piece_file: tuple[Path, int, str], pure: bool
) -> None:
    if not pure and not _backend.available():
        pytest.skip("codetok._core is not built")
    path, long_id, long = long_piece_file
    env = dict(os.environ, CODETOK_PURE_PYTHON="1" if pure else "0")
    run = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(long_id)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout)
    assert out["piece"] == [long_id]
    assert out["twice"] == [long_id, long_id]
    assert out["miss"] == LONG_CHARS  # "▁" and each of the other chars alone
    assert out["nbest"] == [list(long[:50])]  # one path: no other piece fits in it
    assert out["grown_mb"] < LIMIT_MB, f"peak RSS grew by {out['grown_mb']:.0f} MB"
