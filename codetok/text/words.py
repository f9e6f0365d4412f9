"""Rule-based word tokenization in the Penn Treebank style.

The :class:`Words` pre-tokenizer cuts text into words and punctuation with a fixed set of
rules, tried in this order at each position (the first rule that matches wins):

1. URLs (``https://…``, ``ftp://…``, ``www.…``), with balanced parentheses but without
   trailing sentence punctuation;
2. e-mail addresses;
3. dotted abbreviations of single letters (``U.S.``, ``e.g.``);
4. numbers: digits with optional thousands separators (``1,000,000``), decimals
   (``3.14``, ``.5``), an exponent, and a sign when it follows whitespace or an opening
   bracket (``-2`` but ``3-4`` is ``3`` ``-`` ``4``);
5. English clitics as the Penn Treebank splits them: ``can't`` → ``ca`` ``n't``,
   ``won't`` → ``wo`` ``n't``, ``they're`` → ``they`` ``'re`` and ``'s 'm 'd 'll 've``
   (either apostrophe, any case), plus ``cannot gonna gotta wanna gimme lemme`` →
   ``can not``, ``gon na``, …;
6. words: letters, digits and ``_``, keeping inner hyphens (``well-known``, unless
   ``split_hyphens``) and other inner apostrophes (``O'Neil``, ``o'clock``);
7. ``...`` and ``--`` runs; any other character that is not whitespace stands alone.

Whitespace is dropped. Tokens are exact substrings of the input (quotes are not rewritten
to PTB's backquotes), so offsets index the caller's text exactly. Sentence splitting and
abbreviation lists (``Mr.``) are out of scope.

:func:`words_tokenizer` wraps the pre-tokenizer in a WordLevel :class:`~codetok.Tokenizer`.
Its ``tokenizer.json`` stores the pre-tokenizer as ``{"type": "codetok.Words", ...}``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence

import regex

from ..models import WordLevel
from ..normalizers import Normalizer
from ..pre_tokenizers import PreTokenizer
from ..tokenizer.offsets import NormalizedString
from ..tokenizer.tokenizer import Tokenizer
from ._register import register
from .vocab import Corpus, finish

__all__ = ["Words", "words_tokenizer"]

_APOS = "['\u2019]"
_CLITIC_TAIL = r"(?i:s|m|d|ll|re|ve)(?!\w)"

_URL = r"""
    (?:(?i:[a-z][a-z0-9+.\-]*://)|(?i:www\.))
    (?:[^\s<>"'()\[\]{}]|\([^\s<>"'()]*\))*
    (?:[^\s<>"'()\[\]{}.,;:!?]|\([^\s<>"'()]*\))
"""
_EMAIL = r"[\w+\-]+(?:\.[\w+\-]+)*@\w[\w\-]*(?:\.\w[\w\-]*)+"
_ABBREV = r"(?<!\w)(?:[^\W\d_]\.){2,}"
_NUMBER = r"""
    (?:(?<![\w.])[+\-])?
    (?:(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?|(?<![\w.])\.\d+)
    (?:[eE][+\-]?\d+)?
    (?!\w)
"""
_FUSED = r"""
    (?<!\w)(?i:can(?=not(?!\w))|gon(?=na(?!\w))|got(?=ta(?!\w))
    |wan(?=na(?!\w))|gim(?=me(?!\w))|lem(?=me(?!\w)))
"""
_NT = rf"\w+?(?=(?i:n{_APOS}t)(?!\w))|(?i:n{_APOS}t)(?!\w)"
_CLITIC = rf"{_APOS}{_CLITIC_TAIL}"
_INNER_APOS = rf"{_APOS}(?!{_CLITIC_TAIL}|(?i:t)(?!\w))"
_RUNS = r"\.{2,}|-{2,}|\u2026"


def _compile(split_hyphens: bool) -> regex.Pattern[str]:
    joiner = _INNER_APOS if split_hyphens else rf"-|{_INNER_APOS}"
    word = rf"\w+(?:(?:{joiner})\w+)*"
    parts = [_URL, _EMAIL, _ABBREV, _NUMBER, _FUSED, _NT, _CLITIC, word, _RUNS, r"[^\w\s]"]
    return regex.compile("|".join(f"(?:{p})" for p in parts), regex.VERBOSE | regex.V0)


_PATTERNS = {False: _compile(False), True: _compile(True)}


@register
class Words(PreTokenizer):
    """Penn Treebank-style words, punctuation and clitics (see the module docstring).

    Args:
        split_hyphens: cut hyphenated words (``well-known`` → ``well`` ``-`` ``known``).

    >>> Words().pre_tokenize_str("They're sure it won't cost $3.50.")
    [('They', (0, 4)), ("'re", (4, 7)), ('sure', (8, 12)), ('it', (13, 15)), \
('wo', (16, 18)), ("n't", (18, 21)), ('cost', (22, 26)), ('$', (27, 28)), \
('3.50', (28, 32)), ('.', (32, 33))]
    """

    type_name = "codetok.Words"

    def __init__(self, split_hyphens: bool = False) -> None:
        self.split_hyphens = bool(split_hyphens)
        self._regex = _PATTERNS[self.split_hyphens]

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        text = ns.text
        if not text:
            return []
        return [ns.slice(*m.span()) for m in self._regex.finditer(text)]


def words_tokenizer(
    vocab: Mapping[str, int] | None = None,
    *,
    corpus: Corpus | None = None,
    files: Iterable[str | os.PathLike[str]] | None = None,
    min_frequency: int = 1,
    max_size: int | None = None,
    unk_token: str | None = "[UNK]",
    special_tokens: Sequence[str] = (),
    normalizer: Normalizer | None = None,
    split_hyphens: bool = False,
) -> Tokenizer:
    """A word-level tokenizer over :class:`Words` pieces.

    Args:
        vocab: token -> id; when ``None`` the vocabulary is learned from ``corpus`` /
            ``files`` (or holds only the special and unknown tokens).
        corpus: texts (``str``) and/or files (``pathlib.Path``) to learn the vocabulary from.
        files: more files to learn from, read line by line.
        min_frequency: keep pieces seen at least this often.
        max_size: the largest vocabulary, special and unknown tokens included.
        unk_token: stands for pieces outside the vocabulary (added when missing).
        special_tokens: never split, placed first in a learned vocabulary.
        normalizer: optional, e.g. ``codetok.normalizers.NFC()``.
        split_hyphens: see :class:`Words`.

    Returns:
        A :class:`~codetok.Tokenizer`; ``decode`` joins tokens with spaces (use
        ``clean_up_tokenization_spaces=True`` to re-attach punctuation and clitics).

    Raises:
        ConfigurationError: both ``vocab`` and a corpus, or bad sizes.

    >>> tok = words_tokenizer(corpus=["I can't go.", "I can go."])
    >>> tok.encode("I can't!").tokens
    ['I', 'ca', "n't", '[UNK]']
    """
    tok = Tokenizer(WordLevel(), normalizer=normalizer, pre_tokenizer=Words(split_hyphens))
    return finish(
        tok,
        vocab=vocab,
        corpus=corpus,
        files=files,
        min_frequency=min_frequency,
        max_size=max_size,
        unk_token=unk_token,
        special_tokens=special_tokens,
    )
