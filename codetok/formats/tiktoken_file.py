"""``.tiktoken`` rank files -> a codetok :class:`~codetok.Tokenizer` that encodes as tiktoken.

A ``.tiktoken`` file has one line per token: the token's bytes in base64, a space, and its
rank (which is also its id). An encoding adds a split regex and special tokens; those of
the published OpenAI encodings (r50k/gpt2, p50k, p50k_edit, cl100k, o200k, o200k_harmony)
are in :data:`ENCODINGS`, and any custom pattern and specials can be given instead.

How the tokenizer is built:

- Pre-tokenizer: ``Split(pattern, isolated)`` then ``ByteLevel(use_regex=False)``, so the
  model sees each regex piece as GPT-2 byte-level characters (one char per byte).
- Model: byte-level BPE where a pair may merge when the concatenation of its bytes is a
  token, and the pair's rank is **the rank of that concatenation**; the lowest rank merges
  first and ties go to the leftmost pair. That is tiktoken's algorithm itself, not an
  approximation: HF's tiktoken converter instead gives every pair a unique rank (sorted by
  merged rank, then by the ranks of the two parts), which differs from tiktoken when one
  token can be formed at two overlapping places with different splits (``ab|a|ba`` where
  ``aba`` is a token: tiktoken merges the left pair, the converter's order may pick the
  right one). A piece that is itself a token is emitted whole (``ignore_merges``), as
  tiktoken does.
- Saving: ``Tokenizer.save`` writes the pairs in the converter's order, so HF
  ``tokenizers`` loads the file and agrees with it (and with tiktoken outside that corner).
- Special tokens are added tokens (``special=True``, not normalized) at their ids, and
  are also entries of the model's vocabulary so that the ids survive a save (HF renumbers
  added tokens missing from the vocabulary). Consequence, shared with HF: with a custom
  pattern that yields a whole special-token text as one piece, that piece encodes to the
  special id even when the special token is not allowed (the built-in patterns never do);
  ``Tokenizer.encode(..., allowed_special=..., disallowed_special=...)`` gives tiktoken's
  policy (tiktoken's defaults are ``allowed_special=set()``, ``disallowed_special="all"``).
- Surrogates: a str holding a surrogate code point (U+D800..U+DFFF) has no UTF-8 form;
  tiktoken reads it again through UTF-16 with ``errors="replace"`` (a high and low pair
  becomes the character it spells, any other surrogate U+FFFD) and encodes that. These
  tokenizers do the same (``Tokenizer.surrogates == "replace"``), so ``"a\\ud800b"`` gives
  tiktoken's ids, those of ``"a\\ufffdb"``; offsets still index the caller's str. The
  setting is saved with codetok's settings (``to_str(settings=True)``, pickling, the binary
  format); a plain ``tokenizer.json`` loads with ``"keep"`` (HF ``tokenizers`` refuses such
  a str outright).

Not handled here: downloading encodings (pass a local file), tiktoken's ``explicit_n_vocab``
checks beyond a size sanity check.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from collections.abc import Mapping
from typing import Any

from ..components.base import with_path
from ..decoders import ByteLevel as ByteLevelDecoder
from ..engine import native as _backend
from ..errors import CodetokError, ConfigurationError, FormatError, NotFoundError
from ..models.bpe import BPE
from ..pre_tokenizers import ByteLevel, Sequence, Split
from ..pre_tokenizers.byte_level import _bytechars
from ..processors import ByteLevel as ByteLevelProcessor
from ..tokenizer.added_tokens import AddedToken
from ..tokenizer.tokenizer import Tokenizer
from ..unicode.byte_alphabet import bytes_to_unicode
from .ids import ID_RANGE, is_id

__all__ = [
    "ENCODINGS",
    "R50K_PATTERN",
    "CL100K_PATTERN",
    "O200K_PATTERN",
    "read_tiktoken_file",
    "write_tiktoken_file",
    "merges_from_ranks",
    "portable_pattern",
    "tokenizer_from_ranks",
    "tokenizer_from_tiktoken",
]

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

#: The split pattern of gpt2 / r50k_base / p50k_base / p50k_edit (equivalent to GPT-2's).
R50K_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
)
#: The split pattern of cl100k_base.
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
#: The split pattern of o200k_base and o200k_harmony.
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

_HARMONY = {
    "<|startoftext|>": 199998,
    ENDOFTEXT: 199999,
    "<|reserved_200000|>": 200000,
    "<|reserved_200001|>": 200001,
    "<|return|>": 200002,
    "<|constrain|>": 200003,
    "<|reserved_200004|>": 200004,
    "<|channel|>": 200005,
    "<|start|>": 200006,
    "<|end|>": 200007,
    "<|message|>": 200008,
    "<|reserved_200009|>": 200009,
    "<|reserved_200010|>": 200010,
    "<|reserved_200011|>": 200011,
    "<|call|>": 200012,
    ENDOFPROMPT: 200018,
    # As published: <|reserved_200018|> shares id 200018 with <|endofprompt|> (tiktoken
    # decodes 200018 to the former; codetok keeps the former as the token of that id).
    **{f"<|reserved_{i}|>": i for i in range(200013, 201088)},
}

#: Published OpenAI encodings: split pattern, special tokens, and the number of
#: mergeable ranks their files hold.
ENCODINGS: dict[str, dict[str, Any]] = {
    "gpt2": {"pat_str": R50K_PATTERN, "special_tokens": {ENDOFTEXT: 50256}, "n_ranks": 50256},
    "r50k_base": {
        "pat_str": R50K_PATTERN,
        "special_tokens": {ENDOFTEXT: 50256},
        "n_ranks": 50256,
    },
    "p50k_base": {
        "pat_str": R50K_PATTERN,
        "special_tokens": {ENDOFTEXT: 50256},
        "n_ranks": 50280,
    },
    "p50k_edit": {
        "pat_str": R50K_PATTERN,
        "special_tokens": {
            ENDOFTEXT: 50256,
            FIM_PREFIX: 50281,
            FIM_MIDDLE: 50282,
            FIM_SUFFIX: 50283,
        },
        "n_ranks": 50280,
    },
    "cl100k_base": {
        "pat_str": CL100K_PATTERN,
        "special_tokens": {
            ENDOFTEXT: 100257,
            FIM_PREFIX: 100258,
            FIM_MIDDLE: 100259,
            FIM_SUFFIX: 100260,
            ENDOFPROMPT: 100276,
        },
        "n_ranks": 100256,
    },
    "o200k_base": {
        "pat_str": O200K_PATTERN,
        "special_tokens": {ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
        "n_ranks": 199998,
    },
    "o200k_harmony": {"pat_str": O200K_PATTERN, "special_tokens": _HARMONY, "n_ranks": 199998},
}


def read_tiktoken_file(path: str | os.PathLike[str]) -> dict[bytes, int]:
    """Read a ``.tiktoken`` file: token bytes -> rank.

    Args:
        path: the file (``<base64 token> <rank>`` per line; blank lines are skipped).

    Returns:
        token bytes -> rank, in file order.

    Raises:
        NotFoundError: the file does not exist.
        FormatError: a line is not base64 and an integer, its rank is outside
            ``0..2**32-1``, or its token or rank repeats an earlier line (names the lines).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "tiny.tiktoken"
    >>> _ = p.write_text("YQ== 0\\nYg== 1\\nYWI= 2\\n")
    >>> read_tiktoken_file(p)
    {b'a': 0, b'b': 1, b'ab': 2}
    """
    p = os.fspath(path)
    try:
        with open(p, "rb") as f:
            raw = f.read()
    except FileNotFoundError as e:
        raise NotFoundError(f"{p}: no such file (looked for a .tiktoken rank file there)") from e
    except IsADirectoryError as e:
        raise NotFoundError(f"{p}: is a directory; pass the path of a .tiktoken file") from e
    if _backend.available():
        fast = _backend.core().read_ranks(raw)
        if isinstance(fast, dict) and _one_rank_per_line(raw, fast):
            return fast
    # The line-by-line reader: every file the native one does not take whole, and the
    # ones where a token or a rank repeats (it names both lines).
    ranks: dict[bytes, int] = {}
    line_of_token: dict[bytes, int] = {}
    line_of_rank: dict[int, int] = {}
    for lineno, line in enumerate(raw.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError("expected two fields")
            token = base64.b64decode(parts[0], validate=True)
            rank = int(parts[1])
        except (ValueError, binascii.Error) as e:
            shown = line[:80].decode("utf-8", "replace")
            raise FormatError(
                f"expected '<base64 token> <rank>', got {shown!r}", path=p, where=f"line {lineno}"
            ) from e
        if not is_id(rank):
            raise FormatError(
                f"rank {rank} is not a token id; ranks are non-negative integers ({ID_RANGE})",
                path=p,
                where=f"line {lineno}",
            )
        if token in ranks:
            raise FormatError(
                f"token {parts[0].decode()!r} ({token!r}) repeats line {line_of_token[token]}; "
                "each token has one rank, so keep one of the two lines",
                path=p,
                where=f"line {lineno}",
            )
        if rank in line_of_rank:
            raise FormatError(
                f"rank {rank} repeats line {line_of_rank[rank]}; a rank is one token's id, "
                "so give each token its own rank",
                path=p,
                where=f"line {lineno}",
            )
        ranks[token] = rank
        line_of_token[token] = line_of_rank[rank] = lineno
    return ranks


def _one_rank_per_line(raw: bytes, ranks: dict[bytes, int]) -> bool:
    """Whether ``ranks``, read from ``raw``, holds one entry per line and unique ranks.

    The native reader keeps the last of repeated tokens; a file with fewer entries than
    lines (a repeat, or merely a blank line) is read again line by line, which tells them
    apart and names the lines.
    """
    if b"\r" in raw:
        ends = raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n")
    else:
        ends = raw.count(b"\n")
    lines = ends + (0 if raw.endswith((b"\n", b"\r")) or not raw else 1)
    return len(ranks) == lines and len(set(ranks.values())) == len(ranks)


def write_tiktoken_file(ranks: Mapping[bytes, int], path: str | os.PathLike[str]) -> None:
    """Write a ``.tiktoken`` file (lines ordered by rank).

    Args:
        ranks: token bytes -> rank.
        path: the file to write.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.tiktoken"
    >>> write_tiktoken_file({b"b": 1, b"a": 0}, p)
    >>> p.read_text()
    'YQ== 0\\nYg== 1\\n'
    """
    with open(path, "wb") as f:
        for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
            f.write(base64.b64encode(token) + b" " + str(rank).encode() + b"\n")


def merges_from_ranks(ranks: Mapping[bytes, int]) -> list[tuple[bytes, bytes, int]]:
    """Every pair whose concatenation is a token: ``(left, right, rank of the concatenation)``.

    Sorted as HF's tiktoken converter sorts them: by the merged token's rank, then by the
    ranks of the left and right parts.

    Args:
        ranks: token bytes -> rank.

    Returns:
        The pairs, in that order.

    >>> merges_from_ranks({b"a": 0, b"b": 1, b"ab": 2, b"aab": 3, b"aa": 4})
    [(b'a', b'b', 2), (b'a', b'ab', 3), (b'aa', b'b', 3), (b'a', b'a', 4)]
    """
    out: list[tuple[int, int, int, bytes, bytes]] = []
    get = ranks.get
    for token, rank in ranks.items():
        for i in range(1, len(token)):
            left = get(token[:i])
            if left is None:
                continue
            right = get(token[i:])
            if right is not None:
                out.append((rank, left, right, token[:i], token[i:]))
    out.sort()
    return [(a, b, r) for r, _, _, a, b in out]


class _RankBPE(BPE):
    """Byte-level BPE whose pair rank is the rank of the merged token (tiktoken's rule).

    It is an ordinary :class:`~codetok.models.bpe.BPE` otherwise and serializes as one
    (merges in HF's converter order).
    """

    def __init__(self, vocab: dict[str, int], merges: list[tuple[str, str]]) -> None:
        super().__init__(vocab, merges, ignore_merges=True)

    def _build_merges(self, pairs: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], Any]:
        vocab = self._vocab
        merge_map = {}
        for a, b in pairs:
            new_id = vocab[a + b]
            merge_map[(vocab[a], vocab[b])] = (new_id, new_id)
        return pairs, merge_map


#: The largest rank the native merge table takes: its merge loop reads 2**31 - 1 as "no
#: merge", so a rank from there on takes the Python path.
_NATIVE_MAX_RANK = 2**31 - 2


def _rank_bpe(ranks: Mapping[bytes, int], vocab: dict[str, int]) -> _RankBPE:
    """The model of ``ranks``; its merge table is derived natively when the extension is built
    and every rank fits the native table's int32 (a u32 rank past that takes the Python path)."""
    if not _backend.available() or max(ranks.values(), default=0) > _NATIVE_MAX_RANK:
        pairs = merges_from_ranks(ranks)
        return _RankBPE(vocab, [(bytes_to_unicode(a), bytes_to_unicode(b)) for a, b, _ in pairs])
    table = _backend.core().rank_merges(dict(ranks))
    by_id = {i: t for t, i in vocab.items()}

    def pairs() -> list[tuple[str, str]]:
        return [(by_id[a], by_id[b]) for a, b in table[:, :2].tolist()]

    return _RankBPE._from_merge_table(vocab, table, pairs)


# An atom followed by a possessive interval ``{n,m}+``: ``\p{..}``, an escape, a simple
# bracket class, or one char.
_POSSESSIVE_INTERVAL = re.compile(
    r"(\\[pP]\{[^}]*\}|\\.|\[(?:\\.|[^\]\\])*\]|[^\\()\[\]|])(\{\d+(?:,\d*)?\})\+"
)


def portable_pattern(pat_str: str) -> str:
    """Rewrite possessive intervals ``X{n,m}+`` as atomic groups ``(?>X{n,m})``.

    tiktoken (fancy-regex) and Python's ``regex`` read ``{n,m}+`` as possessive, but
    Oniguruma, which HF ``tokenizers`` uses for ``tokenizer.json`` patterns, reads it as
    ``(?:X{n,m})+`` (cl100k's ``\\p{N}{1,3}+`` would then take any number of digits). An
    atomic group means the same in all three, so saved files encode as tiktoken does.

    Args:
        pat_str: a tiktoken split pattern.

    Returns:
        The same pattern with possessive intervals as atomic groups.

    >>> portable_pattern(r"\\p{N}{1,3}+|\\s")
    '(?>\\\\p{N}{1,3})|\\\\s'
    """
    return _POSSESSIVE_INTERVAL.sub(r"(?>\1\2)", pat_str)


def tokenizer_from_ranks(
    ranks: Mapping[bytes, int],
    pat_str: str,
    special_tokens: Mapping[str, int] | None = None,
) -> Tokenizer:
    """Build a tokenizer from tiktoken mergeable ranks, a split regex and special tokens.

    Args:
        ranks: token bytes -> rank (the token id). Every single byte must be a token.
        pat_str: the split regex (tiktoken's ``pat_str``).
        special_tokens: special token text -> id.

    Returns:
        A :class:`~codetok.Tokenizer` whose ``encode`` gives tiktoken's ids.

    Raises:
        ConfigurationError: a byte is missing from ``ranks``, two tokens share a rank, a
            special token collides with a rank, or the pattern does not compile.

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256}
    >>> tok = tokenizer_from_ranks(ranks, r"\\S+|\\s+", {"<|end|>": 257})
    >>> tok.encode("abc<|end|>").ids
    [256, 99, 257]
    """
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise ConfigurationError(
            f"byte-level BPE needs every single byte as a token; {len(missing)} are missing "
            f"(first: {bytes([missing[0]])!r})"
        )
    vocab = dict(zip(map(_bytechars, ranks), ranks.values()))
    if len(set(vocab.values())) != len(vocab):
        raise ConfigurationError("two tokens share one rank; ranks must be unique ids")
    specials = dict(special_tokens or {})
    ids = set(vocab.values())
    clash = [s for s, i in specials.items() if i in ids or s in vocab]
    if clash:
        raise ConfigurationError(
            f"special token {clash[0]!r} reuses an id or the text of a mergeable token"
        )
    # Special tokens also go in the model's vocabulary: HF ``tokenizers`` ignores the ids of
    # ``added_tokens`` that are not in it and renumbers them from the vocabulary size, which
    # would break the gaps of cl100k (100256 unused) once saved.
    model_vocab = {**vocab, **{content: int(tid) for content, tid in specials.items()}}
    tok = Tokenizer(
        _rank_bpe(ranks, model_vocab),
        pre_tokenizer=Sequence(
            [
                Split({"Regex": portable_pattern(pat_str)}, "isolated", False),
                ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False),
            ]
        ),
        post_processor=ByteLevelProcessor(add_prefix_space=True, trim_offsets=False),
        decoder=ByteLevelDecoder(),
    )
    tok.added.set_many(
        (AddedToken(content, normalized=False, special=True), int(tid))
        for content, tid in sorted(specials.items(), key=lambda kv: kv[1])
    )
    tok.surrogates = "replace"  # tiktoken's ids for a str holding surrogates (module docstring)
    return tok


def _encoding_name(path: str, encoding: str | None) -> str | None:
    if encoding is not None:
        return encoding
    stem = os.path.basename(path)
    stem = stem[: -len(".tiktoken")] if stem.endswith(".tiktoken") else stem
    return stem if stem in ENCODINGS else None


def tokenizer_from_tiktoken(
    source: str | os.PathLike[str] | Mapping[bytes, int],
    /,
    *,
    encoding: str | None = None,
    pat_str: str | None = None,
    special_tokens: Mapping[str, int] | None = None,
) -> Tokenizer:
    """Load a ``.tiktoken`` file (or ranks) as a :class:`~codetok.Tokenizer`.

    Args:
        source: the ``.tiktoken`` file, or already-read ranks.
        encoding: a name from :data:`ENCODINGS` giving the pattern and special tokens;
            by default the file name (``cl100k_base.tiktoken`` -> ``cl100k_base``).
        pat_str: a custom split regex (overrides the encoding's).
        special_tokens: custom special tokens (override the encoding's).

    Returns:
        The tokenizer; ``model_max_length`` stays unlimited.

    Raises:
        ConfigurationError: no pattern is known (name the encoding or pass ``pat_str``),
            or the ranks do not fit (see :func:`tokenizer_from_ranks`).
        NotFoundError, FormatError: the file is missing or malformed.

    >>> tok = tokenizer_from_tiktoken("cl100k_base.tiktoken")  # doctest: +SKIP
    >>> tok.encode("hello world").ids  # doctest: +SKIP
    [15339, 1917]
    """
    if isinstance(source, Mapping):
        ranks: Mapping[bytes, int] = source
        name = encoding
        where = "the given ranks"
    else:
        path = os.fspath(source)
        ranks = read_tiktoken_file(path)
        name = _encoding_name(path, encoding)
        where = path
    preset: dict[str, Any] = {}
    if name is not None:
        if name not in ENCODINGS:
            raise ConfigurationError(
                f"unknown encoding {name!r}; known: {', '.join(ENCODINGS)} "
                "(or pass pat_str and special_tokens)"
            )
        preset = ENCODINGS[name]
        if pat_str is None and len(ranks) != preset["n_ranks"]:
            raise ConfigurationError(
                f"{where} holds {len(ranks)} ranks but {name} has {preset['n_ranks']}; pass "
                "encoding= for the right one, or pat_str= and special_tokens= for a custom one"
            )
    pattern = pat_str if pat_str is not None else preset.get("pat_str")
    if pattern is None:
        raise ConfigurationError(
            f"no split pattern for {where}: pass encoding= (one of {', '.join(ENCODINGS)}) "
            "or pat_str= to tokenizer_from_tiktoken, or name the file after its encoding "
            "(cl100k_base.tiktoken) for codetok.load"
        )
    specials = special_tokens if special_tokens is not None else preset.get("special_tokens", {})
    try:
        return tokenizer_from_ranks(ranks, pattern, specials)
    except CodetokError as e:
        if isinstance(source, Mapping):
            raise
        raise with_path(e, where) from e  # the ranks of this file do not fit
