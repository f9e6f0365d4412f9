"""codetok's binary fast-load format: a whole tokenizer in one memory-mapped file.

A ``tokenizer.json`` of a 200k-token BPE vocabulary takes hundreds of milliseconds to
parse before anything is built. This format keeps what is large as flat arrays that are
memory-mapped and handed to the native kernel as they are, so a tokenizer loads in a few
milliseconds; everything small stays readable JSON.

Layout (version 1; little-endian; every section starts at a multiple of 8 bytes and the
file length is a multiple of 8)::

    offset  size       field
    0       8          magic  89 43 54 4B 0D 0A 1A 0A  ("\\x89CTK\\r\\n\\x1a\\n")
    8       4          format version (uint32): 1
    12      4          reserved, 0
    16      8          checksum (uint64) of bytes [24, end): sum of word[i] * (2i + 1)
                       mod 2**64 over the little-endian uint64 words
    24      8          H: header length in bytes
    32      8          N: number of token ids (0: the model is in the header)
    40      8          B: length of the token text
    48      8          M: number of merges
    56      H          header: the tokenizer.json object as UTF-8 JSON, codetok settings
                       included, without the model's "vocab" and "merges" when N > 0
    ...     4(N + 1)   token offsets (uint32): token k is text[offsets[k]:offsets[k + 1]]
    ...     N          present (uint8): 0 where no token has id k
    ...     B          token text, UTF-8 (lone surrogates as their 3-byte forms)
    ...     16M        merges (int32 rows): left id, right id, rank, new id
    ...     P          the native merge table (hash slots), when the header has "tables"
    ...     W          the native whole-token table (hash slots)
    ...     K          the whole-token table's keys (uint32 code points)

The header's ``"binary"`` entry holds ``{"tables": [layout, P, W, K]}``: the last three
sections are memory images of the native kernel's hash tables (little-endian), so loading
inserts nothing; a reader whose kernel has another table layout ignores them and builds the
tables from the token and merge arrays instead. The tables are what the native kernel
reads, the arrays what the pure-Python kernel and ``save`` read, so they must say the same:
:mod:`codetok.formats._ctk_tables` looks every merge row and every token up in them as the
kernel does and refuses tables that give another answer or hold an entry no row has.

The arrays hold BPE models (the bulk of large vocabularies); a tokenizer with another model
keeps its whole model in the header (N = 0) and loads like ``tokenizer.json``. A changed
word anywhere after the first 24 bytes changes the checksum, so a damaged file is refused
with a clear error. A file damaged and its checksum written again is refused too: every
row of the arrays is checked when the file loads (:func:`_check_arrays`, vectorized: about
2 ms for a 100k vocabulary), and the saved hash tables against them (vectorized too: about
30 ms), so nothing fails later inside ``encode``, ``tokens`` or ``save``
and the native and pure-Python kernels encode alike. Versions are never reused: a reader
refuses a version it does not know.
"""

from __future__ import annotations

import codecs
import os
import struct
from typing import TYPE_CHECKING, Any

from ..components.base import as_format_error, check_options
from ..engine import native as _backend
from ..errors import CodetokError, FormatError, NotFoundError
from ..models.bpe import BPE

# numpy and the table checks (:mod:`._ctk_tables`, numpy throughout) are imported by the
# functions that read or write arrays: ``import codetok`` does not load numpy.

if TYPE_CHECKING:
    import mmap

    from ..tokenizer.tokenizer import Tokenizer

__all__ = ["MAGIC", "VERSION", "save_binary", "load_binary", "is_binary"]

MAGIC = b"\x89CTK\r\n\x1a\n"
VERSION = 1
_FIXED = struct.Struct("<8sIIQQQQQ")  # magic, version, reserved, checksum, H, N, B, M


def _pad(n: int) -> int:
    return -n % 8


def checksum(words: Any) -> int:
    """The format's checksum of a little-endian ``uint64`` array (see the module docstring)."""
    if _backend.available():
        return int(_backend.core().checksum(words))
    import numpy as np

    w = np.frombuffer(words, dtype="<u8")
    odd = np.arange(1, 2 * len(w), 2, dtype=np.uint64)
    with np.errstate(over="ignore"):
        return int(np.sum(w * odd, dtype=np.uint64))


def is_binary(head: bytes) -> bool:
    """Whether a file starting with ``head`` is in this format."""
    return head[:8] == MAGIC


def _bpe_arrays(model: BPE) -> tuple[Any, Any, bytes, Any]:
    """``(offsets, present, text, merges)`` of a BPE model."""
    import numpy as np

    vr = model._vocab_r
    n = max(vr, default=-1) + 1
    present = np.zeros(n, dtype=np.uint8)
    offsets = np.zeros(n + 1, dtype=np.uint32)
    parts: list[bytes] = []
    size = 0
    for i in range(n):
        t = vr.get(i)
        if t is not None:
            b = t.encode("utf-8", "surrogatepass")
            parts.append(b)
            size += len(b)
            present[i] = 1
        offsets[i + 1] = size
    if model._table is not None:
        merges = np.ascontiguousarray(model._table, dtype="<i4")
    else:
        rows = sorted((r, a, b, new) for (a, b), (r, new) in model._merge_map.items())
        merges = np.array([(a, b, r, new) for r, a, b, new in rows], dtype="<i4").reshape(-1, 4)
    return offsets, present, b"".join(parts), merges


def save_binary(tok: Tokenizer, path: str | os.PathLike[str]) -> None:
    """Write ``tok`` in the fast-load format.

    Args:
        tok: the tokenizer.
        path: the file to write.
    """
    import json

    from ..tokenizer.serialization import to_dict

    data = to_dict(tok, settings=True)
    sections: list[bytes] = []
    n = b = m = 0
    model = tok.model
    if isinstance(model, BPE) and max(model._vocab_r, default=0) < 2**31 - 1:
        offsets, present, text, merges = _bpe_arrays(model)
        n, b, m = len(present), len(text), len(merges)
        del data["model"]["vocab"], data["model"]["merges"]
        sections = [offsets.astype("<u4").tobytes(), present.tobytes(), text, merges.tobytes()]
        core = model._kernel()
        # The whole-token table maps each text to the last id having it, as the file's
        # tokens do, unless the vocabulary gave one id two texts (the file keeps one).
        agree = not model.ignore_merges or len(model._vocab) <= len(model._vocab_r)
        if model._built_kernel_native and hasattr(core, "tables") and agree:
            pairs, words, keys, layout = core.tables()
            data["binary"] = {"tables": [layout, len(pairs), len(words), len(keys)]}
            sections += [pairs, words, keys]
    header = json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")
    body = bytearray()
    for part in [header, *sections]:
        body += part
        body += b"\0" * _pad(len(part))
    payload = struct.pack("<QQQQ", len(header), n, b, m) + bytes(body)
    fixed = struct.pack("<8sIIQ", MAGIC, VERSION, 0, checksum(payload))
    with open(path, "wb") as f:
        f.write(fixed)
        f.write(payload)


def _tables_info(info: Any, path: str) -> list[int] | None:
    """The header's ``"binary"`` entry: ``{"tables": [layout, P, W, K]}`` or nothing."""
    tables = info.get("tables") if isinstance(info, dict) else info
    if not tables:
        return None
    if (
        not isinstance(tables, list)
        or len(tables) != 4
        or not all(type(v) is int and 0 <= v < 2**63 for v in tables)
    ):
        raise FormatError(
            f"expected [layout, size, size, size] (integers >= 0), got {tables!r:.100}",
            path=path,
            where="binary.tables",
        )
    return tables


def _failure(path: str) -> Any:
    def fail(where: str, message: str) -> FormatError:
        return FormatError(f"{message}; the file is damaged", path=path, where=where)

    return fail


def _check_arrays(offsets: Any, present: Any, text: Any, merges: Any, path: str) -> str:
    """Refuse token and merge arrays that do not describe a BPE model.

    Token ids are ``0 .. N - 1``; ``offsets`` start at 0, never decrease and end at the
    length of ``text``; ``present`` is 0 or 1 and an absent id has no text; each token's
    text is UTF-8 (lone surrogates as their 3-byte forms); every merge row is
    ``(left, right, rank, new)`` with ids that name present tokens and ranks in
    ``0 .. 2**31 - 2`` (the native kernel's int32 ranks keep ``2**31 - 1`` for "no merge").
    All checks are whole-array numpy operations (and one decode of the text); the row is
    only looked for once a check failed.

    Returns:
        The token text, decoded.

    Raises:
        FormatError: naming ``path`` and the field (``merges[17]``, ``token offsets[3]``).
    """
    import numpy as np

    from ._ctk_tables import first as _first

    n = len(present)
    fail = _failure(path)
    decoded = ""

    if n >= 2**31:
        raise fail("N", f"{n} token ids; ids are int32, so at most {2**31 - 1}")
    starts, ends = offsets[:-1], offsets[1:]
    if offsets[0] != 0:
        raise fail("token offsets[0]", f"the first token starts at byte {offsets[0]}, not 0")
    if offsets[-1] != len(text):
        raise fail(
            f"token offsets[{n}]",
            f"the token text ends at byte {offsets[-1]}, but its section is {len(text)} bytes",
        )
    if (ends < starts).any():
        k = _first(ends < starts)
        raise fail(
            f"token offsets[{k + 1}]",
            f"token {k} ends at byte {ends[k]}, before it starts (byte {starts[k]})",
        )
    if (present > 1).any():
        k = _first(present > 1)
        raise fail(f"present[{k}]", f"{present[k]}; present is 0 or 1")
    empty = ends == starts
    if not empty.all():
        absent_text = (present == 0) & ~empty
        if absent_text.any():
            k = _first(absent_text)
            raise fail(f"present[{k}]", f"token {k} is absent but has {ends[k] - starts[k]} bytes")
        # The text as a whole is UTF-8, and no token starts inside a char (absent tokens
        # are empty, so the offsets are all the boundaries): then each token is UTF-8.
        bad = []
        try:
            decoded = codecs.utf_8_decode(memoryview(text), "surrogatepass", True)[0]
        except UnicodeDecodeError as e:
            bad.append(e.start)
        # A token starting with a continuation byte (empty ones at the end excepted).
        split = (np.take(text, starts, mode="clip") & 0xC0) == 0x80
        if split.any() and (split & (starts < len(text))).any():
            bad.append(int(starts[_first(split & (starts < len(text)))]))
        if bad:
            k = int(np.searchsorted(ends, min(bad), side="right"))  # the token holding it
            raw = bytes(text[starts[k] : ends[k]])
            raise fail(f"token text[{k}]", f"token {k} is not UTF-8: {raw!r:.80}")
    _check_merges(merges, present, fail)
    return decoded


def _check_merges(merges: Any, present: Any, fail: Any) -> None:
    """Refuse merge rows that name no present token or hold a rank the native kernel reads
    as "no merge" (see :func:`_check_arrays`), so no row fails later inside the kernels."""
    import numpy as np

    from ._ctk_tables import first as _first

    n = len(present)
    if not len(merges):
        return
    fields = ("left id", "right id", "rank", "new id")
    flat = merges.reshape(-1)
    if flat.min() < 0:
        row, col = divmod(_first(flat < 0), 4)
        raise fail(f"merges[{row}]", f"{fields[col]} {merges[row, col]} is negative")
    absent = np.flatnonzero(present == 0)
    top = flat.max()  # ranks too: when below N and no id is absent, every id is a token
    if top < n and not (absent.size and top >= absent[0]):
        return
    if top == 2**31 - 1 and (merges[:, 2] == top).any():  # an id that large is past N
        row = _first(merges[:, 2] == top)
        raise fail(
            f"merges[{row}]",
            f"rank {top}; ranks are 0..{top - 1} (the native kernel reads {top} as no merge)",
        )
    for col in (0, 1, 3):
        ids = merges[:, col]
        if ids.max() >= n:
            row = _first(ids >= n)
            raise fail(
                f"merges[{row}]", f"{fields[col]} {ids[row]} is not a token id (ids are 0..{n - 1})"
            )
        # Only ids from the first absent one up can be absent: few rows, if any.
        rows = np.flatnonzero(ids >= absent[0]) if absent.size else ()
        if len(rows):
            missing = present[ids[rows]] == 0
            if missing.any():
                row = int(rows[_first(missing)])
                raise fail(
                    f"merges[{row}]",
                    f"{fields[col]} {ids[row]} names no token (no token has that id)",
                )


def _map_file(p: str) -> mmap.mmap:
    """The file memory-mapped (so its arrays are never copied), refused unless it starts
    with this format's magic bytes."""
    import mmap

    try:
        with open(p, "rb") as f:
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except FileNotFoundError as e:
        raise NotFoundError(f"{p}: no such file") from e
    except ValueError as e:  # an empty file cannot be mapped
        raise FormatError("empty file; expected a codetok binary tokenizer", path=p) from e
    if len(mm) < _FIXED.size or not is_binary(mm[:8]):
        raise FormatError("not a codetok binary tokenizer (bad magic bytes)", path=p)
    return mm


def _read_header(mm: mmap.mmap, start: int, h: int, p: str) -> dict[str, Any]:
    """The JSON header object at ``start`` (``h`` bytes), refused when it is not one, so
    every later step can read its settings."""
    import json

    try:
        data = json.loads(bytes(mm[start : start + h]).decode("utf-8", "surrogatepass"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise FormatError(f"the header is not JSON codetok reads: {e}", path=p) from e
    if not isinstance(data, dict):
        raise FormatError("the header is not a JSON object", path=p)
    return data


def _saved_tables(
    mm: mmap.mmap,
    starts: list[int],
    tables_info: list[int] | None,
    arrays: tuple[Any, Any, Any, Any],
    decoded: str,
    options: dict[str, Any],
    p: str,
) -> tuple[Any, ...] | None:
    """The file's native hash tables as views of the map, when this kernel reads their
    layout and they agree with the arrays; else None (the kernel builds its own)."""
    import numpy as np

    from ._ctk_tables import TABLE_LAYOUT, check_tables

    tables = None
    if tables_info and tables_info[0] == _backend.table_layout() == TABLE_LAYOUT:
        tables = tuple(
            np.frombuffer(mm, dtype=np.uint8, count=int(size), offset=start)
            for size, start in zip(tables_info[1:], starts[5:8])
        )
        if not check_tables(
            tables, arrays, decoded, bool(options.get("ignore_merges")), _failure(p)
        ):
            tables = None
    return tables


def _bpe_from_map(
    mm: mmap.mmap,
    starts: list[int],
    counts: tuple[int, int, int],
    tables_info: list[int] | None,
    options: dict[str, Any],
    p: str,
) -> BPE:
    """The BPE model over the file's arrays (views of the map, checked, never copied), its
    kernel built now so that damaged tables are reported naming the file."""
    import numpy as np

    n, b, m = counts
    offsets = np.frombuffer(mm, dtype="<u4", count=n + 1, offset=starts[1])
    present = np.frombuffer(mm, dtype=np.uint8, count=n, offset=starts[2])
    text = np.frombuffer(mm, dtype=np.uint8, count=b, offset=starts[3])
    merges = np.frombuffer(mm, dtype="<i4", count=4 * m, offset=starts[4]).reshape(m, 4)
    decoded = _check_arrays(offsets, present, text, merges, p)
    arrays = (offsets, present, text, merges)
    tables = _saved_tables(mm, starts, tables_info, arrays, decoded, options, p)
    try:
        model = BPE._from_store(
            (text, offsets, present),
            merges,
            tables,
            dropout=options.get("dropout"),
            unk_token=options.get("unk_token"),
            continuing_subword_prefix=options.get("continuing_subword_prefix"),
            end_of_word_suffix=options.get("end_of_word_suffix"),
            fuse_unk=bool(options.get("fuse_unk")),
            byte_fallback=bool(options.get("byte_fallback")),
            ignore_merges=bool(options.get("ignore_merges")),
        )
    except CodetokError as e:
        raise as_format_error(e, "malformed BPE model", p, "model") from e
    try:
        model._kernel()  # a damaged table is reported now, naming the file
    except ValueError as e:
        raise FormatError(f"the token or merge tables are damaged: {e}", path=p) from e
    return model


def load_binary(cls: type[Tokenizer], path: str | os.PathLike[str]) -> Tokenizer:
    """Load a tokenizer from a fast-load file (memory-mapped).

    Raises:
        NotFoundError: the file does not exist.
        FormatError: not this format, an unknown version, a truncated or damaged file (a
            row of the token or merge arrays out of range, a token that is not UTF-8, even
            with the checksum written again), naming the field.
    """
    from ..tokenizer.serialization import from_dict

    p = os.fspath(path)
    mm = _map_file(p)
    _, version, _, check, h, n, b, m = _FIXED.unpack_from(mm, 0)
    if version != VERSION:
        raise FormatError(
            f"format version {version}; this codetok reads version {VERSION} "
            "(save it again with this version, or upgrade codetok)",
            path=p,
        )
    starts = [_FIXED.size]
    for size in (h, 4 * (n + 1) if n else 0, n, b, 16 * m):
        starts.append(starts[-1] + size + _pad(size))
    if starts[1] > len(mm):
        raise FormatError("the file ends inside its header; it is truncated", path=p)
    data = _read_header(mm, starts[0], h, p)
    tables_info = _tables_info(data.pop("binary", None), p)
    if tables_info:
        for size in tables_info[1:]:
            starts.append(starts[-1] + size + _pad(size))
    if len(mm) != starts[-1] or len(mm) % 8:
        raise FormatError(
            f"the file is {len(mm)} bytes but its sections need {starts[-1]}; it is truncated "
            "or damaged",
            path=p,
        )
    if checksum(memoryview(mm)[24:]) != check:
        raise FormatError("checksum mismatch: the file is damaged", path=p)
    if not n:
        return from_dict(cls, data, path=p)
    options = data.get("model") or {}
    if not isinstance(options, dict):
        raise FormatError("the header's 'model' is not a JSON object", path=p, where="model")
    check_options(BPE, options, path=p, where="model")
    model = _bpe_from_map(mm, starts, (n, b, m), tables_info, options, p)
    return from_dict(cls, data, path=p, model=model)
