// See unigram_sample.hpp.
#include "kernels/unigram_sample.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace codetok {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Reference: ``sample`` (forward filtering, backward sampling).
bool sample_lattice(const UnigramKernel& kernel, const Cp* s, size_t n, double theta,
                    PyRandom& rng, std::vector<int64_t>& starts, std::vector<int32_t>& ids,
                    UnigramSampleScratch& w) {
    Lattice& lat = w.lattice;
    kernel.lattice(s, n, lat);
    std::vector<double>& alpha = w.alpha;
    alpha.assign(n + 1, kNegInf);
    alpha[0] = 0.0;
    for (size_t e = 1; e <= n; ++e) {
        w.terms.clear();
        for (size_t k = lat.first[e]; k < lat.first[e + 1]; ++k) {
            const double from = alpha[static_cast<size_t>(lat.start[k])];
            if (from > kNegInf) w.terms.push_back(from + theta * lat.score[k]);
        }
        if (w.terms.empty()) continue;
        const double top = *std::max_element(w.terms.begin(), w.terms.end());
        w.sum.clear();
        for (double t : w.terms) w.sum.add(std::exp(t - top));
        alpha[e] = top + std::log(w.sum.value());
    }
    if (alpha[n] == kNegInf) return false;
    const size_t mark = starts.size();
    size_t e = n;
    while (e > 0) {
        w.weights.clear();
        w.sum.clear();
        size_t chosen = 0;
        bool any = false;
        for (size_t k = lat.first[e]; k < lat.first[e + 1]; ++k) {
            const double from = alpha[static_cast<size_t>(lat.start[k])];
            if (!(from > kNegInf)) continue;
            const double weight = std::exp(from + theta * lat.score[k] - alpha[e]);
            w.weights.push_back(weight);
            w.sum.add(weight);
            chosen = k;  // the last node unless the draw picks an earlier one
            any = true;
        }
        if (!any) return false;
        const double r = rng.random() * w.sum.value();
        double acc = 0.0;
        size_t j = 0;
        for (size_t k = lat.first[e]; k < lat.first[e + 1]; ++k) {
            if (!(alpha[static_cast<size_t>(lat.start[k])] > kNegInf)) continue;
            acc += w.weights[j++];
            if (r < acc) {
                chosen = k;
                break;
            }
        }
        starts.push_back(lat.start[chosen]);
        ids.push_back(lat.id[chosen]);
        e = static_cast<size_t>(lat.start[chosen]);
    }
    std::reverse(starts.begin() + static_cast<std::ptrdiff_t>(mark), starts.end());
    std::reverse(ids.begin() + static_cast<std::ptrdiff_t>(mark), ids.end());
    return true;
}

}  // namespace

// Reference: ``nbest`` (exact k-best dynamic programming; ``heapq.nlargest`` keeps the
// earlier of equal scores, as the stable sort does).
bool unigram_nbest(const UnigramKernel& kernel, const Cp* s, size_t n_chars, size_t n,
                   UnigramSampleScratch& w) {
    w.path_starts.clear();
    w.path_ids.clear();
    w.path_first.assign(1, 0);
    w.path_scores.clear();
    if (n == 0) return true;
    if (n_chars == 0) {
        w.path_first.push_back(0);
        w.path_scores.push_back(0.0);
        return true;
    }
    Lattice& lat = w.lattice;
    kernel.lattice(s, n_chars, lat);
    using Entry = UnigramSampleScratch::Entry;
    if (w.kbest.size() < n_chars + 1) w.kbest.resize(n_chars + 1);
    for (size_t e = 0; e <= n_chars; ++e) w.kbest[e].clear();
    w.kbest[0].push_back(Entry{0.0, -1, -1, -1});
    for (size_t e = 1; e <= n_chars; ++e) {
        w.cands.clear();
        for (size_t k = lat.first[e]; k < lat.first[e + 1]; ++k) {
            const auto& from = w.kbest[static_cast<size_t>(lat.start[k])];
            for (size_t rank = 0; rank < from.size(); ++rank)
                w.cands.push_back(Entry{from[rank].score + lat.score[k], lat.start[k],
                                        static_cast<int32_t>(rank), lat.id[k]});
        }
        std::stable_sort(w.cands.begin(), w.cands.end(),
                         [](const Entry& a, const Entry& b) { return a.score > b.score; });
        if (w.cands.size() > n) w.cands.resize(n);
        w.kbest[e] = w.cands;
    }
    if (w.kbest[n_chars].empty()) return false;
    for (const Entry& top : w.kbest[n_chars]) {
        const size_t mark = w.path_starts.size();
        const Entry* cur = &top;
        while (cur->start >= 0) {
            w.path_starts.push_back(cur->start);
            w.path_ids.push_back(cur->id);
            cur = &w.kbest[static_cast<size_t>(cur->start)][static_cast<size_t>(cur->rank)];
        }
        std::reverse(w.path_starts.begin() + static_cast<std::ptrdiff_t>(mark), w.path_starts.end());
        std::reverse(w.path_ids.begin() + static_cast<std::ptrdiff_t>(mark), w.path_ids.end());
        w.path_first.push_back(w.path_starts.size());
        w.path_scores.push_back(top.score);
    }
    return true;
}

bool unigram_sample(const UnigramKernel& kernel, const Cp* s, size_t n_chars, double theta,
                    long long nbest, PyRandom& rng, std::vector<int64_t>& starts,
                    std::vector<int32_t>& ids, UnigramSampleScratch& w) {
    if (n_chars == 0) return true;
    if (nbest < 0) return sample_lattice(kernel, s, n_chars, theta, rng, starts, ids, w);
    if (!unigram_nbest(kernel, s, n_chars, static_cast<size_t>(nbest), w)) return false;
    // Reference: ``sample_nbest``.
    const size_t count = w.path_scores.size();
    if (count == 0) return false;
    const double top = *std::max_element(w.path_scores.begin(), w.path_scores.end());
    w.weights.clear();
    w.sum.clear();
    for (double score : w.path_scores) {
        w.weights.push_back(std::exp(theta * (score - top)));
        w.sum.add(w.weights.back());
    }
    const double r = rng.random() * w.sum.value();
    double acc = 0.0;
    size_t chosen = count - 1;
    for (size_t k = 0; k < count; ++k) {
        acc += w.weights[k];
        if (r < acc) {
            chosen = k;
            break;
        }
    }
    starts.insert(starts.end(), w.path_starts.begin() + static_cast<std::ptrdiff_t>(w.path_first[chosen]),
                  w.path_starts.begin() + static_cast<std::ptrdiff_t>(w.path_first[chosen + 1]));
    ids.insert(ids.end(), w.path_ids.begin() + static_cast<std::ptrdiff_t>(w.path_first[chosen]),
               w.path_ids.begin() + static_cast<std::ptrdiff_t>(w.path_first[chosen + 1]));
    return true;
}

}  // namespace codetok
