// The Unigram training loop: E step (forward-backward, on threads), M step (digamma) and
// pruning by likelihood loss, from the seed vocabulary to about 1.1 * vocab_size pieces.
//
// Native twin of codetok/reference/unigram_train.py (``train_pieces``), which states the
// rules: SentencePiece's unigram trainer over word counts. Every float operation follows
// the reference's order, so the pieces are the same and the scores bit-identical: the E
// step's threads compute words in blocks, and each block's contributions are added to the
// expected counts in word order; pruning's counts are integers. So the result is also the
// same on any number of threads. Not handled here: the seed vocabulary
// (unigram_seeds.hpp), pruning (unigram_prune.hpp), required chars and finalization
// (codetok/trainers/unigram.py).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "kernels/common.hpp"

namespace codetok {

// Distinct words in one flat buffer: word i is text[offsets[i]:offsets[i + 1]].
struct UnigramWords {
    std::vector<Cp> text;
    std::vector<uint64_t> offsets{0};
    std::vector<int64_t> counts;
    size_t size() const { return counts.size(); }
    const Cp* at(size_t i) const { return text.data() + offsets[i]; }
    size_t len(size_t i) const { return static_cast<size_t>(offsets[i + 1] - offsets[i]); }
};

// Pieces in one flat buffer, with their scores (log probabilities).
struct UnigramPieces {
    std::vector<Cp> text;
    std::vector<uint64_t> offsets{0};
    std::vector<double> scores;
    size_t size() const { return scores.size(); }
    const Cp* at(size_t i) const { return text.data() + offsets[i]; }
    size_t len(size_t i) const { return static_cast<size_t>(offsets[i + 1] - offsets[i]); }
    void push(const Cp* s, size_t n, double score) {
        text.insert(text.end(), s, s + n);
        offsets.push_back(text.size());
        scores.push_back(score);
    }
    void clear() {
        text.clear();
        offsets.assign(1, 0);
        scores.clear();
    }
};

// The unknown node scores this much below the worst piece (UNK_PENALTY).
constexpr double kUnigramUnkPenalty = 10.0;
// Words or pieces per block of threaded work: about this many chars (block_starts).
constexpr size_t kUnigramBlockChars = size_t{1} << 14;

// Called with ``(report, n_pieces)`` on the calling thread: ``report`` after seeding, each
// EM round and each pruning step, else a few times a second; returns false to stop.
using UnigramProgress = std::function<bool(bool, size_t)>;

struct UnigramTrainOptions {
    size_t vocab_size = 8000;
    size_t max_piece_length = 16;
    double shrinking_factor = 0.75;
    size_t n_sub_iterations = 2;
    size_t num_threads = 1;
};

// The pieces in a trie over code points: a dense child table for the root's BMP children,
// one open-addressing table of ``(node, char) -> child`` edges for the rest. Walking the
// prefixes of a text costs one probe per char.
class PieceTrie {
  public:
    void build(const UnigramPieces& pieces);
    // Child of ``node`` (0 is the root) by ``c``, or -1.
    int32_t child(int32_t node, Cp c) const {
        if (node == 0 && c < kDense) return root_[c];
        const uint64_t key = edge_key(node, c);
        for (size_t i = mix64(key) & mask_;; i = (i + 1) & mask_) {
            if (edges_[i].key == key) return edges_[i].child;
            if (edges_[i].key == kEmpty) return -1;
        }
    }
    // The piece ending at ``node``, or -1.
    int32_t piece(int32_t node) const { return piece_[static_cast<size_t>(node)]; }

  private:
    static constexpr Cp kDense = 0x10000;
    static constexpr uint64_t kEmpty = ~uint64_t{0};
    struct Edge {
        uint64_t key;
        int32_t child;
    };
    static uint64_t edge_key(int32_t node, Cp c) {
        return (static_cast<uint64_t>(node) << 21) | (c & 0x1FFFFF);
    }
    int32_t add(int32_t node, Cp c);
    void grow();
    std::vector<int32_t> root_;
    std::vector<Edge> edges_;
    size_t mask_ = 0;
    size_t n_edges_ = 0;
    std::vector<int32_t> piece_;
};

// The digamma function, as codetok._reference.unigram_train.digamma computes it.
double unigram_digamma(double x);

// Run the loop on ``pieces`` (the seed vocabulary; replaced by the result). Appends the
// objective of each E step to ``objectives``. Returns false when ``progress`` stopped it.
bool train_unigram(const UnigramWords& words, UnigramPieces& pieces,
                   const UnigramTrainOptions& opts, const UnigramProgress& progress,
                   std::vector<double>& objectives);

}  // namespace codetok
