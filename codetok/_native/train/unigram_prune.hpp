// Pruning of the Unigram trainer: which pieces to keep, by the likelihood lost without them.
//
// Native twin of ``prune_losses`` and ``prune`` in codetok/reference/unigram_train.py,
// which state the rules (SentencePiece's): a piece whose own best segmentation is itself
// and has a second best one is removable, at the cost of re-segmenting its Viterbi
// occurrences with that alternative; pieces with no alternative stay; the costliest
// removable pieces are kept up to ``max(desired, shrinking_factor * size)``. The Viterbi
// passes (over the pieces, then over the words) run on threads; their results are merged
// in order and the counts are integers, so the result is the same on any thread count.
// Not handled here: the EM and the loop (unigram_train.hpp).
#pragma once

#include <functional>
#include <vector>

#include "train/unigram_train.hpp"

namespace codetok {

// Replace ``pieces`` (their ``trie`` built) by the kept ones, in their order. ``word_blocks``
// cuts the words into blocks for the threads (block_starts); ``tick`` is called on the
// calling thread a few times a second, and returning false stops (unigram_prune returns
// false).
bool unigram_prune(const UnigramWords& words, const std::vector<size_t>& word_blocks,
                   UnigramPieces& pieces, const PieceTrie& trie, size_t max_len, size_t desired,
                   double shrinking_factor, size_t threads, const std::function<bool()>& tick);

}  // namespace codetok
