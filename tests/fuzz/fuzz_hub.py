"""Hostile HF caches in the fuzzing harness (not a test module): ``path:hub``.

Each case builds a fake HF cache in a fresh folder: ``cache/models--org--name`` with
``refs/main`` holding a commit and ``snapshots/<commit>/tokenizer.json`` (as a file, or
as huggingface_hub writes it: a link to ``../../blobs/<hash>``), and next to the cache an
``outside/`` folder with a tokenizer of its own, a snapshot and a ref file. Then one to
four mutations: a ref holding a path, another commit, junk, NUL bytes or 5,000 chars; a
ref, snapshot or tokenizer file that is a symlink out of the cache (relative or absolute),
to ``/dev/zero``, dangling or looping; a FIFO or a folder where a file belongs; a
revision with ``..``, an absolute path, NUL, control characters, unicode, 300 chars or
thousands of parts.

The property (``from_pretrained(..., local_files_only=True)``, in a thread with a
timeout): it loads the cache's own tokenizer (its marker token, never the outside one's),
or raises a :class:`~codetok.errors.CodetokError` whose message names the revision (its
``repr``) or a path in the cache; it never opens a file under ``outside/`` (an audit hook
sees every ``open``) and never hangs.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

HUB_SECONDS = 20.0
REPO_IDS = ["org/name", "name", "Org-1/na_me.v2"]
_TOKENIZERS: dict[str, bytes] = {}


def marked_tokenizer(marker: str) -> bytes:
    """A small ``tokenizer.json`` whose vocabulary holds ``marker``."""
    if marker not in _TOKENIZERS:
        import tempfile

        from codetok.text import words_tokenizer

        tok = words_tokenizer(corpus=[f"{marker} a b c def"])
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "tokenizer.json")
            tok.save(path)
            _TOKENIZERS[marker] = Path(path).read_bytes()
    return _TOKENIZERS[marker]


@dataclass
class HubCase:
    """The cache as ``(relative path, kind, payload)`` entries (kinds: ``file`` bytes,
    ``link`` target, ``dir``, ``fifo``; ``{root}`` in a payload is the case's folder),
    the repository id and the revision passed (None: the default)."""

    entries: list[tuple[str, str, Any]]
    repo_id: str
    revision: str | None
    commit: str
    other: str


def _hex(rng: Random) -> str:
    return rng.randbytes(20).hex()


def gen_hub(rng: Random) -> HubCase:
    """A fake HF cache with one to four hostile changes, and the revision to ask for."""
    repo_id = rng.choice(REPO_IDS)
    repo = "cache/models--" + repo_id.replace("/", "--")
    commit, other = _hex(rng), _hex(rng)
    entries: dict[str, tuple[str, Any]] = {}
    snap = f"{repo}/snapshots/{commit}"
    real, outside = marked_tokenizer("realmarker"), marked_tokenizer("outsidemarker")
    if rng.random() < 0.5:
        blob = _hex(rng)
        entries[f"{repo}/blobs/{blob}"] = ("file", real)
        entries[f"{snap}/tokenizer.json"] = ("link", f"../../blobs/{blob}")
    else:
        entries[f"{snap}/tokenizer.json"] = ("file", real)
    if rng.random() < 0.3:
        entries[f"{snap}/tokenizer_config.json"] = ("file", b'{"model_max_length": 64}')
    entries[f"{repo}/refs/main"] = ("file", commit.encode())
    entries["outside/tokenizer.json"] = ("file", outside)
    entries[f"outside/snapshots/{other}/tokenizer.json"] = ("file", outside)
    entries["outside/ref"] = ("file", other.encode())
    revision: str | None = rng.choice([None, None, "main", commit])
    for _ in range(rng.choice([1, 1, 2, 3, 4])):
        op = rng.randrange(9)
        ref = f"{repo}/refs/main"
        if op == 0:  # the ref's content
            entries[ref] = ("file", rng.choice(_REF_CONTENTS)(commit, other))
        elif op == 1:  # the ref is a link
            target = rng.choice(
                ["{root}/outside/ref", "../../../outside/ref", "main", "/dev/zero", "nowhere",
                 "../snapshots", "{root}/outside"]
            )  # fmt: skip
            entries[ref] = ("link", target)
        elif op == 2:  # the ref is no file
            entries[ref] = rng.choice([("dir", None), ("fifo", None)])
        elif op == 3:  # the snapshot is a link out, and a ref or the revision names it
            target = rng.choice(["{root}/outside/snapshots/" + other, "../../../outside/snapshots/" + other, "{root}/outside"])  # fmt: skip
            entries[f"{repo}/snapshots/{other}"] = ("link", target)
            if rng.random() < 0.5:
                entries[ref] = ("file", other.encode())
            else:
                revision = other
        elif op == 4:  # the tokenizer file is a link out, or no file
            target = rng.choice(["{root}/outside/tokenizer.json", "../../../../outside/tokenizer.json", "/dev/zero", "nowhere", "tokenizer.json"])  # fmt: skip
            entries[f"{snap}/tokenizer.json"] = rng.choice(
                [("link", target), ("link", target), ("fifo", None), ("dir", None)]
            )
        elif op == 5:  # a config that is a FIFO, a link out or junk
            name = rng.choice(["tokenizer_config.json", "special_tokens_map.json", "vocab.txt"])
            entries[f"{snap}/{name}"] = rng.choice(
                [("fifo", None), ("link", "{root}/outside/tokenizer.json"), ("file", b"\xff{")]
            )
        elif op == 6:  # a slashed ref as huggingface_hub keeps refs/pr/1
            entries[f"{repo}/refs/refs/pr/1"] = ("file", commit.encode())
            revision = "refs/pr/1"
        elif op == 7:  # the whole snapshots folder or refs folder is a link out
            part = rng.choice(["snapshots", "refs"])
            for key in [k for k in entries if k.startswith(f"{repo}/{part}/")]:
                del entries[key]
            entries[f"{repo}/{part}"] = ("link", "{root}/outside" if part == "refs" else "{root}/outside/snapshots")  # fmt: skip
            if part == "refs":
                entries["outside/main"] = ("file", other.encode())
        else:
            revision = rng.choice(_REVISIONS)(commit, other)
    ordered = sorted(entries.items(), key=lambda kv: (kv[0].count("/"), kv[0]))
    return HubCase([(p, k, v) for p, (k, v) in ordered], repo_id, revision, commit, other)


_REF_CONTENTS = [
    lambda c, o: o.encode(),
    lambda c, o: b"../../../outside",
    lambda c, o: b"{root}/outside",
    lambda c, o: (c + "\n").encode(),
    lambda c, o: (" " + c + " \r\n").encode(),
    lambda c, o: c.upper().encode(),
    lambda c, o: c[:39].encode(),
    lambda c, o: b"",
    lambda c, o: b"\x00" * 40,
    lambda c, o: (c + "/../" + o).encode(),
    lambda c, o: b"x" * 5000,
    lambda c, o: b"\xff\xfe" + c.encode(),
    lambda c, o: ("../snapshots/" + c).encode(),
    lambda c, o: (c + "\x00").encode(),
]
_REVISIONS = [
    lambda c, o: "..",
    lambda c, o: "../..",
    lambda c, o: "../../../outside",
    lambda c, o: "/etc",
    lambda c, o: "{root}/outside",
    lambda c, o: "main/../main",
    lambda c, o: "./main",
    lambda c, o: "main/",
    lambda c, o: "ma\x00in",
    lambda c, o: "main\n",
    lambda c, o: "\t",
    lambda c, o: "é",
    lambda c, o: "ü/../main",
    lambda c, o: "a" * 300,
    lambda c, o: "a/" * 2100 + "b",
    lambda c, o: "\\..\\main",
    lambda c, o: "C:main",
    lambda c, o: c.upper(),
    lambda c, o: c[:-1],
    lambda c, o: o,
    lambda c, o: "snapshots/" + c,
    lambda c, o: "../snapshots/" + c,
    lambda c, o: "refs/../../snapshots/" + c,
    lambda c, o: "main\ud800",
    lambda c, o: "🙂" * 70,
    lambda c, o: "\u202e" + "niam",
]


# ------------------------------------------------------------------------ building


def build_tree(root: Path, entries: list[tuple[str, str, Any]]) -> list[Path]:
    """Write ``entries`` under ``root``, the links last (an entry that cannot be made,
    say inside a link to a file, is left out); returns the FIFOs made."""
    fifos = []
    for rel, kind, payload in sorted(entries, key=lambda e: e[1] == "link"):
        path = root / rel
        try:
            if os.path.lexists(path):
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                else:
                    path.unlink()
            path.parent.mkdir(parents=True, exist_ok=True)
            if kind == "file":
                path.write_bytes(payload.replace(b"{root}", os.fsencode(root)))
            elif kind == "link":
                os.symlink(payload.replace("{root}", str(root)), path)
            elif kind == "dir":
                path.mkdir()
            elif kind == "fifo":
                os.mkfifo(path)
                fifos.append(path)
        except OSError:
            continue
    return fifos


def unblock(fifos: list[Path], tries: int = 20) -> None:
    """Let a reader blocked on one of ``fifos`` go on (it reads an end of file); a reader
    that has not reached its ``open`` yet is waited for a little."""
    import time

    for _ in range(tries):
        opened = False
        for fifo in fifos:
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                continue  # no reader there
            os.close(fd)
            opened = True
        if opened:
            return
        time.sleep(0.05)


class OpenWatch:
    """Every file opened under a folder while :attr:`active` (an audit hook, installed
    once per process: hooks cannot be removed)."""

    active: Path | None = None
    seen: list[str] = []
    _installed = False

    @classmethod
    def install(cls) -> None:
        if cls._installed:
            return

        def hook(event: str, args: tuple[Any, ...]) -> None:
            if event != "open" or cls.active is None or not args:
                return
            path = args[0]
            if isinstance(path, (str, bytes, os.PathLike)):
                try:
                    cls.seen.append(os.path.realpath(os.fsdecode(path)))
                except (ValueError, OSError):
                    pass

        sys.addaudithook(hook)
        cls._installed = True


def _named(msg: str, revision: str | None, root: Path) -> bool:
    rev = "main" if not revision else revision
    return repr(rev)[:50] in msg or str(root / "cache") in msg


def check_hub_case(workdir: Path, case: HubCase) -> tuple[str, str] | None:
    """``None`` when the property holds, else ``(kind, detail)``."""
    from fuzz_checks import _describe

    from codetok import from_pretrained
    from codetok.errors import CodetokError

    OpenWatch.install()
    root = workdir / "hub"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    fifos = build_tree(root, case.entries)
    revision = None if case.revision is None else case.revision.replace("{root}", str(root))
    result: list[Any] = []

    def run() -> None:
        try:
            result.append(
                from_pretrained(
                    case.repo_id, revision=revision, cache_dir=root / "cache", local_files_only=True
                )
            )
        except BaseException as e:  # noqa: BLE001 - judged below
            result.append(e)

    outside = str(root / "outside")
    OpenWatch.seen = []
    OpenWatch.active = root
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HUB_SECONDS)
    OpenWatch.active = None
    if thread.is_alive():
        unblock(fifos)
        thread.join(5)
        return "error", f"from_pretrained still running after {HUB_SECONDS:.0f} s (revision={revision!r:.80})"  # fmt: skip
    read = [p for p in OpenWatch.seen if p == outside or p.startswith(outside + os.sep)]
    if read:
        return "error", f"opened {read[0]}, outside the cache (revision={revision!r:.80})"
    got = result[0] if result else None
    if isinstance(got, BaseException):
        if isinstance(got, CodetokError):
            if _named(str(got), revision, root):
                return None
            return "error", f"the error names no revision or cache path: {_describe(got)}"
        return "error", f"from_pretrained raised {_describe(got)} (revision={revision!r:.80})"
    if got is None or got.token_to_id("realmarker") is None:
        return "error", f"loaded something else than the cache's tokenizer (revision={revision!r:.80})"  # fmt: skip
    return None


__all__ = ["HubCase", "gen_hub", "check_hub_case", "build_tree", "unblock", "OpenWatch"]
