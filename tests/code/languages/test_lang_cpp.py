"""Known answers for the C++ grammar file (grammars/cpp.toml)."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import LexemeFlag, detect_language, get_grammar, lex, split_identifier
from codetok.code.front.languages import resolve_language_name

LANG = "cpp"

CACHE = """\
#include <map>
#include <string>
#include "cache.hpp"

namespace store::detail {

/// A bounded cache keyed by string.
template <typename Value, int Capacity = 64>
class [[nodiscard]] LruCache final : public Base<Value> {
public:
    explicit LruCache(std::string name) noexcept : name_(std::move(name)) {}
    virtual ~LruCache() override = default;

    //// banner, not documentation
    /** Returns true when the key is present. */
    bool contains(const std::string& key) const {
        return entries_.count(key) > 0 && Capacity < 1000;
    }

    //! Qt-style line doc.
    /*! Qt-style block doc. */
    /**/
    /*** banner block ***/
    /* plain block */
    // plain line
    auto size() const -> std::size_t { return entries_.size(); }

private:
    std::string name_;
    std::map<std::string, std::map<int, Value>> entries_;
    mutable int hits_ = 0;
};

}  // namespace store::detail
"""

LITERALS = """\
auto a = "esc\\t\\"q\\"";
auto b = R"json({"k": "v"})json";
auto c = u8"utf8" L"wide";
char d = 'x', e = '\\n';
auto n = {0x1F, 0b1010'0101, 1'000'000, 42ull, 1.5e-3, 2.0f, 12_km};
"""


def test_keywords_and_alternative_tokens() -> None:
    got = kinds(CACHE, LANG)
    words = {t for t, k in got if k == "KEYWORD"}
    assert {"namespace", "template", "typename", "class", "public", "private"} <= words
    assert {"explicit", "noexcept", "virtual", "default", "const", "auto", "mutable"} <= words
    assert {"bool", "int", "return"} <= words
    src = (
        "int f(int a, int b) { if (a and not b or a xor b) { throw 1; }\n"
        "  try { co_return; } catch (...) {} auto p = new int; delete p;\n"
        "  this->g(); return sizeof(int) + alignof(int); }\n"
        "template <class T> concept Small = requires(T t) { t.x; };\n"
        "constexpr int k = 0; static_assert(k == 0); using U = decltype(k);\n"
    )
    for word in ("and", "not", "or", "xor", "throw", "try", "catch", "new", "delete", "this"):
        assert kind_of(src, LANG, word) == "KEYWORD", word
    for word in ("concept", "requires", "constexpr", "static_assert", "using", "decltype"):
        assert kind_of(src, LANG, word) == "KEYWORD", word
    g = get_grammar(LANG)
    assert {"static_cast", "char8_t", "co_await", "bitand", "#include"} <= g.keywords
    assert {"override", "final", "import", "module"} <= g.contextual_keywords
    check_language(src, LANG)


def test_contextual_keywords_in_and_out_of_context() -> None:
    got = kinds(CACHE, LANG)
    assert kind_of(CACHE, LANG, "final") == "KEYWORD"
    assert kind_of(CACHE, LANG, "override") == "KEYWORD"
    src = "int override = 1;\nint final = override + 1;\n"
    assert [k for t, k in kinds(src, LANG) if t in ("override", "final")] == ["IDENTIFIER"] * 3
    assert ("nodiscard", "IDENTIFIER") in got
    check_language(src, LANG)


def test_doxygen_and_plain_comments() -> None:
    got = [(t, k) for t, k in kinds(CACHE, LANG) if k in ("COMMENT", "DOCSTRING")]
    assert got == [
        ("/// A bounded cache keyed by string.", "DOCSTRING"),
        ("//// banner, not documentation", "COMMENT"),
        ("/** Returns true when the key is present. */", "DOCSTRING"),
        ("//! Qt-style line doc.", "DOCSTRING"),
        ("/*! Qt-style block doc. */", "DOCSTRING"),
        ("/**/", "COMMENT"),
        ("/*** banner block ***/", "COMMENT"),
        ("/* plain block */", "COMMENT"),
        ("// plain line", "COMMENT"),
        ("// namespace store::detail", "COMMENT"),
    ]
    check_language(CACHE, LANG)


def test_template_brackets_and_comparisons() -> None:
    got = kinds(CACHE, LANG)
    # template <...>, Base<Value>, "Capacity < 1000" / "count(key) > 0", then the two maps
    brackets = ["PUNCTUATION", "PUNCTUATION", "OPERATOR", "PUNCTUATION", "PUNCTUATION"]
    assert [k for t, k in got if t == "<"] == brackets
    assert [k for t, k in got if t == ">"] == brackets
    src = "bool f(int a, int b) { return a < b || a > b || (a >> 2) < (b << 1); }\n"
    assert all(k == "OPERATOR" for t, k in kinds(src, LANG) if t in ("<", ">", ">>", "<<"))
    cast = "int x = static_cast<int>(2.5);\n"
    assert [k for t, k in kinds(cast, LANG) if t in ("<", ">")] == ["PUNCTUATION"] * 2
    check_language(src, LANG)
    check_language(cast, LANG)


def test_strings_raw_strings_chars_and_numbers() -> None:
    got = kinds(LITERALS, LANG)
    assert [t for t, k in got if k == "STRING"] == [
        '"esc\\t\\"q\\""', 'R"json({"k": "v"})json"', 'u8"utf8"', 'L"wide"', "'x'", "'\\n'",
    ]  # fmt: skip
    assert [t for t, k in got if k == "NUMBER"] == [
        "0x1F", "0b1010'0101", "1'000'000", "42ull", "1.5e-3", "2.0f", "12",
    ]  # fmt: skip
    # a user-defined literal suffix names an operator"" function
    assert kind_of(LITERALS, LANG, "_km") == "IDENTIFIER"
    includes = [t for t, k in kinds(CACHE, LANG) if k == "STRING"]
    assert includes == ["<map>", "<string>", '"cache.hpp"']
    check_language(LITERALS, LANG)


def test_attributes_are_decorators() -> None:
    src = '[[nodiscard]] int f();\n[[deprecated("old")]] void g();\n'
    lx = lex(src + CACHE, LANG)
    flagged = [
        lx.text(i)
        for i in range(len(lx))
        if lx.flags[i] & LexemeFlag.DECORATOR and lx.kind(i).name not in ("WHITESPACE", "NEWLINE")
    ]
    assert flagged == (
        ["[[", "nodiscard", "]]"]
        + ["[[", "deprecated", "(", '"old"', ")", "]]"]
        + ["[[", "nodiscard", "]]"]
    )
    check_language(src, LANG)


def test_identifiers_and_splitting() -> None:
    for name in ("LruCache", "entries_", "store", "detail", "name_", "contains"):
        assert kind_of(CACHE, LANG, name) == "IDENTIFIER", name
    assert split_identifier("LruCache").parts == ("Lru", "Cache")
    assert split_identifier("getHTTPHeader").parts == ("get", "HTTP", "Header")
    assert split_identifier("max_entry_count").parts == ("max", "entry", "count")


@pytest.mark.parametrize(
    "src",
    [
        "template <typename T class X { public: };\n",
        'auto s = "unterminated;\n',
        'auto r = R"x(never closed\n',
        "namespace { int } } } \x00 ☃ §",
        "/* unclosed block comment\nint f();\n",
        "#if X\nclass A {\n#else\nclass B {\n#endif\n};\n",
    ],
)
def test_syntax_errors_stay_lossless(src: str) -> None:
    lx = check_language(src, LANG)
    assert "".join(lx.texts()) == src


def test_crlf_line_endings() -> None:
    crlf = CACHE.replace("\n", "\r\n")
    lx = check_language(crlf, LANG)
    assert "".join(lx.texts()) == crlf
    assert kinds(crlf, LANG) == kinds(CACHE, LANG)
    check_language("#define X 1\r\n#if X\r\n#endif\r\n", LANG)


def test_names_and_detection() -> None:
    assert resolve_language_name("c++") == LANG
    assert resolve_language_name("cxx") == LANG
    for path in ("a.cc", "a.cpp", "a.cxx", "a.c++", "a.hh", "a.hpp", "a.hxx", "a.inl", "a.tpp"):
        assert detect_language(path=path) == LANG, path
    assert detect_language(CACHE) == LANG
    # a ".h" file is C unless its content reads as C++
    assert detect_language(path="cache.h") == "c"
    assert detect_language(CACHE, path="cache.h") == LANG
    assert detect_language("#ifndef A_H\n#define A_H\nint a(void);\n#endif\n", path="a.h") == "c"


def test_casts_and_typeid_are_keywords() -> None:
    src = "int n = static_cast<int>(x);\nauto *d = dynamic_cast<Derived *>(b);\nauto &t = typeid(x);\nint cast_count = 0;\n"
    found = kinds(src, "cpp")
    for word in ("static_cast", "dynamic_cast", "typeid"):
        assert (word, "KEYWORD") in found, word
    assert ("cast_count", "IDENTIFIER") in found
    check_language(src, "cpp")
