"""Numbers in ``tokenizer.json`` read to the same ``float`` HF ``tokenizers`` holds.

HF reads its files with ``serde_json``, built without the ``float_roundtrip`` feature. That
parser is not correctly rounded: it gathers the decimal digits into a 64-bit integer
(digits that would overflow it are dropped), converts the integer to a float (one
rounding, to nearest even), then multiplies or divides by the float power of ten (a second
rounding). Python's ``json`` rounds correctly, so the two can differ in the last bit, for
example ``-7.2344512939453125`` (an exact float32 Unigram score) is read by HF as
``-7.234451293945312``. Those last bits decide Unigram Viterbi ties: a path whose scores
sum equal in exact arithmetic wins or loses by one ulp. About a quarter of the scores of
a SentencePiece-converted ``tokenizer.json`` are affected, and ties change the ids of
repetitive text such as ``"#/////"``.

:func:`hf_float` reproduces that reading; ``tokenizer.json`` loading uses it for every
number with a fraction or exponent. ``tests/formats/test_json_numbers.py`` compares it with what
HF itself holds after loading.
"""

from __future__ import annotations

__all__ = ["hf_float"]

_U64 = 2**64 - 1
_LIMIT, _LAST = divmod(_U64, 10)


def hf_float(text: str) -> float:
    """The float ``serde_json`` (without ``float_roundtrip``) reads from a JSON number.

    >>> hf_float("-7.2344512939453125")
    -7.234451293945312
    >>> hf_float("0.5"), hf_float("1e-3")
    (0.5, 0.001)
    """
    # At most 15 digits and no exponent: the integer and the power of ten are exact and
    # the one division rounds correctly, as Python's float() does.
    if len(text) <= 16 and "e" not in text and "E" not in text:
        return float(text)
    return _slow(text)


def _slow(text: str) -> float:
    negative = text.startswith("-")
    body = text[1:] if negative else text
    mantissa, _, exp_text = body.lower().partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    significand = 0
    exponent = 0
    overflow = False
    for ch in int_part:  # integer digits past the 64-bit limit scale by ten
        digit = ord(ch) - 48
        if overflow or significand > _LIMIT or (significand == _LIMIT and digit > _LAST):
            overflow = True
            exponent += 1
        else:
            significand = significand * 10 + digit
    for ch in frac_part:  # fraction digits past the limit are dropped
        digit = ord(ch) - 48
        if overflow or significand > _LIMIT or (significand == _LIMIT and digit > _LAST):
            overflow = True
        else:
            significand = significand * 10 + digit
            exponent -= 1
    if exp_text:
        exponent += int(exp_text)
    value = float(significand)
    while True:
        if abs(exponent) <= 308:
            power = float(f"1e{abs(exponent)}")
            value = value * power if exponent >= 0 else value / power
            break
        if value == 0.0:
            break
        if exponent > 0:  # serde_json reports an overflow; a float cannot hold it either
            value = float("inf")
            break
        value /= 1e308
        exponent += 308
    return -value if negative else value
