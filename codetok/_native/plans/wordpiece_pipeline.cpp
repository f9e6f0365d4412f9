// See wordpiece_pipeline.hpp. Comments name the Python function each block mirrors.
#include "plans/wordpiece_pipeline.hpp"

#include <type_traits>

#include "kernels/pretokenize.hpp"

namespace codetok {

WordPiecePipeline::WordPiecePipeline(std::shared_ptr<const WordPieceKernel> kernel,
                                     WordPieceSpec spec, AddedMatcher raw, NormSteps steps,
                                     AddedMatcher norm)
    : kernel_(std::move(kernel)),
      spec_(std::move(spec)),
      raw_(std::move(raw)),
      steps_(std::move(steps)),
      norm_(std::move(norm)),
      general_(!steps_.empty() || !spec_.passes.empty() || !norm_.empty()) {
    // The ASCII tables: what BertNormalizer (clean_text, lowercase; the other steps leave
    // ASCII alone) makes of each char, and what BertPreTokenizer makes of that.
    const bool clean = spec_.normalize && spec_.bert.clean_text;
    const bool lower = spec_.normalize && spec_.bert.lowercase;
    for (Cp c = 0; c < 128; ++c) {
        const uint8_t f = bert::flags(c);
        Cp n = lower && c >= 'A' && c <= 'Z' ? c + 32 : c;
        uint8_t k = kWordChar;
        if (clean && (f & bert::kDrop)) {
            k = kDeleted;
        } else if (f & bert::kSpace) {
            k = kSpaceChar;
            if (clean) n = ' ';
        } else if (f & bert::kPunct) {
            k = kPunctChar;
        }
        ascii_class_[c] = k;
        ascii_norm_[c] = n;
    }
}

// Reference: ``Tokenizer._splits`` + ``_encode_one``: added tokens on the original text,
// the rest normalized, pre-tokenized and through the model.
template <class CharT>
void WordPiecePipeline::run(const CharT* t, size_t n, const std::vector<int32_t>& skip,
                            int /*trim*/, bool want_offsets, Encoded& out) const {
    std::unique_ptr<Scratch> scratch = scratch_.take();
    Scratch& w = *scratch;
    encode_around_added(raw_, t, n, skip, want_offsets, n / 4 + 16, w.raw, out,
                        [&](size_t a, size_t b, int32_t& word) {
                            segment(t, a, b, skip, want_offsets, w, word, out);
                            return out.ok;
                        });
    scratch_.give(std::move(scratch));
}

// Reference: ``BertNormalizer.normalize``, ``BertPreTokenizer.split`` and
// ``WordPiece.encode_pieces`` of one stretch ``t[a:b]`` between added tokens. Both work
// char by char and BertPreTokenizer splits at whitespace, so the stretch is cut at its ASCII
// whitespace into runs that are encoded independently: a run of ASCII chars the normalizer
// keeps goes through the tables (no normalized copy), any other run through
// ``general_segment`` (a text with one accented word leaves the fast path for that word
// only).
template <class CharT>
void WordPiecePipeline::ascii_segment(const CharT* t, size_t a, size_t b,
                                      const std::vector<int32_t>& skip, bool want_offsets,
                                      Scratch& w, int32_t& word, Encoded& out) const {
    size_t i = a;
    while (i < b) {
        if (t[i] < 0x80 && ascii_class_[t[i]] == kSpaceChar) {
            ++i;
            continue;
        }
        size_t e = i;  // the run t[i:e], up to the next ASCII whitespace
        bool plain = true;
        for (; e < b; ++e) {
            const CharT c = t[e];
            if (c >= 0x80) {
                plain = false;
                continue;
            }
            const uint8_t k = ascii_class_[c];
            if (k == kSpaceChar) break;
            if (k == kDeleted) plain = false;
        }
        if (!plain) {
            general_segment(t, i, e, skip, want_offsets, w, word, out);
            if (!out.ok) return;
            i = e;
            continue;
        }
        while (i < e) {  // its words and punctuation chars
            size_t j = i + 1;
            if (ascii_class_[t[i]] == kWordChar)
                while (j < e && ascii_class_[t[j]] == kWordChar) ++j;
            if (j - i <= PieceCache::kShortChars) {  // a cached one-token word: no copy, no hash
                const int32_t hit = w.cache.find_short(PieceCache::short_key(
                    t + i, j - i, [this](CharT c) { return ascii_norm_[c]; }));
                if (hit >= 0) {
                    out.ids.push_back(hit);
                    if (want_offsets) {
                        out.offsets.push_back(static_cast<int64_t>(i));
                        out.offsets.push_back(static_cast<int64_t>(j));
                        out.words.push_back(word);
                    }
                    ++word;
                    i = j;
                    continue;
                }
            }
            w.word.clear();
            for (size_t q = i; q < j; ++q) w.word.push_back(ascii_norm_[t[q]]);
            if (!emit_word(w.word.data(), j - i, nullptr, i, want_offsets, w, word, out)) return;
            i = j;
        }
    }
}

bool WordPiecePipeline::emit_word(const Cp* s, size_t n, const uint32_t* src, size_t first,
                                  bool want_offsets, Scratch& w, int32_t& word,
                                  Encoded& out) const {
    const int32_t* ids;
    const int64_t* lens;
    size_t count;
    if (!word_tokens(s, n, w, ids, lens, count)) {
        out.ok = false;
        return false;
    }
    out.ids.insert(out.ids.end(), ids, ids + count);
    if (want_offsets) {
        size_t pos = 0;
        for (size_t j = 0; j < count; ++j) {
            const size_t end = pos + static_cast<size_t>(lens[j]);
            const size_t s0 = src == nullptr ? first + pos : first + src[pos];
            const size_t s1 = src == nullptr ? first + end - 1 : first + src[end - 1];
            out.offsets.push_back(static_cast<int64_t>(s0));
            out.offsets.push_back(static_cast<int64_t>(s1) + 1);
            out.words.push_back(word);
            pos = end;
        }
    }
    ++word;
    return true;
}

// Reference: ``Tokenizer._splits`` of one stretch ``t[a:b]`` between raw added tokens:
// normalized, split on the normalized added tokens, the rest pre-tokenized.
template <class CharT>
void WordPiecePipeline::segment(const CharT* t, size_t a, size_t b,
                                const std::vector<int32_t>& skip, bool want_offsets,
                                Scratch& w, int32_t& word, Encoded& out) const {
    if (general_)
        general_segment(t, a, b, skip, want_offsets, w, word, out);
    else
        ascii_segment(t, a, b, skip, want_offsets, w, word, out);
}

template <class CharT>
void WordPiecePipeline::general_segment(const CharT* t, size_t a, size_t b,
                                        const std::vector<int32_t>& skip, bool want_offsets,
                                        Scratch& w, int32_t& word, Encoded& out) const {
    NormalizedText& nt = w.norm;
    if (!steps_.empty()) {
        steps_.run(t, a, b, nt, w.steps);
    } else if (spec_.normalize) {
        if (norm_.empty() || !ascii_normalized(t, a, b, nt)) bert_normalize(spec_.bert, t, a, b, nt);
    } else {
        nt.clear();
        for (size_t i = a; i < b; ++i) {
            nt.text.push_back(t[i]);
            nt.src.push_back(static_cast<uint32_t>(i - a));
        }
    }
    around_normalized_added(norm_, nt.text.data(), nt.src.data(), nt.text.size(), a, skip,
                            want_offsets, w.normalized, word, out, [&](size_t p0, size_t p1) {
                                return pieces(p0, p1, a, want_offsets, w, word, out);
                            });
}

template <class CharT>
bool WordPiecePipeline::ascii_normalized(const CharT* t, size_t a, size_t b,
                                         NormalizedText& nt) const {
    for (size_t i = a; i < b; ++i)
        if (t[i] >= 0x80 || ascii_class_[t[i]] == kDeleted) return false;
    nt.clear();
    nt.text.resize(b - a);
    nt.src.resize(b - a);
    for (size_t i = 0; i < b - a; ++i) {
        nt.text[i] = ascii_norm_[t[a + i]];
        nt.src[i] = static_cast<uint32_t>(i);
    }
    return true;
}

bool WordPiecePipeline::pieces(size_t p0, size_t p1, size_t a, bool want_offsets, Scratch& w,
                               int32_t& word, Encoded& out) const {
    const Cp* s = w.norm.text.data() + p0;
    const uint32_t* src = w.norm.src.data() + p0;
    const size_t n = p1 - p0;
    if (!spec_.passes.empty()) {
        // Reference: ``Sequence.split`` of the character-class pre-tokenizers.
        split_words(s, n, spec_.passes, w.words, w.split);
        for (const Span32& p : w.words)
            if (!emit_word(s + p.start, p.end - p.start, src + p.start, a, want_offsets, w, word,
                           out))
                return false;
        return true;
    }
    w.bounds.clear();
    bert_pieces(s, n, w.bounds);
    for (size_t k = 0; k < w.bounds.size(); k += 2) {
        const size_t q0 = w.bounds[k];
        const size_t q1 = w.bounds[k + 1];
        if (!emit_word(s + q0, q1 - q0, src + q0, a, want_offsets, w, word, out)) return false;
    }
    return true;
}

// Reference: ``WordPiece.tokenize`` (greedy longest match, or the unknown token over the
// whole word), through the per-word cache.
bool WordPiecePipeline::word_tokens(const Cp* s, size_t n, Scratch& w, const int32_t*& ids,
                                    const int64_t*& lens, size_t& count) const {
    const PieceCache::ShortKey key = PieceCache::short_key(s, n);
    if (key) {
        const int32_t hit = w.cache.find_short(key);
        if (hit >= 0) {
            w.lens.assign(1, static_cast<int64_t>(n));
            w.ids.assign(1, hit);
            ids = w.ids.data();
            lens = w.lens.data();
            count = 1;
            return true;
        }
    }
    const uint64_t h = hash_cps(s, n);
    if (w.cache.find(s, n, h, ids, lens, count)) return true;
    w.ids.clear();
    w.keys.clear();
    w.spans.clear();
    w.lens.clear();
    if (kernel_->encode(s, n, w.ids, w.keys, w.spans)) {
        for (size_t j = 0; j < w.ids.size(); ++j) w.lens.push_back(w.spans[2 * j + 1] - w.spans[2 * j]);
    } else {
        if (spec_.unk_id < 0) return false;
        w.ids.assign(1, spec_.unk_id);
        w.lens.assign(1, static_cast<int64_t>(n));
    }
    if (key && w.ids.size() == 1) w.cache.put_short(key, w.ids[0]);
    w.cache.put(s, n, h, w.ids, w.lens);
    ids = w.ids.data();
    lens = w.lens.data();
    count = w.ids.size();
    return true;
}

template void WordPiecePipeline::run(const uint8_t*, size_t, const std::vector<int32_t>&,
                                     int, bool, Encoded&) const;
template void WordPiecePipeline::run(const uint16_t*, size_t, const std::vector<int32_t>&,
                                     int, bool, Encoded&) const;
template void WordPiecePipeline::run(const uint32_t*, size_t, const std::vector<int32_t>&,
                                     int, bool, Encoded&) const;

}  // namespace codetok
