"""Decoders: token strings back to text.

Each decoder maps a list of token strings to a list of strings (``decode_chain``), so they
compose in a :class:`Sequence`; ``decode`` joins the final list. Set and schema follow HF
``tokenizers``: ByteLevel, WordPiece, Metaspace, BPEDecoder, ByteFallback, Fuse, Strip,
Replace, CTC, Sequence.
"""

from __future__ import annotations

from typing import Any

from ._bytes import CHAR_TO_BYTE
from ._regex import compile_pattern
from ._registry import registry
from ._serde import Component, build, build_items, pattern_from_any

__all__ = [
    "Decoder",
    "ByteLevel",
    "WordPiece",
    "Metaspace",
    "BPEDecoder",
    "ByteFallback",
    "Fuse",
    "Strip",
    "Replace",
    "CTC",
    "Sequence",
    "decoder_from_dict",
    "cleanup_tokenization",
    "decode_utf8",
]


def decode_utf8(data: bytes) -> str:
    """UTF-8 decode that keeps encoded surrogates and replaces invalid bytes."""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace")


def cleanup_tokenization(text: str) -> str:
    """Remove the spaces BERT-style joining leaves before punctuation and clitics."""
    return (
        text.replace(" .", ".")
        .replace(" ?", "?")
        .replace(" !", "!")
        .replace(" ,", ",")
        .replace(" ' ", "'")
        .replace(" n't", "n't")
        .replace(" 'm", "'m")
        .replace(" do not", " don't")
        .replace(" 's", "'s")
        .replace(" 've", "'ve")
        .replace(" 're", "'re")
    )


class Decoder(Component):
    """Base class: :meth:`decode_chain` maps token strings to strings."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        raise NotImplementedError

    def decode(self, tokens: list[str]) -> str:
        """Decode token strings to text.

        >>> WordPiece().decode(["play", "##ing", "now"])
        'playing now'
        """
        return "".join(self.decode_chain(list(tokens)))


class ByteLevel(Decoder):
    """Byte-level alphabet back to bytes, then UTF-8 (invalid sequences become U+FFFD)."""

    type_name = "ByteLevel"

    def __init__(
        self, add_prefix_space: bool = True, trim_offsets: bool = True, use_regex: bool = True
    ) -> None:
        self.add_prefix_space = add_prefix_space
        self.trim_offsets = trim_offsets
        self.use_regex = use_regex

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = bytearray()
        get = CHAR_TO_BYTE.get
        for t in tokens:
            chunk = bytearray()
            for c in t:
                b = get(c)
                if b is None:
                    chunk = bytearray(t.encode("utf-8", "surrogatepass"))
                    break
                chunk.append(b)
            out += chunk
        return [decode_utf8(bytes(out))]


class WordPiece(Decoder):
    """Join WordPiece tokens: drop the prefix on continuations, space elsewhere."""

    type_name = "WordPiece"

    def __init__(self, prefix: str = "##", cleanup: bool = True) -> None:
        self.prefix = prefix
        self.cleanup = cleanup

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, t in enumerate(tokens):
            if i:
                t = t.replace(self.prefix, "", 1) if t.startswith(self.prefix) else " " + t
            if self.cleanup:
                t = cleanup_tokenization(t)
            out.append(t)
        return out


class Metaspace(Decoder):
    """Turn the visible space back into spaces; drop the prepended one."""

    type_name = "Metaspace"

    def __init__(
        self, replacement: str = "\u2581", prepend_scheme: str = "always", split: bool = True
    ) -> None:
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = split

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Metaspace:
        scheme = data.get("prepend_scheme")
        if scheme is None:
            scheme = "always" if data.get("add_prefix_space", True) else "never"
        return cls(data.get("replacement", "\u2581"), scheme, data.get("split", True))

    def decode_chain(self, tokens: list[str]) -> list[str]:
        rep = self.replacement
        out = []
        for i, t in enumerate(tokens):
            if rep in t:
                if i == 0 and self.prepend_scheme != "never" and t.startswith(rep):
                    t = t[1:]
                t = t.replace(rep, " ")
            out.append(t)
        return out


class BPEDecoder(Decoder):
    """Replace the end-of-word suffix by a space (none after the last token)."""

    type_name = "BPEDecoder"

    def __init__(self, suffix: str = "</w>") -> None:
        self.suffix = suffix

    def decode_chain(self, tokens: list[str]) -> list[str]:
        n = len(tokens)
        return [t.replace(self.suffix, "" if i == n - 1 else " ") for i, t in enumerate(tokens)]


def _byte_token(t: str) -> int | None:
    if len(t) == 6 and t.startswith("<0x") and t.endswith(">"):
        try:
            return int(t[3:5], 16)
        except ValueError:
            return None
    return None


class ByteFallback(Decoder):
    """``<0xNN>`` tokens back to bytes; invalid UTF-8 gives one U+FFFD per byte token."""

    type_name = "ByteFallback"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        pending = bytearray()

        def flush() -> None:
            if pending:
                try:
                    out.append(bytes(pending).decode("utf-8"))
                except UnicodeDecodeError:
                    out.extend(["\ufffd"] * len(pending))
                pending.clear()

        for t in tokens:
            b = _byte_token(t)
            if b is None:
                flush()
                out.append(t)
            else:
                pending.append(b)
        flush()
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type_name}


class Fuse(Decoder):
    """Join all tokens into one string."""

    type_name = "Fuse"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type_name}


class Strip(Decoder):
    """Strip up to ``start`` / ``stop`` occurrences of ``content`` from each token's ends."""

    type_name = "Strip"

    def __init__(self, content: str = " ", start: int = 0, stop: int = 0) -> None:
        self.content = content
        self.start = start
        self.stop = stop

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        c = self.content
        for t in tokens:
            a = 0
            while a < self.start and t.startswith(c, a * len(c)):
                a += 1
            t2 = t[a * len(c) :]
            b = 0
            while b < self.stop and t2.endswith(c * (b + 1)) and len(t2) >= (b + 1) * len(c):
                b += 1
            out.append(t2[: len(t2) - b * len(c)] if b else t2)
        return out


class Replace(Decoder):
    """Replace a literal or regex pattern in each token."""

    type_name = "Replace"

    def __init__(self, pattern: Any, content: str) -> None:
        self.pattern = pattern_from_any(pattern)
        self.content = content
        self._re = compile_pattern(self.pattern)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        content = self.content
        return [self._re.sub(lambda _m: content, t) for t in tokens]


class CTC(Decoder):
    """CTC output: collapse repeats, drop the pad token, word delimiter to space."""

    type_name = "CTC"

    def __init__(
        self, pad_token: str = "<pad>", word_delimiter_token: str = "|", cleanup: bool = True
    ) -> None:
        self.pad_token = pad_token
        self.word_delimiter_token = word_delimiter_token
        self.cleanup = cleanup

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        prev = None
        for t in tokens:
            if t == prev:
                continue
            prev = t
            if t == self.pad_token:
                continue
            t = t.replace(self.word_delimiter_token, " ")
            if self.cleanup:
                t = cleanup_tokenization(t)
            out.append(t)
        return out


class Sequence(Decoder):
    """Chain decoders."""

    type_name = "Sequence"

    def __init__(self, decoders: list[Decoder]) -> None:
        self.decoders = list(decoders)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        for d in self.decoders:
            tokens = d.decode_chain(tokens)
        return tokens

    def to_dict(self) -> dict[str, Any]:
        return {"type": "Sequence", "decoders": [d.to_dict() for d in self.decoders]}

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Sequence:
        return cls(
            build_items(decoder_from_dict, data["decoders"], "decoders", path=path, where=where)
        )


REGISTRY = registry("decoder")
REGISTRY.register(
    ByteLevel,
    WordPiece,
    Metaspace,
    BPEDecoder,
    ByteFallback,
    Fuse,
    Strip,
    Replace,
    CTC,
    Sequence,
)


def decoder_from_dict(
    data: Any, *, path: str | None = None, where: str = "decoder"
) -> Decoder | None:
    """Build a decoder from its HF ``tokenizer.json`` object."""
    return build(REGISTRY, data, path=path, where=where)
