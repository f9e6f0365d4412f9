"""The parity corpus shared by the format tests (not a test module).

Real source code (slices of the running interpreter's standard library; the Java, C# and
JavaScript samples in ``tests/data/formats`` and ``tests/data/code``; JavaScript files
installed by pip packages when present), English and multilingual prose, and adversarial
strings. Slices are small so every parity test stays within a few seconds.
"""

from __future__ import annotations

import importlib.util
import sysconfig
from pathlib import Path

DATA = Path(__file__).parent / "data"

_STDLIB_FILES = (
    "textwrap.py",
    "json/decoder.py",
    "difflib.py",
    "argparse.py",
    "email/_header_value_parser.py",
    "unicodedata.py",  # absent on most builds (a C module): skipped
    "locale.py",
    "string.py",
)

PROSE = [
    "The quick brown fox jumps over the lazy dog. Isn't it? I'm sure they'll say we'd've "
    "known; YOU'RE RIGHT, DON'T panic.",
    "Tokenizers split text into pieces; a model then maps each piece to an id (e.g. 1,024 "
    "or 50,257 ids), and 3.14159 / 2e-10 / 0x1F are numbers too.",
    "Ünïcödé naïve café — déjà vu, Straße, ǅemal, İstanbul, ﬁnance ligature, Ⅻ numerals.",
    "日本語のテキストと中文字符混合、한국어 문장도 있습니다。",
    "Русский текст с пунктуацией: «ёлка», — тире; Ελληνικά γράμματα.",
    "مرحبا بالعالم، هذا نص عربي. שלום עולם! עברית מימין לשמאל.",
    "हिन्दी पाठ और বাংলা লেখা, ภาษาไทยไม่มีช่องว่าง, ქართული.",
]

ADVERSARIAL = [
    "",
    " ",
    "x",
    "emoji 👩\u200d👩\u200d👧\u200d👦 family, 🏳️\u200d🌈 flag, 👍🏽 tone, 🇯🇵🇺🇸 flags, 1️⃣ keycap",
    "combining e\u0301\u0302 a\u0308 Z\u0324\u0354\u0367\u0311\u0313a\u0364\u0356\u032d l\u036e\u0312",
    "\u202eRLO override\u202c and \u200fRLM\u200e LRM, \u2066isolate\u2069",
    "control \x00\x01\x07\x1b[31mred\x1b[0m\x7f \x85 \u2028\u2029 \ufeffBOM \ufffd",
    "tabs\tand\nnewlines\r\n  spaces   \x0b\x0c end",
    "\u3000ideographic space\xa0nbsp\u200bzero width\u2060joiner",
    "<|endoftext|> looks special <|fim_prefix|>x<|fim_middle|>y<|fim_suffix|><|endofprompt|>",
    "[CLS] looks like a special token [SEP] but [MASK] and [PAD] [UNK] are here [cls]",
    "<s>roberta</s><pad> <mask> x<mask>y <unk> </s></s> < mask> <|endoftext|",
    "a" * 3000,
    " " * 1500 + "x",
    "\n" * 600,
    "1" * 700,
    "😀" * 300,
    "-" * 1200,
    "é" * 400,
    "ab" * 800,
    "I'M it's 'S 'll' ''' \"\" `` '",
    "\t\t\tdef f():\n\t\t\t\treturn 0\n\n\n",
    "0123456789 ١٢٣٤٥ ０１２３ ½ ² x²",
    "snake_case camelCase PascalCase SCREAMING_CASE kebab-case __dunder__",
    "http://example.com/a?b=c&d=e#f user@example.org C:\\Windows\\path",
]


def _stdlib_slices(n_chars: int) -> list[str]:
    root = Path(sysconfig.get_paths()["stdlib"])
    out = []
    for name in _STDLIB_FILES:
        p = root / name
        if not p.is_file():
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        out.append(text[:n_chars])
        mid = len(text) // 2
        out.append(text[mid : mid + n_chars // 2])
    return out


def _pip_js(n_chars: int) -> list[str]:
    out = []
    for pkg, rel in (
        ("sklearn", "utils/_repr_html/estimator.js"),
        ("torch", "utils/model_dump/code.js"),
    ):
        spec = importlib.util.find_spec(pkg)
        if spec is None or not spec.submodule_search_locations:
            continue
        p = Path(next(iter(spec.submodule_search_locations))) / rel
        if p.is_file():
            out.append(p.read_text(encoding="utf-8", errors="replace")[:n_chars])
    return out


def code_samples(n_chars: int = 1500) -> list[str]:
    """Real source code: Python stdlib slices, Java, C#, JavaScript."""
    files = sorted((DATA / "formats").glob("*")) + sorted((DATA / "code").glob("*"))
    own = [p.read_text(encoding="utf-8") for p in files if p.is_file()]
    return _stdlib_slices(n_chars) + own + _pip_js(n_chars)


def corpus(n_chars: int = 1500) -> list[str]:
    """Everything: code, prose and adversarial strings."""
    return code_samples(n_chars) + PROSE + ADVERSARIAL


def assert_same(ct_tok, hf_tok, texts, *, pairs: bool = True, decode: bool = True) -> None:
    """codetok and HF ``tokenizers`` agree on ids, tokens, offsets, type ids and decode.

    Checked with and without special tokens, for single texts and (when ``pairs``) for
    every third text paired with the next one.
    """
    for i, text in enumerate(texts):
        cases = [(text, None)]
        if pairs and i % 3 == 0:
            cases.append((text, texts[(i + 1) % len(texts)]))
        for a, b in cases:
            for special in (True, False):
                c = ct_tok.encode(a, b, add_special_tokens=special)
                h = hf_tok.encode(a, b, add_special_tokens=special)
                what = f"{a[:60]!r} / {None if b is None else b[:30]!r}, special={special}"
                assert c.ids == h.ids, f"ids differ for {what}"
                assert c.tokens == h.tokens, f"tokens differ for {what}"
                assert c.offsets == h.offsets, f"offsets differ for {what}"
                assert c.type_ids == h.type_ids, f"type ids differ for {what}"
                assert c.special_tokens_mask == h.special_tokens_mask, what
                if decode and b is None:
                    for skip in (True, False):
                        assert ct_tok.decode(c.ids, skip_special_tokens=skip) == hf_tok.decode(
                            h.ids, skip_special_tokens=skip
                        ), f"decode differs for {what}, skip={skip}"
