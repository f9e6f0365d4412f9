"""codetok: syntax-aware code tokenization and a subword engine compatible with HF files.

The public names are re-exported here; everything else is importable from its own module
(``codetok.models``, ``codetok.normalizers``, ``codetok.code``, ``codetok.text``, ...).
"""

from .errors import CodetokError as CodetokError
from .formats.detect import load as load
from .formats.hub import from_pretrained as from_pretrained
from .tokenizer.added_tokens import AddedToken as AddedToken
from .tokenizer.encoding import BatchEncoding as BatchEncoding
from .tokenizer.encoding import Encoding as Encoding
from .tokenizer.tokenizer import Tokenizer as Tokenizer

__version__ = "0.1.0"


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
