"""Unicode data and text machinery the components share: HF's Oniguruma regexes through
the ``regex`` module (:mod:`~codetok.unicode.hf_regex`), the GPT-2 byte alphabet
(:mod:`~codetok.unicode.byte_alphabet`); :mod:`codetok.unicode.generated` holds the
generated tables (the grapheme cluster walker that reads one of them is the reference twin
:mod:`codetok.reference.grapheme`)."""
