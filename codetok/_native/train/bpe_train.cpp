// See bpe_train.hpp. Comments name the Python code each block mirrors
// (codetok/reference/bpe_train.py).
#include "train/bpe_train.hpp"

#include <algorithm>
#include <stdexcept>

namespace codetok {

BpeMergeTrainer::BpeMergeTrainer(BpeWords words, std::vector<std::u32string> tokens,
                                 BpeTrainOptions opts)
    : words_(std::move(words)), tokens_(std::move(tokens)), opts_(std::move(opts)) {
    const size_t n = words_.counts.size();
    if (words_.offsets.size() != n + 1 || words_.offsets.back() != words_.symbols.size())
        throw std::invalid_argument("word offsets do not match the symbols");
    words_.lengths.resize(n);
    for (size_t i = 0; i < n; ++i)
        words_.lengths[i] = static_cast<uint32_t>(words_.offsets[i + 1] - words_.offsets[i]);
    ids_.reserve(tokens_.size() * 2);
    for (size_t i = 0; i < tokens_.size(); ++i)
        if (!ids_.emplace(tokens_[i], static_cast<int32_t>(i)).second)
            throw std::invalid_argument("the token strings are not distinct");
    tok_len_.assign(tokens_.size(), 1);
    for (int32_t s : words_.symbols)
        if (s < 0 || static_cast<size_t>(s) >= tokens_.size())
            throw std::invalid_argument("a symbol id is outside the vocabulary");
}

void BpeMergeTrainer::push(int64_t count, int32_t a, int32_t b, uint64_t where, uint32_t n) {
    heap_.push_back(Entry{count, a, b, seq_++, where, n});
    std::push_heap(heap_.begin(), heap_.end(), Before{});
}

// Reference: ``count_pairs`` and the first queue. Words are scanned in order, so each
// pair's list of words is sorted and holds each word once.
void BpeMergeTrainer::count_pairs() {
    const size_t n = words_.counts.size();
    PairCounts index;  // pair -> its index plus one, in order of first occurrence
    std::vector<uint32_t> last;  // per index: the last word counted (each word once)
    std::vector<uint64_t> start;  // per index: how many words, then where its list starts
    for (int pass = 0; pass < 2; ++pass) {
        std::fill(last.begin(), last.end(), UINT32_MAX);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t len = words_.lengths[i];
            if (len < 2) continue;
            const int32_t* w = words_.symbols.data() + words_.offsets[i];
            for (uint32_t j = 0; j + 1 < len; ++j) {
                const uint64_t k = key(w[j], w[j + 1]);
                int64_t& slot = index.at(k);
                if (pass == 0) {
                    counts_.at(k) += words_.counts[i];
                    if (slot == 0) {
                        slot = static_cast<int64_t>(last.size()) + 1;
                        last.push_back(UINT32_MAX);
                        start.push_back(0);
                    }
                }
                const size_t q = static_cast<size_t>(slot - 1);
                if (last[q] == i) continue;
                last[q] = static_cast<uint32_t>(i);
                if (pass == 0)
                    ++start[q];
                else
                    arena_[start[q]++] = static_cast<uint32_t>(i);
            }
        }
        if (pass == 0) {  // sizes -> starts
            uint64_t at = 0;
            for (uint64_t& s : start) {
                const uint64_t size = s;
                s = at;
                at += size;
            }
            arena_.assign(at, 0);
        }
    }
    heap_.reserve(index.size() * 2);
    uint64_t begin = 0;
    for (size_t q = 0; q < index.size(); ++q) {
        const uint64_t k = index.key(q);
        const uint64_t end = start[q];  // after the fill: where the next list starts
        const int64_t c = *counts_.find(k);
        if (c > 0)
            heap_.push_back(Entry{c, static_cast<int32_t>(k >> 32),
                                  static_cast<int32_t>(k & 0xFFFFFFFFu), seq_++, begin,
                                  static_cast<uint32_t>(end - begin)});
        begin = end;
    }
    std::make_heap(heap_.begin(), heap_.end(), Before{});
}

int32_t BpeMergeTrainer::token_id(const std::u32string& s) {
    auto it = ids_.find(s);
    if (it != ids_.end()) return it->second;
    if (tokens_.size() >= static_cast<size_t>(INT32_MAX))
        throw std::length_error("the vocabulary outgrew int32 ids");
    const int32_t id = static_cast<int32_t>(tokens_.size());
    tokens_.push_back(s);
    ids_.emplace(s, id);
    return id;
}

void BpeMergeTrainer::note_changed(uint64_t k, uint32_t word) {
    int64_t& slot = changed_.at(k);
    if (slot == 0) {
        slot = static_cast<int64_t>(last_.size()) + 1;
        last_.push_back(UINT32_MAX);
    }
    const auto q = static_cast<uint32_t>(slot - 1);
    if (last_[q] == word) return;
    last_[q] = word;
    touched_.emplace_back(q, word);
}

// Reference: the pushes after a merge: each pair it created, with the words it was created
// in (in word order), goes on the queue when its count is positive.
void BpeMergeTrainer::queue_changed() {
    const size_t m = last_.size();
    sizes_.assign(m, 0);
    for (const auto& t : touched_) ++sizes_[t.first];
    std::vector<uint64_t> at(m);
    uint64_t end = arena_.size();
    for (size_t q = 0; q < m; ++q) {
        at[q] = end;
        end += sizes_[q];
    }
    arena_.resize(end);
    for (const auto& t : touched_) arena_[at[t.first]++] = t.second;
    for (size_t q = 0; q < m; ++q) {
        const uint64_t k = changed_.key(q);
        const int64_t c = *counts_.find(k);
        if (c > 0)
            push(c, static_cast<int32_t>(k >> 32), static_cast<int32_t>(k & 0xFFFFFFFFu),
                 at[q] - sizes_[q], sizes_[q]);
    }
    changed_.reset();
    touched_.clear();
    last_.clear();
}

// Reference: the loop over ``pos`` in ``train_merges``: every ``a b`` of word ``i``, left
// to right, becomes ``id``; the pairs around it lose the word's count, the new pairs gain
// it (when HF's length rule allows them).
void BpeMergeTrainer::merge_word(uint32_t i, int32_t a, int32_t b, int32_t id) {
    const uint32_t n = words_.lengths[i];
    if (n < 2) return;
    int32_t* w = words_.symbols.data() + words_.offsets[i];
    const int64_t c = words_.counts[i];
    const int64_t new_len = tok_len_[static_cast<size_t>(id)];
    const int64_t max_len = opts_.max_token_length;
    uint32_t out = 0;
    uint32_t j = 0;
    while (j < n) {
        if (w[j] == a && j + 1 < n && w[j + 1] == b) {
            if (out > 0) {
                const int32_t prev = w[out - 1];
                counts_.at(key(prev, a)) -= c;  // may go negative under max_token_length, as in HF
                if (tok_len_[static_cast<size_t>(prev)] + new_len < max_len) {
                    const uint64_t k = key(prev, id);
                    counts_.at(k) += c;
                    note_changed(k, i);
                }
            }
            if (j + 2 < n) {
                const int32_t next = w[j + 2];
                counts_.at(key(b, next)) -= c;
                if (tok_len_[static_cast<size_t>(next)] + new_len < max_len) {
                    const uint64_t k = key(id, next);
                    counts_.at(k) += c;
                    note_changed(k, i);
                }
            }
            w[out++] = id;
            j += 2;
        } else {
            w[out++] = w[j++];
        }
    }
    words_.lengths[i] = out;
}

// Reference: ``train_merges``.
std::vector<BpeMerge> BpeMergeTrainer::train(const std::function<bool(size_t)>& progress,
                                             size_t every) {
    count_pairs();
    std::vector<BpeMerge> merges;
    const size_t cut = opts_.prefix.size();
    while (ids_.size() < opts_.vocab_size && !heap_.empty()) {
        std::pop_heap(heap_.begin(), heap_.end(), Before{});
        const Entry top = heap_.back();
        heap_.pop_back();
        const int64_t cur = *counts_.find(key(top.a, top.b));
        if (top.count != cur) {
            push(cur, top.a, top.b, top.where, top.n);
            continue;
        }
        if (cur < 1 || opts_.min_frequency > cur) break;
        std::u32string part = tokens_[static_cast<size_t>(top.b)];
        if (cut && part.compare(0, cut, opts_.prefix) == 0) part.erase(0, cut);
        const size_t before = tokens_.size();
        const int32_t id = token_id(tokens_[static_cast<size_t>(top.a)] + part);
        if (tokens_.size() != before)
            tok_len_.push_back(tok_len_[static_cast<size_t>(top.a)] +
                               tok_len_[static_cast<size_t>(top.b)]);
        merges.push_back(BpeMerge{top.a, top.b, id, cur});
        for (uint64_t p = top.where, e = top.where + top.n; p < e; ++p)
            merge_word(arena_[p], top.a, top.b, id);  // the arena grows only after the loop
        queue_changed();
        if (every != 0 && merges.size() % every == 0 && !progress(merges.size()))
            return merges;  // stopped: the caller has its reason
    }
    progress(merges.size());
    return merges;
}

}  // namespace codetok
