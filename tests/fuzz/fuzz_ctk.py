"""Rewritten ``.ctk`` files in the fuzzing harness (not a test module): ``ctk:<base>``.

codetok's binary format (codetok/formats/binary.py) holds a BPE model as arrays: token
offsets, present flags, token text, merge rows ``(left, right, rank, new)`` and the native
kernel's hash tables, behind a JSON header and a checksum. Damaged bytes are refused by
the checksum; these cases damage the *tables* and write the checksum again, as a tool
that rewrote the file would: offsets moved, swapped or past the text; flags flipped or
out of range; token text replaced (another token's text: duplicates; invalid UTF-8; a
lone surrogate's bytes; longer or shorter, the later offsets shifted); merge fields set to
other ids, absent ids, ``-1``, ``N``, huge values, ranks repeated; merge rows repeated,
dropped, swapped, reversed; bytes of the hash tables flipped; the tables' layout or the
token count changed; the model options, added tokens and special ids in the header
changed. The bases are real: GPT-2 (cut), the Llama-style SentencePiece BPE trained here,
cl100k (cut).

The property: loading raises a :class:`~codetok.errors.FormatError` naming the file, or
gives a tokenizer whose ``encode`` (native plan, Python pipeline, pure-Python kernels:
equal), ``.tokens``, ``decode``, ``encode_batch``, ``save``, ``save_binary`` and
``to_str`` raise nothing but a ``CodetokError`` while encoding, and whose
``save_binary`` file loads again and encodes the same.
"""

from __future__ import annotations

import json
import shutil
import struct
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

import numpy as np

#: The ``.ctk`` bases: base name -> how it is made from the harness's real files.
CTK_BASES = ("gpt2", "llama", "cl100k")
_BUILT: dict[str, bytes] = {}


def ctk_base(real: Any, name: str) -> bytes | None:
    """The ``.ctk`` file of base ``name`` (None when its test extra is missing)."""
    if name in _BUILT:
        return _BUILT[name]
    import tempfile

    from codetok import Tokenizer

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if name == "gpt2":
            base = real.bases.get("gpt2.ctk")
            data = None if base is None else base.files["gpt2.ctk"]
        else:
            if name == "llama":
                base = real.bases.get("bpe.json")
                if base is None:
                    return None
                (folder / "t.json").write_bytes(base.files["tokenizer.json"])
                tok = Tokenizer.from_file(folder / "t.json")
            else:
                base = real.bases.get("cl100k.tiktoken")
                if base is None:
                    return None
                from codetok.formats.tiktoken_file import ENCODINGS, tokenizer_from_tiktoken

                path = folder / "cl100k_base.tiktoken"
                path.write_bytes(base.files["cl100k_base.tiktoken"])
                enc = ENCODINGS["cl100k_base"]
                tok = tokenizer_from_tiktoken(
                    path, pat_str=enc["pat_str"], special_tokens=enc["special_tokens"]
                )
            tok.save_binary(folder / "t.ctk")
            data = (folder / "t.ctk").read_bytes()
    if data is not None:
        _BUILT[name] = data
    return data


# ------------------------------------------------------------------------ the layout


@dataclass
class Ctk:
    """A ``.ctk`` file taken apart: header object, arrays, hash table sections."""

    header: dict[str, Any]
    offsets: np.ndarray  # uint32, N + 1
    present: np.ndarray  # uint8, N
    text: bytearray
    merges: np.ndarray  # int32, (M, 4)
    tables: list[bytearray] = field(default_factory=list)

    @classmethod
    def parse(cls, data: bytes) -> Ctk:
        from codetok.formats.binary import _FIXED

        h, n, b, m = _FIXED.unpack_from(data, 0)[4:]
        pos = _FIXED.size

        def take(size: int) -> bytes:
            nonlocal pos
            chunk = data[pos : pos + size]
            pos += size + (-size % 8)
            return chunk

        header = json.loads(take(h).decode("utf-8", "surrogatepass"))
        offsets = np.frombuffer(take(4 * (n + 1)) if n else b"", "<u4").copy()
        present = np.frombuffer(take(n), np.uint8).copy()
        text = bytearray(take(b))
        merges = np.frombuffer(take(16 * m), "<i4").reshape(m, 4).copy()
        info = header.get("binary", {}).get("tables") if isinstance(header.get("binary"), dict) else None  # fmt: skip
        tables = [bytearray(take(size)) for size in info[1:]] if info else []
        return cls(header, offsets, present, text, merges, tables)

    def to_bytes(self) -> bytes:
        from codetok.formats.binary import MAGIC, VERSION, checksum

        header = dict(self.header)
        if self.tables and isinstance(header.get("binary"), dict):
            layout = header["binary"]["tables"][0]
            header["binary"] = {"tables": [layout, *(len(t) for t in self.tables)]}
        raw = json.dumps(header, ensure_ascii=False).encode("utf-8", "surrogatepass")
        n = len(self.present)
        parts = [raw]
        if n:
            parts += [self.offsets.astype("<u4").tobytes(), self.present.tobytes()]
        parts += [bytes(self.text), self.merges.astype("<i4").tobytes(), *map(bytes, self.tables)]
        body = bytearray()
        for part in parts:
            body += part + b"\0" * (-len(part) % 8)
        sizes = struct.pack("<QQQQ", len(raw), n, len(self.text), len(self.merges))
        payload = sizes + bytes(body)
        return struct.pack("<8sIIQ", MAGIC, VERSION, 0, checksum(payload)) + payload


# ------------------------------------------------------------------------ mutations


def _token(rng: Random, ctk: Ctk, nonempty: bool = True) -> int:
    n = len(ctk.present)
    if nonempty:
        widths = np.flatnonzero(np.diff(ctk.offsets) > 0)
        if len(widths):
            return int(widths[rng.randrange(len(widths))])
    return rng.randrange(max(1, n))


def _set_text(ctk: Ctk, k: int, new: bytes) -> None:
    a, b = int(ctk.offsets[k]), int(ctk.offsets[k + 1])
    ctk.text[a:b] = new
    ctk.offsets[k + 1 :] = (ctk.offsets[k + 1 :].astype(np.int64) + len(new) - (b - a)).astype(np.uint32)  # fmt: skip


_ODD_TEXT = [b"", b"\xff", b"\x80abc", b"\xed\xa0\x80", b"\x00", b"<|endoftext|>", b"a" * 300, b"\xc3"]  # fmt: skip


def mutate_ctk(rng: Random, ctk: Ctk) -> str:
    """One change to the tables or header of ``ctk``; returns what it did."""
    n, m = len(ctk.present), len(ctk.merges)
    op = rng.randrange(12)
    if op == 0 and n:
        k = rng.randrange(1, n + 1)
        old = int(ctk.offsets[k])
        new = rng.choice([old + 1, max(0, old - 1), old + 3, rng.randrange(len(ctk.text) + 1), len(ctk.text) + 1])  # fmt: skip
        ctk.offsets[k] = new
        return f"offsets[{k}] {old} -> {new}"
    if op == 1 and n:
        k = rng.randrange(n)
        value = rng.choice([0, 1, 1 - int(ctk.present[k]), 2, 255])
        ctk.present[k] = value
        return f"present[{k}] = {value}"
    if op == 2 and n:  # token text, same length
        k = _token(rng, ctk)
        a, b = int(ctk.offsets[k]), int(ctk.offsets[k + 1])
        widths = np.diff(ctk.offsets.astype(np.int64))
        same = [j for j in (rng.randrange(n) for _ in range(50)) if widths[j] == b - a]
        how = rng.randrange(4)
        if how == 0 and same:
            j = same[0]
            ctk.text[a:b] = ctk.text[int(ctk.offsets[j]) : int(ctk.offsets[j + 1])]
            return f"token {k} text = token {j}'s"
        if how == 1:
            ctk.text[rng.randrange(a, b)] = rng.randrange(256)
            return f"token {k}: one byte"
        if how == 2 and b - a >= 3:
            ctk.text[a : a + 3] = b"\xed\xa0\x80"
            return f"token {k}: a lone surrogate"
        ctk.text[a] = rng.choice([0x80, 0xBF, 0xFF, 0x00, 0x20])
        return f"token {k}: first byte"
    if op == 3 and n:  # token text, another length
        k = _token(rng, ctk, nonempty=False)
        j = rng.randrange(n)
        new = rng.choice([bytes(ctk.text[int(ctk.offsets[j]) : int(ctk.offsets[j + 1])]), *_ODD_TEXT])  # fmt: skip
        _set_text(ctk, k, new)
        return f"token {k} text = {new[:20]!r}"
    if op in (4, 5) and m:  # one merge field
        r, c = rng.randrange(m), rng.randrange(4)
        absent = np.flatnonzero(ctk.present == 0)
        other = ctk.merges[rng.randrange(m)]
        value = rng.choice(
            [rng.randrange(max(1, n)), -1, n, n + 1000, 2**31 - 1, int(other[c]), int(other[2]),
             int(ctk.merges[r, 0]), int(ctk.merges[r, 1]),
             int(absent[rng.randrange(len(absent))]) if len(absent) else n - 1]
        )  # fmt: skip
        ctk.merges[r, c] = value
        return f"merges[{r}][{c}] = {value}"
    if op == 6 and m:  # merge rows
        how = rng.randrange(5)
        r = rng.randrange(m)
        if how == 0:
            ctk.merges = np.insert(ctk.merges, rng.randrange(m + 1), ctk.merges[r], axis=0)
        elif how == 1:
            ctk.merges = np.delete(ctk.merges, r, axis=0)
        elif how == 2:
            s = rng.randrange(m)
            ctk.merges[[r, s]] = ctk.merges[[s, r]]
        elif how == 3:
            ctk.merges[:, 2] = ctk.merges[::-1, 2]
        else:
            ctk.merges = ctk.merges[: rng.randrange(m)]
        return f"merge rows: {['repeat', 'drop', 'swap', 'ranks reversed', 'cut'][how]} at {r}"
    if op == 7 and ctk.tables:  # the native hash tables
        t = rng.randrange(len(ctk.tables))
        table = ctk.tables[t]
        for _ in range(rng.choice([1, 1, 4, 32])):
            if table:
                table[rng.randrange(len(table))] = rng.randrange(256)
        return f"hash table {t}: bytes"
    if op == 8:  # the tables' layout, or no tables
        if ctk.tables and rng.random() < 0.5:
            info = ctk.header["binary"]["tables"]
            info[0] = rng.choice([info[0] + 1, 0, -1, 2**40])
            return f"tables layout = {info[0]}"
        ctk.header.pop("binary", None)
        ctk.tables = []
        return "no tables"
    if op == 9 and n:  # the token count
        if rng.random() < 0.5:
            cut = rng.randrange(1, min(n, 50) + 1)
            ctk.text = ctk.text[: int(ctk.offsets[n - cut])]
            ctk.offsets, ctk.present = ctk.offsets[: n - cut + 1], ctk.present[: n - cut]
            return f"last {cut} tokens dropped"
        more = rng.randrange(1, 20)
        ctk.offsets = np.concatenate([ctk.offsets, np.full(more, ctk.offsets[-1], np.uint32)])
        ctk.present = np.concatenate([ctk.present, np.zeros(more, np.uint8)])
        return f"{more} absent ids added"
    if op == 10:  # model options
        model = ctk.header.setdefault("model", {})
        key = rng.choice(["byte_fallback", "ignore_merges", "unk_token", "continuing_subword_prefix", "end_of_word_suffix", "dropout", "fuse_unk"])  # fmt: skip
        value = rng.choice([True, False, None, "<unk>", "##", "</w>", "Ġ", 0.5, -1, 2, ""])
        model[key] = value
        return f"model.{key} = {value!r}"
    added = ctk.header.get("added_tokens") or []
    if added and isinstance(added, list):  # an added token's id or content
        t = rng.randrange(len(added))
        entry = dict(added[t])
        if rng.random() < 0.6:
            absent = np.flatnonzero(ctk.present == 0)
            entry["id"] = rng.choice([n + 5, 0, 1, int(absent[0]) if len(absent) else n, added[0].get("id"), 2**31])  # fmt: skip
        else:
            j = rng.randrange(max(1, n))
            entry["content"] = bytes(ctk.text[int(ctk.offsets[j]) : int(ctk.offsets[j + 1])]).decode("utf-8", "replace")  # fmt: skip
        added[t] = entry
        return f"added_tokens[{t}] = {entry!r:.80}"
    return "none"


@dataclass
class CtkCase:
    """A rewritten ``.ctk`` file (``files``, as the runner saves loader cases) and what
    was changed."""

    base: str
    files: dict[str, bytes]
    changes: list[str]
    how: str


def gen_ctk(rng: Random, data: bytes, base: str) -> CtkCase:
    """``data`` (a real ``.ctk``) with one to four table or header changes, checksum
    written again."""
    ctk = Ctk.parse(data)
    changes = [mutate_ctk(rng, ctk) for _ in range(rng.choice([1, 1, 1, 2, 4]))]
    try:
        out = ctk.to_bytes()
    except (ValueError, OverflowError, struct.error) as e:  # a value no field holds
        changes.append(f"(unwritable: {e}; the original kept)")
        out = data
    return CtkCase(base, {"tok.ctk": out}, changes, rng.choice(["load", "from_file"]))


# ------------------------------------------------------------------------ checking


def _probes(tok: Any, rng: Random) -> list[str]:
    from fuzz_checks import PROBES

    texts = list(PROBES) + ["The quick brown fox\n\tdef f(x): return x", "<|endoftext|>Hi"]
    try:
        size = tok.get_vocab_size()
        ids = [rng.randrange(size) for _ in range(30)] if size else []
        texts.append(tok.decode(ids, skip_special_tokens=False))
    except Exception:  # noqa: BLE001 - decode is checked below, on the encodings
        pass
    return texts


def check_ctk_case(workdir: Path, case: CtkCase) -> tuple[str, str] | None:
    """``None`` when the property holds, else ``(kind, detail)``."""
    from conftest import encoding_state
    from fuzz_checks import ENGINES, _describe, engines

    from codetok import Tokenizer, load
    from codetok.errors import CodetokError, FormatError

    folder = workdir / "ctk"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    path = folder / "tok.ctk"
    path.write_bytes(case.files["tok.ctk"])
    try:
        tok = load(path) if case.how == "load" else Tokenizer.from_file(path)
    except FormatError as e:
        return None if str(path) in str(e) else ("error", f"the error names no file: {_describe(e)}")  # fmt: skip
    except Exception as e:  # noqa: BLE001 - the property: a FormatError, or a tokenizer
        return "error", f"load raised {_describe(e)}"
    texts = _probes(tok, Random(repr(case.changes)))
    random_model = bool(getattr(tok.model, "dropout", None))  # BPE dropout: no two alike
    states: dict[str, list[Any]] = {}
    for engine, plans, kernels in ENGINES:
        with engines(plans, kernels):
            got = []
            for text in texts:
                try:
                    enc = tok.encode(text)
                    got.append(encoding_state(enc))
                    list(enc.tokens)
                    tok.decode(enc.ids)
                    tok.decode(enc.ids, skip_special_tokens=False)
                except CodetokError as e:
                    got.append(("raise", type(e).__name__))
                except Exception as e:  # noqa: BLE001
                    return "error", f"{engine}: encode/decode of {text[:40]!r} raised {_describe(e)}"  # fmt: skip
            states[engine] = got
            if engine == "native":
                try:
                    tok.encode_batch(texts, num_threads=2)
                except CodetokError:
                    pass
                except Exception as e:  # noqa: BLE001
                    return "error", f"encode_batch raised {_describe(e)}"
    for engine in () if random_model else ("python", "reference"):
        for k, (a, b) in enumerate(zip(states["native"], states[engine])):
            if a != b:
                return "mismatch", f"native != {engine} on {texts[k][:40]!r}: {str(a)[:200]} != {str(b)[:200]}"  # fmt: skip
    try:
        tok.save(str(folder / "saved.json"))
        tok.to_str()
        tok.save_binary(folder / "saved.ctk")
    except Exception as e:  # noqa: BLE001 - a loaded tokenizer saves
        return "error", f"save/save_binary/to_str raised {_describe(e)}"
    try:
        again = Tokenizer.from_file(folder / "saved.ctk")
        back = []
        for text in texts:
            try:
                back.append(encoding_state(again.encode(text)))
            except CodetokError as e:
                back.append(("raise", type(e).__name__))
    except Exception as e:  # noqa: BLE001
        return "error", f"its save_binary file does not load: {_describe(e)}"
    if back != states["native"] and not random_model:
        k = next(i for i, (a, b) in enumerate(zip(back, states["native"])) if a != b)
        return "mismatch", f"save_binary then load encodes {texts[k][:40]!r} otherwise"
    return None


__all__ = ["CTK_BASES", "Ctk", "CtkCase", "ctk_base", "gen_ctk", "check_ctk_case", "mutate_ctk"]
