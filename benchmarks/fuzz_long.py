"""The long fuzz run (issue 11 item 20): the CI generators for a million inputs, on every core.

Runs the categories of ``tests/fuzz/fuzz_checks.py`` (every loader on mutated real files, every
tokenizer kind for native-versus-reference equality and round trip, the CodeTokenizer on
mutated real code as str and bytes; since issue 28 also pathological parse inputs per
language, threads encoding while the tokenizer changes, hostile HF caches and source trees,
and ``.ctk`` files with rewritten tables) with plain random mutation: input ``i`` of category
``c`` is generated from ``random.Random(f"{seed}:{c}:{i}")``, so it can be rebuilt from
its number. The generators are tests/fuzz/test_fuzz.py's, with fewer long texts and shorter
code (``Harness.categories(light=True)``); :data:`GROUPS` and :data:`WEIGHTS` share the
inputs out, the cheap categories taking more. Batches of inputs go to worker processes
(one per core by default); ``--self-test`` makes one worker segfault and one hang, to
check that both are caught, counted and their inputs saved.

Counted per category: inputs tried; **crashes** (a worker killed by a signal, e.g. a
segfault, or one that exits), **hangs** (no progress for ``--hang-timeout`` seconds; the
worker is killed), **errors** (an exception the property forbids, or an error message that
names no file), **losses** (a lossless round trip broken) and **mismatches** (native !=
reference, or batch != one by one). The input of every finding is saved under
``OUT/inputs/`` (a crashed input is rebuilt from its number by the parent) and listed in
``OUT/findings.jsonl``; ``OUT/summary.json`` holds the table printed at the end.

The tree this script sits in is tested (its ``codetok`` comes first on ``sys.path``).
Workers cap their address space (``--memory-gb``) so a runaway allocation is a
``MemoryError`` (an error finding), not the machine's OOM killer.

Usage::

    python benchmarks/fuzz_long.py [--inputs 1000000] [--seed 0] [--workers 2]
        [--out DIR] [--only load: tok:bert ...] [--hang-timeout 120] [--memory-gb 6]
        [--python-lexer-share 0.1] [--self-test]

``--only`` keeps the categories starting with the given prefixes (the inputs are shared
among them). ``--python-lexer-share`` is the share of ``parse:`` inputs run on the Python
lexer (the ``tree-sitter`` bindings) instead of the native one. The exit status is 1 when
anything was found.

atheris is not used: the generators are structure-aware already, and a plain loop keeps
the runner free of optional dependencies.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import pickle
import queue
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "fuzz")]

#: Share of the inputs per category group, then per category inside it (unlisted: 1),
#: roughly the inverse of its cost: cheap categories take more inputs, every one gets some.
#: The issue-28 groups cost (CPU ms per input) parse ~35 (inputs up to 100 KB, some stopped
#: by the budget after seconds), thread ~80, path:hub ~3, path:corpus ~150, ctk ~15: 7% of
#: the inputs, about 40% of the time.
GROUPS = {
    "load": 0.464,
    "tok": 0.297,
    "code": 0.167,
    "parse": 0.012,
    "thread": 0.006,
    "path": 0.024,
    "ctk": 0.03,
}
WEIGHTS = {
    "load:bert-full.json": 0.02,
    "load:cl100k-full.tiktoken": 0.01,
    "load:code-default.json": 0.01,
    "load:unigram.model": 0.15,
    "load:unigram.json": 0.2,
    "load:bpe.model": 0.2,
    "load:t5.folder": 0.25,
    "load:llama.folder": 0.3,
    "load:codebert.folder": 0.6,
    "load:bytes.json": 2.0,
    "load:chars.json": 2.0,
    "load:patterns.json": 2.0,
    "load:whitespace.json": 2.0,
    "load:words.json": 2.0,
    "load:gpt2.ctk": 2.0,
    "load:bert.ctk": 1.5,
    "tok:gpt2": 0.4,
    "tok:cl100k": 0.2,
    "tok:o200k-pattern": 0.2,
    "tok:llama3-pattern": 0.2,
    "tok:bytes": 0.3,
    "tok:t5": 0.8,
    "tok:whitespace": 3.0,
    "tok:patterns": 2.0,
    "tok:words": 2.0,
    "tok:bert": 2.0,
    "path:hub": 5.0,
}
BATCH = {"load": 250, "tok": 250, "code": 100, "parse": 25, "thread": 10, "path": 20, "ctk": 100}
OUTCOMES = ("error", "loss", "mismatch", "crash", "hang")
RECYCLED = -2  # a worker's state[0] when it left on purpose (see _worker)


def plan(categories: list[str], total: int) -> dict[str, int]:
    """Inputs per category: the group shares, split by :data:`WEIGHTS` (at least 1 each)."""
    counts = {}
    present = {c.split(":")[0] for c in categories}
    total_share = sum(share for group, share in GROUPS.items() if group in present)
    for group, share in GROUPS.items():
        share /= total_share
        names = [c for c in categories if c.split(":")[0] == group]
        weights = {c: WEIGHTS.get(c, 1.0) for c in names}
        norm = sum(weights.values()) or 1.0
        for c in names:
            counts[c] = max(1, round(total * share * weights[c] / norm))
    return counts


# ------------------------------------------------------------------------ worker


def _address_space_mb() -> int:
    """This process's virtual size (VmSize) in MB, 0 where /proc is missing: what
    ``--memory-gb`` caps, so the summary can say which categories make it grow."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


def _worker(slot, tasks, results, state, cache, workdir, seed, memory_gb, sabotage, share) -> None:
    """Run tasks ``(task_id, category, indices)``; ``state`` = [task_id, index, beat_ms].

    After a task that leaves the address space above two thirds of ``memory_gb``, the worker
    sets ``state[0]`` to :data:`RECYCLED` and exits: what a long mixed run piles up
    without leaking (glibc's per-thread malloc arenas from the thread categories, Arrow's
    allocator pools from the corpus ones, each bounded, up to ~3 GB together) must not
    turn the next input's ordinary allocation into a ``MemoryError``.

    ``sabotage`` maps ``(category, index)`` to ``"segfault"`` or ``"hang"`` (``--self-test``).
    """
    import faulthandler
    import resource

    if memory_gb:
        limit = int(memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    log = open(Path(workdir) / f"worker-{slot}.log", "a")  # noqa: SIM115 - lives as long as the process
    faulthandler.enable(log)
    os.dup2(log.fileno(), 2)
    from fuzz_checks import Harness

    harness = Harness(Path(cache), Path(workdir) / f"w{slot}", python_lexer_share=share)
    categories = harness.categories(light=True)
    while True:
        task = tasks.get()
        if task is None:
            return
        task_id, name, indices = task
        cat = categories[name]
        state[0], state[1], state[2] = task_id, indices[0], int(time.time() * 1000)
        cases, gen_errors = [], []
        for i in indices:
            try:
                cases.append(cat.generate(random.Random(f"{seed}:{name}:{i}")))
            except Exception as e:  # noqa: BLE001 - a generator bug, reported as such
                gen_errors.append((i, "error", f"the generator raised {e!r}"))
                cases.append(None)
        kept = [(i, c) for i, c in zip(indices, cases) if c is not None]

        def progress(k: int, kept=kept, name=name) -> None:
            state[1] = kept[k][0]
            state[2] = int(time.time() * 1000)
            act = sabotage.get((name, kept[k][0]))
            if act == "segfault":
                import ctypes

                ctypes.string_at(0)  # a read of address 0: SIGSEGV
            elif act == "hang":
                time.sleep(3600)

        vm_before = _address_space_mb()
        started = time.process_time()
        try:
            found = cat.check([c for _, c in kept], progress)
        except Exception as e:  # noqa: BLE001 - a harness bug: the whole batch is an error
            found = [(0, "error", f"the check raised {e!r}")]
        spent = time.process_time() - started
        findings = [(kept[k][0], kind, detail) for k, kind, detail in found] + gen_errors
        state[0] = -1  # idle: waiting for a task is no hang
        after = _address_space_mb()
        results.put((task_id, slot, len(indices), spent, findings, after - vm_before))
        if memory_gb and after > memory_gb * 1024 * 2 / 3:
            state[0] = RECYCLED
            return


# ------------------------------------------------------------------------ parent


class Runner:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Path(args.out)
        (self.out / "inputs").mkdir(parents=True, exist_ok=True)
        self.cache = self.out / "cache"
        self.cache.mkdir(exist_ok=True)
        self.ctx = mp.get_context("spawn")
        self.tasks = self.ctx.Queue()
        self.results = self.ctx.Queue()
        self.workers: dict[int, tuple[mp.Process, object]] = {}
        self.pending: dict[int, tuple[str, list[int]]] = {}
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.cpu: Counter = Counter()
        self.grown: Counter = Counter()  # MB of address space the category's tasks added
        self.recycled = 0
        self.findings = open(self.out / "findings.jsonl", "a")  # noqa: SIM115
        self.next_id = 0
        self.lost_idle = 0
        self.sabotage: dict[tuple[str, int], str] = {}
        if args.self_test:
            self.sabotage = {("tok:whitespace", 3): "segfault", ("code:str", 5): "hang"}
        from fuzz_checks import Harness

        self.harness = Harness(
            self.cache, self.out / "parent", python_lexer_share=args.python_lexer_share
        )
        self.categories = self.harness.categories(light=True)

    def add_task(self, name: str, indices: list[int]) -> None:
        self.pending[self.next_id] = (name, indices)
        self.tasks.put((self.next_id, name, indices))
        self.next_id += 1

    def spawn(self, slot: int) -> None:
        state = self.ctx.RawArray("q", 3)
        state[0] = -1
        p = self.ctx.Process(
            target=_worker,
            args=(
                slot,
                self.tasks,
                self.results,
                state,
                str(self.cache),
                str(self.out),
                self.args.seed,
                self.args.memory_gb,
                self.sabotage,
                self.args.python_lexer_share,
            ),
            daemon=True,
        )
        p.start()
        self.workers[slot] = (p, state)

    def save_input(self, name: str, index: int, kind: str, detail: str) -> str:
        try:
            case = self.categories[name].generate(random.Random(f"{self.args.seed}:{name}:{index}"))
        except Exception as e:  # noqa: BLE001
            case = f"(the generator raised {e!r})"
        stem = self.out / "inputs" / f"{name.replace(':', '_')}-{index}-{kind}"
        with open(f"{stem}.pickle", "wb") as f:
            pickle.dump(case, f)
        if hasattr(case, "files"):  # a loader case: the files themselves
            folder = Path(f"{stem}.files")
            folder.mkdir(exist_ok=True)
            for fname, data in case.files.items():
                (folder / fname).write_bytes(data)
        Path(f"{stem}.txt").write_text(
            f"{name} #{index} {kind}: {detail}\n\n{case!r:.100000}\n", encoding="utf-8"
        )
        return str(stem)

    def record(self, name: str, index: int, kind: str, detail: str) -> None:
        self.counts[name][kind] += 1
        saved = self.save_input(name, index, kind, detail)
        line = {"category": name, "index": index, "kind": kind, "detail": detail, "input": saved}
        self.findings.write(json.dumps(line) + "\n")
        self.findings.flush()
        if self.counts[name][kind] <= 3:
            print(f"  ! {kind} in {name} #{index}: {detail[:300]}", flush=True)

    def lost_worker(self, slot: int, kind: str, detail: str) -> None:
        """A worker died or hung: record its input, requeue the rest of its task."""
        p, state = self.workers.pop(slot)
        task_id, index = int(state[0]), int(state[1])
        if task_id not in self.pending:
            self.lost_idle += 1
            if self.lost_idle > 3:
                raise SystemExit(f"workers die outside any task; see {self.out}/worker-*.log")
        else:
            name, indices = self.pending.pop(task_id)
            self.counts[name]["inputs"] += 1
            log = self.out / f"worker-{slot}.log"
            self.record(name, index, kind, f"{detail} (exit code {p.exitcode}; see {log})")
            rest = [i for i in indices if i != index]
            if rest:
                self.add_task(name, rest)
        self.spawn(slot)

    def run(self) -> int:
        args = self.args
        names = [c for c in self.categories if not args.only or c.startswith(tuple(args.only))]
        counts = plan(names, args.inputs)
        chunks = []
        for name, n in counts.items():
            size = BATCH[name.split(":")[0]]
            chunks += [(name, list(range(a, min(n, a + size)))) for a in range(0, n, size)]
        random.Random(args.seed).shuffle(chunks)  # every category advances all along
        for name, indices in chunks:
            self.add_task(name, indices)
        total = sum(counts.values())
        import codetok

        print(f"codetok from {Path(codetok.__file__).parent}; {len(names)} categories, "
              f"{total} inputs, seed {args.seed}, {args.workers} workers, out {self.out}", flush=True)  # fmt: skip
        for slot in range(args.workers):
            self.spawn(slot)
        start = last = time.time()
        done = 0
        while self.pending:
            try:
                task_id, slot, n, spent, findings, grown = self.results.get(timeout=1.0)
            except queue.Empty:
                pass
            else:
                name, _ = self.pending.pop(task_id)
                self.counts[name]["inputs"] += n
                self.cpu[name] += spent
                self.grown[name] += grown
                done += n
                for index, kind, detail in findings:
                    self.record(name, index, kind, detail)
            now = time.time()
            for slot, (p, state) in list(self.workers.items()):
                if not p.is_alive() and state[0] == RECYCLED and p.exitcode == 0:
                    self.recycled += 1
                    self.spawn(slot)
                elif not p.is_alive():
                    self.lost_worker(slot, "crash", "the worker process died")
                elif state[0] >= 0 and now * 1000 - state[2] > args.hang_timeout * 1000:
                    p.kill()
                    p.join()
                    self.lost_worker(slot, "hang", f"no progress for {args.hang_timeout} s")
            if now - last > 30:
                last = now
                rate = done / (now - start)
                eta = (total - done) / rate if rate else 0
                bad = sum(c[k] for c in self.counts.values() for k in OUTCOMES)
                print(f"  {done}/{total} inputs, {rate:.0f}/s, {bad} findings, "
                      f"ETA {eta / 60:.1f} min", flush=True)  # fmt: skip
        for _ in self.workers:
            self.tasks.put(None)
        for p, _ in self.workers.values():
            p.join(timeout=30)
        return self.summary(time.time() - start)

    def summary(self, elapsed: float) -> int:
        rows = sorted(self.counts.items())
        head = f"{'category':30s} {'inputs':>9s} " + " ".join(f"{k:>8s}" for k in OUTCOMES)
        print("\n" + head + f" {'cpu ms/in':>9s} {'vm +MB':>7s}")
        total: Counter = Counter()
        groups: dict[str, Counter] = defaultdict(Counter)
        for name, c in rows:
            total.update(c)
            groups[name.split(":")[0]].update(c)
            per = 1000 * self.cpu[name] / max(1, c["inputs"])
            print(f"{name:30s} {c['inputs']:9d} " + " ".join(f"{c[k]:8d}" for k in OUTCOMES) + f" {per:9.2f} {self.grown[name]:7d}")  # fmt: skip
        print("-" * len(head))
        for group, c in sorted(groups.items()):
            print(f"{group + ' (all)':30s} {c['inputs']:9d} " + " ".join(f"{c[k]:8d}" for k in OUTCOMES))  # fmt: skip
        print(f"{'TOTAL':30s} {total['inputs']:9d} " + " ".join(f"{total[k]:8d}" for k in OUTCOMES))  # fmt: skip
        print(f"\n{elapsed / 60:.1f} min wall, seed {self.args.seed}; {self.recycled} workers "
              f"replaced past 2/3 of --memory-gb; findings in {self.out}")  # fmt: skip
        summary = {
            "seed": self.args.seed,
            "minutes": round(elapsed / 60, 2),
            "workers_recycled": self.recycled,
            "total": dict(total),
            "categories": {
                n: dict(
                    c,
                    cpu_ms_per_input=round(1000 * self.cpu[n] / max(1, c["inputs"]), 3),
                    address_space_growth_mb=self.grown[n],
                )
                for n, c in rows
            },
        }
        (self.out / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
        return 1 if any(total[k] for k in OUTCOMES) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=None, help="findings and summary (default: a temp dir)")
    parser.add_argument("--only", nargs="*", help="category name prefixes (load:, tok:bert, ...)")
    parser.add_argument("--hang-timeout", type=float, default=120.0)
    parser.add_argument("--memory-gb", type=float, default=6.0)
    parser.add_argument(
        "--python-lexer-share",
        type=float,
        default=0.1,
        help="share of parse: inputs run on the Python lexer (tree-sitter bindings)",
    )
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="check the runner: a worker segfaults on one input and hangs on another",
    )
    args = parser.parse_args(argv)
    if args.out is None:
        import tempfile

        args.out = tempfile.mkdtemp(prefix=f"codetok-fuzz-{args.seed}-")
    return Runner(args).run()


if __name__ == "__main__":
    sys.exit(main())
