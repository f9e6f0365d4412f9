// See unigram.hpp.
#include "kernels/unigram.hpp"

#include <algorithm>

namespace codetok {

UnigramKernel::UnigramKernel(int32_t unk_id, double unk_score)
    : unk_id_(unk_id), unk_score_(unk_score), piece_(1, -1), root_(kDenseRoot, -1) {
    edges_.assign(1024, Edge{});
    mask_ = edges_.size() - 1;
    shift_ = 64 - 10;
}

void UnigramKernel::grow() {
    std::vector<Edge> old;
    old.swap(edges_);
    edges_.assign(old.size() * 2, Edge{});
    mask_ = edges_.size() - 1;
    --shift_;
    for (const Edge& e : old) {
        if (e.key == kEmpty) continue;
        size_t i = slot(e.key);
        while (edges_[i].key != kEmpty) i = (i + 1) & mask_;
        edges_[i] = e;
    }
}

int32_t UnigramKernel::add_child(int32_t node, Cp c) {
    const int32_t have = child(node, c);
    if (have >= 0) return have;
    const auto id = static_cast<int32_t>(piece_.size());
    piece_.push_back(-1);
    if (node == kRoot && c < kDenseRoot) {
        root_[c] = id;
        return id;
    }
    if ((count_ + 1) * 10 > edges_.size() * 7) grow();
    const uint64_t key = edge_key(node, c);
    size_t i = slot(key);
    while (edges_[i].key != kEmpty) i = (i + 1) & mask_;
    edges_[i] = Edge{key, id};
    ++count_;
    return id;
}

// Reference: ``build_prefixes``.
void UnigramKernel::add_piece(const Cp* s, size_t n, int32_t id, double score) {
    if (static_cast<size_t>(id) >= scores_.size()) scores_.resize(static_cast<size_t>(id) + 1, 0.0);
    scores_[static_cast<size_t>(id)] = score;
    if (!n) return;
    int32_t node = kRoot;
    for (size_t k = 0; k < n; ++k) node = add_child(node, s[k]);
    piece_[static_cast<size_t>(node)] = id;
}

// Reference: ``lattice``.
void UnigramKernel::lattice(const Cp* s, size_t n, Lattice& out) const {
    out.start.clear();
    out.id.clear();
    out.score.clear();
    out.end_of.clear();
    for (size_t st = 0; st < n; ++st) {
        bool single = false;
        each_piece(s, st, n, [&](size_t e, int32_t tid) {
            out.start.push_back(static_cast<int64_t>(st));
            out.id.push_back(tid);
            out.score.push_back(scores_[static_cast<size_t>(tid)]);
            out.end_of.push_back(e);
            if (e == st + 1) single = true;
        });
        if (!single && unk_id_ >= 0) {
            out.start.push_back(static_cast<int64_t>(st));
            out.id.push_back(unk_id_);
            out.score.push_back(unk_score_);
            out.end_of.push_back(st + 1);
        }
    }
    // Group by end, keeping the order within each end (a stable counting sort).
    const size_t m = out.end_of.size();
    out.first.assign(n + 2, 0);
    for (size_t k = 0; k < m; ++k) ++out.first[out.end_of[k] + 1];
    for (size_t e = 1; e < n + 2; ++e) out.first[e] += out.first[e - 1];
    std::vector<int64_t> start(m);
    std::vector<int32_t> id(m);
    std::vector<double> score(m);
    std::vector<size_t> fill(out.first.begin(), out.first.end() - 1);
    for (size_t k = 0; k < m; ++k) {
        const size_t at = fill[out.end_of[k]]++;
        start[at] = out.start[k];
        id[at] = out.id[k];
        score[at] = out.score[k];
    }
    out.start.swap(start);
    out.id.swap(id);
    out.score.swap(score);
}

int32_t UnigramKernel::piece_id(const Cp* s, size_t n) const {
    if (!n) return -1;
    int32_t node = kRoot;
    for (size_t k = 0; k < n && node >= 0; ++k) node = child(node, s[k]);
    return node < 0 ? -1 : piece_[static_cast<size_t>(node)];
}

// Reference: ``viterbi``.
bool UnigramKernel::viterbi(const Cp* s, size_t n, std::vector<int64_t>& starts,
                            std::vector<int32_t>& ids, ViterbiScratch& w) const {
    w.best.assign(n + 1, 0.0);
    w.back.assign(n + 1, -1);
    w.node.assign(n + 1, 0);
    double* best = w.best.data();
    int64_t* back = w.back.data();
    int32_t* node = w.node.data();
    for (size_t st = 0; st < n; ++st) {
        const double base = best[st];
        bool single = false;
        each_piece(s, st, n, [&](size_t e, int32_t tid) {
            const double score = base + scores_[static_cast<size_t>(tid)];
            if (back[e] < 0 || score > best[e]) {
                best[e] = score;
                back[e] = static_cast<int64_t>(st);
                node[e] = tid;
            }
            if (e == st + 1) single = true;
        });
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
