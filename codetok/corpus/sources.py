"""Which files of a tree become token shards, and how one file is read.

:func:`list_sources` walks the inputs (folders and files) and keeps the files whose
extension a grammar lists (``grammars/*.toml``: ``.py``, ``.java``, ``.cs``, ``.js``...),
in a deterministic order: the inputs as given, each walked with sorted folder and file
names. Nothing is dropped without a trace: files of other extensions and hidden folders
(``.git``) are counted in :attr:`Listing.ignored`, and an input or folder that cannot be
read, or a file named on the command line whose extension no grammar lists, becomes a
failure with its reason, as does a file that is not a regular file (a named pipe, which
would block the reader). A file named twice (overlapping inputs) is listed once; files
reached through a symlink are read like any file, symlinked folders are not entered (they
can loop).

:func:`read_source` reads one file for a shard worker and says why it cannot be used: it is
unreadable (the OS error), or binary (a NUL byte in its first 8,000 bytes, git's rule).

Not handled here: cutting the list into shards (:mod:`codetok.corpus.plan`), tokenizing.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["SourceFile", "Listing", "list_sources", "read_source", "BINARY_PROBE"]

#: How many leading bytes are searched for a NUL byte (git's heuristic for binary files).
BINARY_PROBE = 8000


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
        failures: ``{"path", "reason"}`` of inputs and folders that could not be read, and
            of files named directly whose language is unknown.
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


def list_sources(inputs: Sequence[str], languages: Iterable[str] | None = None) -> Listing:
    """List the source files under ``inputs`` (see the module docstring for the rules).

    Args:
        inputs: folders (walked) and files, as the user gave them.
        languages: keep only these languages (names or aliases); None keeps every language
            with a grammar file.

    Returns:
        A :class:`Listing`.

    Raises:
        LanguageError: a name in ``languages`` is unknown.

    >>> import os, tempfile
    >>> root = tempfile.mkdtemp()
    >>> for name in ("a.py", "b.java", "notes.md"):
    ...     _ = open(os.path.join(root, name), "w").write("x = 1\\n")
    >>> found = list_sources([root])
    >>> [(os.path.basename(f.shown), f.language) for f in found.files], found.ignored
    ([('a.py', 'python'), ('b.java', 'java')], {'.md': 1})
    """
    table = _extension_table(languages)
    out = Listing()
    seen: set[str] = set()
    ignored: Counter[str] = Counter()

    def add(path: str, shown: str, language: str) -> None:
        key = os.path.abspath(path)
        if key in seen:
            return
        seen.add(key)
        try:
            st = os.stat(path)
        except OSError as e:
            out.failures.append({"path": shown, "reason": f"unreadable ({_why(e)})"})
            return
        if not stat.S_ISREG(st.st_mode):  # a named pipe would block the reader forever
            out.failures.append({"path": shown, "reason": "not a regular file"})
            return
        out.files.append(SourceFile(key, shown, language, st.st_size, st.st_mtime_ns))

    def unreadable(e: OSError) -> None:  # os.walk's error: the folder as it joined it
        shown = os.path.normpath(e.filename) if e.filename else "?"
        out.failures.append({"path": shown, "reason": f"unreadable folder ({_why(e)})"})

    for given in inputs:
        if os.path.isfile(given) or (os.path.exists(given) and not os.path.isdir(given)):
            ext = os.path.splitext(given)[1].lower()
            if ext in table:
                add(given, given, table[ext])
            else:
                known = ", ".join(sorted(table))
                reason = f"no wanted language has the extension {ext or '(none)'} ({known})"
                out.failures.append({"path": given, "reason": reason})
            continue
        if not os.path.isdir(given):
            why = "no such file or folder" if not os.path.lexists(given) else "a broken symlink"
            out.failures.append({"path": given, "reason": why})
            continue

        for dirpath, dirs, names in os.walk(given, onerror=unreadable):
            hidden = [d for d in dirs if d.startswith(".")]
            ignored["hidden folders"] += len(hidden)
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            rel = os.path.relpath(dirpath, given)
            for name in sorted(names):
                ext = os.path.splitext(name)[1].lower()
                language = table.get(ext)
                if language is None:
                    ignored[ext or "(no extension)"] += 1
                    continue
                shown = os.path.normpath(os.path.join(given, rel, name))
                add(os.path.join(dirpath, name), shown, language)
    out.ignored = {k: v for k, v in sorted(ignored.items()) if v}
    return out


def read_source(path: str) -> tuple[bytes | None, str | None]:
    """Read a source file for tokenizing.

    Args:
        path: the file.

    Returns:
        ``(data, None)``, or ``(None, reason)`` when the file cannot be used: unreadable
        (with the OS error) or binary (with the offset of the first NUL byte).

    >>> read_source("/no/such/file.py")
    (None, 'unreadable (No such file or directory)')
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return None, f"unreadable ({_why(e)})"
    nul = data.find(b"\0", 0, BINARY_PROBE)
    if nul >= 0:
        return None, f"binary (a NUL byte at offset {nul})"
    return data, None
