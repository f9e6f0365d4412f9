// See wordlevel_pipeline.hpp. Comments name the Python function each block mirrors.
#include "plans/wordlevel_pipeline.hpp"

#include <utility>

#include "kernels/grapheme.hpp"
#include "kernels/word_splits.hpp"

namespace codetok {

// Reference: ``Tokenizer._splits`` + ``_encode_one`` (added tokens on the original text).
template <class CharT>
void WordLevelUnitsPipeline::run(const CharT* t, size_t n, const std::vector<int32_t>& skip,
                                 int /*trim*/, bool want_offsets, Encoded& out) const {
    const size_t expect = spec_.units == WordLevelUnits::Bytes ? n + n / 2 + 8 : n / 2 + 8;
    std::unique_ptr<Scratch> scratch = scratch_.take();
    Scratch& w = *scratch;
    std::vector<AddedSegment> segments;
    encode_around_added(raw_, t, n, skip, want_offsets, expect, segments, out,
                        [&](size_t a, size_t b, int32_t& word) {
                            if (norm_.empty()) {
                                auto same = [](size_t i, size_t end) {
                                    return std::pair<size_t, size_t>(i, end);
                                };
                                return units(t, a, b, want_offsets, word, out, same, w.piece);
                            }
                            // Reference: the normalizer on the stretch, then the pieces of
                            // its text, each at the original chars it came from.
                            NormalizedText& nt = w.text;
                            norm_.run(t, a, b, nt, w.steps);
                            auto from = [&](size_t i, size_t end) {
                                return std::pair<size_t, size_t>(a + nt.src[i],
                                                                 a + nt.src[end - 1] + 1);
                            };
                            return around_normalized_added(
                                normalized_, nt.text.data(), nt.src.data(), nt.text.size(), a,
                                skip, want_offsets, w.normalized, word, out,
                                [&](size_t p0, size_t p1) {
                                    return units(nt.text.data(), p0, p1, want_offsets, word,
                                                 out, from, w.piece);
                                });
                        });
    scratch_.give(std::move(scratch));
}

// Reference: ``ByteLevel.split`` / ``Split.split`` (one piece per unit) and
// ``WordLevel.encode_pieces`` (the unit's token, else the unknown token).
template <class CharT, class Span>
bool WordLevelUnitsPipeline::units(const CharT* t, size_t a, size_t b, bool want_offsets,
                                   int32_t& word, Encoded& out, Span&& span,
                                   std::vector<Cp>& piece) const {
    const int32_t unk = spec_.unk_id;
    // One piece ``t[i:end]`` as token ``id`` (-1: the unknown token).
    auto emit = [&](int32_t id, size_t i, size_t end) {
        if (id < 0) {
            if (unk < 0) return false;
            id = unk;
        }
        out.ids.push_back(id);
        if (want_offsets) {
            const std::pair<size_t, size_t> s = span(i, end);
            out.offsets.push_back(static_cast<int64_t>(s.first));
            out.offsets.push_back(static_cast<int64_t>(s.second));
            out.words.push_back(word);
        }
        ++word;
        return true;
    };
    if (spec_.units == WordLevelUnits::Chars) {
        for (size_t i = a; i < b; ++i)
            if (!emit(char_id(t[i]), i, i + 1)) return false;
        return true;
    }
    // Reference: ``Whitespace.split`` / ``WhitespaceSplit.split`` (word_splits.hpp; each
    // piece looked up as it is found), then the piece's token.
    auto word_piece = [&](size_t i, size_t j) {
        piece.assign(t + i, t + j);
        const StrMap::Entry* e = spec_.words->find(piece.data(), piece.size());
        return emit(e == nullptr ? -1 : e->value, i, j);
    };
    if (spec_.units == WordLevelUnits::Words) return whitespace_pieces(t, a, b, word_piece);
    if (spec_.units == WordLevelUnits::Graphemes) {
        // Reference: ``Split("\\X", "isolated")`` over the pinned clusters (codetok._grapheme).
        // A one-char cluster is looked up in the code-point table.
        for (size_t i = a; i < b;) {
            const size_t j = grapheme::cluster_end(t, i, b);
            if (!(j == i + 1 ? emit(char_id(t[i]), i, j) : word_piece(i, j))) return false;
            i = j;
        }
        return true;
    }
    if (spec_.units == WordLevelUnits::WhitespaceWords)
        return whitespace_split_pieces(t, a, b, word_piece);
    uint8_t buf[4];
    for (size_t i = a; i < b; ++i) {
        const int m = utf8_encode(t[i], buf);
        for (int q = 0; q < m; ++q)
            if (!emit(spec_.byte_id[buf[q]], i, i + 1)) return false;
    }
    return true;
}

template void WordLevelUnitsPipeline::run(const uint8_t*, size_t, const std::vector<int32_t>&,
                                          int, bool, Encoded&) const;
template void WordLevelUnitsPipeline::run(const uint16_t*, size_t, const std::vector<int32_t>&,
                                          int, bool, Encoded&) const;
template void WordLevelUnitsPipeline::run(const uint32_t*, size_t, const std::vector<int32_t>&,
                                          int, bool, Encoded&) const;

}  // namespace codetok
