// Unigram Viterbi best path of one piece.
//
// Native twin of codetok/_reference/unigram.py (``build_prefixes``, ``viterbi``). The
// lattice has one node per vocabulary piece found at each char position, plus an unknown
// node (score ``unk_score``) where no one-char piece exists. Ties keep the first candidate
// (shorter pieces first, the unknown node last). Not handled here: n-best, sampling,
// fusing unknowns, byte fallback.
#pragma once

#include "common.hpp"

namespace codetok {

class UnigramKernel {
  public:
    UnigramKernel(int32_t unk_id, double unk_score) : unk_id_(unk_id), unk_score_(unk_score) {}

    // Register piece ``id`` (ids are given in increasing order; a later duplicate wins).
    void add_piece(const Cp* s, size_t n, int32_t id, double score);

    // Best path of ``s[0:n]``: appends node starts and ids. Returns false (appending
    // nothing) when the path needs an unknown node and ``unk_id < 0``.
    bool viterbi(const Cp* s, size_t n, std::vector<int64_t>& starts,
                 std::vector<int32_t>& ids) const;

  private:
    int32_t unk_id_;
    double unk_score_;
    std::vector<double> scores_;
    StrMap prefixes_;  // every prefix of every piece -> id of the equal piece, or -1
};

}  // namespace codetok
