// The code tokenizer's router and subword channels in one pass: a file's lexemes (kinds
// and char spans) -> units (reserved tokens and pieces) -> ids. The native twin of
// ``route`` (codetok/code/routing/router.py) followed by ``CodeTokenizer._encode_lexemes``'s loop
// over units with ``Channel.encode`` (codetok/code/routing/channels.py); those stay the
// specification and the oracle of the tests.
//
// What stays in Python (codetok/code/routing/native.py decides): whitespace normalization and
// statistical identifier splitting (the whole file then takes the Python router), docstring
// section headers (found in Python, handed in as cuts), and splitting identifiers that are
// not ASCII (a callback, remembered per name).
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernels/bpe.hpp"
#include "code/chunked.hpp"
#include "code/code_kinds.hpp"
#include "code/code_pieces.hpp"
#include "code/identifier_split.hpp"
#include "train/piece_counter.hpp"
#include "plans/pipeline.hpp"
#include "plans/text_pipeline.hpp"

namespace codetok {
namespace code {

// One subword channel: a byte-level BPE model, its id offset and every id's bytes.
struct ChannelSpec {
    std::shared_ptr<const BpeKernel> kernel;
    int32_t offset = 0;
    int32_t unk_id = -1;
    std::array<int32_t, 256> byte_ids{};  // single-byte token of each byte
    std::array<Cp, 256> byte_char{};      // the byte-level alphabet (GPT-2's)
    std::vector<uint32_t> bytes_off;      // id k's bytes: blob[off[k]:off[k + 1]]
    std::string bytes_blob;
};

struct RouterSpec {
    std::vector<int64_t> lengths;  // bytes each id spells (its surface for reserved ids)
    bool lossless = true;           // no dropped comments or docstrings
    Digits digits = Digits::Group3;
    size_t cap = 64;  // max_piece
    bool split_identifiers = true;
    bool comment_markers = true;
    bool drop_comments = false;
    bool drop_docstrings = false;
    bool fold_whitespace = false;   // ``RouterOptions.fold_whitespace``
    bool join_punctuation = false;  // ``RouterOptions.join_punctuation``
    bool fold_blank_lines = false;  // ``RouterOptions.fold_blank_lines``
    int32_t indent = -1, dedent = -1, comment_open = -1, comment_close = -1, doc_open = -1,
            doc_close = -1;
    int32_t nl = -1, crlf = -1, cr = -1;
    std::unordered_map<std::u32string, int32_t> keywords;  // keyword text -> reserved id
};

// A file's lexemes as the router reads them.
struct LexemeView {
    const uint8_t* kinds;
    const int64_t* starts;  // char spans
    const int64_t* ends;
    size_t count;
};

// Docstring section headers (``find_sections``, found in Python): for docstring lexeme
// ``lex[k]`` (ascending), a marker ``id[k]`` at ``off[k]`` chars into it.
struct DocCuts {
    const int64_t* lex = nullptr;
    const int64_t* off = nullptr;
    const int32_t* id = nullptr;
    size_t count = 0;
};

// The result: units (``Routed``) and tokens.
struct CodeRouted {
    // Lean: only each token's id and lexeme (``lean_ids``, ``lean_lex``), in blocks; no
    // units and no annotations (a lossless ``CodeEncoding`` works its spans and lines out
    // of the ids when they are read). Else the fields below.
    bool lean = false;
    Chunked<int32_t> lean_ids;
    Chunked<int32_t> lean_lex;  // lexeme indices (a file is under 4 GiB)
    std::vector<int64_t> unit_start, unit_end, unit_lex;
    std::vector<int32_t> ids;
    std::vector<int64_t> tok_unit;
    // Per token (``CodeTokenizer._annotate``): its lexeme, byte span and char span (pairs)
    // and 1-based line.
    std::vector<int64_t> tok_lex, byte_spans, char_spans, lines;
    // Counting (the trainers' corpus pass): when set, each piece of channel k is counted
    // into ``count[k]`` in the byte-level alphabet instead of being encoded, and tokens
    // are not annotated. The units stay.
    std::array<PieceCounts*, 2> count{nullptr, nullptr};
};

// Piece lengths of a non-ASCII identifier (Python's splitter); false: a Python error.
using SplitFallback = bool (*)(void* ctx, const Cp* s, size_t n, std::vector<uint32_t>& lens);

class CodeRouter {
  public:
    CodeRouter(RouterSpec spec, IdentifierRules rules, std::vector<uint8_t> classes,
               ChannelSpec code, ChannelSpec comment);

    // ``code`` / ``comment`` without a kernel: a router that only counts (see
    // ``CodeRouted::count``). Route and encode (or count) one file. ``text``: the source as
    // the lexer's char spans index it;
    // ``from_bytes``: it was decoded with surrogateescape (U+DC80..U+DCFF stand for one
    // byte each). ``fallback``: the splitter of non-ASCII identifiers (called from the
    // running thread, which may not hold the GIL). False: ``fallback`` failed (its Python
    // error is set).
    template <class CharT>
    bool run(const CharT* text, size_t n, bool from_bytes, const LexemeView& lx,
             const DocCuts& cuts, SplitFallback fallback, void* ctx, CodeRouted& out) const;

  private:
    template <class CharT>
    int32_t keyword_id(const CharT* text, size_t s, size_t e) const;
    // The keywords of ``spec_`` that are short ASCII, in an open-addressed table probed
    // without building a key (most lexemes the router asks about are such words).
    static constexpr size_t kKeywordChars = 27;
    struct AsciiKeyword {
        char text[kKeywordChars];
        uint8_t size = 0;  // 0: an empty slot
        int32_t id = -1;
    };
    static size_t keyword_hash(const char* s, size_t n);
    std::vector<AsciiKeyword> ascii_keywords_;  // a power of two, at most half full
    template <class CharT>
    bool folds_into(const CharT* text, size_t n, const LexemeView& lx, size_t j) const;
    // Reference: ``CodeTokenizer._annotate``: each token's lexeme, spans and line.
    template <class CharT>
    void annotate(const CharT* text, size_t n, bool from_bytes, CodeRouted& out) const;
    struct Scratch {
        IdentifierRules::Scratch rules;
        std::vector<uint32_t> lens;
        std::vector<uint8_t> utf8;
        std::vector<Cp> cps;
        BpeOutput bpe;
        std::vector<Cp> chars;
        std::vector<int32_t> ids;
        std::vector<int64_t> zeros;  // the cache's per-token lengths, unused here
        // Piece chars -> ids (``Channel._cache``), per channel and per way the source was
        // given (a str and a decoded bytes source spell some chars differently): built on
        // first use.
        std::array<std::unique_ptr<PieceCache>, 4> cache;
    };
    template <class CharT>
    struct Call;

    RouterSpec spec_;
    IdentifierRules rules_;
    std::vector<uint8_t> classes_;
    ClassTable table_;
    std::array<ChannelSpec, 2> channels_;
    std::array<Cp, 256> byte_level_ = byte_level_alphabet();  // what trainers count in
    // Non-ASCII identifiers the fallback split, shared by the threads that run files: two
    // generations of at most ``kForeign`` entries (``BoundedCache`` in
    // codetok/code/routing/cache.py), so a stream of new names cannot grow it for good.
    static constexpr size_t kForeign = 16384;
    using Splits = std::unordered_map<std::u32string, std::vector<uint32_t>>;
    bool known_split(const std::u32string& key, std::vector<uint32_t>& lens) const;
    void keep_split(std::u32string key, const std::vector<uint32_t>& lens) const;
    mutable std::mutex foreign_lock_;
    mutable Splits foreign_, foreign_old_;
    ScratchPool<Scratch> scratch_;
};

}  // namespace code
}  // namespace codetok
