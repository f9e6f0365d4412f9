"""The ``codetok.Phonemes`` model: one word in, its phonemes out, each with letter offsets.

The phoneme tokenizer (:mod:`.tokenizer`) cuts text into words, numbers and punctuation;
this model turns each piece into tokens. A word is pronounced by the first of these that
knows it:

1. your ``lexicon`` (words you add, or a different pronunciation chosen);
2. CMUdict (:meth:`Lexicon.cmudict <.lexicon.Lexicon.cmudict>`), first-listed pronunciation;
3. for a word with hyphens or dots (``well-known``, ``u.s.``) that neither holds whole:
   each part in turn (steps 1, 2 and 4), the hyphens and dots silent;
4. the G2P model trained from CMUdict (:class:`.g2p.G2P`), for words of up to
   :data:`MAX_G2P_LETTERS` letters ``a``-``z`` and apostrophes (its time grows with the
   length: a 64-letter word takes about 40 ms);
5. otherwise the unknown token (a word in another script, an overlong one, or any word
   with ``g2p=False``).

Words are looked up in lowercase with ``’`` read as ``'``. A piece without letters
(punctuation, numbers) is looked up whole in the vocabulary, else it is the unknown token.

Offsets (``offsets="letters"``, the default) are the letters that spell each phoneme: the
G2P model's segmentation for a predicted word, and for a dictionary word the best
segmentation of its known pronunciation under the alignment model (:func:`.alignment.align`).
A silent letter, hyphen or dot joins the phoneme before it (the first phoneme for a
word-initial one), so a word's phonemes cover all of it. ``offsets="word"`` gives every phoneme the
whole word. An optional ``word_boundary`` token follows each word, with empty offsets at
the word's end.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...components.registry import registry
from ...errors import ConfigurationError, FormatError, VocabularyError
from ...models.base import DictVocabModel, Token
from .arpabet import STRESSED_PHONEMES, convert, phoneme_symbols
from .g2p import G2P
from .lexicon import Lexicon

__all__ = ["MAX_G2P_LETTERS", "Phonemes"]

_PARTS = re.compile(r"[^\-.]+")
_ALPHABETS = ("arpabet", "ipa")
_OFFSETS = ("letters", "word")
_DICTIONARIES = ("cmudict", None)
#: The longest word the G2P model is asked about (CMUdict's longest word has 28 letters).
MAX_G2P_LETTERS = 64
#: Pieces cached per model; the cache is emptied when it grows past this.
_CACHE_SIZE = 100_000

Span = tuple[int, int]


def _fold(piece: str) -> str:
    """Lowercase, one character for one (so spans stay valid), ``’`` read as ``'``."""
    if piece.isascii():
        return piece.lower()
    out = []
    for c in piece:
        low = c.lower()
        out.append("'" if c == "\u2019" else low if len(low) == 1 else c)
    return "".join(out)


def _tile(spans: list[Span], n: int) -> list[Span]:
    """Widen letter spans (in order) so they cover ``0 .. n``: a silent letter joins the
    span before it, a leading one the first span."""
    out: list[Span] = []
    i, m = 0, len(spans)
    while i < m:
        start = spans[i][0]
        j = i + 1
        while j < m and spans[j][0] == start:
            j += 1
        span = (0 if i == 0 else start, spans[j][0] if j < m else n)
        out.extend([span] * (j - i))
        i = j
    return out


class Phonemes(DictVocabModel):
    """Words to phoneme tokens through a lexicon, CMUdict and a G2P model (module docstring).

    Args:
        vocab: token -> id; must hold every phoneme symbol of ``alphabet`` / ``stress``
            (:func:`~codetok.text.phonemes.arpabet.phoneme_symbols`), ``unk_token`` and
            ``word_boundary`` when set.
        unk_token: stands for what cannot be pronounced; ``None`` raises instead.
        alphabet: ``"arpabet"`` (CMUdict's symbols) or ``"ipa"``.
        stress: keep stress digits (ARPAbet) or marks (IPA).
        word_boundary: a token to put after each word, or ``None``.
        offsets: ``"letters"`` or ``"word"``.
        lexicon: your own pronunciations (a :class:`~.lexicon.Lexicon` or a mapping it
            accepts), looked up before CMUdict.
        dictionary: ``"cmudict"``, or ``None`` to use only ``lexicon`` and the G2P model.
        g2p: predict words that no dictionary holds; ``False`` gives them ``unk_token``.

    Raises:
        ConfigurationError: an unknown option value.
        VocabularyError: ``vocab`` lacks a symbol the model can produce.

    >>> from codetok.text.phonemes.arpabet import phoneme_symbols
    >>> vocab = {t: i for i, t in enumerate(["[UNK]", *phoneme_symbols()])}
    >>> model = Phonemes(vocab)
    >>> [(t.value, t.offsets) for t in model.tokenize("Phone")]
    [('F', (0, 2)), ('OW1', (2, 3)), ('N', (3, 5))]
    >>> model.pronounce("codetok")
    ['K', 'OW1', 'D', 'IH0', 'T', 'AA2', 'K']
    """

    type_name = "codetok.Phonemes"

    def __init__(
        self,
        vocab: Mapping[str, int],
        unk_token: str | None = "[UNK]",
        *,
        alphabet: str = "arpabet",
        stress: bool = True,
        word_boundary: str | None = None,
        offsets: str = "letters",
        lexicon: Lexicon | Mapping[str, Any] | None = None,
        dictionary: str | None = "cmudict",
        g2p: bool = True,
    ) -> None:
        _choice("alphabet", alphabet, _ALPHABETS)
        _choice("offsets", offsets, _OFFSETS)
        _choice("dictionary", dictionary, _DICTIONARIES)
        if word_boundary is not None and (not isinstance(word_boundary, str) or not word_boundary):
            raise ConfigurationError(
                f"word_boundary must be a non-empty str or None, got {word_boundary!r}"
            )
        self.vocab: dict[str, int] = dict(vocab)
        self.vocab_r = {i: t for t, i in self.vocab.items()}
        self.unk_token = unk_token
        self.alphabet = alphabet
        self.stress = bool(stress)
        self.word_boundary = word_boundary
        self.offsets = offsets
        if lexicon is None or isinstance(lexicon, Lexicon):
            self.lexicon = lexicon
        else:
            self.lexicon = Lexicon(lexicon)
        self.dictionary = dictionary
        self.g2p = bool(g2p)
        needed = phoneme_symbols(alphabet, stress=stress)
        needed += [t for t in (unk_token, word_boundary) if t is not None]
        missing = [t for t in needed if t not in self.vocab]
        if missing:
            raise VocabularyError(
                f"the phoneme vocabulary lacks {missing[:8]}{' ...' if len(missing) > 8 else ''}; "
                "build it with phoneme_tokenizer() or include every symbol of "
                f"phoneme_symbols({alphabet!r}, stress={self.stress})"
            )
        # ARPAbet (with stress) -> (id, output symbol), for every phoneme CMUdict uses.
        self._out = {
            p: (self.vocab[s], s)
            for p, s in zip(STRESSED_PHONEMES, convert(STRESSED_PHONEMES, alphabet, stress=stress))
        }
        # Filled in place (setting attributes would count as a change of the model).
        self._cache: dict[str, list[Token]] = {}
        self._loaded: dict[str, Any] = {}

    # ------------------------------------------------------------------ sources
    def _dict(self) -> Lexicon | None:
        if self.dictionary is None:
            return None
        found = self._loaded.get("dict")
        if found is None:
            found = self._loaded["dict"] = Lexicon.cmudict()
        return found

    def _model(self) -> G2P:
        found = self._loaded.get("g2p")
        if found is None:
            found = self._loaded["g2p"] = G2P.default()
        return found

    def _known(self, key: str) -> list[str] | None:
        """A pronunciation from the lexicon or the dictionary, else ``None``."""
        for source in (self.lexicon, self._dict()):
            if source is not None:
                pron = source.first(key)
                if pron is not None:
                    return pron
        return None

    def _word(self, key: str) -> list[tuple[str, Span]] | None:
        """ARPAbet phonemes of a folded word with letter spans, or ``None`` if unknown."""
        pron = self._known(key)
        if pron is not None:
            return self._spans(key, pron)
        if "-" in key or "." in key:
            out: list[tuple[str, Span]] = []
            for m in _PARTS.finditer(key):
                part = self._word(m.group())
                if part is None:
                    return None
                out.extend((p, (s + m.start(), e + m.start())) for p, (s, e) in part)
            return out or None
        if not self.g2p or len(key) > MAX_G2P_LETTERS:
            return None
        model = self._model()
        if any(c not in model.letters for c in key):
            return None
        return model.predict_aligned(key)

    def _spans(self, key: str, pron: list[str]) -> list[tuple[str, Span]]:
        """Letter spans of a known pronunciation (hyphens and dots of ``key`` are silent)."""
        spans = None
        if self.offsets == "letters":
            model = self._model()
            at = [i for i, c in enumerate(key) if c not in "-."]
            letters = "".join(key[i] for i in at)
            if letters and all(c in model.letters for c in letters):
                found = model.align(letters, pron)
                if found is not None:
                    spans = [(at[s], at[e - 1] + 1) for s, e in found]
        if spans is None:
            spans = [(0, len(key))] * len(pron)
        return list(zip(pron, spans))

    # ------------------------------------------------------------------ public
    def pronounce(self, word: str) -> list[str]:
        """The phonemes of one word, in the model's alphabet (no boundary token).

        Raises:
            VocabularyError: ``word`` is not a str, has no letter, or cannot be pronounced
                (letters outside ``a``-``z`` that no lexicon holds, or ``g2p=False``).

        >>> from codetok.text.phonemes import phoneme_tokenizer
        >>> phoneme_tokenizer(alphabet="ipa").model.pronounce("Tokyo")
        ['t', 'ˈoʊ', 'k', 'i', 'ˌoʊ']
        >>> phoneme_tokenizer().model.pronounce("42")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        codetok.errors.VocabularyError: '42' has no letter; ...
        """
        if not isinstance(word, str):
            raise VocabularyError(f"a word to pronounce must be a str, got {type(word).__name__}")
        if not any(c.isalpha() for c in word):
            raise VocabularyError(
                f"{word!r} has no letter; pronounce() takes one word (letters, with inner "
                "apostrophes, hyphens or dots); encode() takes any text"
            )
        found = self._word(_fold(word))
        if found is None:
            why = (
                "g2p=False"
                if not self.g2p
                else f"longer than {MAX_G2P_LETTERS} letters"
                if len(word) > MAX_G2P_LETTERS
                else "letters outside a-z and the apostrophe"
            )
            raise VocabularyError(
                f"cannot pronounce {word!r}: no lexicon holds it and the G2P model cannot "
                f"({why}); add it to lexicon= or strip accents first"
            )
        return [self._out[p][1] for p, _ in found]

    def tokenize(self, piece: str) -> list[Token]:
        cached = self._cache.get(piece)
        if cached is None:
            cached = self._tokenize(piece)
            if len(self._cache) >= _CACHE_SIZE:
                self._cache.clear()
            self._cache[piece] = cached
        return list(cached)

    def _tokenize(self, piece: str) -> list[Token]:
        n = len(piece)
        if not any(c.isalpha() for c in piece):
            tid = self.vocab.get(piece)
            return [Token(tid, piece, (0, n))] if tid is not None else [self._unk(piece)]
        found = self._word(_fold(piece))
        if found is None:
            out = [self._unk(piece)]
        else:
            spans = _tile([s for _, s in found], n)
            out = [Token(*self._out[p], span) for (p, _), span in zip(found, spans)]
        if self.word_boundary is not None:
            out.append(Token(self.vocab[self.word_boundary], self.word_boundary, (n, n)))
        return out

    def _unk(self, piece: str) -> Token:
        if self.unk_token is None:
            raise VocabularyError(
                f"cannot pronounce {piece!r} and the model has no unknown token; set unk_token"
            )
        return Token(self.vocab[self.unk_token], self.unk_token, (0, len(piece)))

    def clear_cache(self) -> None:
        self._cache.clear()

    # ------------------------------------------------------------------ serialization
    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type_name,
            "vocab": dict(sorted(self.vocab.items(), key=lambda kv: kv[1])),
            "unk_token": self.unk_token,
            "alphabet": self.alphabet,
            "stress": self.stress,
            "word_boundary": self.word_boundary,
            "offsets": self.offsets,
            "dictionary": self.dictionary,
            "g2p": self.g2p,
            "lexicon": None if self.lexicon is None else self.lexicon.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, path: str | None = None) -> Phonemes:
        vocab = data.get("vocab")
        if not isinstance(vocab, dict):
            raise FormatError(
                "codetok.Phonemes needs a 'vocab' object of token -> id",
                path=path,
                where="model.vocab",
            )
        options = {k: data[k] for k in _OPTIONS if k in data}
        try:
            return cls(vocab, data.get("unk_token", "[UNK]"), **options)
        except (ConfigurationError, VocabularyError) as e:
            raise FormatError(f"bad codetok.Phonemes model: {e}", path=path, where="model") from e

    def __repr__(self) -> str:
        return (
            f"Phonemes(alphabet={self.alphabet!r}, stress={self.stress}, "
            f"vocab_size={len(self.vocab)})"
        )


_OPTIONS = ("alphabet", "stress", "word_boundary", "offsets", "lexicon", "dictionary", "g2p")


def _choice(name: str, value: object, allowed: Sequence[object]) -> None:
    if value not in allowed:
        raise ConfigurationError(
            f"{name} must be one of {', '.join(repr(a) for a in allowed)}; got {value!r}"
        )


registry("model").register(Phonemes)
