"""``from_pretrained``: a tokenizer from a local folder, the HF cache, or the Hub.

Resolution order for ``name_or_path``:

1. a local folder -> :func:`codetok.formats.pretrained.load_pretrained_dir`; a local
   ``tokenizer.json`` or ``.tiktoken`` file is loaded directly;
2. the HF cache, without network: ``<cache>/models--org--name/snapshots/<commit>/``, where
   ``<commit>`` is read from ``refs/<revision>`` (default ``main``) or is the revision
   itself when it is a commit hash. ``<cache>`` is ``cache_dir``, else ``HF_HUB_CACHE``,
   else ``HF_HOME/hub``, else ``~/.cache/huggingface/hub``. Nothing there may lead out of
   the repository's folder: a revision is a ref name (``main``, ``v1.0``, ``refs/pr/1``,
   which ``huggingface_hub`` keeps as ``refs/refs/pr/1``) without ``..``, empty or ``.``
   parts, a leading ``/``, ``\\``, ``:`` or control characters, of at most 1,024 bytes
   (UTF-8) and 255 per part; a ref file holds a 40-hex-digit commit; the ref file,
   symlinks resolved, lies in the repository's own ``refs/`` folder and the snapshot folder
   in its own ``snapshots/`` folder (so a ``refs/`` or ``snapshots/`` folder that is a link
   out of it is refused), and the tokenizer files (symlinks into ``blobs/``) in the
   repository's folder. An OS error while looking in the cache (a path too long for the
   file system, a folder that cannot be read) is a codetok error naming the path;
3. the Hub, through ``huggingface_hub`` (imported only here, only then), unless
   ``local_files_only`` or ``HF_HUB_OFFLINE`` is set, or the name is not a repository id
   (``name`` or ``org/name``; ``./no/such/dir`` and ``a/b/c`` are missing paths). Only the
   tokenizer files are fetched, into the cache folder of step 2.

When nothing is found, :class:`~codetok.errors.NotFoundError` lists the files looked for
and every place looked in, and says why the Hub was not tried or what it answered: the
hub's own exceptions (``LocalEntryNotFoundError`` when it is offline or unreachable,
``RepositoryNotFoundError``, ``RevisionNotFoundError``, ``GatedRepoError``,
``HFValidationError``, ...) are chained to it (``__cause__``), never raised as they are.
Not handled here: authentication options beyond what ``huggingface_hub`` reads from its
environment, and repository types other than models.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import ConfigurationError, FormatError, NotFoundError
from ..tokenizer.tokenizer import Tokenizer
from .pretrained import TOKENIZER_FILES, load_pretrained_dir

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["from_pretrained", "default_cache_dir", "cached_snapshot"]

_COMMIT = re.compile(r"[0-9a-f]{40}")  # fullmatch
#: The longest revision (UTF-8 bytes), and the longest part of one: file systems refuse a
#: longer file name (NAME_MAX, 255 bytes on ext4, XFS, APFS, NTFS) with ENAMETOOLONG.
_MAX_REVISION_BYTES = 1024
_MAX_PART_BYTES = 255
# One part of a Hub repository id: word chars, '-', '.'; a word char at both ends.
_ID_PART = re.compile(r"\w(?:[\w.-]{0,94}\w)?")
# Files that are enough on their own to build a tokenizer.
_SUFFICIENT = (
    "tokenizer.json",
    "vocab.txt",
    "vocab.json",
    "tokenizer.model",
    "spiece.model",
    "sentencepiece.bpe.model",
)


def default_cache_dir() -> Path:
    """The HF hub cache folder, resolved from the environment as ``huggingface_hub`` does.

    Returns:
        ``HF_HUB_CACHE``, else ``HF_HOME/hub``, else ``XDG_CACHE_HOME/huggingface/hub``,
        else ``~/.cache/huggingface/hub``.

    >>> default_cache_dir().name
    'hub'
    """
    from pathlib import Path

    env = os.environ.get("HF_HUB_CACHE") or os.environ.get("HUGGINGFACE_HUB_CACHE")
    if env:
        return Path(env).expanduser()
    home = os.environ.get("HF_HOME")
    if home:
        return Path(home).expanduser() / "hub"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "huggingface" / "hub"


def _repo_folder(cache: Path, repo_id: str) -> Path:
    return cache / ("models--" + repo_id.replace("/", "--"))


def _check_revision(revision: str | None) -> str:
    """``revision`` (default ``"main"``) when it names a ref inside ``refs/``.

    Branch and tag names may hold ``/`` (``huggingface_hub`` keeps ``refs/pr/1`` as the
    file ``refs/refs/pr/1``), so only what could leave the folder is refused: a non-str
    revision (``None`` and ``""`` mean ``"main"``), a leading ``/``, an empty, ``.`` or
    ``..`` part, ``\\``, ``:`` and control characters (git allows none of these in ref
    names either); and what no file system would take as a path: more than 1,024 bytes in
    UTF-8, or a part of more than 255.

    Raises:
        ConfigurationError: naming the revision and what is wrong with it.

    >>> _check_revision("refs/pr/1")
    'refs/pr/1'
    >>> _check_revision("../../x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    codetok.errors.ConfigurationError: revision='../../x' has a '..' part; ...
    """
    if revision is None or revision == "":
        return "main"
    if not isinstance(revision, str):
        raise ConfigurationError(
            f"revision must be a str (a branch, tag or commit) or None, got {revision!r:.100}"
        )
    why = None
    size = len(revision.encode("utf-8", "surrogatepass"))
    if revision.startswith("/"):
        why = "is an absolute path"
    elif any(c in "\\:" or ord(c) < 0x20 or c == "\x7f" for c in revision):
        why = "holds '\\', ':' or a control character"
    elif size > _MAX_REVISION_BYTES:
        why = f"is {size:,} bytes long (UTF-8), over the {_MAX_REVISION_BYTES:,} allowed"
    else:
        for part in revision.split("/"):
            if part in ("", ".", ".."):
                why = f"has {'an empty' if not part else 'a ' + repr(part)} part"
                break
            n = len(part.encode("utf-8", "surrogatepass"))
            if n > _MAX_PART_BYTES:
                why = (
                    f"has a part of {n:,} bytes (UTF-8), over the {_MAX_PART_BYTES} a file "
                    "name may be"
                )
                break
    if why is None:
        return revision
    raise ConfigurationError(
        f"revision={revision!r:.200} {why}; a revision is a branch or tag name "
        "('main', 'v1.0', 'refs/pr/1') or a 40-hex-digit commit hash, and never leads "
        "out of the cache's refs/ folder"
    )


def _inside(path: Path, repo: Path, sub: str = "") -> bool:
    """Whether ``path``, symlinks resolved, lies in the folder ``sub`` of the repository
    folder ``repo``: the repository folder's real path joined with ``sub``, so a ``sub``
    that is itself a link to elsewhere holds nothing."""
    from pathlib import Path

    folder = os.path.join(os.path.realpath(repo), sub) if sub else os.path.realpath(repo)
    return Path(os.path.realpath(path)).is_relative_to(folder)


def _probe(test: Callable[[], bool], path: Path, rev: str) -> bool:
    """``test()`` (``path.is_file`` and the like), with an OS error it raises (a name too
    long, a folder that cannot be read) as a codetok error naming ``path``.

    Raises:
        ConfigurationError: naming the path, the revision and the OS error.
    """
    try:
        return test()
    except OSError as e:
        raise ConfigurationError(
            f"cannot look for revision {rev!r:.200} in the HF cache: {path}: "
            f"{e.strerror or e}; pass a shorter revision or cache_dir, or fix the "
            "cache folder's permissions"
        ) from e


def _read_ref(repo: Path, ref: Path, rev: str) -> str:
    """The commit hash held by the ref file ``ref`` (``refs/<rev>`` of ``repo``).

    Raises:
        FormatError: the ref file leads out of the repository's ``refs/`` folder or does
            not hold a commit hash.
    """
    if not _inside(ref, repo, "refs"):
        raise FormatError(
            f"the ref of revision {rev!r} resolves to {os.path.realpath(ref)}, outside the "
            f"cache's {repo / 'refs'}; delete the link (or the repository's cache folder) "
            "and download it again",
            path=str(ref),
        )
    try:
        text = ref.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as e:
        raise FormatError(f"cannot read the ref of revision {rev!r}: {e}", path=str(ref)) from e
    if not _COMMIT.fullmatch(text):
        raise FormatError(
            f"the ref of revision {rev!r} holds {text!r:.100}, not a commit hash (40 "
            "lowercase hex digits); delete the file (or the repository's cache folder) "
            "and download it again",
            path=str(ref),
        )
    return text


def cached_snapshot(
    repo_id: str, *, revision: str | None = None, cache_dir: str | os.PathLike[str] | None = None
) -> Path | None:
    """The snapshot folder of ``repo_id`` at ``revision`` in the HF cache, if present.

    Args:
        repo_id: ``"org/name"`` (or ``"name"``).
        revision: a branch or tag (resolved through ``refs/``) or a commit hash;
            default ``"main"``.
        cache_dir: the cache folder; default :func:`default_cache_dir`.

    Returns:
        The snapshot folder, or ``None`` when the cache does not hold that revision.

    Raises:
        ConfigurationError: ``repo_id`` is not a repository id, ``revision`` could lead
            out of the cache or is too long for a path (see :func:`_check_revision`), or
            looking in the cache raised an OS error (named with its path: :func:`_probe`).
        FormatError: the cache leads out of the repository's folder: a ref that does not
            hold a commit hash; a ref or snapshot, or the ``refs/`` or ``snapshots/``
            folder, that is a symlink to elsewhere.

    >>> cached_snapshot("org/absent", cache_dir="/nonexistent") is None
    True
    """
    from pathlib import Path

    why = _not_a_repo_id(repo_id) if isinstance(repo_id, str) else "not a str"
    if why is not None:
        raise ConfigurationError(f"repo_id={repo_id!r:.200} is not a repository id: {why}")
    rev = _check_revision(revision)
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    repo = _repo_folder(cache, repo_id)
    ref = repo / "refs" / rev
    commit = None
    if _probe(ref.is_file, ref, rev):
        commit = _read_ref(repo, ref, rev)
    elif _COMMIT.fullmatch(rev):
        commit = rev
    if not commit:
        return None
    snap = repo / "snapshots" / commit
    if not _probe(snap.is_dir, snap, rev):
        return None
    if not _inside(snap, repo, "snapshots"):
        raise FormatError(
            f"the snapshot of revision {rev!r} resolves to {os.path.realpath(snap)}, outside "
            f"the cache's {repo / 'snapshots'}; delete the link (or the repository's cache "
            "folder) and download it again",
            path=str(snap),
        )
    for name in TOKENIZER_FILES:
        file = snap / name
        if _probe(file.exists, file, rev) and not _inside(file, repo):
            raise FormatError(
                f"{name} of revision {rev!r} resolves to {os.path.realpath(file)}, outside "
                f"the repository's cache folder {repo}; HF cache files link into its "
                "blobs/ folder. Delete the link (or the repository's cache folder) and "
                "download it again",
                path=str(file),
            )
    return snap


def _is_local(path: Path) -> bool:
    """Whether ``path`` is a local folder or file; a name too long to be a path is not.

    Raises:
        ConfigurationError: another OS error (the message names the path).
    """
    try:
        return path.is_dir() or path.is_file()
    except OSError as e:
        if e.errno == errno.ENAMETOOLONG:
            return False
        raise ConfigurationError(
            f"name_or_path={os.fspath(path)!r:.200}: cannot tell whether it is a local "
            f"folder or file: {e.strerror or e}; pass a readable folder or a repository id"
        ) from e


def _has_tokenizer_files(folder: Path) -> bool:
    return any((folder / f).is_file() for f in _SUFFICIENT)


def _offline_reason(local_files_only: bool) -> str | None:
    if local_files_only:
        return "local_files_only=True"
    flag = os.environ.get("HF_HUB_OFFLINE", "").strip().lower()
    if flag in ("1", "true", "yes", "on"):
        return "HF_HUB_OFFLINE is set"
    try:
        import importlib.util

        if importlib.util.find_spec("huggingface_hub") is None:
            return "huggingface_hub is not installed (pip install 'codetok[hub]')"
    except (ImportError, ValueError):
        return "huggingface_hub is not importable"
    return None


def _not_a_repo_id(name: str) -> str | None:
    """Why ``name`` cannot be a Hub repository id (the Hub's rules), or None when it can be.

    >>> _not_a_repo_id("microsoft/codebert-base") is None
    True
    >>> _not_a_repo_id("./no/such/dir")
    "a repository id is 'name' or 'org/name', with one '/' at most"
    """
    parts = name.split("/")
    if len(parts) > 2:
        return "a repository id is 'name' or 'org/name', with one '/' at most"
    if not all(_ID_PART.fullmatch(p) for p in parts):
        return (
            "each part of a repository id is 1-96 letters, digits, '-', '_' or '.', "
            "starting and ending with a letter, digit or '_'"
        )
    if "--" in name or ".." in name or name.endswith(".git"):
        return "a repository id has no '--' or '..' and does not end in '.git'"
    return None


def _download(repo_id: str, revision: str | None, cache: Path) -> Path:
    """The Hub snapshot of ``repo_id``'s tokenizer files in ``cache``.

    Raises:
        Exception: what ``huggingface_hub`` raises; :func:`from_pretrained` wraps the
            hub's own errors (see :func:`_hub_errors`).
    """
    from pathlib import Path

    import huggingface_hub  # lazy: optional dependency

    path = huggingface_hub.snapshot_download(
        repo_id,
        revision=revision,
        cache_dir=os.fspath(cache),
        allow_patterns=list(TOKENIZER_FILES),
    )
    return Path(path)


def _hub_errors() -> tuple[type[BaseException], ...]:
    """The exceptions by which ``huggingface_hub`` says a repository or file is not
    available: a missing, private, gated or disabled repository or revision (HTTP errors),
    an invalid id, nothing cached while offline, no connection."""
    from huggingface_hub import errors  # lazy: only after a download was tried

    return (
        errors.HfHubHTTPError,
        errors.EntryNotFoundError,
        errors.HFValidationError,
        errors.OfflineModeIsEnabled,
        ConnectionError,
        TimeoutError,
    )


def _hub_mode() -> str:
    """`` in offline mode (...)`` when huggingface_hub refuses the network, else ``""``."""
    from huggingface_hub import constants  # lazy: only after a download was tried

    if constants.is_offline_mode():
        return (
            " in offline mode (HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE was set when it was imported)"
        )
    return ""


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def from_pretrained(
    name_or_path: str | os.PathLike[str],
    *,
    revision: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    local_files_only: bool = False,
) -> Tokenizer:
    """Load a pretrained tokenizer from a folder, the HF cache, or the Hub.

    Args:
        name_or_path: a local folder, a local tokenizer file of any format
            :func:`codetok.load` reads, or a Hub repository id
            (``"microsoft/codebert-base"``).
        revision: branch, tag or commit of a Hub repository (default ``"main"``).
        cache_dir: the HF cache folder (default: as ``huggingface_hub`` resolves it).
        local_files_only: never use the network.

    Returns:
        The tokenizer, with its ``transformers`` settings applied.

    Raises:
        NotFoundError: nothing usable was found; the message lists the files looked for,
            the places looked in, and why the Hub was not tried.
        ConfigurationError: the tokenizer class is not supported, ``revision`` is not a
            ref name (``..``, an absolute path, too long for a path; checked before the
            cache or the Hub), or looking in the cache raised an OS error (the message
            names the path).
        FormatError: a file is malformed, or the cache leads out of the repository's
            folder (see :func:`cached_snapshot`).

    >>> tok = from_pretrained("microsoft/codebert-base", local_files_only=True)  # doctest: +SKIP
    >>> tok("def f(): pass")["input_ids"][:2]  # doctest: +SKIP
    [0, 9232]
    """
    from pathlib import Path

    raw = os.fspath(name_or_path)
    if not isinstance(raw, str) or not raw:
        raise ConfigurationError(f"name_or_path must be a non-empty str, got {name_or_path!r}")
    local = Path(raw).expanduser()
    if _is_local(local):
        from .detect import load  # every local file or folder: told apart by content

        return load(local)
    looked = f"cannot load a tokenizer for {raw!r}: looked for {', '.join(TOKENIZER_FILES)} in "
    missing = f"the local path {local.absolute()} (no such folder or file)"
    not_id = _not_a_repo_id(raw)
    if not_id is not None:
        raise NotFoundError(
            f"{looked}{missing}. It is not a Hub repository id either ({not_id}), so neither "
            "the HF cache nor the Hub was tried. Pass an existing folder, a tokenizer.json "
            "or .tiktoken file, or a repository id such as 'microsoft/codebert-base'."
        )
    rev = _check_revision(revision)  # before the cache and the Hub see it
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    snap = cached_snapshot(raw, revision=rev, cache_dir=cache)
    if snap is not None and _probe(lambda: _has_tokenizer_files(snap), snap, rev):
        return load_pretrained_dir(snap)
    repo = _repo_folder(cache, raw)
    where = [missing]
    if snap is not None:
        where.append(f"the cached snapshot {snap} (no tokenizer files in it)")
    else:
        where.append(
            f"the HF cache {repo}: no refs/{rev} and no snapshots/<commit> for revision {rev!r}"
        )
    looked += "; and in ".join(where)
    reason = _offline_reason(local_files_only)
    if reason is not None:
        raise NotFoundError(f"{looked}. The Hub was not tried because {reason}.")
    try:
        folder = _download(raw, revision, cache)
    except _hub_errors() as e:
        raise NotFoundError(
            f"{looked}; and on the Hub, repository {raw!r} at revision {rev!r}, through "
            f"huggingface_hub{_hub_mode()}, which raised {type(e).__name__}: "
            f"{_first_line(e)} Check the repository id and revision; for a private or gated "
            "repository set HF_TOKEN; offline, fill this cache where the Hub is reachable, "
            "or pass a local folder."
        ) from e
    return load_pretrained_dir(folder)
