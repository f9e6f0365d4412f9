// See unigram_prune.hpp. Comments name the Python code each block mirrors
// (codetok/reference/unigram_train.py); float expressions keep its evaluation order.
#include "train/unigram_prune.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "kernels/ordered_blocks.hpp"

namespace codetok {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

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

}  // namespace

// Reference: ``prune_losses`` then ``prune``.
bool unigram_prune(const UnigramWords& words, const std::vector<size_t>& word_blocks,
                   UnigramPieces& pieces, const PieceTrie& trie, size_t max_len, size_t desired,
                   double shrinking_factor, size_t threads, const std::function<bool()>& tick) {
    const size_t size = pieces.size();
    const double unk_score =
        *std::min_element(pieces.scores.begin(), pieces.scores.end()) - kUnigramUnkPenalty;
    // Each piece's own best path and, when that is the piece itself, its second best.
    std::vector<uint8_t> always_keep(size, 1);
    std::vector<uint64_t> alt_first(size + 1, 0);
    std::vector<int32_t> alts;
    const std::vector<size_t> piece_blocks = block_starts(pieces, kUnigramBlockChars);
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

}  // namespace codetok
