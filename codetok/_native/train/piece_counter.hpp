// The trainers' corpus pass: how often each piece occurs that a tokenizer's added tokens,
// normalizer steps and pre-tokenizer hand its model.
//
// It cuts text as the plans do (pipeline.hpp, wordpiece_pipeline.hpp,
// unigram_pipeline.hpp): added tokens matched on the original text (their matches are not
// counted), normalizer steps or ``BertNormalizer``, then one of: a scanner (the byte-level
// pre-tokenizers: GPT-2's ``ByteLevel`` or a ``Split`` pattern before it, with
// ``add_prefix_space``) whose pieces are counted in the byte-level alphabet; HF's
// character-class pre-tokenizers (word_splits.hpp); ``BertPreTokenizer``; or
// ``WhitespaceSplit`` and / or ``Metaspace``.
// The reference is ``codetok.trainers.api._Pieces`` (``Tokenizer.pre_tokenize``);
// codetok/engine/plan.py (``compile_counter``) decides what is supported.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "kernels/added.hpp"
#include "kernels/common.hpp"
#include "kernels/norm_steps.hpp"
#include "kernels/normalize.hpp"
#include "kernels/pretokenize.hpp"
#include "kernels/threads.hpp"
#include "kernels/word_splits.hpp"

namespace codetok {

// Piece -> count: an open-addressing map over one flat buffer of keys.
class PieceCounts {
  public:
    PieceCounts() : slots_(1024) {}
    void add(const Cp* s, size_t n, int64_t count) { add(s, n, hash_cps(s, n), count); }
    void add(const Cp* s, size_t n, uint64_t h, int64_t count);
    // Add every count of ``other``.
    void merge(const PieceCounts& other);
    size_t size() const { return used_.size(); }
    // Entry ``k`` in insertion order: its chars and count.
    const Cp* key(size_t k) const { return keys_.data() + slots_[used_[k]].off; }
    size_t key_len(size_t k) const { return slots_[used_[k]].len; }
    int64_t count(size_t k) const { return slots_[used_[k]].count; }

  private:
    struct Slot {
        uint64_t hash = 0;
        uint64_t off = 0;
        uint32_t len = 0;
        uint32_t used = 0;
        int64_t count = 0;
    };
    void grow();
    std::vector<Slot> slots_;
    std::vector<Cp> keys_;
    std::vector<uint32_t> used_;  // slot of each entry, in insertion order
};

struct CounterSpec {
    enum class Pre { kByteLevel, kPasses, kBert, kWords };
    Pre pre = Pre::kByteLevel;
    Scanner scanner = Scanner::Gpt2;  // kByteLevel
    bool add_prefix_space = false;
    std::vector<SplitPass> passes;  // kPasses: HF's character-class pre-tokenizers
    // kWords: ``WhitespaceSplit`` first (else the whole text is one word), then
    // ``Metaspace`` when ``metaspace``: spaces become ``meta``, which is prepended by
    // ``prepend`` (0 never, 1 always, 2 at the text's start only) unless the word starts
    // with it, and each ``meta`` starts a piece when ``meta_split``.
    bool whitespace_split = false;
    bool metaspace = false;
    Cp meta = 0x2581;
    int prepend = 1;
    bool meta_split = true;
    bool bert_normalizer = false;  // BertNormalizer (``bert``) in place of normalizer steps
    BertNormalizerSpec bert;
};

struct CounterScratch {
    std::vector<AddedSegment> raw, norm;
    NormalizedText normalized;
    NormStepsScratch steps;
    std::vector<Cp> text, piece;
    std::vector<uint32_t> ends;
    std::vector<Span32> words;
    SplitScratch split;
    std::vector<uint8_t> utf8;
    std::vector<uint32_t> bounds;
};

class PieceCounter {
  public:
    // ``whitespace``: the chars ``WhitespaceSplit`` cuts at.
    PieceCounter(CounterSpec spec, AddedMatcher raw, AddedMatcher norm, NormSteps steps,
                 const std::vector<Cp>& whitespace);

    // Add the pieces of ``t[0:n]``, ``weight`` times each, to ``into``.
    template <class CharT>
    void count(const CharT* t, size_t n, int64_t weight, PieceCounts& into,
               CounterScratch& w) const;

    // Add the pieces of texts [0, n) to ``into``, ``weights[k]`` times text k's, on up to
    // ``threads`` threads (one per 64 texts at most), each into counts of its own merged at
    // the end. ``text(k, fn)`` calls ``fn(chars, length)`` with text k (any char type).
    template <class Text>
    void count_all(size_t n, const int64_t* weights, long long threads, Text&& text,
                   PieceCounts& into) const {
        const size_t parts = std::max<size_t>(
            1, std::min<size_t>(static_cast<size_t>(std::max(1LL, threads)), n / 64 + 1));
        std::vector<PieceCounts> counts(parts);
        parallel_for(parts, static_cast<long long>(parts), [&](size_t p) {
            CounterScratch scratch;
            PieceCounts& part = parts == 1 ? into : counts[p];
            for (size_t k = p * n / parts, e = (p + 1) * n / parts; k < e; ++k)
                text(k, [&](const auto* t, size_t len) { count(t, len, weights[k], part, scratch); });
        });
        if (parts > 1)
            for (const PieceCounts& c : counts) into.merge(c);
    }

  private:
    template <class CharT>
    void segment(const CharT* t, size_t a, size_t b, int64_t weight, PieceCounts& into,
                 CounterScratch& w) const;
    void pieces(const Cp* s, const uint32_t* src, size_t a, size_t n, int64_t weight,
                PieceCounts& into, CounterScratch& w) const;
    void byte_level(const Cp* s, size_t n, int64_t weight, PieceCounts& into,
                    CounterScratch& w) const;
    void metaspace(const Cp* s, size_t n, bool first, int64_t weight, PieceCounts& into,
                   CounterScratch& w) const;

    CounterSpec spec_;
    AddedMatcher raw_;
    AddedMatcher norm_;
    NormSteps steps_;
    CharSet space_;
    std::array<Cp, 256> byte_char_{};
};

}  // namespace codetok
