"""Every entry of a saved ``CodeTokenizer``'s ``"codetok_code"`` section is checked at load.

``ReservedTokens.from_dict`` turned whatever stood in a keyword list into strings: an int
``5`` loaded as the keyword ``"5"``, an object as its text, a string ``"def"`` in place of
the list as the keywords ``d``, ``e``, ``f`` (other ids). A missing ``reserved`` section, a
``true`` version, an unknown key loaded silently too, and option and comment-tokenizer
errors named no key. Each edit below is refused with a ``FormatError`` naming the file and
the key.
"""

from __future__ import annotations

import json

import pytest

from codetok import Tokenizer
from codetok.code import CodeTokenizer
from codetok.errors import FormatError
from codetok.models import BPE
from codetok.pre_tokenizers import ByteLevel

SOURCE = "def f(x):\n    return x  # one\n"
K = "codetok_code"


def _byte_level() -> Tokenizer:
    alphabet = sorted(set(ByteLevel.alphabet()))
    return Tokenizer(
        BPE({c: i for i, c in enumerate(alphabet)}, []),
        pre_tokenizer=ByteLevel(add_prefix_space=False),
    )


@pytest.fixture(scope="module")
def good() -> str:
    tok = CodeTokenizer(_byte_level(), _byte_level(), languages=["python", "javascript"])
    text = tok.to_str()
    assert CodeTokenizer.from_str(text).encode(SOURCE, "python").ids == (
        tok.encode(SOURCE, "python").ids
    )
    return text


def _python(d):
    return d[K]["reserved"]["keywords"]["python"]


def _append(value):
    def edit(d):
        _python(d).append(value)
        return len(_python(d)) - 1

    return edit


EDITS = [
    # (edit of the JSON object, where, start of the message); "{i}" is what edit returned
    (lambda d: d[K].update(version=True), f"{K}.version", "unsupported code tokenizer version"),
    (lambda d: d[K].update(version=1.0), f"{K}.version", "unsupported code tokenizer version"),
    (lambda d: d[K].update(zzz=1), K, "unknown key 'zzz'"),
    (lambda d: d[K].pop("reserved"), K, "missing key 'reserved'"),
    (lambda d: d[K].pop("comment_tokenizer"), K, "missing key 'comment_tokenizer'"),
    (lambda d: d[K]["options"].update(zzz=1), f"{K}.options.zzz", "unknown option 'zzz'"),
    (
        lambda d: d[K]["options"].update(digits="roman"),
        f"{K}.options.digits",
        "malformed option: digit policy must be one of",
    ),
    (
        lambda d: d[K]["options"].update(max_piece=0),
        f"{K}.options.max_piece",
        "malformed option: max_piece must be a positive int, got 0",
    ),
    (lambda d: d[K].update(reserved=[]), f"{K}.reserved", "expected {"),
    (lambda d: d[K]["reserved"].update(x=1), f"{K}.reserved", "expected {"),
    (
        lambda d: d[K]["reserved"].update(keywords=None),
        f"{K}.reserved.keywords",
        "expected an object mapping languages to lists of keywords, got NoneType None",
    ),
    (_append(5), f"{K}.reserved.keywords.python[{{i}}]", "expected a non-empty string"),
    (_append({"a": 1}), f"{K}.reserved.keywords.python[{{i}}]", "expected a non-empty string"),
    (_append(""), f"{K}.reserved.keywords.python[{{i}}]", "expected a non-empty string"),
    (_append("def"), f"{K}.reserved.keywords.python", "keyword 'def' is listed twice"),
    (
        lambda d: d[K]["reserved"]["keywords"].update(python="def"),
        f"{K}.reserved.keywords.python",
        "expected a list of keywords, got str 'def'",
    ),
    (
        lambda d: d[K]["reserved"]["keywords"].update(python=dict.fromkeys(_python(d), 1)),
        f"{K}.reserved.keywords.python",
        "expected a list of keywords, got dict",
    ),
    (
        lambda d: d[K]["reserved"]["keywords"].update(py=d[K]["reserved"]["keywords"]["python"]),
        f"{K}.reserved.keywords.py",
        "'py' is not a canonical language name",
    ),
    (
        _append("zzz"),
        f"{K}.reserved.keywords.python",
        "the reserved token '<py:zzz>' is not an added token of the saved tokenizer",
    ),
    (
        lambda d: d[K].update(comment_tokenizer=5),
        f"{K}.comment_tokenizer",
        "expected null or a tokenizer.json object, got int 5",
    ),
    (
        lambda d: d[K]["comment_tokenizer"].pop("model"),
        f"{K}.comment_tokenizer",
        "no 'model' section",
    ),
    (
        lambda d: d[K]["comment_tokenizer"]["model"].update(unk_token=["<unk>"]),
        f"{K}.comment_tokenizer.model.unk_token",
        "expected a string or null",
    ),
]


@pytest.mark.parametrize(("edit", "where", "message"), EDITS)
def test_a_malformed_entry_is_refused_naming_file_and_key(good, tmp_path, edit, where, message):
    data = json.loads(good)
    i = edit(data)
    path = tmp_path / "code.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        CodeTokenizer.load(path)
    want = f"{path}: at {where.format(i=i)}: {message}"
    assert str(info.value).startswith(want), str(info.value)
