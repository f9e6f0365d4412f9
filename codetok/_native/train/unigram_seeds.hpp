// The seed vocabulary of the Unigram trainer: required chars, then the best frequent
// branching substrings, as log probabilities.
//
// Native twin of codetok/reference/unigram_seeds.py (``seed_pieces``), which states the
// rules. Substrings are counted length by length as there: a substring of length k is
// counted only where its prefix and suffix of length k - 1 are frequent, so each one is
// named by the pair of ids of those two (no string is hashed or copied), and memory follows
// the number of candidates of one length. Not handled here: the required chars (the caller
// gives them), the EM (unigram_train.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "train/unigram_train.hpp"

namespace codetok {

struct UnigramSeedOptions {
    size_t max_len = 16;
    int64_t min_count = 2;
    size_t seed_size = 1000000;
    Cp whitespace = 0x2581;
    bool split_by_number = true;
    std::vector<Cp> required;              // most frequent first
    std::vector<int64_t> required_counts;  // their frequencies
    std::vector<Cp> digits;                // the required chars for which str.isdigit() holds
};

// The seed pieces and scores into ``out``. ``tick()`` is called between lengths; false
// stops (and seed_pieces returns false).
bool seed_pieces(const UnigramWords& words, const UnigramSeedOptions& opts,
                 const std::function<bool()>& tick, UnigramPieces& out);

}  // namespace codetok
