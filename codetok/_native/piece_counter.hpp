// The trainers' corpus pass: how often each piece occurs that a tokenizer's added tokens,
// normalizer steps and pre-tokenizer hand its model.
//
// It cuts text as the BPE plan does (pipeline.hpp): added tokens matched on the original
// text (their matches are not counted), normalizer steps, then either a scanner (the
// byte-level pre-tokenizers: GPT-2's ``ByteLevel`` or a ``Split`` pattern before it, with
// ``add_prefix_space``) whose pieces are counted in the byte-level alphabet, or HF's
// character-class pre-tokenizers (word_splits.hpp) whose pieces are counted as they are.
// The reference is ``codetok.trainers.api._Pieces`` (``Tokenizer.pre_tokenize``);
// codetok/_plan.py (``compile_counter``) decides what is supported.
#pragma once

#include <array>
#include <vector>

#include "added.hpp"
#include "common.hpp"
#include "norm_steps.hpp"
#include "pretokenize.hpp"
#include "word_splits.hpp"

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
    Scanner scanner = Scanner::Gpt2;
    bool add_prefix_space = false;
    // Not empty: HF's character-class pre-tokenizers, pieces counted as chars (no scanner).
    std::vector<SplitPass> passes;
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
};

class PieceCounter {
  public:
    PieceCounter(CounterSpec spec, AddedMatcher raw, AddedMatcher norm, NormSteps steps);

    // Add the pieces of ``t[0:n]``, ``weight`` times each, to ``into``.
    template <class CharT>
    void count(const CharT* t, size_t n, int64_t weight, PieceCounts& into,
               CounterScratch& w) const;

  private:
    template <class CharT>
    void segment(const CharT* t, size_t a, size_t b, int64_t weight, PieceCounts& into,
                 CounterScratch& w) const;
    void pieces(const Cp* s, size_t n, int64_t weight, PieceCounts& into,
                CounterScratch& w) const;

    CounterSpec spec_;
    AddedMatcher raw_;
    AddedMatcher norm_;
    NormSteps steps_;
    std::array<Cp, 256> byte_char_{};
};

}  // namespace codetok
