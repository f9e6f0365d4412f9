"""The shards' columns for a batch of files, as a function for ``datasets.Dataset.map``.

:class:`BatchEncoder` is for people whose pipeline already lives in 🤗 ``datasets``:
``dataset.map(BatchEncoder(job), batched=True, num_proc=N)`` tokenizes a column of file
paths in ``N`` processes with the same encoder, hence the same ids and kinds, as
:func:`~codetok.corpus.build_corpus` writes into shards. It pickles as its small
:class:`~codetok.corpus.CorpusJob` (``datasets`` sends the function to every process and
hashes it for its cache), and each process loads the tokenizer once.

A file that cannot be used keeps its row (``datasets`` needs one row out per row in when
the other columns stay): empty ``ids`` and the reason in ``error``.

Not handled here: pairs mode, whose rows are functions, not files (use
:func:`~codetok.corpus.build_corpus`).
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigurationError
from .job import CorpusJob
from .sources import SourceFile, read_source

__all__ = ["BatchEncoder"]


class BatchEncoder:
    """Tokenize a batch of files: ``{"path": [...], "language": [...]}`` -> ``ids``
    (and ``kinds`` from a code tokenizer or CodeBERT mode) and ``error``.

    Args:
        job: the encoder's settings (default: the default code tokenizer); not pairs mode.
        path_column: the column holding file paths.
        language_column: the column holding language names.

    Raises:
        ConfigurationError: ``job`` is in pairs mode.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a.py")
    >>> _ = open(path, "w").write("x = 1\\n")
    >>> out = BatchEncoder()({"path": [path], "language": ["python"]})
    >>> len(out["ids"][0]), out["error"]
    (4, [None])
    """

    def __init__(
        self,
        job: CorpusJob | None = None,
        *,
        path_column: str = "path",
        language_column: str = "language",
    ) -> None:
        self.job = CorpusJob() if job is None else job
        if self.job.mode == "pairs":
            raise ConfigurationError(
                "BatchEncoder makes one row per file; pairs mode makes one per function: "
                "use build_corpus(..., CorpusJob(mode='pairs'))"
            )
        self.path_column = path_column
        self.language_column = language_column

    def __call__(self, batch: dict[str, list[Any]]) -> dict[str, list[Any]]:
        """The columns for one batch (see the class docstring)."""
        enc = self.job.encoder()
        ids: list[list[int]] = []
        kinds: list[list[int]] = []
        errors: list[str | None] = []
        for path, language in zip(batch[self.path_column], batch[self.language_column]):
            data, reason = read_source(
                path, max_bytes=self.job.max_file_bytes, follow_symlinks=self.job.follow_symlinks
            )
            if data is not None:
                try:
                    got, got_kinds = enc.encode_file(data, SourceFile(path, path, language, 0, 0))
                except Exception as e:  # recorded in the row, as a shard records it
                    data, reason = None, f"not tokenized ({type(e).__name__}: {e})"
            if data is None:
                ids.append([])
                kinds.append([])
                errors.append(reason)
                continue
            ids.append(got.tolist())
            kinds.append([] if got_kinds is None else got_kinds.tolist())
            errors.append(None)
        out: dict[str, list[Any]] = {"ids": ids}
        if enc.has_kinds:
            out["kinds"] = kinds
        out["error"] = errors
        return out
