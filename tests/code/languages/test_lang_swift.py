"""Known answers for the Swift grammar file (grammars/swift.toml)."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import LexemeFlag, detect_language, split_identifier

LANG = "swift"

MODEL = """\
import Foundation

/// A cart that sums its items.
@MainActor
final class ShoppingCart<Item: Priced>: ObservableObject {
    @Published private(set) var items: [Item] = []
    weak var delegate: CartDelegate?

    // total in cents
    func totalPrice(discount: Double = 0.0) async throws -> Int {
        guard !items.isEmpty else { return 0 }
        let sum = items.reduce(0) { $0 + $1.cents }
        return Int(Double(sum) * (1 - discount))
    }

    deinit { print("cart gone") }
}
"""


def test_every_snippet_is_lossless() -> None:
    check_language(MODEL, LANG)


def test_keywords() -> None:
    ks = dict(kinds(MODEL, LANG))
    for word in ("import", "final", "class", "private", "set", "var", "weak", "func",
                 "async", "throws", "guard", "else", "return", "let", "deinit"):  # fmt: skip
        assert ks[word] == "KEYWORD", word
    # contextual keywords are names elsewhere
    src = "let weak = 1\nvar set = weak\nfunc get(open: Int) {}\n"
    check_language(src, LANG)
    out = kinds(src, LANG)
    assert [k for t, k in out if t in ("weak", "set", "get", "open")] == ["IDENTIFIER"] * 5


def test_literals_and_hash_keywords() -> None:
    src = (
        "let a: Int? = nil\nlet b = true\n"
        "if #available(iOS 15, *) { print(#file, #selector(tap)) }\n"
        "#if DEBUG\nlet c = 1\n#endif\n"
    )
    check_language(src, LANG)
    out = kinds(src, LANG)
    for word in ("nil", "true", "available", "file", "selector", "#if", "#endif"):
        assert (word, "KEYWORD") in out, word
    assert ("#", "PUNCTUATION") in out and ("DEBUG", "IDENTIFIER") in out


def test_comments_and_doc_comments() -> None:
    src = "/// Doc.\n//// banner\n/** Block doc. */\n/**/\n/* plain */\n// line\nlet x = 1\n"
    check_language(src, LANG)
    comments = [(t, k) for t, k in kinds(src, LANG) if k in ("COMMENT", "DOCSTRING")]
    assert comments == [
        ("/// Doc.", "DOCSTRING"),
        ("//// banner", "COMMENT"),
        ("/** Block doc. */", "DOCSTRING"),
        ("/**/", "COMMENT"),
        ("/* plain */", "COMMENT"),
        ("// line", "COMMENT"),
    ]


def test_string_interpolation_is_code() -> None:
    src = 'let s = "Hi \\(user.name), total \\(price * 2)"\n'
    lx = check_language(src, LANG)
    out = kinds(src, LANG)
    assert out[3:] == [
        ('"Hi \\(', "STRING"),
        ("user", "IDENTIFIER"),
        (".", "PUNCTUATION"),
        ("name", "IDENTIFIER"),
        ("), total \\(", "STRING"),
        ("price", "IDENTIFIER"),
        ("*", "OPERATOR"),
        ("2", "NUMBER"),
        (')"', "STRING"),
    ]
    i = next(i for i in range(len(lx)) if lx.text(i) == "price")
    assert lx.flags[i] & LexemeFlag.INTERPOLATION


def test_multiline_and_raw_strings() -> None:
    src = 'let m = """\n    Dear \\(name)\n    """\nlet r = #"C:\\path \\#(dir) "q""#\n'
    check_language(src, LANG)
    out = kinds(src, LANG)
    assert ('"""\n    Dear \\(', "STRING") in out and ("name", "IDENTIFIER") in out
    assert ('#"C:\\path ', "STRING") in out
    assert ("\\#(", "PUNCTUATION") in out and ("dir", "IDENTIFIER") in out
    assert (' "q""#', "STRING") in out


def test_numbers() -> None:
    src = "let n = [0x1F, 0o17, 0b1010, 1_000, 3.25, 1e-3]\n"
    check_language(src, LANG)
    nums = [t for t, k in kinds(src, LANG) if k == "NUMBER"]
    assert nums == ["0x1F", "0o17", "0b1010", "1_000", "3.25", "1e-3"]


def test_attributes_are_flagged() -> None:
    lx = check_language(MODEL, LANG)
    flagged = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.DECORATOR]
    assert flagged == ["@", "MainActor", "@", "Published"]
    src = "@objc func tap() {}\n"
    lx = check_language(src, LANG)
    assert [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.DECORATOR] == [
        "@",
        "objc",
    ]


def test_generics_vs_comparison() -> None:
    src = "func pick<T: Comparable>(_ a: T, _ b: Array<T>) -> Bool { a < b[0] && b[0] > a }\n"
    lx = check_language(src, LANG)
    got = [(lx.text(i), lx.kind(i).name) for i in range(len(lx)) if lx.text(i) in ("<", ">")]
    assert got == [("<", "PUNCTUATION"), (">", "PUNCTUATION"), ("<", "PUNCTUATION"),
                   (">", "PUNCTUATION"), ("<", "OPERATOR"), (">", "OPERATOR")]  # fmt: skip


def test_identifier_splitting() -> None:
    assert kind_of(MODEL, LANG, "totalPrice") == "IDENTIFIER"
    assert split_identifier("totalPrice").parts == ("total", "Price")
    assert split_identifier("URLSessionTask").parts == ("URL", "Session", "Task")


@pytest.mark.parametrize("src", ["func f( { let = }", "class A { var x: = }", 'let s = "\\('])
def test_syntax_errors_stay_lossless(src: str) -> None:
    lx = check_language(src, LANG)
    assert lx.has_error


def test_crlf_line_endings() -> None:
    src = MODEL.replace("\n", "\r\n")
    lx = check_language(src, LANG)
    assert "".join(lx.texts()) == src
    assert kind_of(src, LANG, "// total in cents") == "COMMENT"
    assert kind_of(src, LANG, "/// A cart that sums its items.") == "DOCSTRING"


def test_detection() -> None:
    assert detect_language(path="Sources/Cart.swift") == LANG
    assert detect_language("#!/usr/bin/env swift\nprint(1)\n") == LANG
    assert detect_language(MODEL) == LANG
    script = "import Foundation\n\nguard let url = URL(string: arg) else { exit(1) }\n"
    assert detect_language(script) == LANG


def test_statement_semicolons_are_punctuation() -> None:
    src = "let a = 1; let b = 2\nif a < b { print(a); }\n"
    found = kinds(src, "swift")
    assert found.count((";", "PUNCTUATION")) == 2
    assert all(k != "ERROR" for _, k in found)
    check_language(src, "swift")
