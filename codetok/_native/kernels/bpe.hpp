// BPE encoding of one piece: initial symbols, merges by rank, char offsets.
//
// Native twin of codetok/reference/bpe.py (``word_symbols``, ``merge`` without dropout,
// ``BpeCore``). Same results bit for bit: the lowest-rank pending merge first, ties to the
// leftmost position, a direct rescan for short pieces and a heap over a linked list of
// symbols for long ones; with dropout (``merge`` with a ``dropout``), the heap with each
// popped merge skipped with that probability, one draw per pop as the reference draws.
// Not handled here: caching, error messages.
#pragma once

#include <array>
#include <unordered_map>

#include "kernels/common.hpp"
#include "kernels/py_random.hpp"

namespace codetok {

struct BpeOptions {
    std::vector<Cp> prefix;  // continuing_subword_prefix ("" = none)
    std::vector<Cp> suffix;  // end_of_word_suffix ("" = none)
    int32_t unk_id = -1;     // -1 drops unknown chars; any other value is emitted as is
    bool fuse_unk = false;
    bool byte_fallback = false;
    bool ignore_merges = false;
};

// Output of one piece: ids and, per id, the char span [start, end) inside the piece.
struct BpeOutput {
    std::vector<int32_t> ids;
    std::vector<int64_t> spans;  // start0, end0, start1, end1, ...
};

class BpeKernel {
  public:
    explicit BpeKernel(BpeOptions opts);

    // Room for ``tokens`` entries of ``chars`` code points and ``merges`` merges.
    void reserve(size_t tokens, size_t chars, size_t merges) {
        if (opts_.ignore_merges) vocab_.reserve(tokens, chars);
        merges_.reserve(merges);
    }
    // Register one vocabulary entry (call for every token before encoding). ``whole``:
    // also into the whole-token map of ``ignore_merges`` (not when it is borrowed).
    void add_token(const Cp* s, size_t n, int32_t id, bool whole = true);

    // The merge and whole-token tables, to save them (binary format), and reading them
    // back from saved memory instead of inserting every merge and token (false: they do
    // not fit; nothing changed).
    const PairMap& merge_map() const { return merges_; }
    const StrMap& whole_map() const { return vocab_; }
    bool borrow_tables(const PairMap::Slot* pairs, size_t n_pairs, const StrMap::Slot* words,
                       size_t n_words, const Cp* keys, size_t n_keys) {
        if (!merges_.borrow(pairs, n_pairs)) return false;
        if (opts_.ignore_merges && !vocab_.borrow(words, n_words, keys, n_keys)) return false;
        return true;
    }
    // Register one merge: (a, b) -> new_id with priority ``rank`` (lower first).
    void add_merge(int32_t a, int32_t b, int32_t rank, int32_t new_id) {
        merges_.insert(a, b, PairMap::Merge{rank, new_id});
    }

    // Encode ``s[0:n]``, appending to ``out``. Thread-safe (reads only).
    void encode(const Cp* s, size_t n, BpeOutput& out) const;

    // For the pipeline (pipeline.hpp), which builds the symbols itself:
    // the id of one char as a whole symbol (-1: none), the whole-token id of ``s[0:n]``
    // when merges are ignored (-1: not a token, or merges apply), and the merge loop.
    int32_t symbol_id(Cp c) const { return char_id(0, c); }
    int32_t whole_token(const Cp* s, size_t n) const {
        if (!opts_.ignore_merges) return -1;
        const StrMap::Entry* e = vocab_.find(s, n);
        return e == nullptr ? -1 : e->value;
    }
    void merge(std::vector<int32_t>& ids, std::vector<int64_t>& lens) const;
    // BPE-dropout (reference: ``merge`` with ``dropout`` and ``rand``): the caller holds
    // ``rng``'s lock.
    void merge(std::vector<int32_t>& ids, std::vector<int64_t>& lens, double dropout,
               PyRandom& rng) const;
    // ``encode`` with dropout (reference: ``BPE._sample``): whole tokens of
    // ``ignore_merges`` are not looked up, as in the reference.
    void encode(const Cp* s, size_t n, double dropout, PyRandom& rng, BpeOutput& out) const;
    const BpeOptions& options() const { return opts_; }

  private:
    // id of (variant prefix) + c + (variant suffix), or -1.
    int32_t char_id(int variant, Cp c) const {
        const CharTable& t = chars_[variant];
        if (c < kDense) return t.dense[c];
        auto it = t.sparse.find(c);
        return it == t.sparse.end() ? -1 : it->second;
    }
    void symbols(const Cp* s, size_t n, std::vector<int32_t>& ids,
                 std::vector<int64_t>& lens) const;
    void merge_scan(std::vector<int32_t>& ids, std::vector<int64_t>& lens) const;
    void merge_heap(std::vector<int32_t>& ids, std::vector<int64_t>& lens, double dropout,
                    PyRandom* rng) const;
    // Byte lengths of the tokens of ``s[0:n]`` -> char spans, appended with ``ids``.
    static void append_spans(const Cp* s, size_t n, const std::vector<int32_t>& ids,
                             const std::vector<int64_t>& lens, BpeOutput& out);

    static constexpr Cp kDense = 1024;
    struct CharTable {
        std::vector<int32_t> dense = std::vector<int32_t>(kDense, -1);
        std::unordered_map<Cp, int32_t> sparse;
    };

    BpeOptions opts_;
    std::array<CharTable, 4> chars_;  // bit 0: with prefix, bit 1: with suffix
    std::array<int32_t, 256> byte_ids_;
    StrMap vocab_;  // whole tokens, only filled for ignore_merges
    PairMap merges_;
};

}  // namespace codetok
