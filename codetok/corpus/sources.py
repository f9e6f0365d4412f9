"""Which files of a tree become token shards, and how one file is read.

:func:`list_sources` walks the inputs (folders and files) and keeps the files whose
extension a grammar lists (``grammars/*.toml``: ``.py``, ``.java``, ``.cs``, ``.js``...),
in a deterministic order: the inputs as given, each walked with sorted folder and file
names. Nothing is dropped without a trace: files of other extensions and hidden folders
(``.git``) are counted in :attr:`Listing.ignored`; everything else left out becomes a
failure with its reason: an input or folder that cannot be read, a file named on the
command line whose extension no grammar lists, a file that is not a regular file (a named
pipe would block the reader), a file over the size cap. A file named twice (overlapping
inputs) is listed once.

Symbolic links are followed by default, into folders too: every folder is entered once,
known by its real identity (device and inode), so a link back to a folder that holds it (a
loop) or to a folder walked already is not entered and becomes a failure that says so.
With ``follow_symlinks=False`` (``--no-follow-symlinks``) every symlink below an input,
to a folder or a file, becomes a failure "a symlink, not followed"; inputs named directly
are always read.

:func:`read_source` reads one file for a shard worker. The listing's checks can be stale by
then (a file replaced by a named pipe, or grown), so it opens the file without blocking
(``O_NONBLOCK``), checks what it opened (``fstat``: a regular file, under the cap) and reads
at most the cap; it says why a file cannot be used: unreadable (the OS error), not a
regular file, too large, or binary (a NUL byte in its first 8,000 bytes, git's rule).

Not handled here: cutting the list into shards (:mod:`codetok.corpus.sharding`), tokenizing.
"""

from __future__ import annotations

import errno
import os
import stat
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "SourceFile",
    "Listing",
    "list_sources",
    "read_source",
    "BINARY_PROBE",
    "DEFAULT_MAX_FILE_BYTES",
]

#: How many leading bytes are searched for a NUL byte (git's heuristic for binary files).
BINARY_PROBE = 8000

#: The per-file size cap by default: 64 MiB, past the largest generated sources (SQLite's
#: 9 MB amalgamation, bundled JavaScript); a larger file is data or a dump.
DEFAULT_MAX_FILE_BYTES = 64 << 20

_NOT_FOLLOWED = "a symlink, not followed (follow_symlinks is off: --no-follow-symlinks)"


@dataclass(frozen=True)
class SourceFile:
    """One source file of the job.

    Attributes:
        path: where it is read (absolute).
        shown: how shards and the manifest name it: the input as given joined with the
            path below it (``src/pkg/a.py``).
        language: canonical language name, from the extension.
        size: bytes, when listed.
        mtime_ns: modification time, when listed (with ``size``, it tells a changed file
            on resume).
    """

    path: str
    shown: str
    language: str
    size: int
    mtime_ns: int


@dataclass
class Listing:
    """What :func:`list_sources` found.

    Attributes:
        files: the source files, in job order.
        failures: ``{"path", "reason"}`` of everything else left out: inputs and folders
            that could not be read, files named directly whose language is unknown, files
            that are not regular or over the cap, symlinks not followed or that loop.
        ignored: counts of what was passed over on purpose: ``".md": 3`` files of an
            extension no wanted language has, ``"hidden folders": 2``.
    """

    files: list[SourceFile] = field(default_factory=list)
    failures: list[dict[str, str]] = field(default_factory=list)
    ignored: dict[str, int] = field(default_factory=dict)


def _extension_table(languages: Iterable[str] | None) -> dict[str, str]:
    """Extension (lowercase, with the dot) -> language, for the wanted languages."""
    from ..code.front.languages import grammar_specs, resolve_language_name
    from ..errors import LanguageError

    specs = grammar_specs()
    wanted = set(specs) if languages is None else {resolve_language_name(x) for x in languages}
    unknown = sorted(wanted - set(specs))
    if unknown:
        raise LanguageError(
            f"no grammar file for {', '.join(unknown)}; languages: {', '.join(sorted(specs))}"
        )
    table: dict[str, str] = {}
    for name, spec in sorted(specs.items()):
        if name in wanted:
            for ext in spec.get("extensions", []):
                table.setdefault(ext.lower(), name)
    return table


def _why(e: OSError) -> str:
    return e.strerror or type(e).__name__


def _not_regular(mode: int) -> str:
    """The reason for a file that is not a regular file: what it is."""
    for test, kind in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return f"not a regular file: {kind}"
    return "not a regular file"


def _too_large(size: int, cap: int) -> str:
    limit = f"{cap >> 20} MB" if cap % (1 << 20) == 0 else f"{cap:,} bytes"
    return f"too large ({size:,} bytes; the cap is {limit}: --max-file-mb, max_file_bytes)"


def list_sources(
    inputs: Sequence[str],
    languages: Iterable[str] | None = None,
    *,
    follow_symlinks: bool = True,
    max_file_bytes: int | None = None,
) -> Listing:
    """List the source files under ``inputs`` (see the module docstring for the rules).

    Args:
        inputs: folders (walked) and files, as the user gave them.
        languages: keep only these languages (names or aliases); None keeps every language
            with a grammar file.
        follow_symlinks: follow symlinks below the inputs (each folder entered once, loops
            reported); False lists each as a failure instead.
        max_file_bytes: files larger than this become failures (None: no cap).

    Returns:
        A :class:`Listing`.

    Raises:
        LanguageError: a name in ``languages`` is unknown.

    >>> import os, tempfile
    >>> root = tempfile.mkdtemp()
    >>> for name in ("a.py", "b.java", "notes.md"):
    ...     _ = open(os.path.join(root, name), "w").write("x = 1\\n")
    >>> os.symlink(root, os.path.join(root, "loop"))
    >>> found = list_sources([root])
    >>> [(os.path.basename(f.shown), f.language) for f in found.files], found.ignored
    ([('a.py', 'python'), ('b.java', 'java')], {'.md': 1})
    >>> [f["reason"].split(":")[0] for f in found.failures]
    ['a symlink loop']
    """
    table = _extension_table(languages)
    out = Listing()
    seen: set[str] = set()
    ignored: Counter[str] = Counter()
    # folder identity -> (how it was shown, reached through a symlink): each entered once
    walked: dict[tuple[int, int], tuple[str, bool]] = {}
    # the identities of a folder and its ancestors, by the path os.walk gives it
    chains: dict[str, frozenset[tuple[int, int]]] = {}

    def fail(shown: str, reason: str) -> None:
        out.failures.append({"path": shown, "reason": reason})

    def add(path: str, shown: str, language: str) -> None:
        key = os.path.abspath(path)
        if key in seen:
            return
        seen.add(key)
        try:
            st = os.stat(path)
        except OSError as e:
            fail(shown, f"unreadable ({_why(e)})")
            return
        if not stat.S_ISREG(st.st_mode):  # a named pipe would block the reader forever
            fail(shown, _not_regular(st.st_mode))
        elif max_file_bytes is not None and st.st_size > max_file_bytes:
            fail(shown, _too_large(st.st_size, max_file_bytes))
        else:
            out.files.append(SourceFile(key, shown, language, st.st_size, st.st_mtime_ns))

    def unreadable(e: OSError) -> None:  # os.walk's error: the folder as it joined it
        shown = os.path.normpath(e.filename) if e.filename else "?"
        fail(shown, f"unreadable folder ({_why(e)})")

    def enter(full: str, shown: str, link: bool, chain: frozenset[tuple[int, int]]) -> bool:
        """Whether to walk the folder ``full``; records why not."""
        if link and not follow_symlinks:
            fail(shown, _NOT_FOLLOWED)
            return False
        try:
            st = os.stat(full)
        except OSError as e:
            fail(shown, f"unreadable folder ({_why(e)})")
            return False
        ident = (st.st_dev, st.st_ino)
        if ident in chain:
            fail(shown, f"a symlink loop: it leads back to {walked[ident][0]}, which holds it")
            return False
        if ident in walked:
            first, first_link = walked[ident]
            if link or first_link:  # two real paths to one folder: overlapping inputs
                fail(shown, f"the same folder as {first}, whose files are listed there")
            return False
        walked[ident] = (shown, link)
        chains[full] = chain | {ident}
        return True

    for given in inputs:
        if os.path.isfile(given) or (os.path.exists(given) and not os.path.isdir(given)):
            ext = os.path.splitext(given)[1].lower()
            if ext in table:
                add(given, given, table[ext])
            else:
                known = ", ".join(sorted(table))
                fail(given, f"no wanted language has the extension {ext or '(none)'} ({known})")
            continue
        if not os.path.isdir(given):
            why = "no such file or folder" if not os.path.lexists(given) else "a broken symlink"
            fail(given, why)
            continue
        if not enter(given, given, False, frozenset()):
            continue
        for dirpath, dirs, names in os.walk(given, onerror=unreadable, followlinks=True):
            chain = chains.pop(dirpath)
            rel = os.path.relpath(dirpath, given)
            hidden = [d for d in dirs if d.startswith(".")]
            ignored["hidden folders"] += len(hidden)
            visible = sorted(d for d in dirs if not d.startswith("."))
            links = {d for d in visible if os.path.islink(os.path.join(dirpath, d))}
            entered = set()
            for d in [d for d in visible if d not in links] + [d for d in visible if d in links]:
                shown = os.path.normpath(os.path.join(given, rel, d))
                if enter(os.path.join(dirpath, d), shown, d in links, chain):
                    entered.add(d)
            dirs[:] = [d for d in visible if d in entered]
            for name in sorted(names):
                ext = os.path.splitext(name)[1].lower()
                language = table.get(ext)
                if language is None:
                    ignored[ext or "(no extension)"] += 1
                    continue
                shown = os.path.normpath(os.path.join(given, rel, name))
                path = os.path.join(dirpath, name)
                if not follow_symlinks and os.path.islink(path):
                    fail(shown, _NOT_FOLLOWED)
                    continue
                add(path, shown, language)
    out.ignored = {k: v for k, v in sorted(ignored.items()) if v}
    return out


def read_source(
    path: str, *, max_bytes: int | None = None, follow_symlinks: bool = True
) -> tuple[bytes | None, str | None]:
    """Read a source file for tokenizing, checking what is opened (see the module docstring).

    Args:
        path: the file.
        max_bytes: a larger file is refused, and never read whole (None: no cap).
        follow_symlinks: False refuses a symlink (the file became one after listing).

    Returns:
        ``(data, None)``, or ``(None, reason)`` when the file cannot be used: unreadable
        (with the OS error), not a regular file (a named pipe, a device, a folder), larger
        than ``max_bytes``, or binary (with the offset of the first NUL byte).

    >>> read_source("/no/such/file.py")
    (None, 'unreadable (No such file or directory)')
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        # a named pipe opened without O_NONBLOCK would wait for a writer forever
        fd = os.open(path, flags)
    except OSError as e:
        if not follow_symlinks and e.errno == errno.ELOOP:
            return None, _NOT_FOLLOWED
        return None, f"unreadable ({_why(e)})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, _not_regular(st.st_mode)
        if max_bytes is not None and st.st_size > max_bytes:
            return None, _too_large(st.st_size, max_bytes)
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)
        with open(fd, "rb", closefd=False) as f:
            data = f.read() if max_bytes is None else f.read(max_bytes + 1)
        if max_bytes is not None and len(data) > max_bytes:  # it grew after fstat
            return None, _too_large(max(os.fstat(fd).st_size, len(data)), max_bytes)
    except OSError as e:
        return None, f"unreadable ({_why(e)})"
    finally:
        os.close(fd)
    nul = data.find(b"\0", 0, BINARY_PROBE)
    if nul >= 0:
        return None, f"binary (a NUL byte at offset {nul})"
    return data, None
