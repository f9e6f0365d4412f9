// The native plan of a WordLevel tokenizer whose pieces need no regex: every code point
// (the character tokenizer, ``Split([\s\S], "isolated")``), every UTF-8 byte (the byte
// tokenizer, ``ByteLevel(use_regex=False)`` then ``Split(".", "isolated")``), every
// run of non-whitespace (``WhitespaceSplit``: the whitespace tokenizer), or every run of
// word chars or of other non-space chars (``Whitespace``) is a word of its own, looked up
// in the vocabulary, else the unknown token. Added tokens are matched first, on the
// original text; for chars and words, normalizer steps (norm_steps.hpp, e.g. the
// character tokenizer's NFC) may run on the text between them. Offsets are the piece's
// original chars (a byte's char).
//
// It runs what ``Tokenizer._encode_one`` does in Python (codetok/tokenizer/tokenizer.py) for these
// components; codetok/engine/plan.py recognises them (codetok/text/byte_level.py and chars.py
// build them).
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "kernels/added.hpp"
#include "kernels/common.hpp"
#include "kernels/norm_steps.hpp"
#include "plans/text_pipeline.hpp"

namespace codetok {

// ``Words``: runs of ``\w`` chars and runs of other non-space chars (the ``Whitespace``
// pre-tokenizer, HF's classes in bert_tables.hpp); ``WhitespaceWords``: runs of
// non-whitespace (``WhitespaceSplit``). word_splits.hpp scans both.
enum class WordLevelUnits : int {
    Chars = 0,
    Bytes = 1,
    WhitespaceWords = 2,
    Words = 3,
    Graphemes = 4,  // extended grapheme clusters (grapheme.hpp, the pinned tables)
};

struct WordLevelUnitsSpec {
    WordLevelUnits units = WordLevelUnits::Chars;
    std::array<int32_t, 256> byte_id{};  // bytes: the id of each byte's token (-1: unknown)
    std::vector<int32_t> dense;  // chars, graphemes: the id of code points below dense.size()
    std::unordered_map<Cp, int32_t> sparse;  // chars, graphemes: the others with a token
    std::shared_ptr<StrMap> words;       // whitespace words, words: every token -> id
    int32_t unk_id = -1;                 // -1: no unknown token (the Python path raises)
};

class WordLevelUnitsPipeline final : public TextPipelineOf<WordLevelUnitsPipeline> {
  public:
    // ``normalized``: the added tokens matched on the normalized text of each stretch
    // between ``raw``'s (their contents normalized; empty when ``raw`` chains them).
    WordLevelUnitsPipeline(WordLevelUnitsSpec spec, AddedMatcher raw, NormSteps norm = {},
                           AddedMatcher normalized = {})
        : spec_(std::move(spec)),
          raw_(std::move(raw)),
          norm_(std::move(norm)),
          normalized_(std::move(normalized)),
          bytes_known_(known_bytes(spec_, byte_tokens_)) {}

    // Encode ``t[0:n]`` (see TextPipeline); ``trim`` is not used. ``out.ok`` false: a piece
    // is unknown and there is no unknown token.
    template <class CharT>
    void run(const CharT* t, size_t n, const std::vector<int32_t>& skip, int trim,
             bool want_offsets, Encoded& out) const;

    // A text holding no added token, of bytes (no normalizer) or of chars (the normalizer
    // leaves it as it is): one token per UTF-8 byte or per char, written in place (see
    // TextPipeline).
    int64_t direct_count(const uint8_t* t, size_t n) const override { return count(t, n); }
    int64_t direct_count(const uint16_t* t, size_t n) const override { return count(t, n); }
    int64_t direct_count(const uint32_t* t, size_t n) const override { return count(t, n); }
    bool encode_direct(const uint8_t* t, size_t n, int32_t* ids, int64_t* offsets,
                       int32_t* words) const override {
        return direct(t, n, ids, offsets, words);
    }
    bool encode_direct(const uint16_t* t, size_t n, int32_t* ids, int64_t* offsets,
                       int32_t* words) const override {
        return direct(t, n, ids, offsets, words);
    }
    bool encode_direct(const uint32_t* t, size_t n, int32_t* ids, int64_t* offsets,
                       int32_t* words) const override {
        return direct(t, n, ids, offsets, words);
    }

  private:
    template <class CharT>
    int64_t count(const CharT* t, size_t n) const;
    template <class CharT>
    bool direct(const CharT* t, size_t n, int32_t* ids, int64_t* offsets, int32_t* words) const;
    // Each byte's token into ``ids``, the unknown token for a byte without one; false: a
    // byte has no token and there is no unknown token.
    static bool known_bytes(const WordLevelUnitsSpec& spec, std::array<int32_t, 256>& ids);
    // The tokens of the UTF-8 bytes of ``t[a:b]`` through ``id_at`` and, when not null,
    // their offsets (each byte's char) and word ids (from ``word``, advanced).
    template <class CharT>
    static void write_bytes(const CharT* t, size_t a, size_t b,
                            const std::array<int32_t, 256>& ids, int32_t* id_at,
                            int64_t* off_at, int32_t* word_at, int32_t& word);
    // The token of each char of ``t[a:b]`` through ``id_at``; false: one has none and there
    // is no unknown token.
    template <class CharT>
    bool write_char_ids(const CharT* t, size_t a, size_t b, int32_t* id_at) const;
    // The offsets of chars ``a..b`` (``src``: each one's original index from ``orig``, or
    // null) and their word ids from ``word`` (advanced).
    static void write_char_offsets(size_t a, size_t b, const uint32_t* src, size_t orig,
                                   int64_t* off_at, int32_t* word_at, int32_t& word);
    struct Scratch {
        NormalizedText text;
        NormStepsScratch steps;
        std::vector<Cp> piece;
        std::vector<AddedSegment> normalized;  // normalized added tokens in one stretch
    };
    // The pieces of ``t[a:b]``; ``span(i, end)`` gives the original chars of ``t[i:end]``.
    template <class CharT, class Span>
    bool units(const CharT* t, size_t a, size_t b, bool want_offsets, int32_t& word,
               Encoded& out, Span&& span, std::vector<Cp>& piece) const;
    // ``units`` of bytes on the original chars ``t[a:b]``, with every byte known (each
    // column written through a pointer into storage sized once): false when some byte has
    // no token and there is no unknown token (``units`` then decides).
    template <class CharT>
    bool bytes_fast(const CharT* t, size_t a, size_t b, bool want_offsets, int32_t& word,
                    Encoded& out) const;
    // ``units`` of code points on ``t[a:b]`` (``src``: each char's original index from
    // ``orig``, or null for ``t``'s own), written as ``bytes_fast`` writes: false when a
    // char has no token and there is no unknown token.
    template <class CharT>
    bool chars_fast(const CharT* t, size_t a, size_t b, const uint32_t* src, size_t orig,
                    bool want_offsets, int32_t& word, Encoded& out) const;
    int32_t char_id(Cp c) const {
        if (c < spec_.dense.size()) return spec_.dense[c];
        auto it = spec_.sparse.find(c);
        return it == spec_.sparse.end() ? -1 : it->second;
    }

    WordLevelUnitsSpec spec_;
    AddedMatcher raw_;
    NormSteps norm_;
    AddedMatcher normalized_;
    std::array<int32_t, 256> byte_tokens_{};  // ``known_bytes`` of the spec
    bool bytes_known_;                          // and whether every byte has a token
    ScratchPool<Scratch> scratch_;
};

}  // namespace codetok
