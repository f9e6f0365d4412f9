// A code tokenizer's whole encode of one file in one native call: the parse, the walk, the
// lexeme columns, the docstring section headers and the router (its lean output: each
// token's id and lexeme), with Python reached only for the rare questions of the lexer and
// router (their callbacks). ``encode_files`` runs many files so on several threads.
//
// The pieces are the native twins of codetok/code/front/lexer.py's ``lex``
// (code_lexer.hpp, code_columns.hpp), ``_doc_cuts`` in codetok/code/routing/native.py
// (doc_sections.hpp) and the router (code_router.hpp); this file only strings them together,
// so each keeps its own Python reference.
#pragma once

#ifdef CODETOK_TREE_SITTER

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "code/code_columns.hpp"
#include "code/code_lexer.hpp"
#include "code/code_router.hpp"
#include "code/doc_sections.hpp"

namespace codetok {
namespace code {

// Section headers of one docstring that is not ASCII (the Python scanner): appended to
// ``out`` as (char offset, reserved id); false: it failed (a Python error is set).
using SectionFallback = bool (*)(void* ctx, const Cp* s, size_t n,
                                 std::vector<std::pair<int64_t, int32_t>>& out);

// What stays the same for every file of one language and one set of router options.
struct EncodePlan {
    const WalkTables* walk = nullptr;
    const ColumnTables* columns = nullptr;
    ColumnCallbacks callbacks;
    const CodeRouter* router = nullptr;
    SplitFallback split = nullptr;
    void* split_ctx = nullptr;
    // Docstring sections: no scanner, no cuts (``doc_sections`` off or docstrings dropped).
    const DocSections* sections = nullptr;
    std::vector<int32_t> section_ids;  // the reserved id of each section code
    SectionFallback section_fallback = nullptr;
    void* section_ctx = nullptr;
};

// One file: ``data[0:size]`` the source bytes, of which the parser reads ``data[base:]``;
// ``text`` the source as the lexer's char spans index it.
struct EncodeJob {
    const EncodePlan* plan = nullptr;
    const TSLanguage* language = nullptr;
    const char* data = nullptr;
    size_t size = 0;
    size_t base = 0;
    TextView text;
    ParseLimits limits;
};

// ``skipped``: not run, a file before it failed.
enum class EncodeStatus { ok, no_tree, failed, skipped };

struct EncodeOutput {
    EncodeStatus status = EncodeStatus::ok;
    ParseReport report;  // why there is no tree (``no_tree``)
    LexColumns columns;
    bool has_error = false;
    CodeRouted routed;   // lean: ``lean_ids`` and ``lean_lex``
    std::string error;   // ``failed`` by a C++ exception: its message (else no Python error)
};

// Encode one file. ``failed``: a callback failed (its Python error is set in the calling
// thread) or the router threw.
void encode_file(const EncodeJob& job, EncodeOutput& out);

// Encode ``count`` files on up to ``threads`` threads, the calling one among them; each
// worker thread runs ``enter`` first and ``leave`` last (to hold interpreter state for the
// callbacks), and ``failed(k)`` right after file k failed, in the thread that ran it (to
// keep its error). Files run longest first when one is long against the batch (else in
// order); once a file failed or has no tree, files after it are skipped, since the caller
// reports the first failure in source order.
void encode_files(const EncodeJob* jobs, size_t count, size_t threads, EncodeOutput* outs,
                  const std::function<void()>& enter, const std::function<void()>& leave,
                  const std::function<void(size_t)>& failed);

}  // namespace code
}  // namespace codetok

#endif  // CODETOK_TREE_SITTER
