"""Which files of a tree become token shards, and how one file is read.

:func:`list_sources` walks the inputs (folders and files) and keeps the files whose
extension a grammar lists (``grammars/*.toml``: ``.py``, ``.java``, ``.go``, ``.rs``...),
and files with no extension whose ``#!`` line names a wanted language, in a deterministic
order; the content decides between two languages sharing an extension (C and C++ for
``.h``). Languages read with a generic grammar are listed when asked for by name. The
extensions of grammar files whose grammar package is not installed are counted as ignored
with the install that reads them: the inputs as given, each walked with sorted folder and file
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
import functools
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
        root: the input it was found under, as given (its repository, for
            ``pack`` with ``repo_packing``).
    """

    path: str
    shown: str
    language: str
    size: int
    mtime_ns: int
    root: str = ""


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


def _extension_table(languages: Iterable[str] | None) -> tuple[dict[str, str], dict[str, str]]:
    """Extension (lowercase, with the dot) -> language, for the wanted languages; and the
    extensions of grammar files whose grammar package is not installed -> why they are not
    read (None wants every installed language with a grammar file)."""
    from ..code.front.generic_languages import GENERIC_EXTENSIONS
    from ..code.front.languages import grammar_installed, grammar_specs, resolve_language_name
    from ..errors import LanguageError

    specs = grammar_specs()
    generic = set(GENERIC_EXTENSIONS.values())
    if languages is None:
        wanted = {name for name in specs if grammar_installed(name)}
    else:
        wanted = {resolve_language_name(x) for x in languages}
    unknown = sorted(wanted - set(specs) - generic)
    if unknown:
        raise LanguageError(
            f"no grammar file for {', '.join(unknown)}; languages: {', '.join(sorted(specs))}, "
            "and with tree-sitter-language-pack: " + ", ".join(sorted(generic))
        )
    table: dict[str, str] = {}
    missing: dict[str, str] = {}
    for name, spec in sorted(specs.items()):
        for ext in spec.get("extensions", []):
            if name in wanted:
                table.setdefault(ext.lower(), name)
            elif languages is None:
                missing.setdefault(ext.lower(), f"{name} needs pip install 'codetok[languages]'")
    for ext, name in sorted(GENERIC_EXTENSIONS.items()):
        if name in wanted:
            table.setdefault(ext, name)
    return table, missing


def _shared_extensions(table: dict[str, str]) -> frozenset[str]:
    """The extensions of ``table`` that another wanted language lists as shared."""
    from ..code.front.languages import grammar_specs

    wanted = set(table.values())
    return frozenset(
        ext.lower()
        for name, spec in grammar_specs().items()
        if name in wanted
        for ext in spec.get("shared_extensions", [])
        if ext.lower() in table
    )


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


@dataclass
class _Walk:
    """What one :func:`list_sources` call has found so far, shared by its steps."""

    table: dict[str, str]
    follow_symlinks: bool
    max_file_bytes: int | None
    #: extensions of languages whose grammar package is missing -> why they are not read
    missing: dict[str, str] = field(default_factory=dict)
    #: extensions a wanted language shares with another (content decides: ``.h``)
    shared: frozenset[str] = frozenset()
    out: Listing = field(default_factory=Listing)
    root: str = ""  # the input being walked, as given
    seen: set[str] = field(default_factory=set)
    ignored: Counter[str] = field(default_factory=Counter)
    # folder identity -> (how it was shown, reached through a symlink): each entered once
    walked: dict[tuple[int, int], tuple[str, bool]] = field(default_factory=dict)
    # the identities of a folder and its ancestors, by the path os.walk gives it
    chains: dict[str, frozenset[tuple[int, int]]] = field(default_factory=dict)


def _fail(walk: _Walk, shown: str, reason: str) -> None:
    """Record a left-out path with its reason, so nothing is dropped without a trace."""
    walk.out.failures.append({"path": shown, "reason": reason})


def _add(walk: _Walk, path: str, shown: str, language: str) -> None:
    """List one file once, or record why it cannot be a source (not regular, too large)."""
    key = os.path.abspath(path)
    if key in walk.seen:
        return
    walk.seen.add(key)
    try:
        st = os.stat(path)
    except OSError as e:
        _fail(walk, shown, f"unreadable ({_why(e)})")
        return
    if not stat.S_ISREG(st.st_mode):  # a named pipe would block the reader forever
        _fail(walk, shown, _not_regular(st.st_mode))
    elif walk.max_file_bytes is not None and st.st_size > walk.max_file_bytes:
        _fail(walk, shown, _too_large(st.st_size, walk.max_file_bytes))
    else:
        walk.out.files.append(
            SourceFile(key, shown, language, st.st_size, st.st_mtime_ns, walk.root)
        )


def _unreadable(walk: _Walk, e: OSError) -> None:
    """os.walk's error handler: a folder it could not read becomes a failure."""
    shown = os.path.normpath(e.filename) if e.filename else "?"  # the folder as it joined it
    _fail(walk, shown, f"unreadable folder ({_why(e)})")


def _enter(
    walk: _Walk, full: str, shown: str, link: bool, chain: frozenset[tuple[int, int]]
) -> bool:
    """Whether to walk the folder ``full``; records why not, so loops end and folders reached
    twice are listed once."""
    if link and not walk.follow_symlinks:
        _fail(walk, shown, _NOT_FOLLOWED)
        return False
    try:
        st = os.stat(full)
    except OSError as e:
        _fail(walk, shown, f"unreadable folder ({_why(e)})")
        return False
    ident = (st.st_dev, st.st_ino)
    if ident in chain:
        holder = walk.walked[ident][0]
        _fail(walk, shown, f"a symlink loop: it leads back to {holder}, which holds it")
        return False
    if ident in walk.walked:
        first, first_link = walk.walked[ident]
        if link or first_link:  # two real paths to one folder: overlapping inputs
            _fail(walk, shown, f"the same folder as {first}, whose files are listed there")
        return False
    walk.walked[ident] = (shown, link)
    walk.chains[full] = chain | {ident}
    return True


def _head(path: str, size: int) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except OSError:
        return b""  # _add reports the file when it cannot be read


def _language_of(walk: _Walk, path: str, ext: str) -> str | None:
    """The wanted language of a file: its extension's (the content decides between the
    languages sharing an extension, such as C and C++ for ``.h``), or, with no extension,
    the one its ``#!`` line names."""
    from ..code.front.language import detect_language, language_from_shebang
    from ..errors import LanguageError

    language = walk.table.get(ext)
    if not os.path.isfile(path):  # only a regular file is opened (a pipe would block)
        return language
    if language is not None and ext in walk.shared:
        language = detect_language(_head(path, 1 << 16), path=path)
        return language if language in walk.table.values() else walk.table[ext]
    if language is None and not ext:
        try:
            language = language_from_shebang(_head(path, 256))
        except LanguageError:
            return None
        return language if language in walk.table.values() else None
    return language


def _add_named_file(walk: _Walk, given: str) -> None:
    """List a file named as an input, or record that no wanted language has its extension."""
    ext = os.path.splitext(given)[1].lower()
    language = _language_of(walk, given, ext)
    if language is not None:
        _add(walk, given, given, language)
    else:
        known = ", ".join(sorted(walk.table))
        _fail(walk, given, f"no wanted language has the extension {ext or '(none)'} ({known})")


def _subfolders(
    walk: _Walk,
    given: str,
    rel: str,
    dirpath: str,
    dirs: list[str],
    chain: frozenset[tuple[int, int]],
) -> list[str]:
    """The subfolders of ``dirpath`` to walk, in sorted order: hidden ones are counted,
    real folders are entered before symlinks so a folder is shown by its real path."""
    hidden = [d for d in dirs if d.startswith(".")]
    walk.ignored["hidden folders"] += len(hidden)
    visible = sorted(d for d in dirs if not d.startswith("."))
    links = {d for d in visible if os.path.islink(os.path.join(dirpath, d))}
    entered: set[str] = set()
    for d in [d for d in visible if d not in links] + [d for d in visible if d in links]:
        shown = os.path.normpath(os.path.join(given, rel, d))
        if _enter(walk, os.path.join(dirpath, d), shown, d in links, chain):
            entered.add(d)
    return [d for d in visible if d in entered]


def _add_folder_files(walk: _Walk, given: str, rel: str, dirpath: str, names: list[str]) -> None:
    """List the files of one walked folder in sorted order; other extensions are counted."""
    for name in sorted(names):
        ext = os.path.splitext(name)[1].lower()
        path = os.path.join(dirpath, name)
        language = _language_of(walk, path, ext)
        if language is None:
            why = walk.missing.get(ext)
            walk.ignored[f"{ext} ({why})" if why else ext or "(no extension)"] += 1
            continue
        shown = os.path.normpath(os.path.join(given, rel, name))
        if not walk.follow_symlinks and os.path.islink(path):
            _fail(walk, shown, _NOT_FOLLOWED)
            continue
        _add(walk, path, shown, language)


def _walk_folder(walk: _Walk, given: str) -> None:
    """List the sources below the input folder ``given`` (already entered)."""
    onerror = functools.partial(_unreadable, walk)
    for dirpath, dirs, names in os.walk(given, onerror=onerror, followlinks=True):
        chain = walk.chains.pop(dirpath)
        rel = os.path.relpath(dirpath, given)
        dirs[:] = _subfolders(walk, given, rel, dirpath, dirs, chain)
        _add_folder_files(walk, given, rel, dirpath, names)


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
    table, missing = _extension_table(languages)
    walk = _Walk(table, follow_symlinks, max_file_bytes, missing, _shared_extensions(table))
    for given in inputs:
        walk.root = given
        if os.path.isfile(given) or (os.path.exists(given) and not os.path.isdir(given)):
            _add_named_file(walk, given)
            continue
        if not os.path.isdir(given):
            why = "no such file or folder" if not os.path.lexists(given) else "a broken symlink"
            _fail(walk, given, why)
            continue
        if not _enter(walk, given, given, False, frozenset()):
            continue
        _walk_folder(walk, given)
    walk.out.ignored = {k: v for k, v in sorted(walk.ignored.items()) if v}
    return walk.out


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
