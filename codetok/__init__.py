"""codetok: syntax-aware code tokenization and a subword engine compatible with HF files.

The public names are re-exported here; everything else is importable from its own module
(``codetok.models``, ``codetok.normalizers``, ``codetok.code``, ``codetok.text``, ...).
"""

from .errors import CodetokError as CodetokError
from .formats import binary as _binary
from .formats import detect as _detect
from .formats import pretrained as _pretrained
from .formats.detect import load as load
from .formats.hub import from_pretrained as from_pretrained
from .tokenizer import entry_points as _entry_points
from .tokenizer.added_tokens import AddedToken as AddedToken
from .tokenizer.encoding import BatchEncoding as BatchEncoding
from .tokenizer.encoding import Encoding as Encoding
from .tokenizer.tokenizer import Tokenizer as Tokenizer

__version__ = "0.1.0"


def _train(*args, **kwargs):
    from .trainers.api import train

    return train(*args, **kwargs)


def _train_from_iterator(*args, **kwargs):
    from .trainers.api import train_from_iterator

    return train_from_iterator(*args, **kwargs)


# Tokenizer's loading, saving and training entry points are the work of the layers above it;
# this is the one module that sees them all (see codetok.tokenizer.entry_points). The
# trainers load on first use, as below.
_entry_points.provide(
    load_as=_detect.load_as,
    from_pretrained=from_pretrained,
    save_binary=_binary.save_binary,
    save_pretrained=_pretrained.save_pretrained,
    train=_train,
    train_from_iterator=_train_from_iterator,
)


def __getattr__(name: str):
    # The code front end (tree-sitter and its grammars) and the trainers load on first use.
    if name in ("CodeTokenizer", "CodeEncoding"):
        from . import code

        return getattr(code, name)
    if name in ("train_bpe", "train_wordpiece", "train_unigram"):
        from .trainers import api

        return getattr(api, name)
    raise AttributeError(f"module 'codetok' has no attribute {name!r}")


__all__ = [
    "AddedToken",
    "BatchEncoding",
    "CodeEncoding",
    "CodeTokenizer",
    "CodetokError",
    "Encoding",
    "Tokenizer",
    "from_pretrained",
    "load",
    "train_bpe",
    "train_unigram",
    "train_wordpiece",
    "__version__",
]
