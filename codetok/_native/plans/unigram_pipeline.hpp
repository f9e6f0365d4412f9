// The native plan of a SentencePiece-style Unigram tokenizer (T5, ALBERT, XLNet and the
// ``.model`` files codetok reads): text -> ids, offsets and word ids in one pass:
// added/special tokens (matched on the original text), a sequence of simple normalizers
// (norm_steps.hpp: ``Precompiled``, ``Strip``, ``Replace``, ``Prepend``, ``Lowercase``),
// ``WhitespaceSplit`` and/or ``Metaspace``, then ``Unigram`` Viterbi with HF's unknown
// fusing and byte fallback, through a per-piece cache.
//
// It runs what ``Tokenizer._encode_one`` does in Python (codetok/tokenizer/tokenizer.py, the readable
// specification and the test oracle) for these components; codetok/engine/plan.py decides what is
// supported and builds the plan.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "kernels/added.hpp"
#include "kernels/norm_steps.hpp"
#include "plans/pipeline.hpp"
#include "plans/text_pipeline.hpp"
#include "kernels/unigram.hpp"
#include "kernels/unigram_sample.hpp"

namespace codetok {

struct UnigramSpec {
    bool whitespace_split = false;  // WhitespaceSplit first (each word on its own)
    bool metaspace = false;         // then Metaspace:
    Cp meta = 0x2581;               //   its replacement char
    int prepend = 0;                //   0 never, 1 always, 2 first (at the text's start)
    bool split = true;              //   cut before each replacement char
    int32_t unk_id = -1;
    bool byte_fallback = false;
    std::array<int32_t, 256> byte_ids{};  // ``<0xNN>`` ids (-1: missing)
};

// A short piece's tokens, key and result inline, in one cache line: the entry of
// ``UnigramScratch::hot``. ``hash``: the low half of the piece's ``hash_cps`` (the key is
// compared too); ``lens``: each token's length in chars, 0 for the bytes after the first of
// one byte-fallback run (a hot piece has at most 16 chars).
struct alignas(64) HotPiece {
    static constexpr size_t kMaxChars = 16, kMaxTokens = 4;
    uint32_t hash = 0;
    uint16_t key[kMaxChars];  // BMP chars only
    uint8_t n = 0;            // 0: empty
    uint8_t count = 0;
    uint8_t lens[kMaxTokens];
    int32_t ids[kMaxTokens];
};
static_assert(sizeof(HotPiece) == 64, "a hot entry is one cache line");

// One piece of ``UnigramScratch::piece``: ``[begin, end)`` and its ``hash_cps``.
struct GatheredPiece {
    size_t begin, end;
    uint64_t hash;
};

struct UnigramScratch {
    // Direct-mapped, in front of ``cache``: the frequent short pieces (most words) are
    // answered from one table whose entry the gather step prefetches, where the large one
    // costs a miss or two per lookup. Pieces up to 16 chars (92 % of the bench's words).
    // 128k slots of one cache line (8 MB; it was 32k slots of 96 bytes): a fifth of the
    // bench's pieces missed the 32k table and went to ``cache`` (PieceCache::find and its
    // key compare were 8 % of a line's time); the per-line Unigram loop ran 4-6 % faster.
    static constexpr size_t kHotSlots = 131072;
    HugeVector<HotPiece> hot = HugeVector<HotPiece>(kHotSlots);
    PieceCache cache{18};  // Unigram pieces are many and worth keeping (a Viterbi each)
    ViterbiScratch viterbi;
    UnigramSampleScratch sample;
    std::vector<AddedSegment> raw;
    NormalizedText norm;
    NormStepsScratch steps;
    ScratchVector<Cp> piece;           // one stretch's words after Metaspace
    ScratchVector<uint32_t> piece_src;  // their original indices (for offsets)
    std::vector<GatheredPiece> pieces;
    std::vector<AddedSegment> normalized;  // normalized added tokens in one stretch
    std::vector<int64_t> starts;
    std::vector<int32_t> nodes, ids;
    std::vector<int64_t> lens;
    std::vector<uint8_t> utf8;
    int64_t hot_lens[HotPiece::kMaxTokens];  // a hot entry's lengths, widened
};

class UnigramPipeline final : public TextPipelineOf<UnigramPipeline> {
  public:
    // ``norm``: the added tokens matched on the normalized text of each stretch between
    // ``raw``'s (their contents normalized; empty when ``raw`` chains them).
    UnigramPipeline(std::shared_ptr<const UnigramKernel> kernel, UnigramSpec spec,
                    NormSteps steps, AddedMatcher raw, const std::vector<Cp>& whitespace,
                    AddedMatcher norm = {});

    // Encode ``t[0:n]`` (see TextPipeline); ``trim`` is not used. ``out.ok`` false: some
    // text is not covered and there is no unknown token (the Python path raises its error).
    template <class CharT>
    void run(const CharT* t, size_t n, const std::vector<int32_t>& skip, int trim,
             bool want_offsets, Encoded& out) const;

    // Unigram sampling with ``alpha`` = ``p``: over the whole lattice (``nbest < 0``) or the
    // ``nbest`` best paths (reference: ``Unigram.sample``); pieces are then not cached.
    bool set_sampling(double p, long long nbest, std::shared_ptr<SharedRandom> rng) override {
        alpha_ = p;
        nbest_ = nbest;
        rng_ = nbest == 0 || nbest == 1 ? nullptr : std::move(rng);
        return true;
    }
    bool samples() const override { return rng_ != nullptr; }

  private:
    using Scratch = UnigramScratch;
    template <class CharT>
    bool segment(const CharT* t, size_t a, size_t b, const std::vector<int32_t>& skip,
                 bool want_offsets, Scratch& w, int32_t& word, Encoded& out) const;
    // ``WhitespaceSplit`` (when set) and ``gather`` on the normalized chars ``norm[p0:p1]``.
    void gather_words(size_t p0, size_t p1, size_t a, bool want_offsets, Scratch& w) const;
    // Metaspace on the word ``norm[p0:p1]``: its pieces appended to ``w.pieces``.
    void gather(size_t p0, size_t p1, size_t a, bool want_offsets, Scratch& w) const;
    // The model on every gathered piece, into ``out``.
    bool emit(size_t a, bool want_offsets, Scratch& w, int32_t& word, Encoded& out) const;
    // The tokens of the piece ``s[0:n]`` (``h``: its ``hash_cps``): ids and lengths (0: the
    // span of the previous token, for the bytes of one byte-fallback run). False: no
    // unknown token to use.
    bool piece_tokens(const Cp* s, size_t n, uint64_t h, Scratch& w, const int32_t*& ids,
                      const int64_t*& lens, size_t& count) const;
    // ``piece_tokens`` of the path in ``w.starts``/``w.nodes`` (not cached).
    bool path_tokens(const Cp* s, size_t n, Scratch& w, const int32_t*& ids,
                     const int64_t*& lens, size_t& count) const;
    static void remember(HotPiece* hot, const Cp* s, size_t n, uint64_t h, const int32_t* ids,
                         const int64_t* lens, size_t count);
    std::shared_ptr<const UnigramKernel> kernel_;
    double alpha_ = 0.0;
    long long nbest_ = -1;
    std::shared_ptr<SharedRandom> rng_;  // set: sampling (its lock held for a whole text)
    UnigramSpec spec_;
    NormSteps steps_;
    AddedMatcher raw_;
    AddedMatcher norm_;
    CharSet space_;
    ScratchPool<Scratch> scratch_;
};

}  // namespace codetok
