"""The byte-level tokenizer: one token per UTF-8 byte, ids 0-255 equal to the byte values.

Built from the pipeline: HF's ``ByteLevel`` pre-tokenizer (no prefix space, no regex)
maps the text to the GPT-2 byte alphabet, a ``Split`` isolates every byte character, a
WordLevel model with the 256 byte characters at ids 0-255 looks them up, and the
``ByteLevel`` decoder maps them back. The ``tokenizer.json`` is plain HF schema. Special
tokens get ids from 256 on.

It is lossless for every ``str``: lone surrogates are encoded with ``surrogatepass``
(three bytes each) and come back unchanged. :meth:`ByteTokenizer.encode_bytes` and
:meth:`ByteTokenizer.decode_bytes` work on raw ``bytes``, valid UTF-8 or not. As with HF's
byte-level models, a token's offsets are those of the character its byte belongs to.

The vocabulary is fixed: there is nothing to learn from a corpus (``train`` refuses it).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..decoders import ByteLevel as ByteLevelDecoder
from ..errors import VocabularyError
from ..models import WordLevel
from ..pre_tokenizers import ByteLevel, Split
from ..pre_tokenizers import Sequence as PreSequence
from ..tokenizer.encoding import Encoding
from ..tokenizer.tokenizer import Tokenizer, _as_id_list
from ..unicode.byte_alphabet import BYTE_TO_CHAR

__all__ = ["ByteTokenizer", "byte_tokenizer", "BYTE_VOCAB"]

#: The model vocabulary: byte-alphabet character -> byte value.
BYTE_VOCAB: dict[str, int] = {c: b for b, c in enumerate(BYTE_TO_CHAR)}


class ByteTokenizer(Tokenizer):
    """A :class:`~codetok.Tokenizer` with raw-bytes helpers; build one with :func:`byte_tokenizer`.

    ``ByteTokenizer.from_file`` / ``from_str`` load a saved byte tokenizer as this class;
    ``Tokenizer.from_file`` loads it as a plain tokenizer that encodes and decodes alike.
    """

    #: :func:`codetok.text.train` refuses tokenizers with this flag.
    fixed_vocabulary = True

    def encode_bytes(
        self, data: bytes | bytearray | memoryview, add_special_tokens: bool = True
    ) -> Encoding:
        """Encode raw bytes: one token per byte; offsets are byte positions in ``data``.

        Args:
            data: any bytes (they need not be valid UTF-8).
            add_special_tokens: let the post-processor (if any) add its tokens.

        Returns:
            An :class:`~codetok.Encoding` whose ids are the byte values.

        Raises:
            VocabularyError: ``data`` is not bytes-like.

        >>> byte_tokenizer().encode_bytes(b"\\xffA").ids
        [255, 65]
        """
        if isinstance(data, str) or not isinstance(data, (bytes, bytearray, memoryview)):
            raise VocabularyError(
                f"encode_bytes takes bytes, got {type(data).__name__}; use encode() for str"
            )
        ids = list(bytes(data))
        n = len(ids)
        enc = Encoding(
            ids,
            [0] * n,
            [BYTE_TO_CHAR[b] for b in ids],
            [(i, i + 1) for i in range(n)],
            list(range(n)),
            [0] * n,
            [1] * n,
        )
        return self.post_process(enc, None, add_special_tokens)

    def decode_bytes(self, ids: Sequence[int], skip_special_tokens: bool = True) -> bytes:
        """Ids back to the exact bytes (added tokens give their UTF-8 text).

        Args:
            ids: token ids (list, numpy array, tensor).
            skip_special_tokens: leave special tokens out.

        Returns:
            The bytes.

        Raises:
            VocabularyError: an id is neither a byte (0-255) nor an added token.

        >>> byte_tokenizer().decode_bytes([104, 105, 255])
        b'hi\\xff'
        """
        out = bytearray()
        added = self.added.tokens
        for i in _as_id_list(ids):
            at = added.get(i)
            if at is not None:
                if not (skip_special_tokens and at.special):
                    out += at.content.encode("utf-8", "surrogatepass")
            elif 0 <= i < 256:
                out.append(i)
            else:
                raise VocabularyError(
                    f"id {i} is neither a byte (0-255) nor an added token of this tokenizer "
                    f"(vocabulary size {self.get_vocab_size()})"
                )
        return bytes(out)


def byte_tokenizer(special_tokens: Sequence[str] = ()) -> ByteTokenizer:
    """A lossless byte-level tokenizer: ids 0-255 are the UTF-8 bytes, specials follow.

    Args:
        special_tokens: special tokens, given ids 256, 257, ... in order.

    Returns:
        A :class:`ByteTokenizer`.

    >>> tok = byte_tokenizer(["<eos>"])
    >>> tok.encode("é<eos>").ids
    [195, 169, 256]
    >>> tok.decode([195, 169, 256], skip_special_tokens=False)
    'é<eos>'
    """
    tok = ByteTokenizer(
        WordLevel(dict(BYTE_VOCAB), "<unk>"),
        pre_tokenizer=PreSequence(
            [
                ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False),
                Split({"Regex": "."}, "isolated"),
            ]
        ),
        decoder=ByteLevelDecoder(add_prefix_space=False, trim_offsets=False, use_regex=False),
    )
    if special_tokens:
        tok.add_special_tokens(list(special_tokens))
    return tok
