"""Grapheme-to-phoneme conversion with a joint-sequence (graphone n-gram) model.

A word and its pronunciation are modelled together as one sequence of graphones (letter
chunks with the phonemes they spell, see :mod:`.alignment`), scored by an n-gram model
over graphones (:mod:`.ngram`). To pronounce a new word, :meth:`G2P.predict` searches the
graphone sequences whose letters spell the word and returns the phonemes of the most
likely one (a beam search over letter positions, recombining paths that reach the same
n-gram history). The letters of each graphone give every phoneme its span in the word.

The model codetok ships (:meth:`G2P.default`, ``codetok/data/g2p_cmudict.npz``) is trained
on the CMU Pronouncing Dictionary by ``corpora/build_g2p_model.py`` (see
:mod:`.training`), without the held-out words that ``benchmarks/phonemes_eval.py``
scores it on. It knows the letters ``a``-``z`` and the apostrophe, lowercase; callers
fold case and accents first (:mod:`.model` does).

Not here: dictionary lookup (:mod:`.lexicon`), training (:mod:`.training`).
"""

from __future__ import annotations

import io
import json
import os
import threading
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import FormatError, NotFoundError, VocabularyError
from .alignment import Graphone, align, shapes_of
from .ngram import NgramArrays

__all__ = ["G2P", "DEFAULT_MODEL"]

#: The shipped model file.
DEFAULT_MODEL = Path(__file__).resolve().parents[2] / "data" / "g2p_cmudict.npz"

_FORMAT = "codetok-g2p/1"


class G2P:
    """A joint-sequence G2P model: graphone inventory plus an n-gram model over graphones.

    Build one with :func:`~codetok.text.phonemes.training.train_g2p` or load one with
    :meth:`load` / :meth:`default`.

    Args:
        graphones: the graphone of each unit id.
        ngram: the n-gram model over unit ids (the end token is ``len(graphones)``).
        align_scores: graphone -> log-probability from the alignment model, used to align
            a given pronunciation to its word (:meth:`align`).
        info: free-form facts about the training (saved with the model).
        beam: histories kept per letter position while decoding.

    >>> g2p = G2P.default()
    >>> g2p.predict("codetok")
    ['K', 'OW1', 'D', 'IH0', 'T', 'AA2', 'K']
    """

    def __init__(
        self,
        graphones: Sequence[Graphone],
        ngram: NgramArrays,
        align_scores: Mapping[Graphone, float],
        info: Mapping[str, Any] | None = None,
        *,
        beam: int = 24,
    ) -> None:
        self.graphones = [(g, tuple(p)) for g, p in graphones]
        self.ngram = ngram
        self.align_scores = dict(align_scores)
        self.info = dict(info or {})
        self.beam = beam
        by_letters: dict[str, list[int]] = {}
        for uid, (letters, _) in enumerate(self.graphones):
            by_letters.setdefault(letters, []).append(uid)
        self._units = {k: np.array(v, dtype=np.int64) for k, v in by_letters.items()}
        self.letters = frozenset(c for k in by_letters for c in k)
        self._max_chunk = max((len(k) for k in by_letters), default=1)
        self._shapes = shapes_of(self.align_scores)

    _default: G2P | None = None
    _lock = threading.Lock()

    @classmethod
    def default(cls) -> G2P:
        """The model trained on CMUdict that ships with codetok (loaded once, on first use).

        Raises:
            NotFoundError: the data file is missing from the installation.
        """
        with cls._lock:
            if cls._default is None:
                cls._default = cls.load(DEFAULT_MODEL)
            return cls._default

    def predict(self, word: str) -> list[str]:
        """The most likely pronunciation of ``word`` (ARPAbet with stress digits).

        Raises:
            VocabularyError: ``word`` is empty or has a character the model does not
                know (see :attr:`letters`).

        >>> " ".join(G2P.default().predict("activationist"))
        'AE1 K T AH0 V EY1 SH AH0 N IH0 S T'
        """
        return [p for p, _ in self.predict_aligned(word)]

    def predict_aligned(self, word: str) -> list[tuple[str, tuple[int, int]]]:
        """:meth:`predict` with the span of the letters that spell each phoneme.

        >>> G2P.default().predict_aligned("ax")
        [('AE1', (0, 1)), ('K', (1, 2)), ('S', (1, 2))]
        """
        self._check(word)
        path = self._search(word)
        out: list[tuple[str, tuple[int, int]]] = []
        pos = 0
        for uid in path:
            letters, phones = self.graphones[uid]
            span = (pos, pos + len(letters))
            out.extend((p, span) for p in phones)
            pos = span[1]
        return out

    def align(self, word: str, phonemes: Sequence[str]) -> list[tuple[int, int]] | None:
        """The letter span of each phoneme of a known pronunciation of ``word``.

        Returns ``None`` when the pronunciation cannot be cut into known graphones (for
        example more than two phonemes for one letter).

        >>> G2P.default().align("phone", ["F", "OW1", "N"])
        [(0, 1), (2, 3), (3, 4)]
        """
        return align(word, phonemes, self.align_scores, self._shapes)

    def _check(self, word: str) -> None:
        if not isinstance(word, str) or not word:
            raise VocabularyError(f"G2P needs a non-empty word, got {word!r}")
        bad = sorted({c for c in word if c not in self.letters})
        if bad:
            known = "".join(sorted(self.letters))
            raise VocabularyError(
                f"cannot pronounce {word!r}: {''.join(bad)!r} is not among the letters the "
                f"G2P model knows ({known!r}); lowercase the word and strip accents first"
            )

    def _search(self, word: str) -> list[int]:
        """Unit ids of the best graphone path through ``word`` (beam search)."""
        ng = self.ngram
        n = len(word)
        # Per position: (nodes, scores, previous position, previous index, unit).
        empty = np.zeros(0, dtype=np.int64)
        start = (np.array([ng.bos_node]), np.zeros(1), empty, empty, empty)
        beams: list[tuple[np.ndarray, ...]] = [start]
        for t in range(1, n + 1):
            parts = []
            for a in range(1, min(self._max_chunk, t) + 1):
                units = self._units.get(word[t - a : t])
                nodes, scores = beams[t - a][0], beams[t - a][1]
                if units is None or not len(nodes):
                    continue
                src = np.repeat(np.arange(len(nodes)), len(units))
                uid = np.tile(units, len(nodes))
                lp, nxt = ng.score(nodes[src], uid)
                parts.append((nxt, scores[src] + lp, np.full(len(src), t - a), src, uid))
            if not parts:
                beams.append((empty, np.zeros(0), empty, empty, empty))
                continue
            nxt, score, prev, src, uid = (np.concatenate(x) for x in zip(*parts))
            order = np.lexsort((-score, nxt))
            first = np.ones(len(order), dtype=bool)
            first[1:] = nxt[order[1:]] != nxt[order[:-1]]
            keep = order[first]
            if len(keep) > self.beam:
                keep = keep[np.argpartition(-score[keep], self.beam)[: self.beam]]
            beams.append((nxt[keep], score[keep], prev[keep], src[keep], uid[keep]))
        nodes, scores = beams[n][0], beams[n][1]
        if not len(nodes):
            raise VocabularyError(f"the G2P model finds no graphones that spell {word!r}")
        eos = np.full(len(nodes), len(self.graphones))
        final = scores + ng.score(nodes, eos)[0]
        k = int(np.argmax(final))
        path: list[int] = []
        t = n
        while t > 0:
            _, _, prev, src, uid = beams[t]
            path.append(int(uid[k]))
            t, k = int(prev[k]), int(src[k])
        path.reverse()
        return path

    # ------------------------------------------------------------------ files
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model as one compressed ``.npz`` file (no pickled objects).

        The file is byte-for-byte the same for the same model: the zip entries carry a
        fixed date, so a rebuild can be checked against the shipped file.
        """
        ng = self.ngram
        scores = [self.align_scores.get(g, -np.inf) for g in self.graphones]
        header = {
            "format": _FORMAT,
            "order": ng.order,
            "vocab_size": ng.vocab_size,
            "graphones": [[g, " ".join(p)] for g, p in self.graphones],
            "info": self.info,
        }
        arrays = {
            "header": np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8),
            "align_scores": np.array(scores, dtype=np.float32),
            **{name: getattr(ng, name) for name in NgramArrays.ARRAYS},
        }
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, array in arrays.items():
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                buf = io.BytesIO()
                np.lib.format.write_array(buf, np.ascontiguousarray(array), allow_pickle=False)
                zf.writestr(info, buf.getvalue())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> G2P:
        """Read a model written by :meth:`save`.

        Raises:
            NotFoundError: no file at ``path``.
            FormatError: the file is not a codetok G2P model.
        """
        p = os.fspath(path)
        try:
            data = np.load(p, allow_pickle=False)
        except FileNotFoundError as e:
            raise NotFoundError(f"{p}: no G2P model file here") from e
        except (OSError, ValueError) as e:
            raise FormatError(f"not a G2P model file ({e})", path=p) from e
        with data:
            try:
                header = json.loads(bytes(data["header"]).decode("utf-8"))
                if header.get("format") != _FORMAT:
                    raise FormatError(
                        f"unknown G2P model format {header.get('format')!r}; expected {_FORMAT!r}",
                        path=p,
                    )
                arrays = {name: data[name] for name in NgramArrays.ARRAYS}
                scores = data["align_scores"]
                graphones = [(g, tuple(ph.split())) for g, ph in header["graphones"]]
                ngram = NgramArrays(
                    order=int(header["order"]),
                    vocab_size=int(header["vocab_size"]),
                    **arrays,
                )
            except KeyError as e:
                raise FormatError(f"G2P model file lacks {e}", path=p) from e
        align_scores = {g: float(s) for g, s in zip(graphones, scores.tolist()) if s > -np.inf}
        return cls(graphones, ngram, align_scores, header.get("info"))
