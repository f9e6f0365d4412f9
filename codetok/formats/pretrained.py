"""A folder of tokenizer files -> a :class:`~codetok.Tokenizer`, and back.

:func:`load_pretrained_dir` does what ``transformers.AutoTokenizer.from_pretrained`` does
with a local folder, without ``transformers``:

1. read ``tokenizer_config.json`` (settings and ``tokenizer_class``), then
   ``special_tokens_map.json`` (only when the config has no ``added_tokens_decoder``, as
   ``transformers`` 5 does) and, as a fallback for the class, ``config.json``'s
   ``model_type``; a folder without either and without ``tokenizer.json`` is a
   ``GPT2Tokenizer`` when it holds ``vocab.json`` and ``merges.txt``, a ``BertTokenizer``
   when it holds ``vocab.txt`` (``transformers`` would refuse it);
2. build the pipeline: from ``tokenizer.json`` when present (exactly as saved), otherwise
   from the slow files of the class: ``vocab.txt`` (BertTokenizer), ``vocab.json`` +
   ``merges.txt`` (RobertaTokenizer, GPT2Tokenizer), a SentencePiece ``.model``
   (T5Tokenizer, LlamaTokenizer; through :mod:`codetok.formats.sentencepiece_model`), each
   the way ``transformers`` builds it, honouring ``do_lower_case``, ``strip_accents``,
   ``tokenize_chinese_chars``, ``add_prefix_space``, ``trim_offsets``, ``add_bos_token`` and
   ``add_eos_token``;
3. add the special tokens (``added_tokens_decoder`` with their options, then the named
   special tokens not in the vocabulary yet, in ``transformers``' order) and apply the
   ``transformers`` settings: ``model_max_length``, ``padding_side``, ``truncation_side``,
   ``model_input_names``, ``clean_up_tokenization_spaces`` and the special tokens map.

:func:`tokenizer_from_vocab_files` builds the same from slow files given alone (a
``vocab.txt``, or a ``vocab.json`` and its ``merges.txt``) with the class defaults.

:func:`save_pretrained` writes ``tokenizer.json``, ``tokenizer_config.json`` and
``special_tokens_map.json`` so that ``transformers.AutoTokenizer`` (class
``PreTrainedTokenizerFast``) and ``tokenizers.Tokenizer.from_file`` load the folder and
encode as codetok does.

Not handled here: the cache and the Hub (:mod:`codetok.formats.hub`), chat templates,
remote code.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..components.base import with_path
from ..decoders import ByteLevel as ByteLevelDecoder
from ..decoders import WordPiece as WordPieceDecoder
from ..errors import CodetokError, ConfigurationError, FormatError, NotFoundError
from ..models.wordpiece import WordPiece
from ..normalizers import BertNormalizer
from ..pre_tokenizers import BertPreTokenizer, ByteLevel
from ..processors import RobertaProcessing, TemplateProcessing
from ..tokenizer.added_tokens import AddedToken
from ..tokenizer.tokenizer import Tokenizer
from .vocab_files import (
    SPECIAL_TOKEN_KEYS,
    read_json_object,
    read_merges_txt,
    read_special_tokens_map,
    read_tokenizer_config,
    read_vocab_json,
    read_wordpiece_vocab,
    special_token_from_config,
)

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "TOKENIZER_FILES",
    "SUPPORTED_CLASSES",
    "load_pretrained_dir",
    "tokenizer_from_files",
    "tokenizer_from_vocab_files",
    "apply_tokenizer_config",
    "save_pretrained",
]

#: Every file :func:`load_pretrained_dir` may read, in the order it looks for them.
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "added_tokens.json",
    "vocab.txt",
    "vocab.json",
    "merges.txt",
    "tokenizer.model",
    "spiece.model",
    "sentencepiece.bpe.model",
    "config.json",
)
_SP_FILES = ("tokenizer.model", "spiece.model", "sentencepiece.bpe.model")

# config.json model_type -> tokenizer family (the AutoTokenizer fallback).
_MODEL_TYPES = {
    "bert": "bert",
    "distilbert": "bert",
    "electra": "bert",
    "roberta": "roberta",
    "codebert": "roberta",
    "camembert": "t5",
    "gpt2": "gpt2",
    "codegen": "gpt2",
    "t5": "t5",
    "mt5": "t5",
    "llama": "llama",
}
_CLASSES = {
    "BertTokenizer": "bert",
    "DistilBertTokenizer": "bert",
    "ElectraTokenizer": "bert",
    "RobertaTokenizer": "roberta",
    "GPT2Tokenizer": "gpt2",
    "CodeGenTokenizer": "gpt2",
    "T5Tokenizer": "t5",
    "LlamaTokenizer": "llama",
    "CodeLlamaTokenizer": "llama",
    "PreTrainedTokenizerFast": "json",
    "TokenizersBackend": "json",
}
#: ``tokenizer_class`` values :func:`load_pretrained_dir` understands (plus ``...Fast``).
SUPPORTED_CLASSES = tuple(sorted(_CLASSES))

# Class defaults of transformers (special tokens, model inputs).
_DEFAULTS: dict[str, dict[str, Any]] = {
    "bert": {
        "unk_token": "[UNK]",
        "sep_token": "[SEP]",
        "pad_token": "[PAD]",
        "cls_token": "[CLS]",
        "mask_token": "[MASK]",
        "model_input_names": ["input_ids", "token_type_ids", "attention_mask"],
    },
    "roberta": {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "sep_token": "</s>",
        "cls_token": "<s>",
        "unk_token": "<unk>",
        "pad_token": "<pad>",
        "mask_token": "<mask>",
        "model_input_names": ["input_ids", "attention_mask"],
    },
    "gpt2": {
        "unk_token": "<|endoftext|>",
        "bos_token": "<|endoftext|>",
        "eos_token": "<|endoftext|>",
        "model_input_names": ["input_ids", "attention_mask"],
    },
    "t5": {
        "eos_token": "</s>",
        "unk_token": "<unk>",
        "pad_token": "<pad>",
        "model_input_names": ["input_ids", "attention_mask"],
    },
    "llama": {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "unk_token": "<unk>",
        "model_input_names": ["input_ids", "attention_mask"],
    },
    "json": {"model_input_names": ["input_ids", "token_type_ids", "attention_mask"]},
}


def _family(
    config: dict[str, Any], model_config: dict[str, Any], folder: Path, has_json: bool
) -> str:
    cls = config.get("tokenizer_class")
    if isinstance(cls, str) and cls:
        base = cls[:-4] if cls.endswith("Fast") and cls != "PreTrainedTokenizerFast" else cls
        fam = _CLASSES.get(base)
        if fam is None:
            raise ConfigurationError(
                f"{folder / 'tokenizer_config.json'}: tokenizer_class {cls!r} is not supported; "
                f"codetok knows {', '.join(SUPPORTED_CLASSES)} (and their Fast variants). "
                "A folder with a tokenizer.json loads with tokenizer_class "
                "'PreTrainedTokenizerFast'."
            )
        return fam
    model_type = model_config.get("model_type")
    if isinstance(model_type, str) and model_type in _MODEL_TYPES:
        return _MODEL_TYPES[model_type]
    if not has_json:  # no config names the class: the slow files in the folder do
        if (folder / "vocab.json").is_file() and (folder / "merges.txt").is_file():
            return "gpt2"
        if (folder / "vocab.txt").is_file():
            return "bert"
    return "json"


def _special_tokens(
    family: str, config: dict[str, Any], stmap: dict[str, Any] | None, cfg_path: str
) -> dict[str, AddedToken]:
    """Named special tokens: class defaults < tokenizer_config < special_tokens_map."""
    values: dict[str, Any] = {k: v for k, v in _DEFAULTS[family].items() if k.endswith("_token")}
    for key in SPECIAL_TOKEN_KEYS:
        if key in config:
            values[key] = config[key]
    if stmap:
        for key in SPECIAL_TOKEN_KEYS:
            if key in stmap:
                values[key] = stmap[key]
    out: dict[str, AddedToken] = {}
    for key in SPECIAL_TOKEN_KEYS:
        tok = special_token_from_config(values.get(key), path=cfg_path, where=key)
        if tok is not None:
            out[key] = tok
    return out


def _extra_specials(config: dict[str, Any], stmap: dict[str, Any] | None) -> list[AddedToken]:
    out: list[AddedToken] = []
    for src in (config, stmap or {}):
        for key in ("additional_special_tokens", "extra_special_tokens"):
            items = src.get(key)
            if isinstance(items, dict):
                items = list(items.values())
            for item in items or []:
                tok = special_token_from_config(item, where=key)
                if tok is not None and all(t.content != tok.content for t in out):
                    out.append(tok)
    return out


def _find(folder: Path, names: tuple[str, ...]) -> Path | None:
    for name in names:
        if (folder / name).is_file():
            return folder / name
    return None


def _need(
    folder: Path, names: tuple[str, ...], cls: str, files: dict[str, Path] | None
) -> list[Path]:
    """The paths of ``names``: given in ``files`` (files loaded alone), else in ``folder``."""
    paths = [files[n] if files and n in files else folder / n for n in names]
    missing = [n for n, p in zip(names, paths) if not p.is_file()]
    if missing:
        raise NotFoundError(
            f"{folder}: a {cls} without tokenizer.json needs {', '.join(names)}; missing: "
            f"{', '.join(missing)}"
        )
    return paths


def _bert(
    folder: Path,
    config: dict[str, Any],
    specials: dict[str, AddedToken],
    files: dict[str, Path] | None,
) -> Tokenizer:
    (vocab_path,) = _need(folder, ("vocab.txt",), "BertTokenizer", files)
    unk = specials.get("unk_token")
    unk_token = unk.content if unk else "[UNK]"
    model = WordPiece(read_wordpiece_vocab(vocab_path, unk_token), unk_token=unk_token)
    tok = Tokenizer(
        model,
        normalizer=BertNormalizer(
            clean_text=True,
            handle_chinese_chars=bool(config.get("tokenize_chinese_chars", True)),
            strip_accents=config.get("strip_accents"),
            lowercase=bool(config.get("do_lower_case", True)),
        ),
        pre_tokenizer=BertPreTokenizer(),
        decoder=WordPieceDecoder(prefix="##"),
    )
    return tok


def _bpe_files(folder: Path, cls: str, files: dict[str, Path] | None) -> Any:
    from ..models.bpe import BPE

    vocab_path, merges_path = _need(folder, ("vocab.json", "merges.txt"), cls, files)
    vocab = read_vocab_json(vocab_path)
    merges = read_merges_txt(merges_path)
    try:
        return BPE(vocab, merges, continuing_subword_prefix="", end_of_word_suffix="")
    except Exception as e:  # a merge naming a token missing from vocab.json
        raise FormatError(str(e), path=str(merges_path)) from e


def _byte_level(
    folder: Path, config: dict[str, Any], cls: str, files: dict[str, Path] | None
) -> Tokenizer:
    prefix = bool(config.get("add_prefix_space", False))
    return Tokenizer(
        _bpe_files(folder, cls, files),
        pre_tokenizer=ByteLevel(add_prefix_space=prefix),
        decoder=ByteLevelDecoder(),
    )


def _sentencepiece(folder: Path, cls: str, config: dict[str, Any]) -> Tokenizer:
    """T5 appends ``</s>``; LLaMA prepends ``<s>`` (both overridable by the config)."""
    path = _find(folder, _SP_FILES)
    if path is None:
        raise NotFoundError(
            f"{folder}: a {cls} without tokenizer.json needs a SentencePiece model; looked for "
            f"{', '.join(_SP_FILES)}"
        )
    from .sentencepiece_model import tokenizer_from_sentencepiece  # lazy: optional module

    t5 = cls == "T5Tokenizer"
    return tokenizer_from_sentencepiece(
        path,
        add_bos=bool(config.get("add_bos_token", not t5)),
        add_eos=bool(config.get("add_eos_token", t5)),
    )


def _template(
    tok: Tokenizer, add_bos: bool, add_eos: bool, specials: dict[str, AddedToken]
) -> TemplateProcessing:
    """transformers' ``update_post_processor``: ``[bos] $A [eos]`` / ``... [bos] $B:1 [eos]``."""
    bos = specials.get("bos_token")
    eos = specials.get("eos_token")
    add_bos = add_bos and bos is not None
    add_eos = add_eos and eos is not None
    single = (f"{bos.content}:0 " if add_bos else "") + "$A:0"  # type: ignore[union-attr]
    single += f" {eos.content}:0" if add_eos else ""  # type: ignore[union-attr]
    pair = single + (f" {bos.content}:1" if add_bos else "")  # type: ignore[union-attr]
    pair += " $B:1" + (f" {eos.content}:1" if add_eos else "")  # type: ignore[union-attr]
    toks = []
    for flag, t in ((add_bos, bos), (add_eos, eos)):
        if flag and t is not None:
            tid = tok.token_to_id(t.content)
            if tid is None:
                raise ConfigurationError(f"special token {t.content!r} is not in the vocabulary")
            toks.append((t.content, tid))
    return TemplateProcessing(single, pair, toks)


def _add_tokens(
    tok: Tokenizer,
    config: dict[str, Any],
    specials: dict[str, AddedToken],
    extras: list[AddedToken],
    cfg_path: str,
) -> None:
    decoder = config.get("added_tokens_decoder") or {}
    # One change for all rows (set_many), read as a loop of set_with_id: a content is set
    # unless an earlier row set it or it holds an id that no earlier row replaced.
    rows: list[tuple[AddedToken, int]] = []
    taken: set[str] = set()
    written: set[int] = set()
    for tid, d in sorted(decoder.items()):
        where = f"added_tokens_decoder.{tid}"
        if not isinstance(d, dict) or not isinstance(d.get("content"), str):
            raise FormatError("expected an AddedToken object", path=cfg_path, where=where)
        at = AddedToken.from_dict(d, path=cfg_path, where=where)
        held = tok.added.id_of(at.content)
        if at.content not in taken and (held is None or held in written):
            taken.add(at.content)
            written.add(int(tid))
            rows.append((at, int(tid)))
    tok.added.set_many(rows)
    missing = [t for t in [*specials.values(), *extras] if tok.added.id_of(t.content) is None]
    seen: set[str] = set()
    todo = []
    for t in missing:
        if t.content not in seen:
            seen.add(t.content)
            todo.append(t)
    if todo:
        tok.add_tokens(todo)


def apply_tokenizer_config(
    tok: Tokenizer,
    config: dict[str, Any],
    specials: dict[str, AddedToken] | None = None,
    *,
    family: str = "json",
) -> Tokenizer:
    """Apply the ``transformers`` settings of a ``tokenizer_config.json`` to ``tok``.

    Args:
        tok: the tokenizer to change (in place).
        config: the parsed ``tokenizer_config.json``.
        specials: the named special tokens (``{"pad_token": AddedToken(...), ...}``); by
            default read from ``config``.
        family: the tokenizer family whose class defaults apply (``"bert"``,
            ``"roberta"``, ``"gpt2"``, ``"t5"``, ``"llama"`` or ``"json"``).

    Returns:
        ``tok``, with ``model_max_length``, ``padding_side``, ``truncation_side``,
        ``model_input_names``, ``clean_up_tokenization_spaces`` and ``special_tokens_map``
        set as ``transformers`` would.

    Raises:
        FormatError: a setting has the wrong type.

    >>> from codetok.models import WordLevel
    >>> tok = Tokenizer(WordLevel({"[PAD]": 0}, None))
    >>> _ = apply_tokenizer_config(tok, {"model_max_length": 8, "pad_token": "[PAD]"})
    >>> tok.model_max_length, tok.special_tokens_map
    (8, {'pad_token': '[PAD]'})
    """
    if specials is None:
        specials = _special_tokens(family, config, None, "tokenizer_config.json")
    mml = config.get("model_max_length", config.get("max_len"))
    if mml is not None:
        finite = not isinstance(mml, float) or math.isfinite(mml)
        if isinstance(mml, bool) or not isinstance(mml, (int, float)) or not finite:
            raise FormatError(
                f"model_max_length must be a number, got {mml!r}", where="model_max_length"
            )
        tok.model_max_length = int(mml)
    for key in ("padding_side", "truncation_side"):
        side = config.get(key)
        if side is not None:
            if side not in ("left", "right"):
                raise FormatError(f"{key} must be 'left' or 'right', got {side!r}", where=key)
            setattr(tok, key, side)
    names = config.get("model_input_names", _DEFAULTS[family]["model_input_names"])
    tok.model_input_names = list(names)
    tok.clean_up_tokenization_spaces = bool(config.get("clean_up_tokenization_spaces", False))
    tok.special_tokens_map = {k: t.content for k, t in specials.items()}
    return tok


def tokenizer_from_files(folder: str | os.PathLike[str]) -> Tokenizer:
    """Build the tokenizer of a folder from its slow-tokenizer files, ignoring tokenizer.json.

    Args:
        folder: a folder with ``tokenizer_config.json`` (or ``config.json``) and the
            files of its class.

    Returns:
        The tokenizer, settings applied.

    Raises:
        NotFoundError: a file the class needs is missing (the message lists them).
        ConfigurationError: the class is not supported.
        FormatError: a file is malformed.

    >>> tok = tokenizer_from_files("bert-base-uncased/")  # doctest: +SKIP
    """
    from pathlib import Path

    return _load(Path(folder), use_json=False)


def load_pretrained_dir(folder: str | os.PathLike[str]) -> Tokenizer:
    """Load a local tokenizer folder as ``transformers.AutoTokenizer`` would.

    Args:
        folder: the folder (a checkpoint or a Hub snapshot).

    Returns:
        The tokenizer, with the ``transformers`` settings of its config applied.

    Raises:
        NotFoundError: no tokenizer files there (the message lists what was looked for).
        ConfigurationError: the ``tokenizer_class`` is not supported.
        FormatError: a file is malformed (the message names the file and place).

    >>> tok = load_pretrained_dir("path/to/codebert-base")  # doctest: +SKIP
    >>> tok("def f(): pass")["input_ids"][:2]  # doctest: +SKIP
    [0, 9232]
    """
    from pathlib import Path

    return _load(Path(folder), use_json=True)


def tokenizer_from_vocab_files(
    vocab: str | os.PathLike[str], merges: str | os.PathLike[str] | None = None
) -> Tokenizer:
    """A tokenizer from slow-tokenizer files given alone, with ``transformers``' class defaults.

    ``vocab.txt`` alone builds what ``BertTokenizer(vocab_file)`` would (lowercasing BERT,
    ``[CLS] $A [SEP]``); ``vocab.json`` + ``merges.txt`` build ``GPT2Tokenizer(vocab_file,
    merges_file)`` (byte-level BPE, ``<|endoftext|>`` as its special tokens). Config files
    next to them are not read: a folder loads with :func:`load_pretrained_dir`.

    Args:
        vocab: the ``vocab.txt``, or the ``vocab.json`` (``encoder.json``).
        merges: the ``merges.txt`` (``vocab.bpe``) of a ``vocab.json``.

    Returns:
        The tokenizer.

    Raises:
        NotFoundError: a file is missing.
        FormatError: a file is malformed (names the file and place), or the ``vocab.txt``
            is empty or lacks ``[UNK]``.

    >>> tok = tokenizer_from_vocab_files("vocab.json", "merges.txt")  # doctest: +SKIP
    """
    from pathlib import Path

    v = Path(vocab)
    if merges is None:
        return _load(v.parent, use_json=False, files={"vocab.txt": v}, family="bert")
    files = {"vocab.json": v, "merges.txt": Path(merges)}
    return _load(v.parent, use_json=False, files=files, family="gpt2")


def _load(
    folder: Path,
    *,
    use_json: bool,
    files: dict[str, Path] | None = None,
    family: str | None = None,
) -> Tokenizer:
    """Load ``folder``; or, with ``files`` (name -> path) and ``family``, those files alone
    (no configs read, the family's class defaults). An error that names no file names the
    folder (or the file given alone)."""
    try:
        return _load_files(folder, use_json=use_json, files=files, family=family)
    except CodetokError as e:
        if isinstance(e, FormatError) and e.path:
            raise
        where = next(iter(files.values())) if files else folder
        if str(where) in str(e):
            raise
        raise with_path(e, str(where)) from e


def _load_files(
    folder: Path,
    *,
    use_json: bool,
    files: dict[str, Path] | None,
    family: str | None,
) -> Tokenizer:
    config: dict[str, Any] = {}
    model_config: dict[str, Any] = {}
    stmap = None
    cfg_path = folder / "tokenizer_config.json"
    if files is None:
        config, model_config, stmap = _read_configs(folder, cfg_path)
    json_path = folder / "tokenizer.json"
    has_json = use_json and files is None and json_path.is_file()
    if family is None:
        family = _family(config, model_config, folder, has_json)
    specials = _special_tokens(family, config, stmap, str(cfg_path))
    extras = _extra_specials(config, stmap)
    builders: dict[str, Callable[[], Tokenizer]] = {
        "bert": lambda: _bert(folder, config, specials, files),
        "roberta": lambda: _byte_level(folder, config, "RobertaTokenizer", files),
        "gpt2": lambda: _byte_level(folder, config, "GPT2Tokenizer", files),
        "t5": lambda: _sentencepiece(folder, "T5Tokenizer", config),
        "llama": lambda: _sentencepiece(folder, "LlamaTokenizer", config),
    }
    if has_json:
        tok = Tokenizer.from_file(json_path)
    elif family == "json":
        looked = [f for f in TOKENIZER_FILES if (folder / f).is_file()]
        raise NotFoundError(
            f"{folder}: no tokenizer files codetok can use; looked for "
            f"{', '.join(TOKENIZER_FILES)} (found: {', '.join(looked) or 'none'}). Without a "
            "tokenizer.json, tokenizer_config.json must name a tokenizer_class "
            f"({', '.join(SUPPORTED_CLASSES)}), or the folder must hold vocab.txt (BERT) or "
            "vocab.json and merges.txt (GPT-2)"
        )
    else:
        tok = builders[family]()
    if not has_json and files is None:
        config = _with_legacy_added_tokens(folder, config, specials, extras)
    _add_tokens(tok, config, specials, extras, str(cfg_path))
    if not has_json:
        _set_slow_post_processor(tok, family, config, specials)
    return apply_tokenizer_config(tok, config, specials, family=family)


def _read_configs(
    folder: Path, cfg_path: Path
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
    """The folder's ``tokenizer_config.json``, ``config.json`` and ``special_tokens_map.json``
    (empty or None when absent), read as ``transformers`` reads them to pick the class."""
    config: dict[str, Any] = {}
    model_config: dict[str, Any] = {}
    stmap = None
    if not folder.is_dir():
        raise NotFoundError(f"{folder}: not a folder (looked for tokenizer files there)")
    if cfg_path.is_file():
        config = read_tokenizer_config(cfg_path)
    model_cfg_path = folder / "config.json"
    if model_cfg_path.is_file():
        model_config = read_json_object(model_cfg_path, "config.json")
    st_path = folder / "special_tokens_map.json"
    if "added_tokens_decoder" not in config and st_path.is_file():
        stmap = read_special_tokens_map(st_path)
    return config, model_config, stmap


def _with_legacy_added_tokens(
    folder: Path,
    config: dict[str, Any],
    specials: dict[str, AddedToken],
    extras: list[AddedToken],
) -> dict[str, Any]:
    """``config``, with a legacy ``added_tokens.json`` as its ``added_tokens_decoder`` when it
    has none, so that old slow-tokenizer folders keep their added tokens."""
    added_path = folder / "added_tokens.json"
    if "added_tokens_decoder" not in config and added_path.is_file():
        legacy = read_json_object(added_path, "added_tokens.json")
        names = {t.content for t in [*specials.values(), *extras]}
        config = dict(config)
        config["added_tokens_decoder"] = {
            int(i): {"content": c, "special": c in names, "normalized": c not in names}
            for c, i in legacy.items()
        }
    return config


def _set_slow_post_processor(
    tok: Tokenizer, family: str, config: dict[str, Any], specials: dict[str, AddedToken]
) -> None:
    """Set the post-processor the slow class of ``family`` adds, as ``transformers`` would
    for a folder without ``tokenizer.json`` (which otherwise brings its own)."""
    if family == "bert":
        cls_t, sep_t = specials.get("cls_token"), specials.get("sep_token")
        cls_id = tok.token_to_id(cls_t.content) if cls_t else None
        sep_id = tok.token_to_id(sep_t.content) if sep_t else None
        c = cls_t.content if cls_t else "[CLS]"
        s = sep_t.content if sep_t else "[SEP]"
        tok.post_processor = TemplateProcessing(
            f"{c}:0 $A:0 {s}:0",
            f"{c}:0 $A:0 {s}:0 $B:1 {s}:1",
            [(c, 2 if cls_id is None else cls_id), (s, 3 if sep_id is None else sep_id)],
        )
    elif family == "roberta":
        cls_t, sep_t = specials.get("cls_token"), specials.get("sep_token")
        if cls_t is None or sep_t is None:
            raise ConfigurationError("a RobertaTokenizer needs cls_token and sep_token")
        tok.post_processor = RobertaProcessing(
            (sep_t.content, tok.token_to_id(sep_t.content) or 0),
            (cls_t.content, tok.token_to_id(cls_t.content) or 0),
            bool(config.get("trim_offsets", True)),
            bool(config.get("add_prefix_space", False)),
        )
    elif family == "gpt2":
        tok.post_processor = _template(
            tok,
            bool(config.get("add_bos_token", False)),
            bool(config.get("add_eos_token", False)),
            specials,
        )


def save_pretrained(tokenizer: Tokenizer, folder: str | os.PathLike[str]) -> list[str]:
    """Write a folder ``transformers.AutoTokenizer`` and HF ``tokenizers`` both load.

    Writes ``tokenizer.json`` (the full pipeline), ``tokenizer_config.json``
    (``tokenizer_class: PreTrainedTokenizerFast``, the special tokens, ``model_max_length``,
    sides, ``model_input_names``, ``clean_up_tokenization_spaces`` and
    ``added_tokens_decoder``) and ``special_tokens_map.json``.

    Args:
        tokenizer: the tokenizer.
        folder: the folder (created if missing).

    Returns:
        The paths written.

    Raises:
        ConfigurationError: a named special token is not in the vocabulary.

    >>> import tempfile
    >>> from codetok.models import WordLevel
    >>> tok = Tokenizer(WordLevel({"a": 0, "<unk>": 1}, "<unk>"))
    >>> [os.path.basename(p) for p in save_pretrained(tok, tempfile.mkdtemp())]
    ['tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json']
    """
    import json
    from pathlib import Path

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for key, content in tokenizer.special_tokens_map.items():
        if tokenizer.token_to_id(content) is None:
            raise ConfigurationError(
                f"special_tokens_map[{key!r}] = {content!r} is not in the vocabulary; add it "
                "with add_special_tokens() first"
            )
    json_path = out / "tokenizer.json"
    data = tokenizer.to_dict()
    # HF ``tokenizers`` rejects unknown top-level keys; the settings kept under "codetok"
    # go to tokenizer_config.json here instead.
    data.pop("codetok", None)
    with open(json_path, "w", encoding="utf-8") as f:
        f.write(json.dumps(data, ensure_ascii=False, indent=2))
    added = tokenizer.get_added_tokens_decoder()
    specials: dict[str, Any] = {}
    for key, content in tokenizer.special_tokens_map.items():
        tid = tokenizer.token_to_id(content)
        at = added.get(tid) if tid is not None else None
        specials[key] = (
            content
            if at is None
            else {
                "content": at.content,
                "lstrip": at.lstrip,
                "normalized": at.normalized,
                "rstrip": at.rstrip,
                "single_word": at.single_word,
            }
        )
    config: dict[str, Any] = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "clean_up_tokenization_spaces": tokenizer.clean_up_tokenization_spaces,
        "model_input_names": list(tokenizer.model_input_names),
        "padding_side": tokenizer.padding_side,
        "truncation_side": tokenizer.truncation_side,
        "added_tokens_decoder": {str(i): t.to_dict(i) for i, t in added.items()},
        **dict(tokenizer.special_tokens_map),
    }
    for v in config["added_tokens_decoder"].values():
        v.pop("id")
    if tokenizer.model_max_length < int(1e20):
        config["model_max_length"] = tokenizer.model_max_length
    cfg_path = out / "tokenizer_config.json"
    st_path = out / "special_tokens_map.json"
    for path, data in ((cfg_path, config), (st_path, specials)):
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return [str(json_path), str(cfg_path), str(st_path)]
