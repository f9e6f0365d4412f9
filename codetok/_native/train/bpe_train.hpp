// The BPE training loop: pair counts, a lazy priority queue and incremental merges.
//
// Native twin of codetok/reference/bpe_train.py (``train_merges``), which states the rules:
// HF ``tokenizers``' BpeTrainer step by step (queue by count, then lowest pair; a stale
// entry goes back with its current count and the words it was seen in; a merge updates only
// the neighbouring pairs; HF's ``max_token_length`` rule; a merge whose string is already a
// token reuses its id). Not handled here: word counting, the alphabet, special tokens,
// progress display (the caller is called back every few merges).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernels/common.hpp"

namespace codetok {

// Open-addressing map (at most 3/4 full) from an id pair (``a << 32 | b``) to an int64;
// entries are never removed. ``reset`` empties it in time proportional to what it holds.
class PairCounts {
  public:
    PairCounts() { rehash(1024); }
    // The value of ``k``, inserted as 0 when missing.
    int64_t& at(uint64_t k) {
        if ((used_.size() + 1) * 4 > keys_.size() * 3) rehash(keys_.size() * 2);
        size_t i = mix64(k) & mask_;
        while (keys_[i] != kEmpty) {
            if (keys_[i] == k) return values_[i];
            i = (i + 1) & mask_;
        }
        keys_[i] = k;
        values_[i] = 0;
        used_.push_back(static_cast<uint32_t>(i));
        return values_[i];
    }
    const int64_t* find(uint64_t k) const {
        size_t i = mix64(k) & mask_;
        while (keys_[i] != kEmpty) {
            if (keys_[i] == k) return &values_[i];
            i = (i + 1) & mask_;
        }
        return nullptr;
    }
    size_t size() const { return used_.size(); }
    // Entries in insertion order: ``key(n)``, ``value(n)``.
    uint64_t key(size_t n) const { return keys_[used_[n]]; }
    int64_t value(size_t n) const { return values_[used_[n]]; }
    void reset() {
        for (uint32_t i : used_) keys_[i] = kEmpty;
        used_.clear();
    }

  private:
    static constexpr uint64_t kEmpty = ~uint64_t{0};
    void rehash(size_t cap) {
        std::vector<uint64_t> keys(cap, kEmpty);
        std::vector<int64_t> values(cap, 0);
        std::vector<uint32_t> used;
        used.reserve(used_.size());
        const size_t mask = cap - 1;
        for (uint32_t old : used_) {
            size_t i = mix64(keys_[old]) & mask;
            while (keys[i] != kEmpty) i = (i + 1) & mask;
            keys[i] = keys_[old];
            values[i] = values_[old];
            used.push_back(static_cast<uint32_t>(i));
        }
        keys_.swap(keys);
        values_.swap(values);
        used_.swap(used);
        mask_ = mask;
    }
    std::vector<uint64_t> keys_;
    std::vector<int64_t> values_;
    std::vector<uint32_t> used_;  // slots in insertion order
    size_t mask_ = 0;
};

struct BpeTrainOptions {
    size_t vocab_size = 0;
    int64_t min_frequency = 0;
    int64_t max_token_length = int64_t{1} << 62;
    std::u32string prefix;  // continuing-subword prefix (stripped from a merge's right part)
};

struct BpeMerge {
    int32_t left, right, id;
    int64_t count;
};

// Words as symbol ids in one flat buffer (``offsets``: n + 1 entries), merged in place.
struct BpeWords {
    std::vector<int32_t> symbols;
    std::vector<uint64_t> offsets;
    std::vector<uint32_t> lengths;  // current length of each word (merges shrink them)
    std::vector<int64_t> counts;
};

class BpeMergeTrainer {
  public:
    // ``tokens``: the vocabulary so far (id -> string, all distinct); new tokens are
    // appended to it.
    BpeMergeTrainer(BpeWords words, std::vector<std::u32string> tokens, BpeTrainOptions opts);

    // Learn merges until the vocabulary holds ``vocab_size`` tokens or no pair qualifies.
    // ``progress(done)`` is called after every ``every`` merges and at the end; it returns
    // false to stop (an interrupt).
    std::vector<BpeMerge> train(const std::function<bool(size_t)>& progress, size_t every);

    const std::vector<std::u32string>& tokens() const { return tokens_; }

  private:
    struct Entry {
        int64_t count;
        int32_t a, b;
        uint64_t seq;
        uint64_t where;  // the words where the pair was seen: arena_[where, where + n)
        uint32_t n;
    };
    struct Before {  // heap order: count high first, then the lowest pair, then seq
        bool operator()(const Entry& x, const Entry& y) const {
            if (x.count != y.count) return x.count < y.count;
            if (x.a != y.a) return x.a > y.a;
            if (x.b != y.b) return x.b > y.b;
            return x.seq > y.seq;
        }
    };
    static uint64_t key(int32_t a, int32_t b) {
        return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
    }
    void push(int64_t count, int32_t a, int32_t b, uint64_t where, uint32_t n);
    int32_t token_id(const std::u32string& s);
    void count_pairs();
    void merge_word(uint32_t i, int32_t a, int32_t b, int32_t id);
    void note_changed(uint64_t k, uint32_t word);
    void queue_changed();

    BpeWords words_;
    std::vector<std::u32string> tokens_;
    std::unordered_map<std::u32string, int32_t> ids_;
    std::vector<int64_t> tok_len_;
    BpeTrainOptions opts_;
    PairCounts counts_;
    std::vector<Entry> heap_;
    // The word lists of queue entries, one after the other (a list is never changed; a
    // stale entry goes back with its list). One buffer, not a container per entry: the
    // queue holds about as many entries as there are distinct pairs.
    std::vector<uint32_t> arena_;
    uint64_t seq_ = 0;
    // The pairs a merge created, in order of creation: ``changed_`` maps each to its index
    // plus one; ``touched_`` holds (index, word) as words are merged, ``last_`` the last
    // word noted per index.
    PairCounts changed_;
    std::vector<std::pair<uint32_t, uint32_t>> touched_;
    std::vector<uint32_t> last_, sizes_;
};

}  // namespace codetok
