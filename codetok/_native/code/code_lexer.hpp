// The code lexer's tree walk: parse one file with tree-sitter and walk the tree once, into
// the flat records ``(start, end, kid, parent, flags, ctx)`` and the indent blocks
// ``(start, end, type, parent type)``: the native twin of ``_walk`` in
// codetok/code/front/lexer.py (the specification; its docstring says what each field means).
//
// The tree-sitter C runtime is compiled into the extension from the ``tree-sitter`` source
// distribution (see setup.py); without it (``CODETOK_TREE_SITTER`` undefined) this file
// declares nothing and the Python walk runs.
#pragma once

#ifdef CODETOK_TREE_SITTER

#include <tree_sitter/api.h>

#include <cstdint>
#include <vector>

#include "code/mapped.hpp"
#include "code/parse_arena.hpp"

namespace codetok {
namespace code {

// Role bits of node kinds (``ROLE_*`` in codetok/code/front/grammar.py).
constexpr uint8_t kRoleString = 1;
constexpr uint8_t kRoleCode = 2;
constexpr uint8_t kRoleDecorator = 4;
constexpr uint8_t kRoleError = 8;
constexpr uint8_t kRoleIndent = 16;
constexpr uint8_t kRoleDocBody = 32;
constexpr uint8_t kRoleAtomic = 64;

// Lexeme flags (``LexemeFlag``).
constexpr int64_t kFlagDecorator = 1;
constexpr int64_t kFlagInError = 2;
constexpr int64_t kFlagInterpolation = 4;

// One grammar's tables, per kind id: the node kinds of the language, then GAP and ERROR.
struct WalkTables {
    std::vector<uint8_t> roles;
    std::vector<uint16_t> type_index;
    // Docstrings (``DocstringRule``): whether there is a rule; per kind id: a body whose
    // parent may be any type (1) or one of ``doc_parents[kid]`` (type indices, 2), its name
    // holds "comment", it is the rule's statement, it is one of the rule's strings.
    bool docstrings = false;
    std::vector<uint8_t> doc_body;
    std::vector<std::vector<uint16_t>> doc_parents;
    std::vector<uint8_t> comment_named, statement, doc_string;
};

// One walk record: the bytes from ``s`` to the next record's ``s`` (records tile the parsed
// bytes; the last one ends at ``WalkResult::end``), a ``kid`` leaf (or gap) under a node of
// type index ``par``. The pieces of one string run are merged as the walk goes (``_walk``
// then the merge of ``_records_to_columns`` in the Python lexer), so a record keeps only
// the sign of its context: 0 code, 1 a string, -1 a docstring. 12 bytes: a 10 MB file has
// about two million of them, held while its tree is.
struct WalkRecord {
    uint32_t s;
    uint16_t kid, par;
    uint8_t fl;
    int8_t ctx;
};

struct WalkResult {
    std::vector<WalkRecord, MappedAllocator<WalkRecord>> records;
    int64_t end = 0;               // where the last record ends
    std::vector<int64_t> blocks;   // 4 per block
    int64_t root_kid = 0;
    int64_t root_end = 0;
    bool has_error = false;
};

// Parse ``src[0:n]`` (UTF-8) with ``language`` under ``limits`` and walk it. False: no tree,
// and ``report.status`` says why (the language's ABI is not one the runtime reads, or the
// parse went past a limit).
bool walk_source(const TSLanguage* language, const char* src, uint32_t n, const WalkTables& g,
                 const ParseLimits& limits, WalkResult& out, ParseReport& report);

// The bytes inside ERROR nodes plus one per MISSING node of ``src[0:n]`` parsed under
// ``limits`` (``_error_bytes`` in codetok/code/front/detect.py, which tells two candidate
// languages apart). False: no tree, ``report.status`` says why.
bool error_bytes(const TSLanguage* language, const char* src, uint32_t n,
                 const ParseLimits& limits, uint64_t& total, ParseReport& report);

}  // namespace code
}  // namespace codetok

#endif  // CODETOK_TREE_SITTER
