// See unigram_pipeline.hpp. Comments name the Python function each block mirrors.
#include "plans/unigram_pipeline.hpp"

#include <algorithm>

namespace codetok {

UnigramPipeline::UnigramPipeline(std::shared_ptr<const UnigramKernel> kernel, UnigramSpec spec,
                                 NormSteps steps, AddedMatcher raw,
                                 const std::vector<Cp>& whitespace, AddedMatcher norm)
    : kernel_(std::move(kernel)),
      spec_(spec),
      steps_(std::move(steps)),
      raw_(std::move(raw)),
      norm_(std::move(norm)),
      space_(whitespace) {}

// Reference: ``Tokenizer._splits`` + ``_encode_one``: added tokens on the original text,
// the rest normalized, pre-tokenized and through the model.
template <class CharT>
void UnigramPipeline::run(const CharT* t, size_t n, const std::vector<int32_t>& skip,
                          int /*trim*/, bool want_offsets, Encoded& out) const {
    std::unique_ptr<Scratch> scratch = scratch_.take();
    Scratch& w = *scratch;
    std::unique_lock<std::mutex> drawing;
    if (rng_) drawing = std::unique_lock<std::mutex>(rng_->mutex);
    encode_around_added(raw_, t, n, skip, want_offsets, n / 3 + 16, w.raw, out,
                        [&](size_t a, size_t b, int32_t& word) {
                            return segment(t, a, b, skip, want_offsets, w, word, out);
                        });
    scratch_.give(std::move(scratch));
}

// Reference: ``Tokenizer._splits`` of one stretch ``t[a:b]`` between raw added tokens: the
// normalizer, the normalized added tokens, then ``WhitespaceSplit.split`` of the rest.
// Every word's pieces are gathered first (their hot-table entries prefetched: a text's
// pieces then miss the CPU cache together, not one after the other), then tokenized.
template <class CharT>
bool UnigramPipeline::segment(const CharT* t, size_t a, size_t b,
                              const std::vector<int32_t>& skip, bool want_offsets, Scratch& w,
                              int32_t& word, Encoded& out) const {
    NormalizedText& nt = w.norm;
    steps_.run(t, a, b, nt, w.steps);
    return around_normalized_added(norm_, nt.text.data(), nt.src.data(), nt.text.size(), a,
                                   skip, want_offsets, w.normalized, word, out,
                                   [&](size_t p0, size_t p1) {
                                       w.piece.clear();
                                       w.piece_src.clear();
                                       w.pieces.clear();
                                       gather_words(p0, p1, a, want_offsets, w);
                                       return emit(a, want_offsets, w, word, out);
                                   });
}

void UnigramPipeline::gather_words(size_t p0, size_t p1, size_t a, bool want_offsets,
                                   Scratch& w) const {
    const NormalizedText& nt = w.norm;
    if (!spec_.whitespace_split) {
        gather(p0, p1, a, want_offsets, w);
        return;
    }
    size_t i = p0;
    while (i < p1) {
        if (space_.has(nt.text[i])) {
            ++i;
            continue;
        }
        size_t j = i + 1;
        while (j < p1 && !space_.has(nt.text[j])) ++j;
        gather(i, j, a, want_offsets, w);
        i = j;
    }
}

// Reference: ``Metaspace.split`` of the word ``norm[p0:p1]`` (cuts merged with the next
// piece): its chars (and, for offsets, their original indices) appended to ``w.piece``,
// and its pieces to ``w.pieces``. One pass writes each char and extends its piece's hash
// (the copy, the cut search and the hash were three).
void UnigramPipeline::gather(size_t p0, size_t p1, size_t a, bool want_offsets,
                             Scratch& w) const {
    const NormalizedText& nt = w.norm;
    const Cp meta = spec_.meta;
    const Cp* in = nt.text.data();
    const uint32_t* in_src = nt.src.data();
    bool lead = false;  // a replacement char goes first
    if (spec_.metaspace) {
        const bool starts_meta = in[p0] == meta || in[p0] == ' ';
        lead = !starts_meta && (spec_.prepend == 1 || (spec_.prepend == 2 && a + in_src[p0] == 0));
    }
    const size_t base = w.piece.size();
    const size_t m = base + (lead ? 1 : 0) + (p1 - p0);
    w.piece.resize(m);
    Cp* text = w.piece.data();
    if (want_offsets) {
        w.piece_src.resize(m);
        uint32_t* src = w.piece_src.data() + base;
        if (lead) *src++ = in_src[p0];
        std::copy(in_src + p0, in_src + p1, src);
    }
    const bool cut = spec_.metaspace && spec_.split;  // a piece ends before each meta char
    size_t start = base, o = base;
    uint64_t h = kHashSeed;
    auto close = [&](size_t end) {
        if (end - start <= HotPiece::kMaxChars) {
            __builtin_prefetch(&w.hot[mix64(h) & (UnigramScratch::kHotSlots - 1)]);
        }
        w.pieces.push_back({start, end, h});
    };
    auto put = [&](Cp c) {
        if (cut && c == meta && o != start) {
            close(o);
            start = o;
            h = kHashSeed;
        }
        text[o++] = c;
        h = hash_step(h, c);
    };
    if (lead) put(meta);
    if (spec_.metaspace)
        for (size_t k = p0; k < p1; ++k) put(in[k] == ' ' ? meta : in[k]);
    else
        for (size_t k = p0; k < p1; ++k) put(in[k]);
    close(o);
}

// Reference: ``Unigram.tokenize`` of each gathered piece; each piece is a word (its
// word id) of its own.
bool UnigramPipeline::emit(size_t a, bool want_offsets, Scratch& w, int32_t& word,
                           Encoded& out) const {
    const ScratchVector<Cp>& text = w.piece;
    const ScratchVector<uint32_t>& src = w.piece_src;
    for (const GatheredPiece& p : w.pieces) {
        const int32_t* ids;
        const int64_t* lens;
        size_t count;
        if (!piece_tokens(text.data() + p.begin, p.end - p.begin, p.hash, w, ids, lens, count))
            return false;
        const size_t first = out.ids.size();
        out.ids.insert(out.ids.end(), ids, ids + count);
        if (want_offsets) {
            const int32_t unk = kernel_->unk_id();
            size_t pos = p.begin;
            int64_t s0 = 0, s1 = 0;
            for (size_t k = 0; k < count; ++k) {
                if (lens[k] > 0) {
                    const size_t end = pos + static_cast<size_t>(lens[k]);
                    s0 = static_cast<int64_t>(a + src[pos]);
                    s1 = static_cast<int64_t>(a + src[end - 1]) + 1;
                    // HF shows an unknown token as the normalized text it covers.
                    if (ids[k] == unk) out.push_text(first + k, text.data() + pos, end - pos);
                    pos = end;
                }
                out.offsets.push_back(s0);
                out.offsets.push_back(s1);
                out.words.push_back(word);
            }
        }
        ++word;
    }
    return true;
}

// Reference: ``Unigram._viterbi`` / ``_tokens``: the best path, runs of unknown nodes fused
// (a fused run that is itself a piece takes that piece's id), each unknown run as its
// ``<0xNN>`` bytes when byte fallback has them all, else the unknown token.
bool UnigramPipeline::piece_tokens(const Cp* s, size_t n, uint64_t h, Scratch& w,
                                   const int32_t*& ids, const int64_t*& lens,
                                   size_t& count) const {
    HotPiece* hot = nullptr;
    if (rng_) {  // a drawn path, never cached
        w.starts.clear();
        w.nodes.clear();
        if (!unigram_sample(*kernel_, s, n, alpha_, nbest_, rng_->random, w.starts, w.nodes,
                            w.sample))
            return false;
        return path_tokens(s, n, w, ids, lens, count);
    }
    if (n <= HotPiece::kMaxChars) {
        hot = &w.hot[mix64(h) & (UnigramScratch::kHotSlots - 1)];
        if (hot->n == n && hot->hash == static_cast<uint32_t>(h)) {
            size_t k = 0;
            while (k < n && hot->key[k] == s[k]) ++k;
            if (k == n) {
                ids = hot->ids;
                count = hot->count;
                for (size_t t = 0; t < count; ++t) w.hot_lens[t] = hot->lens[t];
                lens = w.hot_lens;
                return true;
            }
        }
        for (size_t k = 0; k < n; ++k)
            if (s[k] > 0xFFFF) hot = nullptr;  // the key holds BMP chars only
    }
    if (w.cache.find(s, n, h, ids, lens, count)) {
        remember(hot, s, n, h, ids, lens, count);
        return true;
    }
    w.starts.clear();
    w.nodes.clear();
    if (!kernel_->viterbi(s, n, w.starts, w.nodes, w.viterbi)) return false;
    if (!path_tokens(s, n, w, ids, lens, count)) return false;
    w.cache.put(s, n, h, w.ids, w.lens);
    remember(hot, s, n, h, ids, lens, count);
    return true;
}

// The tokens of the path ``w.starts``/``w.nodes`` of ``s[0:n]`` into ``w.ids``/``w.lens``.
bool UnigramPipeline::path_tokens(const Cp* s, size_t n, Scratch& w, const int32_t*& ids,
                                  const int64_t*& lens, size_t& count) const {
    const int32_t unk = kernel_->unk_id();
    w.ids.clear();
    w.lens.clear();
    const size_t k_n = w.nodes.size();
    size_t k = 0;
    while (k < k_n) {
        const size_t st = static_cast<size_t>(w.starts[k]);
        size_t e = k + 1 < k_n ? static_cast<size_t>(w.starts[k + 1]) : n;
        int32_t id = w.nodes[k];
        ++k;
        if (unk >= 0 && id == unk) {
            while (k < k_n && w.nodes[k] == unk) {
                ++k;
                e = k < k_n ? static_cast<size_t>(w.starts[k]) : n;
            }
            id = kernel_->piece_id(s + st, e - st);
        }
        if (id < 0) {
            if (spec_.byte_fallback) {
                w.utf8.clear();
                for (size_t q = st; q < e; ++q) utf8_append(s[q], w.utf8);
                bool all = true;
                for (uint8_t byte : w.utf8) all = all && spec_.byte_ids[byte] >= 0;
                if (all) {
                    for (size_t q = 0; q < w.utf8.size(); ++q) {
                        w.ids.push_back(spec_.byte_ids[w.utf8[q]]);
                        w.lens.push_back(q == 0 ? static_cast<int64_t>(e - st) : 0);
                    }
                    continue;
                }
            }
            if (unk < 0) return false;
            id = unk;
        }
        w.ids.push_back(id);
        w.lens.push_back(static_cast<int64_t>(e - st));
    }
    ids = w.ids.data();
    lens = w.lens.data();
    count = w.ids.size();
    return true;
}

// Keep a short piece's tokens in its hot entry (``hot`` null: the piece does not fit).
void UnigramPipeline::remember(HotPiece* hot, const Cp* s, size_t n, uint64_t h,
                               const int32_t* ids, const int64_t* lens, size_t count) {
    if (hot == nullptr || count > HotPiece::kMaxTokens) return;
    hot->hash = static_cast<uint32_t>(h);
    hot->n = static_cast<uint8_t>(n);
    hot->count = static_cast<uint8_t>(count);
    for (size_t k = 0; k < n; ++k) hot->key[k] = static_cast<uint16_t>(s[k]);
    std::copy(ids, ids + count, hot->ids);
    for (size_t k = 0; k < count; ++k) hot->lens[k] = static_cast<uint8_t>(lens[k]);
}

template void UnigramPipeline::run(const uint8_t*, size_t, const std::vector<int32_t>&, int,
                                   bool, Encoded&) const;
template void UnigramPipeline::run(const uint16_t*, size_t, const std::vector<int32_t>&, int,
                                   bool, Encoded&) const;
template void UnigramPipeline::run(const uint32_t*, size_t, const std::vector<int32_t>&, int,
                                   bool, Encoded&) const;

}  // namespace codetok
