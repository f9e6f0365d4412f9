"""Unicode data and text machinery the components share: HF's Oniguruma regexes through
the ``regex`` module (:mod:`~codetok.unicode.hf_regex`), grapheme clusters
(:mod:`~codetok.unicode.grapheme`), the GPT-2 byte alphabet
(:mod:`~codetok.unicode.byte_alphabet`); :mod:`codetok.unicode.generated` holds the
generated tables."""
