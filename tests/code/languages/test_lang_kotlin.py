"""Known answers for the Kotlin grammar file (grammars/kotlin.toml)."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import LexemeFlag, detect_language, split_identifier

LANG = "kotlin"

REPO = """\
package com.shop.orders

import kotlinx.coroutines.flow.Flow

/** An order line: [sku] times [quantity]. */
@Serializable
data class OrderLine(val sku: String, val quantity: Int = 1)

sealed interface Result<out T>

class OrderRepository(private val api: OrderApi) {
    // cached pages
    private lateinit var lastPage: List<OrderLine>

    suspend fun loadPage(pageIndex: Int): List<OrderLine> {
        val lines = api.fetch(pageIndex) ?: return emptyList()
        lastPage = lines.filter { it.quantity > 0 }
        return lastPage
    }

    companion object {
        const val PAGE_SIZE = 50
    }
}
"""


def test_every_snippet_is_lossless() -> None:
    check_language(REPO, LANG)


def test_hard_soft_and_modifier_keywords() -> None:
    ks = dict(kinds(REPO, LANG))
    for word in ("package", "import", "class", "val", "fun", "return", "interface", "data",
                 "sealed", "out", "private", "lateinit", "var", "suspend", "companion",
                 "object", "const"):  # fmt: skip
        assert ks[word] == "KEYWORD", word
    # soft and modifier keywords are names outside their position
    src = "fun f(data: Int, value: Int, open: Boolean) = data + value\n"
    check_language(src, LANG)
    out = kinds(src, LANG)
    assert [k for t, k in out if t in ("data", "value", "open")] == ["IDENTIFIER"] * 5


def test_when_is_in_and_labels() -> None:
    src = (
        "fun g(x: Any) = when (x) { is Int -> 1; in 1..9 -> 2; else -> 3 }\n"
        "fun h(xs: List<Int>) { xs.forEach { if (it == 0) return@forEach } }\n"
    )
    check_language(src, LANG)
    out = kinds(src, LANG)
    assert ("when", "KEYWORD") in out and ("is", "KEYWORD") in out and ("in", "KEYWORD") in out
    assert ("return@", "KEYWORD") in out
    assert out[out.index(("return@", "KEYWORD")) + 1] == ("forEach", "IDENTIFIER")
    assert ("..", "OPERATOR") in out and ("->", "OPERATOR") in out


def test_comments_and_kdoc() -> None:
    src = "/** Doc. */\n/**/\n/*** banner */\n/* block */\n// line\nval x = 1\n"
    check_language(src, LANG)
    comments = [(t, k) for t, k in kinds(src, LANG) if k in ("COMMENT", "DOCSTRING")]
    assert comments == [
        ("/** Doc. */", "DOCSTRING"),
        ("/**/", "COMMENT"),
        ("/*** banner */", "COMMENT"),
        ("/* block */", "COMMENT"),
        ("// line", "COMMENT"),
    ]
    assert kind_of("#!/usr/bin/env kotlin\nprintln(1)\n", LANG, "#!/usr/bin/env kotlin") == (
        "COMMENT"
    )


def test_string_templates_are_code() -> None:
    src = 'val s = "Total: ${price * qty} for $customer"\n'
    lx = check_language(src, LANG)
    out = kinds(src, LANG)
    # tree-sitter-kotlin 1.x parses "$name" as a template only in raw strings (see the next
    # test): in a one-line string it is string content
    assert out[3:] == [
        ('"Total: ', "STRING"),
        ("${", "PUNCTUATION"),
        ("price", "IDENTIFIER"),
        ("*", "OPERATOR"),
        ("qty", "IDENTIFIER"),
        ("}", "PUNCTUATION"),
        (' for $customer"', "STRING"),
    ]
    i = next(i for i in range(len(lx)) if lx.text(i) == "qty")
    assert lx.flags[i] & LexemeFlag.INTERPOLATION


def test_raw_strings_and_chars() -> None:
    src = 'val q = """\n    SELECT * FROM t WHERE id = $id\n"""\nval c = \'\\n\'\n'
    check_language(src, LANG)
    out = kinds(src, LANG)
    assert ('"""\n    SELECT * FROM t WHERE id = ', "STRING") in out
    assert ("$", "PUNCTUATION") in out and ("id", "IDENTIFIER") in out
    assert ("'\\n'", "STRING") in out


def test_numbers() -> None:
    src = "val n = listOf(0xFF, 0b1010, 1_000L, 3u, 2.5, 1e3, 2f)\n"
    check_language(src, LANG)
    nums = [t for t, k in kinds(src, LANG) if k == "NUMBER"]
    assert nums == ["0xFF", "0b1010", "1_000L", "3u", "2.5", "1e3", "2f"]


def test_annotations_are_flagged() -> None:
    src = '@file:JvmName("Util")\n\n@Deprecated("use g")\nfun f() {}\n'
    lx = check_language(src, LANG)
    flagged = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.DECORATOR]
    assert flagged == ["@", "file", ":", "JvmName", "(", '"Util"', ")",
                       "@", "Deprecated", "(", '"use g"', ")"]  # fmt: skip
    assert kind_of(src, LANG, "@") == "PUNCTUATION"


def test_generics_vs_comparison() -> None:
    src = "fun <T : Comparable<T>> maxOf(a: T, b: T) = if (a < b && b > a) b else a\n"
    lx = check_language(src, LANG)
    got = [(lx.text(i), lx.kind(i).name) for i in range(len(lx)) if lx.text(i) in ("<", ">")]
    assert got == [("<", "PUNCTUATION"), ("<", "PUNCTUATION"), (">", "PUNCTUATION"),
                   (">", "PUNCTUATION"), ("<", "OPERATOR"), (">", "OPERATOR")]  # fmt: skip


def test_identifier_splitting() -> None:
    assert kind_of(REPO, LANG, "loadPage") == "IDENTIFIER"
    assert split_identifier("loadPage").parts == ("load", "Page")
    assert split_identifier("PAGE_SIZE").pieces() == ["PAGE", "_", "SIZE"]


@pytest.mark.parametrize("src", ["fun f( { val = }", "class A { fun g(: Int }", 'val s = "${'])
def test_syntax_errors_stay_lossless(src: str) -> None:
    lx = check_language(src, LANG)
    assert lx.has_error


def test_crlf_line_endings() -> None:
    src = REPO.replace("\n", "\r\n")
    lx = check_language(src, LANG)
    assert "".join(lx.texts()) == src
    assert kind_of(src, LANG, "// cached pages") == "COMMENT"


def test_detection() -> None:
    assert detect_language(path="app/Main.kt") == LANG
    assert detect_language(path="build.gradle.kts") == LANG
    assert detect_language("#!/usr/bin/env kotlin\nprintln(1)\n") == LANG
    assert detect_language(REPO) == LANG
    script = 'fun main() {\n    val names = listOf("a", "b")\n    println(names)\n}\n'
    assert detect_language(script) == LANG


def test_literals_jumps_and_semicolons_the_grammar_leaves_unmarked() -> None:
    """``true``/``null``/``break`` parse as identifiers and ``;``/``!`` of ``!is`` have no
    node: ``[kinds.by_text]`` and ``[kinds.gaps]`` give them their kinds."""
    src = "fun f(x: Any) {\n    val a = true; val b = null\n    while (false) { break }\n}\n"
    found = kinds(src, "kotlin")
    assert ("true", "KEYWORD") in found and ("null", "KEYWORD") in found
    assert ("false", "KEYWORD") in found and ("break", "KEYWORD") in found
    assert (";", "PUNCTUATION") in found
    assert ("trueValue", "IDENTIFIER") in kinds("val trueValue = 1\n", "kotlin")
    assert all(k != "ERROR" for _, k in found)
    check_language(src, "kotlin")
