"""The ARPAbet phoneme set of CMUdict, its stress marks, and the table to IPA.

CMUdict writes American English with 39 ARPAbet phonemes: 15 vowels, each with a stress
digit (``0`` unstressed, ``1`` primary, ``2`` secondary stress), and 24 consonants. So a
pronunciation uses up to 69 distinct symbols (``AH0``, ``AH1``, ``AH2``, ``B``, ...).

The IPA table is the usual General American reading of ARPAbet. Two vowels change quality
with stress: unstressed ``AH0`` is schwa ``ə`` (stressed ``ʌ``) and unstressed ``ER0`` is
``ɚ`` (stressed ``ɝ``), so the IPA form uses the stress digit even when stress marks are
left out. IPA puts a stress mark before its syllable; without syllabification codetok puts
it on the stressed vowel itself (``ˈæ``), which keeps one token per phoneme.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import ConfigurationError, VocabularyError

__all__ = [
    "VOWELS",
    "CONSONANTS",
    "PHONEMES",
    "STRESSED_PHONEMES",
    "IPA",
    "convert",
    "phoneme_symbols",
    "strip_stress",
    "to_ipa",
]

#: The 15 ARPAbet vowels (they carry a stress digit in CMUdict).
VOWELS: tuple[str, ...] = (
    "AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW",
)  # fmt: skip

#: The 24 ARPAbet consonants.
CONSONANTS: tuple[str, ...] = (
    "B", "CH", "D", "DH", "F", "G", "HH", "JH", "K", "L", "M", "N", "NG", "P", "R", "S",
    "SH", "T", "TH", "V", "W", "Y", "Z", "ZH",
)  # fmt: skip

#: The 39 phonemes without stress, vowels first.
PHONEMES: tuple[str, ...] = VOWELS + CONSONANTS

#: The 69 symbols of CMUdict: each vowel with stress 0, 1 and 2, then the consonants.
STRESSED_PHONEMES: tuple[str, ...] = tuple(f"{v}{s}" for v in VOWELS for s in "012") + CONSONANTS

#: ARPAbet (without stress) -> IPA, General American.
IPA: dict[str, str] = {
    "AA": "ɑ", "AE": "æ", "AH": "ʌ", "AO": "ɔ", "AW": "aʊ", "AY": "aɪ", "EH": "ɛ",
    "ER": "ɝ", "EY": "eɪ", "IH": "ɪ", "IY": "i", "OW": "oʊ", "OY": "ɔɪ", "UH": "ʊ",
    "UW": "u", "B": "b", "CH": "tʃ", "D": "d", "DH": "ð", "F": "f", "G": "ɡ", "HH": "h",
    "JH": "dʒ", "K": "k", "L": "l", "M": "m", "N": "n", "NG": "ŋ", "P": "p", "R": "ɹ",
    "S": "s", "SH": "ʃ", "T": "t", "TH": "θ", "V": "v", "W": "w", "Y": "j", "Z": "z",
    "ZH": "ʒ",
}  # fmt: skip

#: Unstressed vowels whose IPA quality differs from the stressed one.
_REDUCED = {"AH0": "ə", "ER0": "ɚ"}
_MARKS = {"0": "", "1": "ˈ", "2": "ˌ"}
_KNOWN = frozenset(STRESSED_PHONEMES) | frozenset(PHONEMES)


def strip_stress(phoneme: str) -> str:
    """``phoneme`` without its stress digit.

    >>> strip_stress("AH0"), strip_stress("K")
    ('AH', 'K')
    """
    return phoneme[:-1] if phoneme[-1:] in _MARKS else phoneme


def _check(phoneme: str) -> None:
    if phoneme not in _KNOWN:
        raise VocabularyError(
            f"{phoneme!r} is not an ARPAbet phoneme of CMUdict (vowels take a stress "
            f"digit 0-2, e.g. 'AH0'; consonants none, e.g. 'K')"
        )


def to_ipa(phoneme: str, *, stress: bool = True) -> str:
    """The IPA symbol of one ARPAbet phoneme.

    Args:
        phoneme: an ARPAbet symbol, with or without a stress digit.
        stress: put ``ˈ`` (primary) or ``ˌ`` (secondary) before a stressed vowel.

    Raises:
        VocabularyError: ``phoneme`` is not ARPAbet.

    >>> [to_ipa(p) for p in ["K", "AE1", "T", "AH0"]]
    ['k', 'ˈæ', 't', 'ə']
    >>> to_ipa("ER1", stress=False), to_ipa("ER0", stress=False)
    ('ɝ', 'ɚ')
    """
    _check(phoneme)
    reduced = _REDUCED.get(phoneme)
    if reduced is not None:
        return reduced
    base = strip_stress(phoneme)
    mark = _MARKS[phoneme[-1]] if stress and base != phoneme else ""
    return mark + IPA[base]


def phoneme_symbols(alphabet: str = "arpabet", *, stress: bool = True) -> list[str]:
    """Every symbol a pronunciation can have in ``alphabet``, in a fixed order.

    Args:
        alphabet: ``"arpabet"`` or ``"ipa"``.
        stress: with stress digits (ARPAbet) or marks (IPA).

    Raises:
        ConfigurationError: an unknown alphabet.

    >>> len(phoneme_symbols()), len(phoneme_symbols(stress=False))
    (69, 39)
    >>> len(phoneme_symbols("ipa")), len(phoneme_symbols("ipa", stress=False))
    (69, 41)
    """
    if alphabet == "arpabet":
        return list(STRESSED_PHONEMES if stress else PHONEMES)
    if alphabet == "ipa":
        return _unique(to_ipa(p, stress=stress) for p in STRESSED_PHONEMES)
    raise ConfigurationError(f"alphabet must be 'arpabet' or 'ipa', got {alphabet!r}")


def convert(
    phonemes: Iterable[str], alphabet: str = "arpabet", *, stress: bool = True
) -> list[str]:
    """A CMUdict pronunciation in ``alphabet``, with or without stress.

    Args:
        phonemes: ARPAbet symbols with stress digits (as CMUdict writes them).
        alphabet: ``"arpabet"`` or ``"ipa"``.
        stress: keep stress digits (ARPAbet) or write stress marks (IPA).

    Raises:
        VocabularyError: a symbol is not ARPAbet.
        ConfigurationError: an unknown alphabet.

    >>> convert(["K", "AE1", "T"], stress=False)
    ['K', 'AE', 'T']
    >>> convert(["B", "AH0", "N", "AE1", "N", "AH0"], "ipa")
    ['b', 'ə', 'n', 'ˈæ', 'n', 'ə']
    """
    if alphabet == "ipa":
        return [to_ipa(p, stress=stress) for p in phonemes]
    if alphabet != "arpabet":
        raise ConfigurationError(f"alphabet must be 'arpabet' or 'ipa', got {alphabet!r}")
    out = []
    for p in phonemes:
        _check(p)
        out.append(p if stress else strip_stress(p))
    return out


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
