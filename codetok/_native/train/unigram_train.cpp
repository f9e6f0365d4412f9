// See unigram_train.hpp. Comments name the Python code each block mirrors
// (codetok/reference/unigram_train.py); float expressions keep its evaluation order.
#include "train/unigram_train.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "kernels/ordered_blocks.hpp"
#include "train/unigram_prune.hpp"

namespace codetok {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
constexpr double kExpectedFrequencyThreshold = 0.5;  // EXPECTED_FREQUENCY_THRESHOLD
constexpr size_t kLinearMaxChars = 80;               // _LINEAR_MAX_CHARS

// Reference: ``_logaddexp``.
double logaddexp(double a, double b) {
    if (a == kNegInf) return b;
    if (b == kNegInf) return a;
    if (a > b) return a + std::log1p(std::exp(b - a));
    return b + std::log1p(std::exp(a - b));
}

// ---------------------------------------------------------------------------- E step

struct ENode {
    int32_t i, j, pid;
    double w;
};

struct EScratch {
    std::vector<double> alpha, beta;
    std::vector<ENode> nodes;
    std::vector<uint32_t> first;  // log space: nodes of start i are [first[i], first[i + 1])
};

struct EOut {
    std::vector<std::pair<int32_t, double>> adds;  // expected[pid] += value, in order
    std::vector<double> terms;                     // objective -= term, one per word
    int64_t total = 0;                             // sum of the block's counts
};

struct EStep {
    const UnigramWords& words;
    const UnigramPieces& pieces;
    const PieceTrie& trie;
    size_t max_len;
    double unk_score;
    double k = 0.0;  // per-char scaling of the linear-space weights
    std::vector<double> weight;
    double unk_w = 0.0;

    // Reference: the set-up of ``e_step`` (``k``, ``weight``, ``unk_w``).
    void prepare() {
        const size_t n = pieces.size();
        double per_char = 0.0;
        for (size_t p = 0; p < n; ++p)
            per_char += pieces.scores[p] / static_cast<double>(pieces.len(p));
        k = -per_char / static_cast<double>(std::max<size_t>(n, 1));
        weight.resize(n);
        for (size_t p = 0; p < n; ++p)
            weight[p] = std::exp(pieces.scores[p] + k * static_cast<double>(pieces.len(p)));
        unk_w = std::exp(unk_score + k);
    }

    double score(int32_t pid) const {
        return pid >= 0 ? pieces.scores[static_cast<size_t>(pid)] : unk_score;
    }

    // Reference: ``_e_step_log`` for one word; returns log Z.
    double log_space(const Cp* s, size_t n, double c, EScratch& w, EOut& out) const {
        std::vector<ENode>& nodes = w.nodes;
        nodes.clear();
        w.first.assign(n + 1, 0);
        for (size_t i = 0; i < n; ++i) {  // ``lattice``: the unknown node first
            w.first[i] = static_cast<uint32_t>(nodes.size());
            const int32_t one = trie.child(0, s[i]);
            if (one < 0 || trie.piece(one) < 0)
                nodes.push_back(ENode{static_cast<int32_t>(i), static_cast<int32_t>(i + 1), -1,
                                      0.0});
            int32_t node = 0;
            for (size_t j = i + 1, stop = std::min(n, i + max_len); j <= stop; ++j) {
                node = trie.child(node, s[j - 1]);
                if (node < 0) break;
                const int32_t pid = trie.piece(node);
                if (pid >= 0)
                    nodes.push_back(
                        ENode{static_cast<int32_t>(i), static_cast<int32_t>(j), pid, 0.0});
            }
        }
        w.first[n] = static_cast<uint32_t>(nodes.size());
        std::vector<double>& alpha = w.alpha;
        alpha.assign(n + 1, kNegInf);
        alpha[0] = 0.0;
        for (size_t i = 0; i < n; ++i) {
            const double a = alpha[i];
            if (a == kNegInf) continue;
            for (uint32_t q = w.first[i]; q < w.first[i + 1]; ++q)
                alpha[nodes[q].j] = logaddexp(alpha[nodes[q].j], a + score(nodes[q].pid));
        }
        const double z = alpha[n];
        std::vector<double>& beta = w.beta;
        beta.assign(n + 1, kNegInf);
        beta[n] = 0.0;
        for (size_t i = n; i-- > 0;) {
            double b = kNegInf;
            for (uint32_t q = w.first[i]; q < w.first[i + 1]; ++q)
                b = logaddexp(b, beta[nodes[q].j] + score(nodes[q].pid));
            beta[i] = b;
        }
        for (size_t i = 0; i < n; ++i) {
            const double a = alpha[i];
            for (uint32_t q = w.first[i]; q < w.first[i + 1]; ++q) {
                const ENode& nd = nodes[q];
                if (nd.pid >= 0)
                    out.adds.emplace_back(nd.pid, c * std::exp(a + score(nd.pid) + beta[nd.j] - z));
            }
        }
        return z;
    }

    // Reference: the loop body of ``e_step`` for word ``wi``.
    void word(size_t wi, EScratch& w, EOut& out) const {
        const Cp* s = words.at(wi);
        const size_t n = words.len(wi);
        const double c = static_cast<double>(words.counts[wi]);
        out.total += words.counts[wi];
        if (n > kLinearMaxChars) {
            out.terms.push_back(c * log_space(s, n, c, w, out));
            return;
        }
        std::vector<double>& alpha = w.alpha;
        alpha.assign(n + 1, 0.0);
        alpha[0] = 1.0;
        std::vector<ENode>& nodes = w.nodes;
        nodes.clear();
        for (size_t i = 0; i < n; ++i) {
            const double a = alpha[i];
            bool single = false;
            int32_t node = 0;
            for (size_t j = i + 1, stop = std::min(n, i + max_len); j <= stop; ++j) {
                node = trie.child(node, s[j - 1]);
                if (node < 0) break;
                const int32_t pid = trie.piece(node);
                if (pid >= 0) {
                    const double wt = weight[static_cast<size_t>(pid)];
                    nodes.push_back(
                        ENode{static_cast<int32_t>(i), static_cast<int32_t>(j), pid, wt});
                    alpha[j] += a * wt;
                    if (j == i + 1) single = true;
                }
            }
            if (!single) {
                nodes.push_back(
                    ENode{static_cast<int32_t>(i), static_cast<int32_t>(i + 1), -1, unk_w});
                alpha[i + 1] += a * unk_w;
            }
        }
        const double z = alpha[n];
        if (!(1e-200 < z && z < 1e200)) {  // out of the safe range: redo in log space
            out.terms.push_back(c * log_space(s, n, c, w, out));
            return;
        }
        std::vector<double>& beta = w.beta;
        beta.assign(n + 1, 0.0);
        beta[n] = 1.0;
        for (size_t q = nodes.size(); q-- > 0;) beta[nodes[q].i] += nodes[q].w * beta[nodes[q].j];
        const double scale = c / z;
        for (const ENode& nd : nodes)
            if (nd.pid >= 0) out.adds.emplace_back(nd.pid, scale * alpha[nd.i] * nd.w * beta[nd.j]);
        out.terms.push_back(c * (std::log(z) - k * static_cast<double>(n)));
    }
};

// Reference: ``e_step``. Fills ``expected`` and ``objective``; false when stopped.
bool e_step(const UnigramWords& words, const UnigramPieces& pieces, const PieceTrie& trie,
            size_t max_len, double unk_score, size_t threads, const std::vector<size_t>& blocks,
            const std::function<bool()>& tick, std::vector<double>& expected,
            double& objective) {
    EStep step{words, pieces, trie, max_len, unk_score, 0.0, {}, 0.0};
    step.prepare();
    expected.assign(pieces.size(), 0.0);
    double obj = 0.0;
    int64_t total = 0;
    const bool done = ordered_blocks<EOut, EScratch>(
        blocks.size() - 1, threads,
        [&](size_t b, EOut& out, EScratch& w) {
            out.adds.clear();
            out.terms.clear();
            out.total = 0;
            for (size_t i = blocks[b]; i < blocks[b + 1]; ++i) step.word(i, w, out);
        },
        [&](size_t, EOut& out) {
            for (const auto& [pid, v] : out.adds) expected[static_cast<size_t>(pid)] += v;
            for (double t : out.terms) obj -= t;
            total += out.total;
        },
        tick);
    objective = obj / static_cast<double>(std::max<int64_t>(total, 1));
    return done;
}

// ---------------------------------------------------------------------------- M step

// Reference: ``m_step``. False (``pieces`` unchanged) when no piece is kept.
bool m_step(UnigramPieces& pieces, const std::vector<double>& expected) {
    std::vector<size_t> kept;
    for (size_t p = 0; p < pieces.size(); ++p)
        if (expected[p] >= kExpectedFrequencyThreshold) kept.push_back(p);
    if (kept.empty()) return false;
    double total = 0.0;
    for (size_t p : kept) total += expected[p];
    const double log_total = unigram_digamma(total);
    UnigramPieces next;
    next.text.reserve(pieces.text.size());
    next.offsets.reserve(kept.size() + 1);
    next.scores.reserve(kept.size());
    for (size_t p : kept)
        next.push(pieces.at(p), pieces.len(p), unigram_digamma(expected[p]) - log_total);
    pieces = std::move(next);
    return true;
}

}  // namespace

// ---------------------------------------------------------------------------- trie

int32_t PieceTrie::add(int32_t node, Cp c) {
    int32_t next = child(node, c);
    if (next >= 0) return next;
    next = static_cast<int32_t>(piece_.size());
    piece_.push_back(-1);
    if (node == 0 && c < kDense) {
        root_[c] = next;
        return next;
    }
    if ((n_edges_ + 1) * 2 > edges_.size()) grow();
    const uint64_t key = edge_key(node, c);
    size_t i = mix64(key) & mask_;
    while (edges_[i].key != kEmpty) i = (i + 1) & mask_;
    edges_[i] = Edge{key, next};
    ++n_edges_;
    return next;
}

void PieceTrie::grow() {
    std::vector<Edge> old;
    old.swap(edges_);
    const size_t cap = std::max<size_t>(1024, old.size() * 2);
    edges_.assign(cap, Edge{kEmpty, -1});
    mask_ = cap - 1;
    for (const Edge& e : old) {
        if (e.key == kEmpty) continue;
        size_t i = mix64(e.key) & mask_;
        while (edges_[i].key != kEmpty) i = (i + 1) & mask_;
        edges_[i] = e;
    }
}

void PieceTrie::build(const UnigramPieces& pieces) {
    if (pieces.size() >= static_cast<size_t>(INT32_MAX))
        throw std::length_error("too many pieces for int32 ids");
    root_.assign(kDense, -1);
    piece_.assign(1, -1);
    // Pieces only lose members between builds: the last build's edges are enough room.
    size_t cap = 1024;
    while (cap < n_edges_ * 2) cap *= 2;
    n_edges_ = 0;
    std::vector<Edge>().swap(edges_);
    edges_.assign(cap, Edge{kEmpty, -1});
    mask_ = cap - 1;
    for (size_t p = 0; p < pieces.size(); ++p) {
        const Cp* s = pieces.at(p);
        int32_t node = 0;
        for (size_t j = 0; j < pieces.len(p); ++j) node = add(node, s[j]);
        piece_[static_cast<size_t>(node)] = static_cast<int32_t>(p);  // pieces are distinct
    }
}

// ---------------------------------------------------------------------------- the loop

// Reference: ``digamma``.
double unigram_digamma(double x) {
    double result = 0.0;
    while (x < 7.0) {
        result -= 1.0 / x;
        x += 1.0;
    }
    x -= 0.5;
    const double inv = 1.0 / x;
    const double inv2 = inv * inv;
    const double inv4 = inv2 * inv2;
    return result + std::log(x) + inv2 / 24.0 - 7.0 / 960.0 * inv4 + 31.0 / 8064.0 * inv4 * inv2 -
           127.0 / 30720.0 * inv4 * inv4;
}

// Reference: ``train_pieces`` after seeding.
bool train_unigram(const UnigramWords& words, UnigramPieces& pieces,
                   const UnigramTrainOptions& opts, const UnigramProgress& progress,
                   std::vector<double>& objectives) {
    if (!progress(true, pieces.size())) return false;
    const std::function<bool()> tick = [&] { return progress(false, pieces.size()); };
    const std::vector<size_t> word_blocks = block_starts(words, kUnigramBlockChars);
    const size_t desired =
        static_cast<size_t>(static_cast<int64_t>(static_cast<double>(opts.vocab_size) * 1.1));
    PieceTrie trie;
    std::vector<double> expected;
    while (true) {
        for (size_t sub = 0; sub < opts.n_sub_iterations; ++sub) {
            // The reference fails on min() of no scores here (ValueError).
            if (pieces.size() == 0) throw std::domain_error("no pieces are left to train");
            trie.build(pieces);
            const double unk =
                *std::min_element(pieces.scores.begin(), pieces.scores.end()) - kUnigramUnkPenalty;
            double objective = 0.0;
            if (!e_step(words, pieces, trie, opts.max_piece_length, unk, opts.num_threads,
                        word_blocks, tick, expected, objective))
                return false;
            objectives.push_back(objective);
            if (!m_step(pieces, expected)) break;
            if (!progress(true, pieces.size())) return false;
        }
        if (pieces.size() <= desired) break;
        const size_t before = pieces.size();
        trie.build(pieces);
        if (!unigram_prune(words, word_blocks, pieces, trie, opts.max_piece_length, desired,
                   opts.shrinking_factor, opts.num_threads, tick))
            return false;
        if (!progress(true, pieces.size())) return false;
        if (pieces.size() >= before) break;
    }
    return true;
}

}  // namespace codetok
