"""A ``.ctk`` file damaged and its checksum written again is refused when it loads.

The checksum only sees accidental damage: a careless or hostile writer recomputes it. Such
a file used to load and fail later, far from the cause: a merge naming an absent id raised
a bare ``KeyError`` in ``save``, a token whose text is not UTF-8 a bare ``ValueError`` in
``enc.tokens``. Now every row of the token and merge arrays is checked at load, and the
:class:`~codetok.errors.FormatError` names the file and the field (``merges[2]``,
``token text[260]``). Each test rewrites a real file as the format lays it out (sections
at multiples of 8 bytes) and recomputes the checksum as the format defines it.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from codetok import Tokenizer
from codetok.engine import native as _backend
from codetok.errors import FormatError
from codetok.formats.binary import checksum
from codetok.models import BPE
from codetok.pre_tokenizers import ByteLevel

ALPHABET = sorted(set(ByteLevel.alphabet()))
HOLE = len(ALPHABET)  # an id no token has
LONG = ["abcdefgh", "xxxxxxé", "yyyyyy"]  # longer than the kernel's eagerly decoded tokens


@pytest.fixture(params=["native", "python"])
def backend(request):
    previous = _backend.use_native(request.param == "native")
    yield request.param
    _backend.use_native(previous)


@pytest.fixture
def tok():
    vocab = {c: i for i, c in enumerate(ALPHABET)}
    for t in ["ab", "abc", "Ġa", *LONG]:
        vocab[t] = len(vocab) + 1  # from HOLE + 1 on: HOLE stays absent
    tok = Tokenizer(
        BPE(vocab, [("a", "b"), ("ab", "c"), ("Ġ", "a")]),
        pre_tokenizer=ByteLevel(add_prefix_space=False),
    )
    tok.add_special_tokens(["<|x|>"])
    return tok


class Ctk:
    """The sections of a saved file, as writable numpy views of its bytes."""

    def __init__(self, path):
        self.path = path
        self.data = bytearray(path.read_bytes())
        h, n, b, m = struct.unpack_from("<QQQQ", self.data, 24)
        at = [56]
        for size in (h, 4 * (n + 1), n, b, 16 * m):
            at.append(at[-1] + size + (-size % 8))
        self.offsets = np.frombuffer(self.data, "<u4", n + 1, at[1])
        self.present = np.frombuffer(self.data, np.uint8, n, at[2])
        self.text = np.frombuffer(self.data, np.uint8, b, at[3])
        self.merges = np.frombuffer(self.data, "<i4", 4 * m, at[4]).reshape(m, 4)

    def write(self):
        """Write the file back with its checksum recomputed (bytes [24, end), see the format)."""
        self.data[16:24] = struct.pack("<Q", checksum(bytes(self.data[24:])))
        self.path.write_bytes(bytes(self.data))


@pytest.fixture
def saved(tok, tmp_path, backend):
    path = tmp_path / "small.ctk"
    tok.save_binary(path)
    assert Tokenizer.from_file(path).encode("abc Ġa").ids == tok.encode("abc Ġa").ids
    return Ctk(path)


def refused(ctk, where, message):
    ctk.write()
    with pytest.raises(FormatError) as info:
        Tokenizer.from_file(ctk.path)
    assert str(info.value).startswith(f"{ctk.path}: at {where}: {message}"), str(info.value)


def row_of(ctk, tok, a, b):
    ids = tok.token_to_id(a), tok.token_to_id(b)
    return int(np.flatnonzero((ctk.merges[:, 0] == ids[0]) & (ctk.merges[:, 1] == ids[1]))[0])


@pytest.mark.parametrize(("col", "field"), [(0, "left id"), (1, "right id"), (3, "new id")])
def test_a_merge_naming_an_absent_id(saved, tok, col, field):
    # Loaded, then ``save`` (the merges as token pairs) raised a bare KeyError.
    row = row_of(saved, tok, "ab", "c")
    saved.merges[row, col] = HOLE
    refused(saved, f"merges[{row}]", f"{field} {HOLE} names no token")


@pytest.mark.parametrize(("col", "field"), [(0, "left id"), (3, "new id")])
def test_a_merge_id_past_the_last_token(saved, tok, col, field):
    n = len(saved.present)
    row = row_of(saved, tok, "Ġ", "a")
    saved.merges[row, col] = n
    refused(saved, f"merges[{row}]", f"{field} {n} is not a token id (ids are 0..{n - 1})")


@pytest.mark.parametrize(("col", "field"), [(1, "right id"), (2, "rank")])
def test_a_negative_merge_field(saved, col, field):
    saved.merges[1, col] = -7
    refused(saved, "merges[1]", f"{field} -7 is negative")


def test_a_long_token_that_is_not_utf8(saved, tok):
    # Loaded (the kernel decodes long tokens when first asked), then ``enc.tokens`` raised
    # a bare ValueError.
    k = tok.token_to_id("abcdefgh")
    saved.text[saved.offsets[k] + 3] = 0xFF
    refused(saved, f"token text[{k}]", f"token {k} is not UTF-8: b'abc\\xffefgh'")


def test_a_token_boundary_inside_a_char(saved, tok):
    # The text as a whole stays UTF-8: only the two tokens around the moved boundary are not.
    k = tok.token_to_id("xxxxxxé")
    assert tok.token_to_id("yyyyyy") == k + 1
    saved.offsets[k + 1] -= 1
    refused(saved, f"token text[{k + 1}]", f"token {k + 1} is not UTF-8: b'\\xa9yyyyyy'")


def test_offsets_that_go_back(saved, tok):
    k = tok.token_to_id("abcdefgh")
    saved.offsets[k + 1] = saved.offsets[k] - 1
    refused(saved, f"token offsets[{k + 1}]", f"token {k} ends at byte")


def test_offsets_that_do_not_start_at_zero(saved):
    saved.offsets[0] = 1
    refused(saved, "token offsets[0]", "the first token starts at byte 1, not 0")


def test_a_present_flag_out_of_range(saved, tok):
    k = tok.token_to_id("abc")
    saved.present[k] = 2
    refused(saved, f"present[{k}]", "2; present is 0 or 1")


def test_an_absent_token_with_text(saved, tok):
    k = tok.token_to_id("abc")
    saved.present[k] = 0
    refused(saved, f"present[{k}]", f"token {k} is absent but has 3 bytes")


def test_the_largest_merge_rank(saved):
    # The native kernel reads rank 2**31 - 1 as "no merge": such a file encoded "abc" as
    # a b c natively and ab c in pure Python (fuzz finding D7).
    saved.merges[1, 2] = 2**31 - 1
    refused(saved, "merges[1]", "rank 2147483647; ranks are 0..2147483646")


# ------------------------------------------------------------------ the saved hash tables
# A file saved by the native kernel keeps its hash tables (merge pairs; whole tokens, read
# with ignore_merges) and the native kernel uses them as saved, while the pure-Python
# kernel reads the rows. Rewritten with the tables kept, such a file loaded and the two
# kernels encoded it differently (fuzz finding D6): now every row and token is looked up
# in the tables as the kernel looks it up.


def tabled(tmp_path, *, ignore_merges=False, merges=("a b", "ab c", "Ġ a")):
    """``(tok, its file)``, saved with the native kernel's tables."""
    vocab = {c: i for i, c in enumerate(ALPHABET)}
    for t in ["ab", "abc", "Ġa", *LONG]:
        vocab[t] = len(vocab) + 1
    model = BPE.from_dict({"vocab": vocab, "merges": list(merges), "ignore_merges": ignore_merges})
    tok = Tokenizer(model, pre_tokenizer=ByteLevel(add_prefix_space=False))
    path = tmp_path / "tabled.ctk"
    previous = _backend.use_native(True)
    try:
        tok.save_binary(path)
        assert Tokenizer.from_file(path).model._saved_tables is not None
    finally:
        _backend.use_native(previous)
    return tok, Ctk(path)


def kernels_agree(path, text):
    """The ids of ``text`` from the native kernel (and plan) and the pure-Python one."""
    from fuzz_checks import engines

    tok = Tokenizer.from_file(path)
    with engines(True, True):
        native = tok.encode(text).ids
    with engines(False, False):
        reference = tok.encode(text).ids
    assert native == reference
    return tok


def test_merge_ranks_rewritten_with_the_tables_kept(tmp_path, backend):
    tok, ctk = tabled(tmp_path)
    s, r = row_of(ctk, tok, "a", "b"), row_of(ctk, tok, "ab", "c")
    ctk.merges[[s, r], 2] = ctk.merges[[r, s], 2]
    a, b, ab = (tok.token_to_id(t) for t in ("a", "b", "ab"))
    refused(
        ctk,
        f"merges[{min(r, s)}]",
        f"rank {ctk.merges[s, 2]}, new id {ab}, but the merge table holds ({a}, {b}) -> rank "
        f"{ctk.merges[r, 2]}, new id {ab}",
    )


def test_a_merge_row_gone_with_the_tables_kept(tmp_path, backend):
    tok, ctk = tabled(tmp_path)
    ctk.merges[row_of(ctk, tok, "Ġ", "a")] = ctk.merges[row_of(ctk, tok, "a", "b")]
    ctk.write()
    with pytest.raises(FormatError, match="a pair no merge row has") as info:
        Tokenizer.from_file(ctk.path)
    assert str(info.value).startswith(f"{ctk.path}: at merge table[")


def test_a_token_boundary_moved_with_the_token_table_kept(tmp_path, backend):
    # Both tokens stay UTF-8 ("abcdefghx", "xxxxxé"): natively "abcdefgh" was still a
    # whole token (the saved table), in pure Python it was merged from its chars.
    tok, ctk = tabled(tmp_path, ignore_merges=True)
    k = tok.token_to_id("abcdefgh")
    ctk.offsets[k + 1] += 1
    refused(ctk, f"token text[{k}]", f"token {k} is not in the whole-token table")


def test_merges_given_twice_keep_their_tables(tmp_path, backend):
    # HF files may repeat a merge: the last rank counts, in the rows as in the tables.
    tok, ctk = tabled(tmp_path, merges=["a b", "ab c", "Ġ a", "a b"])
    assert (ctk.merges[:, :2] == ctk.merges[0, :2]).all(axis=1).sum() == 2
    back = kernels_agree(ctk.path, "abc ab Ġa")
    assert back.model._saved_tables is not None


def test_token_texts_given_twice_keep_their_tables(tmp_path, backend):
    # A file whose two ids share a text: {text: id} keeps the last, so does the kernel.
    from fuzz_ctk import Ctk as Rewrite

    tok, ctk = tabled(tmp_path, ignore_merges=True)
    g, ab = tok.token_to_id("Ġ"), tok.token_to_id("ab")
    rewrite = Rewrite.parse(ctk.path.read_bytes())
    start, end = (int(x) for x in rewrite.offsets[ab : ab + 2])
    rewrite.text[start:end] = "Ġ".encode()  # 2 bytes, as "ab"
    rewrite.header.pop("binary")
    rewrite.tables = []
    ctk.path.write_bytes(rewrite.to_bytes())
    again = tmp_path / "again.ctk"
    previous = _backend.use_native(True)
    try:
        Tokenizer.from_file(ctk.path).save_binary(again)
    finally:
        _backend.use_native(previous)
    back = kernels_agree(again, " a Ġ abc")
    assert back.model._saved_tables is not None
    assert back.token_to_id("Ġ") == max(g, ab)


def test_one_id_with_two_texts_saves_without_tables(tmp_path, backend):
    # The file keeps one text per id, the kernel had both as whole tokens: the tables
    # would not match the file, so they are left out (the kernel builds its own).
    tok = Tokenizer(BPE({"a": 0, "b": 1, "ab": 2, "x": 2}, [("a", "b")], ignore_merges=True))
    path = tmp_path / "two.ctk"
    tok.save_binary(path)
    back = kernels_agree(path, "ab")
    assert back.model._saved_tables is None


def test_a_token_too_long_to_check_quickly_is_not_read_from_the_tables(tmp_path, backend):
    # Hashing a token takes a numpy step per code point: past 4096 the saved tables are
    # left unread (the kernel builds its own), so no file makes loading slow.
    tok = Tokenizer(BPE({"a": 0, "b": 1, "ab": 2, "a" * 5000: 3}, [("a", "b")], ignore_merges=True))  # fmt: skip
    path = tmp_path / "long.ctk"
    previous = _backend.use_native(True)
    try:
        tok.save_binary(path)
    finally:
        _backend.use_native(previous)
    assert b'"binary"' in path.read_bytes()[:4096]
    back = kernels_agree(path, "a" * 5000 + " ab")
    assert back.model._saved_tables is None


def test_every_merge_row_cut_with_the_tables_kept(tmp_path, backend):
    """Fuzz finding (10^6 run, ctk:llama #4149): with no merge row left there was nothing
    to look up, and a merge table full of pairs passed; the native kernel merged with it,
    the pure-Python one did not."""
    from fuzz_ctk import Ctk as Rewrite

    tok, ctk = tabled(tmp_path)
    rewrite = Rewrite.parse(ctk.path.read_bytes())
    rewrite.merges = rewrite.merges[:0]
    ctk.path.write_bytes(rewrite.to_bytes())
    with pytest.raises(FormatError, match="holds 3 pairs, but the file has no merge rows") as info:
        Tokenizer.from_file(ctk.path)
    assert str(info.value).startswith(f"{ctk.path}: at merge table: ")
