// See wordlevel_pipeline.hpp. Comments name the Python function each block mirrors.
#include "plans/wordlevel_pipeline.hpp"

#include <array>
#include <utility>

#include "kernels/grapheme.hpp"
#include "kernels/word_splits.hpp"

namespace codetok {

namespace {

// The UTF-8 length of ``t[a:b]``: the byte tokenizer's token count.
template <class CharT>
size_t utf8_bytes(const CharT* t, size_t a, size_t b) {
    size_t bytes = 0;
    for (size_t i = a; i < b; ++i) bytes += static_cast<size_t>(utf8_len(t[i]));
    return bytes;
}

}  // namespace

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
                                if (spec_.units == WordLevelUnits::Bytes &&
                                    bytes_fast(t, a, b, want_offsets, word, out))
                                    return true;
                                if (spec_.units == WordLevelUnits::Chars &&
                                    chars_fast(t, a, b, nullptr, 0, want_offsets, word, out))
                                    return true;
                                auto same = [](size_t i, size_t end) {
                                    return std::pair<size_t, size_t>(i, end);
                                };
                                return units(t, a, b, want_offsets, word, out, same, w.piece);
                            }
                            // A stretch the normalizer leaves as it is (NFC of Latin-1
                            // text, say) is encoded as it stands.
                            if (normalized_.empty() && spec_.units == WordLevelUnits::Chars &&
                                norm_.identity_on(t, a, b) &&
                                chars_fast(t, a, b, nullptr, 0, want_offsets, word, out))
                                return true;
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
                                    if (spec_.units == WordLevelUnits::Chars &&
                                        chars_fast(nt.text.data(), p0, p1, nt.src.data(), a,
                                                   want_offsets, word, out))
                                        return true;
                                    return units(nt.text.data(), p0, p1, want_offsets, word,
                                                 out, from, w.piece);
                                });
                        });
    scratch_.give(std::move(scratch));
}

bool WordLevelUnitsPipeline::known_bytes(const WordLevelUnitsSpec& spec,
                                         std::array<int32_t, 256>& ids) {
    ids = spec.byte_id;
    for (int32_t& id : ids)
        if (id < 0) {
            if (spec.unk_id < 0) return false;
            id = spec.unk_id;
        }
    return true;
}

template <class CharT>
void WordLevelUnitsPipeline::write_bytes(const CharT* t, size_t a, size_t b,
                                         const std::array<int32_t, 256>& ids, int32_t* id_at,
                                         int64_t* off_at, int32_t* word_at, int32_t& word) {
    int32_t w = word;
    uint8_t buf[4];
    for (size_t i = a; i < b;) {
        // A run of ASCII chars, a token each (a loop the compiler vectorizes), then one
        // other char, a token per byte.
        size_t j = i;
        while (j < b && t[j] < 0x80) ++j;
        const size_t run = j - i;
        for (size_t k = 0; k < run; ++k) id_at[k] = ids[static_cast<uint8_t>(t[i + k])];
        id_at += run;
        if (off_at != nullptr) {
            for (size_t k = 0; k < run; ++k) {
                off_at[2 * k] = static_cast<int64_t>(i + k);
                off_at[2 * k + 1] = static_cast<int64_t>(i + k + 1);
                word_at[k] = w + static_cast<int32_t>(k);
            }
            off_at += 2 * run;
            word_at += run;
        }
        w += static_cast<int32_t>(run);
        if (j == b) break;
        const int m = utf8_encode(t[j], buf);
        for (int q = 0; q < m; ++q) {
            *id_at++ = ids[buf[q]];
            if (off_at != nullptr) {
                *off_at++ = static_cast<int64_t>(j);
                *off_at++ = static_cast<int64_t>(j + 1);
                *word_at++ = w;
            }
            ++w;
        }
        i = j + 1;
    }
    word = w;
}

template <class CharT>
bool WordLevelUnitsPipeline::bytes_fast(const CharT* t, size_t a, size_t b, bool want_offsets,
                                        int32_t& word, Encoded& out) const {
    if (!bytes_known_) return false;
    const size_t count = utf8_bytes(t, a, b);
    const size_t base = out.ids.size();
    out.ids.resize(base + count);
    int64_t* off_at = nullptr;
    int32_t* word_at = nullptr;
    if (want_offsets) {
        out.offsets.resize(2 * (base + count));
        out.words.resize(base + count);
        off_at = out.offsets.data() + 2 * base;
        word_at = out.words.data() + base;
    }
    write_bytes(t, a, b, byte_tokens_, out.ids.data() + base, off_at, word_at, word);
    return true;
}

template <class CharT>
bool WordLevelUnitsPipeline::write_char_ids(const CharT* t, size_t a, size_t b,
                                            int32_t* id_at) const {
    const int32_t unk = spec_.unk_id;
    const int32_t* dense = spec_.dense.data();
    const size_t n_dense = spec_.dense.size();
    for (size_t i = a; i < b; ++i) {
        const Cp c = t[i];
        int32_t id = c < n_dense ? dense[c] : char_id(c);
        if (id < 0) {
            if (unk < 0) return false;
            id = unk;
        }
        *id_at++ = id;
    }
    return true;
}

void WordLevelUnitsPipeline::write_char_offsets(size_t a, size_t b, const uint32_t* src,
                                                size_t orig, int64_t* off_at, int32_t* word_at,
                                                int32_t& word) {
    for (size_t i = a; i < b; ++i) {
        const size_t at = src == nullptr ? i : orig + src[i];
        *off_at++ = static_cast<int64_t>(at);
        *off_at++ = static_cast<int64_t>(at + 1);
        *word_at++ = word++;
    }
}

template <class CharT>
bool WordLevelUnitsPipeline::chars_fast(const CharT* t, size_t a, size_t b, const uint32_t* src,
                                        size_t orig, bool want_offsets, int32_t& word,
                                        Encoded& out) const {
    const size_t count = b - a;
    const size_t base = out.ids.size();
    out.ids.resize(base + count);
    if (!write_char_ids(t, a, b, out.ids.data() + base)) {
        out.ids.resize(base);
        return false;
    }
    if (want_offsets) {
        out.offsets.resize(2 * (base + count));
        out.words.resize(base + count);
        write_char_offsets(a, b, src, orig, out.offsets.data() + 2 * base,
                           out.words.data() + base, word);
    } else {
        word += static_cast<int32_t>(count);
    }
    return true;
}

// The cases of ``run`` that end in ``bytes_fast`` or ``chars_fast`` on the whole text (no
// added token in it, so one stretch).
template <class CharT>
int64_t WordLevelUnitsPipeline::count(const CharT* t, size_t n) const {
    if (!raw_.empty()) {  // a text holding no added token is one stretch
        std::vector<AddedSegment> segments;
        raw_.find(t, 0, n, {}, segments);
        for (const AddedSegment& g : segments)
            if (g.entry >= 0) return -1;
    }
    if (spec_.units == WordLevelUnits::Bytes && norm_.empty()) {
        if (!bytes_known_) return -1;
        return static_cast<int64_t>(utf8_bytes(t, size_t{0}, n));
    }
    if (spec_.units == WordLevelUnits::Chars &&
        (norm_.empty() || (normalized_.empty() && norm_.identity_on(t, size_t{0}, n))))
        return static_cast<int64_t>(n);
    return -1;
}

template <class CharT>
bool WordLevelUnitsPipeline::direct(const CharT* t, size_t n, int32_t* ids, int64_t* offsets,
                                    int32_t* words) const {
    int32_t word = 0;
    if (spec_.units == WordLevelUnits::Bytes) {
        if (!bytes_known_) return false;
        write_bytes(t, 0, n, byte_tokens_, ids, offsets, words, word);
        return true;
    }
    if (!write_char_ids(t, 0, n, ids)) return false;
    write_char_offsets(0, n, nullptr, 0, offsets, words, word);
    return true;
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
template int64_t WordLevelUnitsPipeline::count(const uint8_t*, size_t) const;
template int64_t WordLevelUnitsPipeline::count(const uint16_t*, size_t) const;
template int64_t WordLevelUnitsPipeline::count(const uint32_t*, size_t) const;
template bool WordLevelUnitsPipeline::direct(const uint8_t*, size_t, int32_t*, int64_t*,
                                             int32_t*) const;
template bool WordLevelUnitsPipeline::direct(const uint16_t*, size_t, int32_t*, int64_t*,
                                             int32_t*) const;
template bool WordLevelUnitsPipeline::direct(const uint32_t*, size_t, int32_t*, int64_t*,
                                             int32_t*) const;

}  // namespace codetok
