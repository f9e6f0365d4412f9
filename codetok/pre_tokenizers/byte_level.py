"""ByteLevel: GPT-2 pre-tokenization (prefix space, the GPT-2 regex, bytes to the GPT-2
alphabet)."""

from __future__ import annotations

import codecs
import functools
import operator
from itertools import accumulate, compress
from typing import TYPE_CHECKING

from ..tokenizer.offsets import NormalizedString
from ..unicode.byte_alphabet import BYTE_TO_CHAR, LATIN1_TO_BYTECHAR, bytes_to_unicode
from ..unicode.split_patterns import GPT2_PATTERN
from .base import Anchor, PreTokenizer, _cut, _starts, _tiling

if TYPE_CHECKING:
    import regex


@functools.cache
def _gpt2_re() -> regex.Pattern[str]:
    """ByteLevel's GPT-2 regex, compiled on first use: its Unicode classes load
    codetok.unicode.generated.classes, and ``regex``, which ``import codetok`` need not do."""
    from ..unicode.hf_regex import compile_onig

    return compile_onig(GPT2_PATTERN)


def __getattr__(name: str):
    if name == "_GPT2_RE":  # the compiled regex, for the tests
        return _gpt2_re()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class ByteLevel(PreTokenizer):
    """GPT-2 pre-tokenization: optional prefix space, GPT-2 regex, bytes to the alphabet.

    Args:
        add_prefix_space: prepend a space to each piece that does not start with one.
        trim_offsets: used by the matching post-processor (kept here for the schema).
        use_regex: split with the GPT-2 regex (``False`` when an earlier Split did it).
    """

    type_name = "ByteLevel"

    def __init__(
        self, add_prefix_space: bool = True, trim_offsets: bool = True, use_regex: bool = True
    ) -> None:
        self.add_prefix_space = add_prefix_space
        self.trim_offsets = trim_offsets
        self.use_regex = use_regex

    @staticmethod
    def alphabet() -> list[str]:
        """The 256 characters of the byte-level alphabet."""
        return [LATIN1_TO_BYTECHAR[b] for b in range(256)]

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        if self.add_prefix_space and not ns.text.startswith(" "):
            ns.prepend(" ")
        if self.use_regex:
            text = ns.text
            pieces = _cut(ns, [m.span() for m in _gpt2_re().finditer(text)]) if text else []
        else:
            pieces = [ns] if ns.text else []
        for p in pieces:
            _to_bytes(p)
        return pieces

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        """:meth:`split` of many pieces without per-piece objects where possible.

        An identity-aligned piece that needs no prefix space is cut with one ``findall``
        (the GPT-2 regex tiles any text) and, when ASCII, mapped to the byte alphabet with
        one ``translate`` of the whole string: each ASCII char is one byte, so the byte
        pieces keep the identity alignment. Non-ASCII sub-pieces take :func:`_to_bytes`.
        """
        out_texts: list[str] = []
        out_anchors: list[Anchor] = []
        for text, anchor in zip(texts, anchors):
            if not text:
                continue
            pieces: list[str] | None = [text]
            if type(anchor) is not int or (self.add_prefix_space and text[0] != " "):
                pieces = None
            elif self.use_regex:
                pieces = _tiling(_gpt2_re(), text)
            if pieces is None:
                t, a = PreTokenizer.split_many(self, [text], [anchor])
                out_texts.extend(t)
                out_anchors.extend(a)
                continue
            starts = _starts(pieces, anchor)
            if text.isascii():
                mapped = _bytechars(text.encode("ascii"))
                if len(pieces) == 1:
                    out_texts.append(mapped)
                else:
                    rel = [s - anchor for s in starts]
                    out_texts.extend(map(mapped.__getitem__, map(slice, rel, rel[1:] + [None])))
                out_anchors.extend(starts)
                continue
            try:
                nbytes = list(map(len, map(str.encode, pieces)))
            except UnicodeEncodeError:  # lone surrogates: piece by piece
                nbytes = None
            if nbytes is None:
                for p, start in zip(pieces, starts):
                    ns = NormalizedString(p, start)
                    _to_bytes(ns)
                    out_texts.append(ns.text)
                    out_anchors.append(ns.base if ns.align is None else ns)
                continue
            # One byte-alphabet string for the whole text, cut at the pieces' byte bounds.
            mapped = _bytechars(text.encode("utf-8"))
            bounds = list(accumulate(nbytes, initial=0))
            out_texts.extend(map(mapped.__getitem__, map(slice, bounds, bounds[1:])))
            # A piece with more bytes than chars is not identity-aligned: it gets its own
            # NormalizedString (the alignment of each byte to its char).
            anchored: list[Anchor] = list(starts)
            for i in compress(range(len(pieces)), map(operator.ne, nbytes, map(len, pieces))):
                ns = NormalizedString(pieces[i], starts[i])
                _to_bytes(ns)
                anchored[i] = ns
            out_anchors.extend(anchored)
        return out_texts, out_anchors


_BYTE_TABLE = "".join(BYTE_TO_CHAR)


def _bytechars(data: bytes) -> str:
    """Bytes to the byte-level alphabet, one char per byte (a C-level charmap decode)."""
    return codecs.charmap_decode(data, "strict", _BYTE_TABLE)[0]


def _to_bytes(ns: NormalizedString) -> None:
    text = ns.text
    if text.isascii():
        ns.map_chars(text.translate(LATIN1_TO_BYTECHAR))
        return
    chunks = []
    for i, c in enumerate(text):
        if c < "\x80":
            chunks.append((LATIN1_TO_BYTECHAR[ord(c)], i, i + 1))
        else:
            chunks.append((bytes_to_unicode(c.encode("utf-8", "surrogatepass")), i, i + 1))
    ns.transform(chunks)
