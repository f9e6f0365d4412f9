"""BertNormalizer: BERT's cleaning, CJK spacing, accent stripping and lowercasing."""

from __future__ import annotations

from ..tokenizer.offsets import NormalizedString
from .base import Normalizer
from .unicode import _drop_matches, _lower_chars, _pinned, _pinned_form


class BertNormalizer(Normalizer):
    """BERT's normalizer: clean control chars, space out CJK, strip accents, lowercase.

    Args:
        clean_text: drop control characters and map whitespace to a plain space.
        handle_chinese_chars: put spaces around CJK ideographs.
        strip_accents: drop accents; ``None`` means "same as ``lowercase``".
        lowercase: lowercase the text.
    """

    type_name = "BertNormalizer"

    def __init__(
        self,
        clean_text: bool = True,
        handle_chinese_chars: bool = True,
        strip_accents: bool | None = None,
        lowercase: bool = True,
    ) -> None:
        self.clean_text = clean_text
        self.handle_chinese_chars = handle_chinese_chars
        self.strip_accents = strip_accents
        self.lowercase = lowercase

    def normalize(self, ns: NormalizedString) -> None:
        text = ns.text
        ascii_only = text.isascii()
        if self.clean_text:
            self._clean(ns)
        if self.handle_chinese_chars and not ascii_only:
            _space_cjk(ns)
        strip = self.lowercase if self.strip_accents is None else self.strip_accents
        if strip and not ns.text.isascii():
            _pinned_form(ns, "NFD")
            _drop_matches(ns, _pinned().mark)
        if self.lowercase:
            _lower_chars(ns)

    @staticmethod
    def _clean(ns: NormalizedString) -> None:
        # Controls (but tab/newline/CR), format and private-use chars, NUL and U+FFFD are
        # deleted, then whitespace becomes a plain space one for one.
        data = _pinned()
        _drop_matches(ns, data.drop)
        ns.map_chars(data.to_space.sub(" ", ns.text))


def _space_cjk(ns: NormalizedString) -> None:
    """Put a space on each side of every CJK ideograph (aligned to the ideograph)."""
    text = ns.text
    hits = [m.start() for m in _pinned().cjk.finditer(text)]
    if hits:
        ns.edit([(i, i + 1, [(f" {text[i]} ", i, i + 1)]) for i in hits])
