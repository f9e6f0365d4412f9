"""``hf_regex.pin_properties``: each rewritten class holds exactly the pinned members.

The rewrite picks among several forms (the class as ``regex`` has it, a negated class with
the members to drop, the complement of the other categories, a lookahead guard) for
speed; every form must hold, code point by code point, what ``regex``'s own class holds
outside delta (where the two Unicode versions agree) and, inside delta, what the plain
substitution of the pinned tables holds (slow, but exact by construction).
"""

from __future__ import annotations

import functools

import pytest
import regex

from codetok.unicode import hf_regex

DATA = hf_regex._pinned_data()
#: Every code point outside delta, where the two Unicode versions agree.
OUTSIDE = "".join(chr(c) for c in range(0x110000) if chr(c) not in DATA.delta_set)

CLASSES = [
    r"\p{L}",
    r"\p{N}",
    r"\p{M}",
    r"\p{Lu}",
    r"\P{L}",
    r"\p{^N}",
    r"[^\s\p{L}\p{N}]",
    r"[^\r\n\p{L}\p{N}]",
    r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]",
    r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]",
    r"[\p{L}\p{N}]",
    r"[\p{L}'_]",
    r"[\p{L}\p{Nd}]",
    r"[^\P{L}]",
    r"[\P{N}\p{L}]",
]


@functools.cache
def exact(cls: str) -> regex.Pattern[str]:
    """The class with every pinned property replaced by its full member list."""
    return regex.compile(
        hf_regex._PROPERTY.sub(
            lambda m: DATA.item(*p, full=True) if (p := hf_regex._pinned(m)) else m.group(),
            bracket(cls),
        )
    )


def bracket(cls: str) -> str:
    return cls if cls.startswith("[") else f"[{cls}]"


def check_members(cls: str, form: str) -> None:
    """``form`` holds the members of ``regex``'s own ``cls`` outside delta, and the pinned
    ones inside."""
    rx = regex.compile(form)
    # (one-char classes: the same chars left over means the same members)
    assert rx.sub("", OUTSIDE) == regex.sub(bracket(cls), "", OUTSIDE), (cls, form[:80])
    want = exact(cls).findall(DATA.delta_text)
    got = rx.findall(DATA.delta_text)
    assert got == want, (cls, sorted(set(got) ^ set(want))[:10])


@pytest.mark.parametrize("cls", CLASSES)
def test_rewritten_class_holds_the_pinned_members(cls):
    assert exact(cls).search(DATA.delta_text + OUTSIDE), "the class holds something"
    check_members(cls, hf_regex._pin_class(bracket(cls), False))


@pytest.mark.parametrize("cls", [r"\p{L}", r"[^\r\n\p{L}\p{N}]"])
def test_the_guarded_form_holds_the_pinned_members(cls):
    """The form kept for classes that may be matched ignoring case."""
    form = hf_regex._pin_class(bracket(cls), True)
    assert "(?=" in form
    check_members(cls, form)


def test_differing_classes_drop_the_lookahead_outside_case_folding():
    """The fast forms are used where they can be: no per-char lookahead for the classes of
    the well-known patterns, which differ between the two Unicode versions."""
    for cls in CLASSES[:4] + CLASSES[6:10]:
        assert exact(cls).findall(DATA.delta_text) != regex.findall(
            bracket(cls), DATA.delta_text
        ), cls
        assert "(?=" not in hf_regex._pin_class(bracket(cls), False), cls


def test_classes_inside_a_caseless_group_keep_their_case_closure():
    """(?i) lets a class match the case variants of its members; the rewrite keeps that."""
    for pattern in (r"(?i:[\p{Lu}]+)", r"(?i)x[\p{Lu}]+", r"(?i:[^\p{Ll}\p{N}]+)"):
        plain = hf_regex._PROPERTY.sub(
            lambda m: DATA.item(*p, full=True) if (p := hf_regex._pinned(m)) else m.group(),
            pattern,
        )
        text = "abcXYZ\u0101\u0100 12 \u01c5\u01c6"
        assert regex.findall(hf_regex.pin_properties(pattern), text) == regex.findall(
            plain, text
        ), pattern
