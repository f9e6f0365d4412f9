"""CodeTokenizer on bytes that are not valid UTF-8: the bytes come back, the text is theirs.

For a bytes source, ``decode(ids, as_bytes=True)`` gives the original bytes and
``decode(ids, from_bytes=True)`` gives its :attr:`Lexemes.source_text`
(``bytes.decode("utf-8", "surrogateescape")``); distinct sources give distinct ids. Checked
exhaustively over the UTF-8-encoded surrogates (``ED A0..BF 80..BF``, which Python's
``surrogatepass`` would read as lone surrogates), on overlongs, code points past U+10FFFF,
lone continuation bytes and truncated sequences, in several places of a file, natively and
through the Python lexer and router; and with hypothesis on random bytes.
"""

from __future__ import annotations

import pytest
from conftest import python_pipeline
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok.code import CodeTokenizer

#: Every UTF-8-encoded surrogate, U+D800..U+DFFF.
SURROGATES = [bytes([0xED, a, b]) for a in range(0xA0, 0xC0) for b in range(0x80, 0xC0)]

#: Other invalid (or borderline) sequences.
OTHERS = [
    b"\xc0\x80",  # overlong NUL
    b"\xc1\xbf",
    b"\xe0\x80\x80",
    b"\xe0\x9f\xbf",
    b"\xf0\x80\x80\x80",
    b"\xf0\x8f\xbf\xbf",
    b"\xf4\x90\x80\x80",  # past U+10FFFF
    b"\xf5\x80\x80\x80",
    b"\xff",
    b"\xfe",
    b"\x80",  # lone continuation bytes
    b"\xbf",
    b"\x80\x80",
    b"\xed",  # truncated sequences
    b"\xed\xa0",
    b"\xe2\x82",
    b"\xf0\x9f\x98",
    b"\xed\x9f\xbf",  # U+D7FF and U+E000: valid neighbours of the surrogates
    b"\xee\x80\x80",
    b"\xed\xa0\x80\xed\xb0\x80",  # a surrogate pair spelled as two surrogates (CESU-8)
    b"\xed\xb2\x80\x80",  # U+DC80 encoded, then the byte 0x80 (surrogateescape's U+DC80)
]

TEMPLATES = [b"x = '%s'\n", b"# %s\n", b"%s = 1\n", b"a%sb\n"]


@pytest.fixture(scope="module")
def tok() -> CodeTokenizer:
    return CodeTokenizer.default()


def _check(tok: CodeTokenizer, sources: list[bytes]) -> None:
    seen: dict[tuple[int, ...], bytes] = {}
    for src in sources:
        enc = tok.encode(src, "python")
        text = src.decode("utf-8", "surrogateescape")
        assert enc.lexemes.source_text == text
        assert tok.decode(enc.ids, as_bytes=True) == src, src
        assert tok.decode(enc.ids, from_bytes=True) == text, src
        key = tuple(enc.ids)
        assert seen.setdefault(key, src) == src, (src, seen[key])


@pytest.mark.parametrize("native", [True, False], ids=["native", "python"])
def test_every_encoded_surrogate(tok: CodeTokenizer, native: bool) -> None:
    sources = [TEMPLATES[0].replace(b"%s", s) for s in SURROGATES]
    if native:
        _check(tok, sources)
    else:
        with python_pipeline():
            _check(tok, sources)


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("native", [True, False], ids=["native", "python"])
def test_invalid_sequences_in_several_places(
    tok: CodeTokenizer, template: bytes, native: bool
) -> None:
    sources = [template.replace(b"%s", s) for s in OTHERS + SURROGATES[::97]]
    if native:
        _check(tok, sources)
    else:
        with python_pipeline():
            _check(tok, sources)


def test_an_encoded_surrogate_and_its_escaped_byte_decode_apart(tok: CodeTokenizer) -> None:
    # U+DC80 spelled in UTF-8 (ED B2 80) and the lone byte 0x80 (which surrogateescape
    # reads as U+DC80) are different sources: their texts differ too.
    a = tok.encode(b"x = '\xed\xb2\x80'\n", "python")
    b = tok.encode(b"x = '\x80'\n", "python")
    assert a.ids != b.ids
    assert tok.decode(a.ids, from_bytes=True) == "x = '\udced\udcb2\udc80'\n"
    assert tok.decode(b.ids, from_bytes=True) == "x = '\udc80'\n"


def test_str_sources_keep_their_lone_surrogates(tok: CodeTokenizer) -> None:
    # Without from_bytes, decode inverts a str source (surrogatepass), so a str holding
    # lone surrogates, escape chars included, comes back as it was.
    for src in ["x = '\ud800'\n", "x = '\udc80'\n", "x = '\udced\udca0\udc80'\n", "\udfff"]:
        enc = tok.encode(src, "python")
        assert not enc.source_is_bytes
        assert tok.decode(enc.ids) == src


def test_from_bytes_and_as_bytes_are_exclusive(tok: CodeTokenizer) -> None:
    ids = tok.encode(b"x\n", "python").ids
    with pytest.raises(ValueError, match="as_bytes or from_bytes"):
        tok.decode(ids, as_bytes=True, from_bytes=True)


_RISKY = st.sampled_from(
    [b"\xed", b"\xa0", b"\xb2", b"\x80", b"\xbf", b"\xc0", b"\xf4", b"\x90", b"\xff"]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    parts=st.lists(
        st.binary(max_size=6) | _RISKY | st.sampled_from([b"x = ", b"'", b"\n", b"# ", b"  "]),
        max_size=16,
    ),
    native=st.booleans(),
)
def test_any_bytes_round_trip(tok: CodeTokenizer, parts: list[bytes], native: bool) -> None:
    src = b"".join(parts)
    if native:
        enc = tok.encode(src, "python")
    else:
        with python_pipeline():
            enc = tok.encode(src, "python")
    assert tok.decode(enc.ids, as_bytes=True) == src
    assert tok.decode(enc.ids, from_bytes=True) == src.decode("utf-8", "surrogateescape")
