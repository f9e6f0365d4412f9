// Unigram Viterbi best path of one piece.
//
// Native twin of codetok/reference/unigram.py (``build_prefixes``, ``viterbi``). The
// lattice has one node per vocabulary piece found at each char position, plus an unknown
// node (score ``unk_score``) where no one-char piece exists. Ties keep the first candidate
// (shorter pieces first, the unknown node last). Not handled here: n-best, sampling,
// fusing unknowns, byte fallback (unigram_pipeline.cpp fuses and falls back); n-best and
// sampling walk ``lattice`` (unigram_sample.hpp).
//
// The pieces live in a trie over code points: a dense child table at the root for the
// BMP, one open-addressing table of ``(node, char) -> child`` edges below it, so walking
// the prefixes at a position costs one probe per char and never compares strings.
#pragma once

#include <vector>

#include "kernels/common.hpp"

namespace codetok {

// The lattice of one piece, nodes grouped by end (reference: ``lattice``): the nodes ending
// at ``e`` are ``[first[e], first[e + 1])``, in the reference's order (by start, shorter
// pieces first, an unknown node after the pieces of its start).
struct Lattice {
    std::vector<int64_t> start;
    std::vector<int32_t> id;
    std::vector<double> score;
    std::vector<size_t> first;
    std::vector<size_t> end_of;  // scratch: each node's end, in generation order
};

// Working memory of one Viterbi run (reused across calls by the caller).
struct ViterbiScratch {
    std::vector<double> best;
    std::vector<int64_t> back;
    std::vector<int32_t> node;
};

class UnigramKernel {
  public:
    UnigramKernel(int32_t unk_id, double unk_score);

    // Register piece ``id`` (ids are given in increasing order; a later duplicate wins).
    void add_piece(const Cp* s, size_t n, int32_t id, double score);

    // Best path of ``s[0:n]``: appends node starts and ids. Returns false (appending
    // nothing) when the path needs an unknown node and ``unk_id < 0``.
    bool viterbi(const Cp* s, size_t n, std::vector<int64_t>& starts,
                 std::vector<int32_t>& ids, ViterbiScratch& w) const;
    bool viterbi(const Cp* s, size_t n, std::vector<int64_t>& starts,
                 std::vector<int32_t>& ids) const {
        ViterbiScratch w;
        return viterbi(s, n, starts, ids, w);
    }

    // Every node of ``s[0:n]`` (the unknown nodes only when ``unk_id >= 0``).
    void lattice(const Cp* s, size_t n, Lattice& out) const;

    // Id of the piece equal to ``s[0:n]``, or -1.
    int32_t piece_id(const Cp* s, size_t n) const;
    int32_t unk_id() const { return unk_id_; }

  private:
    static constexpr int32_t kRoot = 0;
    static constexpr Cp kDenseRoot = 0x10000;
    struct Edge {
        uint64_t key = kEmpty;  // parent << 21 | char
        int32_t child = -1;
    };
    static constexpr uint64_t kEmpty = ~uint64_t{0};
    static uint64_t edge_key(int32_t parent, Cp c) {
        return (static_cast<uint64_t>(parent) << 21) | (c & 0x1FFFFF);
    }
    size_t slot(uint64_t key) const {
        return static_cast<size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift_);
    }
    // Child of ``node`` by ``c``, or -1.
    int32_t child(int32_t node, Cp c) const {
        if (node == kRoot && c < kDenseRoot) return root_[c];
        const uint64_t key = edge_key(node, c);
        for (size_t i = slot(key);; i = (i + 1) & mask_) {
            const Edge& e = edges_[i];
            if (e.key == key) return e.child;
            if (e.key == kEmpty) return -1;
        }
    }
    // ``fn(e, id)`` for each piece equal to ``s[st:e]``, shorter first (the walk of the
    // trie from ``st``, as the reference's ``PieceTrie.matches``).
    template <class Fn>
    void each_piece(const Cp* s, size_t st, size_t n, Fn&& fn) const {
        int32_t at = kRoot;
        for (size_t e = st + 1; e <= n; ++e) {
            at = child(at, s[e - 1]);
            if (at < 0) return;
            const int32_t tid = piece_[static_cast<size_t>(at)];
            if (tid >= 0) fn(e, tid);
        }
    }
    int32_t add_child(int32_t node, Cp c);
    void grow();

    int32_t unk_id_;
    double unk_score_;
    std::vector<double> scores_;
    std::vector<int32_t> piece_;  // per trie node: the piece ending there, or -1
    std::vector<int32_t> root_;   // the root's children for chars below kDenseRoot
    std::vector<Edge> edges_;
    size_t mask_ = 0, count_ = 0;
    unsigned shift_ = 64;
};

}  // namespace codetok
