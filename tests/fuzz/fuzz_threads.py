"""Concurrency under mutation in the fuzzing harness (not a test module): ``thread:<kind>``.

README "Threads" promises: one tokenizer may be shared by any number of threads; a change
(``add_tokens``, ``enable_truncation``, ``enable_padding``, their ``no_`` forms) may run
while other threads encode; each encode sees the tokenizer before the change or after it,
never half of each, and the first encode that starts after a change returns sees it;
``tok(...)`` never writes the tokenizer's settings.

A case is a short text list, a sequence of changes and, per encoding thread, a list of
calls (``encode`` with or without a pair, ``encode_batch`` on one or two native threads,
``encode_ordinary``, ``tok(...)`` with its own padding and truncation). The expected
outcome of every call under every state (the setup, then after each change) is computed
first on a fresh copy, one call at a time. Then a second fresh copy is shared: two or
three threads run their calls over and over while one more thread makes the changes. A
call that started after change ``lo`` returned and ended before change ``hi + 1`` started
must give the outcome (the result, or the same exception) of one of the states ``lo`` to
``hi``; anything else is a mismatch, and threads still running after a minute an error.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from random import Random
from typing import Any

from fuzz_generators import SPECIALS, gen_text

#: The tokenizer kinds, by the harness's base file each is read from.
THREAD_KINDS = {
    "bert": "bert.json",
    "gpt2": "gpt2.json",
    "llama": "bpe.json",
    "t5": "unigram.json",
    "words": "words.json",
}
JOIN_SECONDS = 60.0


@dataclass
class ThreadCase:
    """Texts, the changes one thread makes and the calls of each encoding thread."""

    kind: str
    texts: list[str]
    changes: list[tuple[Any, ...]]
    calls: list[list[tuple[Any, ...]]]
    setup: list[tuple[Any, ...]] = field(default_factory=list)
    engine: str = "native"
    pauses: list[float] = field(default_factory=list)


def _new_tokens(rng: Random, texts: list[str]) -> list[str]:
    out = []
    for _ in range(rng.randint(1, 4)):
        src = rng.choice(texts)
        if src and rng.random() < 0.7:
            a = rng.randrange(len(src))
            piece = src[a : a + rng.randint(1, 8)]
            if piece.strip():
                out.append(piece)
                continue
        out.append(rng.choice(SPECIALS + ["zz", "def", "hello", "##x", "Ġthe", "▁a", "ab cd"]))
    return out


def _change(rng: Random, texts: list[str]) -> tuple[Any, ...]:
    op = rng.randrange(7)
    if op < 2:
        return ("add", _new_tokens(rng, texts), rng.random() < 0.4)
    if op == 2:
        strategy = rng.choice(["longest_first", "longest_first", "only_first", "only_second"])
        length = rng.choice([1, 2, 3, 5, 8, 16, 40])
        stride = rng.choice([0, 0, 1, 2, length])
        return ("trunc", length, stride, strategy, rng.choice(["right", "left"]))
    if op == 3:
        return ("no_trunc",)
    if op == 4:
        length = rng.choice([None, None, 4, 16, 48])
        multiple = rng.choice([None, None, 8])
        return ("pad", length, multiple, rng.choice(["right", "left"]))
    if op == 5:
        return ("no_pad",)
    return ("add", _new_tokens(rng, texts), False)


def _call(rng: Random, n: int) -> tuple[Any, ...]:
    op = rng.randrange(9)
    if op < 3:
        pair = rng.randrange(n) if rng.random() < 0.25 else None
        return ("encode", rng.randrange(n), pair, rng.random() < 0.85)
    if op < 5:
        picks = tuple(rng.randrange(n) for _ in range(rng.randint(1, 4)))
        return ("batch", picks, rng.choice([1, 2]))
    if op < 6:
        return ("ordinary", rng.randrange(n))
    picks = tuple(rng.randrange(n) for _ in range(rng.randint(1, 3)))
    options = {
        "padding": rng.choice([False, True, "longest", "max_length"]),
        "truncation": rng.choice([None, False, True, "longest_first", "only_first"]),
        "max_length": rng.choice([None, 3, 8, 24]),
    }
    if rng.random() < 0.3:
        options["stride"] = rng.choice([0, 1, 2])
        options["return_overflowing_tokens"] = True
    if rng.random() < 0.3:
        options["return_offsets_mapping"] = True
    if options["padding"] == "max_length" and options["max_length"] is None:
        options["max_length"] = 16
    single = rng.random() < 0.3
    return ("call", picks[0] if single else picks, options)


def gen_thread_case(rng: Random, kind: str) -> ThreadCase:
    """A few short texts, two to six changes and two or three threads' calls."""
    texts = [gen_text(rng, max_parts=5, long=0.0)[:200] for _ in range(rng.randint(2, 5))]
    setup: list[tuple[Any, ...]] = []
    if rng.random() < 0.4:
        setup.append(_change(rng, texts))
    changes = [_change(rng, texts) for _ in range(rng.randint(2, 6))]
    calls = [[_call(rng, len(texts)) for _ in range(rng.randint(2, 5))] for _ in range(rng.choice([2, 2, 3]))]  # fmt: skip
    engine = "python" if rng.random() < 0.2 else "native"
    pauses = [rng.choice([0.0, 0.0, 0.0002, 0.001, 0.003]) for _ in changes]
    return ThreadCase(kind, texts, changes, calls, setup, engine, pauses)


# ------------------------------------------------------------------------ running


def apply_change(tok: Any, change: tuple[Any, ...]) -> None:
    """Make one change to ``tok`` (the changes README "Threads" covers)."""
    op = change[0]
    if op == "add":
        (tok.add_special_tokens if change[2] else tok.add_tokens)(change[1])
    elif op == "trunc":
        tok.enable_truncation(change[1], stride=change[2], strategy=change[3], direction=change[4])
    elif op == "no_trunc":
        tok.no_truncation()
    elif op == "pad":
        pad = tok.special_tokens_map.get("pad_token")
        pad_id = tok.token_to_id(pad) if pad else None
        tok.enable_padding(
            direction=change[3],
            pad_id=0 if pad_id is None else pad_id,
            pad_token=pad or "[PAD]",
            length=change[1],
            pad_to_multiple_of=change[2],
        )
    elif op == "no_pad":
        tok.no_padding()


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def run_call(tok: Any, texts: list[str], call: tuple[Any, ...]) -> tuple[Any, ...]:
    """The outcome of one call: ``("ok", value)`` or ``("raise", type, message)``."""
    from conftest import encoding_state

    try:
        op = call[0]
        if op == "encode":
            pair = None if call[2] is None else texts[call[2]]
            enc = tok.encode(texts[call[1]], pair, add_special_tokens=call[3])
            return ("ok", encoding_state(enc))
        if op == "batch":
            encs = tok.encode_batch([texts[k] for k in call[1]], num_threads=call[2])
            return ("ok", [encoding_state(e) for e in encs])
        if op == "ordinary":
            return ("ok", tok.encode_ordinary(texts[call[1]]))
        picks = call[1]
        text = texts[picks] if isinstance(picks, int) else [texts[k] for k in picks]
        out = tok(text, **call[2])
        return ("ok", {k: _plain(v) for k, v in sorted(out.items())})
    except Exception as e:  # noqa: BLE001 - an exception is an outcome, compared as one
        return ("raise", type(e).__name__, str(e)[:300])


def _distinct(case: ThreadCase) -> list[tuple[Any, ...]]:
    seen: dict[str, tuple[Any, ...]] = {}
    for calls in case.calls:
        for c in calls:
            seen.setdefault(repr(c), c)
    return list(seen.values())


def expected_outcomes(tok: Any, case: ThreadCase) -> dict[str, list[tuple[Any, ...]]]:
    """``repr(call) -> [outcome under state 0, 1, ...]``, one call at a time on ``tok``
    (set up already)."""
    calls = _distinct(case)
    out: dict[str, list[tuple[Any, ...]]] = {repr(c): [] for c in calls}
    for state in range(len(case.changes) + 1):
        if state:
            apply_change(tok, case.changes[state - 1])
        for c in calls:
            out[repr(c)].append(run_call(tok, case.texts, c))
    return out


def run_concurrently(tok: Any, case: ThreadCase) -> tuple[list[tuple[Any, ...]], bool]:
    """Every encoding thread's ``(call, lo, hi, outcome)`` and whether all threads ended."""
    done = [0]  # changes that returned
    started = [0]  # changes begun
    finished = threading.Event()
    records: list[tuple[Any, ...]] = []

    def mutate() -> None:
        try:
            for k, change in enumerate(case.changes):
                started[0] = k + 1
                apply_change(tok, change)
                done[0] = k + 1
                if case.pauses[k]:
                    time.sleep(case.pauses[k])
        finally:
            finished.set()

    def encode(calls: list[tuple[Any, ...]]) -> None:
        rounds = 0
        while rounds < 40:
            last = finished.is_set()
            for c in calls:
                lo = done[0]
                outcome = run_call(tok, case.texts, c)
                records.append((c, lo, started[0], outcome))
            rounds += 1
            if last:
                return

    threads = [threading.Thread(target=encode, args=(calls,), daemon=True) for calls in case.calls]
    threads.append(threading.Thread(target=mutate, daemon=True))
    for t in threads:
        t.start()
    deadline = time.monotonic() + JOIN_SECONDS
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    return records, not any(t.is_alive() for t in threads)


def check_thread_case(text: str, case: ThreadCase) -> tuple[str, str] | None:
    """``None`` when the property holds, else ``(kind, detail)``; ``text`` is the
    ``tokenizer.json`` of the case's kind."""
    from fuzz_checks import engines

    from codetok import Tokenizer

    with engines(case.engine == "native", True):
        first, shared = Tokenizer.from_str(text), Tokenizer.from_str(text)
        for tok in (first, shared):
            if tok.token_to_id("[PAD]") is not None:
                tok.special_tokens_map["pad_token"] = "[PAD]"
            else:
                tok.add_special_tokens(["<pad>"])
                tok.special_tokens_map["pad_token"] = "<pad>"
            for change in case.setup:
                apply_change(tok, change)
        want = expected_outcomes(first, case)
        records, ended = run_concurrently(shared, case)
    if not ended:
        return "error", f"threads still running after {JOIN_SECONDS:.0f} s (a deadlock?)"
    for call, lo, hi, outcome in records:
        states = want[repr(call)][lo : hi + 1]
        if outcome in states:
            continue
        kind = (
            "error" if outcome[0] == "raise" and all(s[0] == "ok" for s in states) else "mismatch"
        )
        return kind, (
            f"{call!r:.200} gave {outcome!r:.300}, which is none of states {lo}..{hi} "
            f"(changes {case.changes[:hi]!r:.300}); state {lo} gives {states[0]!r:.300}"
        )
    return None


__all__ = ["THREAD_KINDS", "ThreadCase", "gen_thread_case", "check_thread_case"]
