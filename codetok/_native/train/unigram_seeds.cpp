// See unigram_seeds.hpp. Comments name the Python code each block mirrors
// (codetok/reference/unigram_seeds.py).
#include "train/unigram_seeds.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace codetok {

namespace {

// Counts of the substrings of one length, each named by ``key`` (the ids of its prefix and
// suffix one char shorter), with the flat position of its first occurrence.
class LevelCounts {
  public:
    struct Cand {
        uint64_t key;
        int64_t count;
        uint32_t pos;
        int32_t id;  // its id among the frequent ones of this length, or -1
    };

    void clear() {
        cands_.clear();
        if (slots_.empty()) resize(1024);
        std::fill(slots_.begin(), slots_.end(), Slot{kEmpty, 0});
    }
    void add(uint64_t key, int64_t count, uint32_t pos) {
        size_t i = mix64(key) & mask_;
        while (slots_[i].key != kEmpty) {
            if (slots_[i].key == key) {
                cands_[slots_[i].index].count += count;
                return;
            }
            i = (i + 1) & mask_;
        }
        slots_[i] = Slot{key, static_cast<uint32_t>(cands_.size())};
        cands_.push_back(Cand{key, count, pos, -1});
        if (cands_.size() * 4 > slots_.size() * 3) resize(slots_.size() * 2);
    }
    const Cand& find(uint64_t key) const {  // ``key`` was added
        size_t i = mix64(key) & mask_;
        while (slots_[i].key != key) i = (i + 1) & mask_;
        return cands_[slots_[i].index];
    }
    std::vector<Cand>& cands() { return cands_; }

  private:
    static constexpr uint64_t kEmpty = ~uint64_t{0};
    struct Slot {
        uint64_t key;
        uint32_t index;
    };
    void resize(size_t cap) {
        slots_.assign(cap, Slot{kEmpty, 0});
        mask_ = cap - 1;
        for (size_t c = 0; c < cands_.size(); ++c) {
            size_t i = mix64(cands_[c].key) & mask_;
            while (slots_[i].key != kEmpty) i = (i + 1) & mask_;
            slots_[i] = Slot{cands_[c].key, static_cast<uint32_t>(c)};
        }
    }
    std::vector<Slot> slots_;
    std::vector<Cand> cands_;
    size_t mask_ = 0;
};

struct Frequent {
    int64_t count;
    uint32_t pos;
    bool branching;
};

struct Seed {
    uint32_t pos;
    uint32_t len;
    int64_t count;
};

// Reference: ``piece_rule``.
class PieceRule {
  public:
    explicit PieceRule(const UnigramSeedOptions& o) : ws_(o.whitespace), split_(o.split_by_number) {
        for (Cp c : o.required) flags_[c] |= 1;
        for (Cp c : o.digits) flags_[c] |= 2;
    }
    bool operator()(const Cp* s, size_t n) const {
        for (size_t j = 1; j < n; ++j)
            if (s[j] == ws_) return false;
        size_t digits = 0;
        const size_t body = (s[0] == ws_) ? 1 : 0;
        for (size_t j = 0; j < n; ++j) {
            const auto it = flags_.find(s[j]);
            if (it == flags_.end() || !(it->second & 1)) return false;
            if (j >= body && (it->second & 2)) ++digits;
        }
        return !(split_ && digits != 0 && digits != n - body);
    }

  private:
    Cp ws_;
    bool split_;
    std::unordered_map<Cp, uint8_t> flags_;
};

}  // namespace

bool seed_pieces(const UnigramWords& words, const UnigramSeedOptions& opts,
                 const std::function<bool()>& tick, UnigramPieces& out) {
    const Cp* text = words.text.data();
    if (words.text.size() >= UINT32_MAX) throw std::length_error("the words hold too many chars");
    const PieceRule rule(opts);
    // Reference: level 1 of ``seed_substrings`` (frequent chars, never seeds themselves).
    std::unordered_map<Cp, int64_t> chars;
    for (size_t w = 0; w < words.size(); ++w)
        for (size_t j = 0; j < words.len(w); ++j) chars[words.at(w)[j]] += words.counts[w];
    std::unordered_map<Cp, int32_t> char_id;
    std::vector<Frequent> prev;
    for (const auto& [c, f] : chars)
        if (f >= opts.min_count) {
            char_id.emplace(c, static_cast<int32_t>(prev.size()));
            prev.push_back(Frequent{f, 0, true});
        }
    std::vector<int32_t> cur(words.text.size(), -1), next(words.text.size(), -1);
    for (size_t p = 0; p < words.text.size(); ++p) {
        const auto it = char_id.find(text[p]);
        if (it != char_id.end()) cur[p] = it->second;
    }
    // Reference: the loop over lengths. ``cur[p]`` is the id of the frequent substring of
    // length k - 1 at flat position p (-1: none); ``prev`` describes those substrings.
    std::vector<Seed> found;
    LevelCounts level;
    std::vector<Frequent> freq;
    size_t prev_len = 1;
    auto keep_prev = [&] {  // the substrings of length prev_len are final now
        if (prev_len < 2) return;
        for (const Frequent& f : prev)
            if (f.branching && rule(text + f.pos, prev_len))
                found.push_back(Seed{f.pos, static_cast<uint32_t>(prev_len), f.count});
    };
    bool ended = false;
    for (size_t k = 2; k <= opts.max_len; ++k) {
        level.clear();
        for (size_t w = 0; w < words.size(); ++w) {
            const size_t b = words.offsets[w], e = words.offsets[w + 1];
            for (size_t p = b; p + k <= e; ++p) {
                const int32_t a = cur[p], s = cur[p + 1];
                if (a >= 0 && s >= 0)
                    level.add((static_cast<uint64_t>(a) << 32) | static_cast<uint32_t>(s),
                              words.counts[w], static_cast<uint32_t>(p));
            }
        }
        freq.clear();
        for (LevelCounts::Cand& c : level.cands())
            if (c.count >= opts.min_count) {
                c.id = static_cast<int32_t>(freq.size());
                freq.push_back(Frequent{c.count, c.pos, true});
                // Reference: a head with the count of one of its extensions is not branching.
                if (prev_len >= 2) {
                    Frequent& head = prev[static_cast<size_t>(c.key >> 32)];
                    if (head.count == c.count) head.branching = false;
                }
            }
        keep_prev();
        if (freq.empty()) {
            ended = true;
            break;
        }
        for (size_t w = 0; w < words.size(); ++w) {
            const size_t b = words.offsets[w], e = words.offsets[w + 1];
            for (size_t p = b; p < e; ++p) {
                next[p] = -1;
                if (p + k > e) continue;
                const int32_t a = cur[p], s = cur[p + 1];
                if (a >= 0 && s >= 0)
                    next[p] =
                        level.find((static_cast<uint64_t>(a) << 32) | static_cast<uint32_t>(s)).id;
            }
        }
        cur.swap(next);
        prev.swap(freq);
        prev_len = k;
        if (!tick()) return false;
    }
    if (!ended) keep_prev();
    std::vector<int32_t>().swap(cur);
    std::vector<int32_t>().swap(next);

    // Reference: ``seed_pieces``: rank by frequency * length, then by string.
    auto better = [&](const Seed& x, const Seed& y) {
        const int64_t sx = x.count * static_cast<int64_t>(x.len);
        const int64_t sy = y.count * static_cast<int64_t>(y.len);
        if (sx != sy) return sx > sy;
        return std::lexicographical_compare(text + x.pos, text + x.pos + x.len, text + y.pos,
                                            text + y.pos + y.len);
    };
    if (found.size() > opts.seed_size) {
        std::nth_element(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(opts.seed_size),
                         found.end(), better);
        found.resize(opts.seed_size);
    }
    std::sort(found.begin(), found.end(), better);
    std::vector<double> freqs;
    freqs.reserve(opts.required.size() + found.size());
    out.clear();
    for (size_t r = 0; r < opts.required.size(); ++r) {
        out.push(&opts.required[r], 1, 0.0);
        freqs.push_back(static_cast<double>(std::max<int64_t>(opts.required_counts[r], 1)));
    }
    for (const Seed& s : found) {
        out.push(text + s.pos, s.len, 0.0);
        freqs.push_back(static_cast<double>(s.count * static_cast<int64_t>(s.len)));
    }
    double total = 0.0;
    for (double f : freqs) total += f;
    const double log_total = std::log(total);
    for (size_t p = 0; p < freqs.size(); ++p) out.scores[p] = std::log(freqs[p]) - log_total;
    return true;
}

}  // namespace codetok
