"""A subword channel: a codetok :class:`~codetok.Tokenizer` used on byte-level pieces.

A code tokenizer has one channel for code and optionally a second one for comments and
docstrings. Each channel wraps a byte-level tokenizer (its model sees pieces spelled in the
GPT-2 byte alphabet, so any bytes are encodable) and keeps, for every id, the exact bytes
the token stands for; decoding is a table look-up. Ids of the second channel are shifted by
the size of the first.

The model of a channel may be BPE, WordPiece (continuation tokens carry a prefix that is not
in the byte alphabet) or Unigram. When the model cannot spell a piece exactly (an unknown
char, a dropped char), the piece falls back to one token per byte, so encoding never loses
bytes; :class:`Channel` refuses a vocabulary without a token for each of the 256 bytes.

Not handled here: which pieces go to which channel (:mod:`codetok.code.routing.router`).
"""

from __future__ import annotations

import numpy as np

from ...errors import VocabularyError
from ...tokenizer.tokenizer import Tokenizer
from ...unicode.byte_alphabet import CHAR_TO_BYTE, bytes_to_unicode, unicode_to_bytes
from .cache import BoundedCache

__all__ = ["Channel", "WORDPIECE_PREFIX"]

#: continuation prefix of WordPiece channels (outside the byte-level alphabet)
WORDPIECE_PREFIX = "\u2192"

#: Pieces whose ids a channel keeps, per generation (:class:`BoundedCache`: at most twice).
CACHE_SIZE = 65_536


#: Each byte-level char's byte, indexed by code point (256: not in the alphabet).
_CHAR_BYTES = np.full(max(map(ord, CHAR_TO_BYTE)) + 2, 256, np.uint16)
_CHAR_BYTES[[ord(c) for c in CHAR_TO_BYTE]] = list(CHAR_TO_BYTE.values())


def _alphabet_bytes(texts: list[str]) -> list[bytes]:
    """``[unicode_to_bytes(t) for t in texts]``, a whole vocabulary at once: the chars of
    every text mapped to their bytes in one array pass, the rare texts holding a char outside
    the byte-level alphabet then done one by one."""
    joined = "".join(texts)
    cps = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), np.uint32)
    mapped = _CHAR_BYTES[np.minimum(cps, len(_CHAR_BYTES) - 1)]
    blob = mapped.astype(np.uint8).tobytes()
    ends = np.cumsum(np.fromiter(map(len, texts), np.int64, len(texts))).tolist()
    out = [blob[a:b] for a, b in zip([0, *ends], ends)]
    if np.count_nonzero(mapped > 255):
        outside = np.concatenate(([0], np.cumsum(mapped > 255)))
        starts = np.array([0, *ends[:-1]], np.int64)
        for i in np.flatnonzero(outside[ends] != outside[starts]).tolist():
            out[i] = unicode_to_bytes(texts[i])
    return out


class Channel:
    """Encode byte strings with a tokenizer's model; decode ids to exact bytes.

    Args:
        tokenizer: a codetok tokenizer whose model works on byte-level pieces.
        offset: added to every id of this channel.
        reserved: reserved token -> surface text (their ids decode to the surface).

    Raises:
        VocabularyError: some byte has no single-byte token (encoding could lose it).

    >>> from codetok.trainers import train_bpe
    >>> ch = Channel(train_bpe(texts=["aaab"] * 3, vocab_size=260))
    >>> ch.decode_bytes(ch.encode(b"aab\\xff"))
    b'aab\\xff'
    """

    def __init__(
        self, tokenizer: Tokenizer, offset: int = 0, reserved: dict[str, str] | None = None
    ) -> None:
        self.tokenizer = tokenizer
        self.offset = offset
        model = tokenizer.model
        self.model = model
        vocab = tokenizer.get_vocab(with_added_tokens=True)
        size = max(vocab.values(), default=-1) + 1
        if size > 4 * len(vocab) + 1024:  # the tables below are indexed by id
            raise VocabularyError(
                f"the ids of a code tokenizer's vocabulary run to {size - 1} for {len(vocab)} "
                "tokens; they must be (nearly) consecutive"
            )
        prefix = getattr(model, "continuing_subword_prefix", None) or ""
        is_wordpiece = type(model).__name__ == "WordPiece"
        self.size = size
        self.tokens: list[str] = [""] * size
        for token, tid in vocab.items():
            self.tokens[tid] = token
        reserved = reserved or {}
        specials = {
            tok.content for tok in tokenizer.get_added_tokens_decoder().values() if tok.special
        }
        # Reserved tokens spell their surface, other special tokens nothing, the rest their
        # byte-level text (a WordPiece continuation without its prefix).
        fixed = {vocab[t]: b"" for t in specials if t in vocab}
        fixed.update((vocab[t], s.encode("utf-8")) for t, s in reserved.items() if t in vocab)
        ids = [tid for tid in vocab.values() if tid not in fixed]
        bodies = [self.tokens[tid] for tid in ids]
        if is_wordpiece and prefix:
            cut = len(prefix)
            bodies = [b[cut:] if len(b) > cut and b.startswith(prefix) else b for b in bodies]
        self.token_bytes: list[bytes] = [b""] * size
        for tid, data in zip(ids, _alphabet_bytes(bodies), strict=True):
            self.token_bytes[tid] = data
        for tid, data in fixed.items():
            self.token_bytes[tid] = data
        # The single-byte token of each byte: the one spelled by its char alone, else a
        # continuation of it (WordPiece).
        byte_ids = [-1] * 256
        singles = [(tid, body) for tid, body in zip(ids, bodies, strict=True) if len(body) == 1]
        for tid, body in singles:
            b = CHAR_TO_BYTE.get(body)
            if b is not None and (byte_ids[b] < 0 or body == self.tokens[tid]):
                byte_ids[b] = tid
        missing = [b for b in range(256) if byte_ids[b] < 0]
        if missing:
            raise VocabularyError(
                f"the tokenizer has no byte-level token for {len(missing)} byte value(s) "
                f"(first: 0x{missing[0]:02x}); a code tokenizer needs all 256 byte-level "
                "chars in its vocabulary (train with the byte-level alphabet)"
            )
        self.byte_ids = byte_ids
        self.lengths = np.fromiter(map(len, self.token_bytes), np.int64, size)
        unk = getattr(model, "unk_token", None)
        if unk is None and hasattr(model, "unk_id"):
            unk_id = model.unk_id
        else:
            unk_id = vocab.get(unk) if isinstance(unk, str) else None
        self.unk_id = -1 if unk_id is None else int(unk_id)
        self._cache: BoundedCache[bytes, list[int]] = BoundedCache(CACHE_SIZE)

    def encode(self, data: bytes) -> list[int]:
        """Return the (shifted) ids of one piece; their bytes always spell ``data``.

        Args:
            data: the piece's bytes.

        Returns:
            Ids, shifted by :attr:`offset`.
        """
        ids = self._cache.get(data)
        if ids is not None:
            return ids
        raw = self.model.tokenize_ids(bytes_to_unicode(data))
        tb = self.token_bytes
        if self.unk_id in raw or b"".join(tb[i] for i in raw) != data:
            raw = [self.byte_ids[b] for b in data]
        off = self.offset
        ids = [i + off for i in raw] if off else raw
        self._cache.put(data, ids)
        return ids

    def decode_bytes(self, ids: list[int]) -> bytes:
        """Return the bytes of (shifted) ids of this channel.

        Raises:
            VocabularyError: an id outside the channel.
        """
        off = self.offset
        tb = self.token_bytes
        try:
            return b"".join(tb[i - off] for i in ids)
        except IndexError:
            bad = next(i for i in ids if not 0 <= i - off < len(tb))
            raise VocabularyError(f"id {bad} is not in this tokenizer's vocabulary") from None
