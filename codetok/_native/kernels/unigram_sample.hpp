// Unigram n-best paths and subword-regularization sampling of one piece.
//
// Native twins of codetok/reference/unigram.py ``nbest``, ``sample`` (forward filtering,
// backward sampling over the whole lattice) and ``sample_nbest``, draw for draw: the same
// lattice order, the same float expressions (``std::exp``/``std::log`` are the C library's,
// as Python's ``math`` uses), ``math.fsum``'s exactly rounded sums (fsum.hpp) and Python's
// generator (py_random.hpp). Not handled here: fusing unknowns, byte fallback, the lock of
// the generator (the caller holds it).
#pragma once

#include <vector>

#include "kernels/fsum.hpp"
#include "kernels/py_random.hpp"
#include "kernels/unigram.hpp"

namespace codetok {

struct UnigramSampleScratch {
    Lattice lattice;
    std::vector<double> alpha, terms, weights;
    ExactSum sum;
    struct Entry {
        double score;
        int64_t start;  // -1: the empty path at 0
        int32_t rank;   // of the entry at ``start`` this one extends
        int32_t id;
    };
    std::vector<std::vector<Entry>> kbest;
    std::vector<Entry> cands;
    std::vector<int64_t> path_starts;  // the n-best paths, flat
    std::vector<int32_t> path_ids;
    std::vector<size_t> path_first;
    std::vector<double> path_scores;
};

// The ``n`` best paths of ``s[0:n_chars]``, best first, into ``w.path_*`` (path ``k`` is
// ``[path_first[k], path_first[k + 1])``). False: no path (an uncovered char, no unknown).
bool unigram_nbest(const UnigramKernel& kernel, const Cp* s, size_t n_chars, size_t n,
                   UnigramSampleScratch& w);

// One path drawn with probability proportional to ``exp(theta * score)``: over the whole
// lattice when ``nbest < 0``, among the ``nbest`` best paths otherwise. Appends to
// ``starts``/``ids``. False: no path.
bool unigram_sample(const UnigramKernel& kernel, const Cp* s, size_t n_chars, double theta,
                    long long nbest, PyRandom& rng, std::vector<int64_t>& starts,
                    std::vector<int32_t>& ids, UnigramSampleScratch& w);

}  // namespace codetok
