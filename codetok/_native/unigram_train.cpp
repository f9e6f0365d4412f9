// See unigram_train.hpp. Comments name the Python code each block mirrors
// (codetok/_reference/unigram_train.py); float expressions keep its evaluation order.
#include "unigram_train.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "ordered_blocks.hpp"

namespace codetok {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
constexpr double kExpectedFrequencyThreshold = 0.5;  // EXPECTED_FREQUENCY_THRESHOLD
constexpr double kUnkPenalty = 10.0;                 // UNK_PENALTY
constexpr size_t kLinearMaxChars = 80;               // _LINEAR_MAX_CHARS
constexpr size_t kBlockChars = 1 << 14;              // about this many chars per block

// Blocks of consecutive items of about kBlockChars chars: block b is
// [starts[b], starts[b + 1]). The result never depends on where blocks are cut.
template <class Items>
std::vector<size_t> block_starts(const Items& items) {
    std::vector<size_t> starts{0};
    size_t chars = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        chars += items.len(i) + 1;
        if (chars >= kBlockChars) {
            starts.push_back(i + 1);
            chars = 0;
        }
    }
    if (starts.back() != items.size()) starts.push_back(items.size());
    return starts;
}

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
    EStep step{words, pieces, trie, max_len, unk_score};
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

// ---------------------------------------------------------------------------- pruning

struct VScratch {
    std::vector<double> best;
    std::vector<int32_t> back_start, back_pid;
    std::vector<int32_t> path;
};

// Reference: ``viterbi``. The best path's piece ids into ``w.path`` (false: none).
bool viterbi(const Cp* s, size_t n, const UnigramPieces& pieces, const PieceTrie& trie,
             size_t max_len, double unk_score, int32_t exclude, bool with_unk, VScratch& w) {
    w.best.assign(n + 1, kNegInf);
    w.back_start.assign(n + 1, -1);
    w.back_pid.assign(n + 1, 0);
    w.best[0] = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double a = w.best[i];
        if (a == kNegInf) continue;
        // Nodes of one start end at distinct positions, so their order does not matter.
        bool single = false;
        int32_t node = 0;
        for (size_t j = i + 1, stop = std::min(n, i + max_len); j <= stop; ++j) {
            node = trie.child(node, s[j - 1]);
            if (node < 0) break;
            const int32_t pid = trie.piece(node);
            if (pid < 0) continue;
            if (j == i + 1) single = true;
            if (pid == exclude && i == 0 && j == n) continue;
            const double v = a + pieces.scores[static_cast<size_t>(pid)];
            if (v > w.best[j]) {
                w.best[j] = v;
                w.back_start[j] = static_cast<int32_t>(i);
                w.back_pid[j] = pid;
            }
        }
        if (with_unk && !single) {
            const double v = a + unk_score;
            if (v > w.best[i + 1]) {
                w.best[i + 1] = v;
                w.back_start[i + 1] = static_cast<int32_t>(i);
                w.back_pid[i + 1] = -1;
            }
        }
    }
    w.path.clear();
    if (w.back_start[n] < 0) return false;
    for (size_t j = n; j > 0; j = static_cast<size_t>(w.back_start[j]))
        w.path.push_back(w.back_pid[j]);
    std::reverse(w.path.begin(), w.path.end());
    return true;
}

struct PieceOut {
    std::vector<uint8_t> removable;  // per piece: its best path has 2+ pieces
    std::vector<uint32_t> n_alts;    // per piece: length of its second-best path
    std::vector<int32_t> alts;       // those paths, one after the other
};

struct WordOut {
    std::vector<std::pair<int32_t, int64_t>> uses;  // freq[pid] += count
};

// Reference: ``prune_losses`` then ``prune``. Replaces ``pieces``; false when stopped.
bool prune(const UnigramWords& words, const std::vector<size_t>& word_blocks,
           UnigramPieces& pieces, const PieceTrie& trie, size_t max_len, size_t desired,
           double shrinking_factor, size_t threads, const std::function<bool()>& tick) {
    const size_t size = pieces.size();
    const double unk_score =
        *std::min_element(pieces.scores.begin(), pieces.scores.end()) - kUnkPenalty;
    // Each piece's own best path and, when that is the piece itself, its second best.
    std::vector<uint8_t> always_keep(size, 1);
    std::vector<uint64_t> alt_first(size + 1, 0);
    std::vector<int32_t> alts;
    const std::vector<size_t> piece_blocks = block_starts(pieces);
    size_t done_pieces = 0;
    bool ok = ordered_blocks<PieceOut, VScratch>(
        piece_blocks.size() - 1, threads,
        [&](size_t b, PieceOut& out, VScratch& w) {
            out.removable.clear();
            out.n_alts.clear();
            out.alts.clear();
            for (size_t p = piece_blocks[b]; p < piece_blocks[b + 1]; ++p) {
                const Cp* s = pieces.at(p);
                const size_t n = pieces.len(p);
                uint8_t removable = 0;
                uint32_t n_alt = 0;
                if (viterbi(s, n, pieces, trie, max_len, unk_score, -2, false, w)) {
                    if (w.path.size() >= 2) {
                        removable = 1;
                    } else if (viterbi(s, n, pieces, trie, max_len, unk_score,
                                       static_cast<int32_t>(p), false, w)) {
                        n_alt = static_cast<uint32_t>(w.path.size());
                        out.alts.insert(out.alts.end(), w.path.begin(), w.path.end());
                    }
                }
                out.removable.push_back(removable);
                out.n_alts.push_back(n_alt);
            }
        },
        [&](size_t b, PieceOut& out) {
            alts.insert(alts.end(), out.alts.begin(), out.alts.end());
            for (size_t q = 0; q < out.removable.size(); ++q, ++done_pieces) {
                always_keep[done_pieces] = out.removable[q] ? 0 : 1;
                alt_first[done_pieces + 1] = alt_first[done_pieces] + out.n_alts[q];
            }
            (void)b;
        },
        tick);
    if (!ok) return false;
    // Viterbi counts of the corpus. ``f`` of the reference (the counts of the words in the
    // piece's inverted list, one entry per occurrence) is this same integer.
    std::vector<int64_t> freq(size, 0);
    double vsum = 0.0;
    for (int64_t c : words.counts) vsum += static_cast<double>(c);
    ok = ordered_blocks<WordOut, VScratch>(
        word_blocks.size() - 1, threads,
        [&](size_t b, WordOut& out, VScratch& w) {
            out.uses.clear();
            for (size_t i = word_blocks[b]; i < word_blocks[b + 1]; ++i) {
                if (!viterbi(words.at(i), words.len(i), pieces, trie, max_len, unk_score, -2,
                             true, w))
                    continue;
                for (int32_t pid : w.path)
                    if (pid >= 0) out.uses.emplace_back(pid, words.counts[i]);
            }
        },
        [&](size_t, WordOut& out) {
            for (const auto& [pid, c] : out.uses) freq[static_cast<size_t>(pid)] += c;
        },
        tick);
    if (!ok) return false;
    int64_t total_i = 0;
    for (int64_t f : freq) total_i += f;
    const double total = static_cast<double>(total_i);
    const double logsum = total > 0 ? std::log(total) : 0.0;
    std::vector<size_t> chosen;
    std::vector<std::pair<size_t, double>> candidates;
    for (size_t i = 0; i < size; ++i) {
        if (freq[i] == 0 || !always_keep[i]) continue;
        const uint64_t a0 = alt_first[i], a1 = alt_first[i + 1];
        if (a0 == a1) {
            chosen.push_back(i);
            continue;
        }
        const double fi = static_cast<double>(freq[i]);
        const double f = fi / vsum;
        const double logprob_sp = std::log(fi) - logsum;
        const double logsum_alt = std::log(total + fi * static_cast<double>(a1 - a0 - 1));
        double logprob_alt = 0.0;
        for (uint64_t q = a0; q < a1; ++q) {
            const double fa = static_cast<double>(freq[static_cast<size_t>(alts[q])]);
            logprob_alt += std::log(fa + fi) - logsum_alt;
        }
        candidates.emplace_back(i, f * (logprob_sp - logprob_alt));
    }
    // Reference: ``prune``: the highest losses first, equal losses by string.
    const auto shrunk = static_cast<int64_t>(shrinking_factor * static_cast<double>(size));
    const size_t target = std::max(desired, static_cast<size_t>(shrunk));
    std::sort(candidates.begin(), candidates.end(), [&](const auto& x, const auto& y) {
        if (x.second != y.second) return x.second > y.second;
        const Cp* a = pieces.at(x.first);
        const Cp* b = pieces.at(y.first);
        return std::lexicographical_compare(a, a + pieces.len(x.first), b, b + pieces.len(y.first));
    });
    for (const auto& cand : candidates) {
        if (chosen.size() >= target) break;
        chosen.push_back(cand.first);
    }
    std::sort(chosen.begin(), chosen.end());
    UnigramPieces next;
    for (size_t p : chosen) next.push(pieces.at(p), pieces.len(p), pieces.scores[p]);
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
    const std::vector<size_t> word_blocks = block_starts(words);
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
                *std::min_element(pieces.scores.begin(), pieces.scores.end()) - kUnkPenalty;
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
        if (!prune(words, word_blocks, pieces, trie, opts.max_piece_length, desired,
                   opts.shrinking_factor, opts.num_threads, tick))
            return false;
        if (!progress(true, pieces.size())) return false;
        if (pieces.size() >= before) break;
    }
    return true;
}

}  // namespace codetok
