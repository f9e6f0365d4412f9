"""codetok: syntax-aware code tokenization and a subword engine compatible with HF files."""

from .added_tokens import AddedToken as AddedToken
from .encoding import BatchEncoding as BatchEncoding
from .encoding import Encoding as Encoding
from .errors import CodetokError as CodetokError
from .tokenizer import Tokenizer as Tokenizer

__version__ = "0.1.0"

__all__ = ["AddedToken", "BatchEncoding", "CodetokError", "Encoding", "Tokenizer", "__version__"]
