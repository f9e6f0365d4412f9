// See unigram.hpp.
#include "unigram.hpp"

#include <algorithm>

namespace codetok {

// Reference: ``build_prefixes``.
void UnigramKernel::add_piece(const Cp* s, size_t n, int32_t id, double score) {
    if (static_cast<size_t>(id) >= scores_.size()) scores_.resize(static_cast<size_t>(id) + 1, 0.0);
    scores_[static_cast<size_t>(id)] = score;
    for (size_t k = 1; k < n; ++k) prefixes_.insert(s, k, StrMap::Entry{-1, 0}, false);
    if (n) prefixes_.insert(s, n, StrMap::Entry{id, 0}, true);
}

// Reference: ``viterbi``.
bool UnigramKernel::viterbi(const Cp* s, size_t n, std::vector<int64_t>& starts,
                            std::vector<int32_t>& ids) const {
    std::vector<double> best(n + 1, 0.0);
    std::vector<int64_t> back(n + 1, -1);
    std::vector<int32_t> node(n + 1, 0);
    for (size_t st = 0; st < n; ++st) {
        const double base = best[st];
        bool single = false;
        uint64_t h = kHashSeed;
        for (size_t e = st + 1; e <= n; ++e) {
            h = hash_step(h, s[e - 1]);
            const StrMap::Entry* hit = prefixes_.find(s + st, e - st, h);
            if (hit == nullptr) break;
            const int32_t tid = hit->value;
            if (tid >= 0) {
                const double score = base + scores_[static_cast<size_t>(tid)];
                if (back[e] < 0 || score > best[e]) {
                    best[e] = score;
                    back[e] = static_cast<int64_t>(st);
                    node[e] = tid;
                }
                if (e == st + 1) single = true;
            }
        }
        if (!single) {
            const double score = base + unk_score_;
            if (back[st + 1] < 0 || score > best[st + 1]) {
                if (unk_id_ < 0) return false;
                best[st + 1] = score;
                back[st + 1] = static_cast<int64_t>(st);
                node[st + 1] = unk_id_;
            }
        }
    }
    const size_t mark = starts.size();
    for (int64_t e = static_cast<int64_t>(n); e > 0; e = back[e]) {
        starts.push_back(back[e]);
        ids.push_back(node[e]);
    }
    std::reverse(starts.begin() + static_cast<std::ptrdiff_t>(mark), starts.end());
    std::reverse(ids.begin() + static_cast<std::ptrdiff_t>(mark), ids.end());
    return true;
}

}  // namespace codetok
