// The code lexer after its tree walk: walk records -> the lexeme columns of ``Lexemes``.
// The native twin of ``_records_to_columns`` and ``_positions`` (codetok/code/front/lexer.py)
// and of ``split_gaps`` and ``insert_layout`` (codetok/code/front/layout.py), the specification.
//
// Three rare questions go back to Python through ``ColumnCallbacks`` (each asks its
// reference function): the kind of a named leaf the grammar file does not map (its text
// decides, ``text_kind`` in grammar.py), whether a comment is a documentation comment when
// the grammar's patterns are not plain ``^LITERAL(?![CHARS])`` ones, and whether a gap of
// non-ASCII bytes is blank.
#pragma once

#ifdef CODETOK_TREE_SITTER

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "code/code_lexer.hpp"

namespace codetok {
namespace code {

// ``^LITERAL(?![FORBIDDEN])`` on the first 8 bytes of a comment (``[comments] doc``).
struct DocPattern {
    std::string literal;
    std::string forbidden;  // ASCII chars (empty: no lookahead)
};

struct ColumnTables {
    std::vector<uint8_t> leaf_kinds;  // per kind id; kTextDefined: the text decides
    std::unordered_map<uint32_t, uint8_t> by_parent;  // (kid << 16 | parent type) -> kind
    std::vector<uint8_t> has_by_parent;               // per kind id
    bool comment_doc = false;       // the grammar has documentation comment patterns
    bool doc_patterns_native = false;  // ... and all are DocPattern ones
    std::vector<DocPattern> doc_patterns;
    // Per type index: 1 when a comment right above a token with this parent type
    // documents it (``[comments] doc_before``; empty: the grammar has no such rule).
    std::vector<uint8_t> doc_owner;
    // ``[kinds.by_text]``: per named kind id, its spellings that get another kind.
    std::unordered_map<uint32_t, std::unordered_map<std::string, uint8_t>> by_text;
    std::vector<uint8_t> has_by_text;  // per kind id
    // ``[kinds.gaps]``: spellings of a run of uncovered bytes that are no ERROR.
    std::unordered_map<std::string, uint8_t> gap_kinds;
};

constexpr uint8_t kTextDefined = 255;

// Python's answers; each returns -1 with a Python error set when it failed.
struct ColumnCallbacks {
    void* ctx = nullptr;
    int (*text_kind)(void* ctx, const char* s, size_t n) = nullptr;
    int (*is_doc)(void* ctx, const char* head, size_t n) = nullptr;
    int (*blank)(void* ctx, const char* s, size_t n) = nullptr;
};

// Positions in the source text as Python indexes it: ``kind`` 1, 2 or 4 bytes per char;
// ``from_bytes``: it was decoded with surrogateescape (U+DC80..U+DCFF are one byte each).
struct TextView {
    int kind = 1;
    const void* data = nullptr;
    size_t n = 0;
    bool from_bytes = false;
};

struct LexColumns {
    std::vector<uint8_t> kinds, flags;
    std::vector<uint16_t> types, parents;
    std::vector<int64_t> bs, be, cs, ce, lines, cols;
    // Lexemes tile the source (always, see ``Lexemes.check``), so each end is the next
    // start: once ``tile`` found so, ``bs`` and ``cs`` hold n + 1 bounds and the ends are
    // freed (lexeme i is bs[i]:bs[i + 1]).
    bool tiled = false;
    // Whether ``build_columns`` works out ``lines`` and ``cols`` (else they stay empty).
    bool with_lines = true;

    // Make the columns tiled when the lexemes tile ``total_bytes`` bytes and
    // ``total_chars`` chars; whether they are.
    bool tile(int64_t total_bytes, int64_t total_chars) {
        if (tiled) return true;
        const size_t n = kinds.size();
        const auto tiles = [n](const std::vector<int64_t>& s, const std::vector<int64_t>& e,
                               int64_t last) {
            for (size_t i = 0; i + 1 < n; ++i)
                if (e[i] != s[i + 1]) return false;
            return n == 0 || e[n - 1] == last;
        };
        if (!tiles(bs, be, total_bytes) || !tiles(cs, ce, total_chars)) return false;
        be = {};
        ce = {};
        bs.push_back(total_bytes);
        cs.push_back(total_chars);
        tiled = true;
        return true;
    }

    void reserve(size_t n) {
        kinds.reserve(n);
        types.reserve(n);
        parents.reserve(n);
        flags.reserve(n);
        bs.reserve(n + 1);  // one more for ``tile``
        be.reserve(n);
    }
    // One lexeme, before positions (cs, ce, lines, cols) are worked out.
    void push(uint8_t kind, uint16_t type, uint16_t parent, uint8_t flag, int64_t s, int64_t e) {
        kinds.push_back(kind);
        types.push_back(type);
        parents.push_back(parent);
        flags.push_back(flag);
        bs.push_back(s);
        be.push_back(e);
    }
};

// The columns of one file from its walk ``w``: ``data[0:total]`` is the whole source, the
// parser saw ``data[base:]`` (``base`` 3 after a byte order mark). False: a callback failed.
// The walk's records are reworked in place (string runs merged).
// ``walk``: the tables the walk used (type indices).
bool build_columns(WalkResult& w, const WalkTables& walk, const ColumnTables& g,
                   const char* data, size_t total, size_t base, const TextView& text,
                   const ColumnCallbacks& cb, LexColumns& out);

}  // namespace code
}  // namespace codetok

#endif  // CODETOK_TREE_SITTER
