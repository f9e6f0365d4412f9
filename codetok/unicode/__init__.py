"""Unicode data and text machinery the components share: HF's Oniguruma regexes through
the ``regex`` module (:mod:`~codetok.unicode.hf_regex`), the GPT-2 byte alphabet
(:mod:`~codetok.unicode.byte_alphabet`); :mod:`codetok.unicode.generated` holds the
generated tables (the grapheme cluster walker that reads one of them is the reference twin
:mod:`codetok.reference.grapheme`)."""


def __getattr__(name: str):
    # hf_regex (and ``regex`` with it) is imported on first use, not with ``codetok``.
    if name == "hf_regex":
        import importlib

        return importlib.import_module(f"{__name__}.hf_regex")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
