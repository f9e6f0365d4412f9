// Added and special tokens: finding them in text before anything else runs.
//
// Native twin of ``AddedVocabulary.find`` (codetok/tokenizer/added_tokens.py): leftmost-longest
// matching of every content at once over a code-point trie; a match the policy skips is
// passed over whole (the search goes on after it, as a regex ``finditer`` would); ``lstrip``
// and ``rstrip`` widen a match over Unicode whitespace; a ``single_word`` match glued to a
// word char (HF's ``\w``, bert_tables.hpp) on either side inside the searched range is
// passed over the same way.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <unordered_map>
#include <vector>

#include "kernels/common.hpp"

namespace codetok {

struct AddedEntry {
    int32_t id = 0;
    bool lstrip = false;
    bool rstrip = false;
    bool special = false;
    bool single_word = false;
};

// One part of a text: an added token (``entry`` >= 0) or the text between them (-1).
struct AddedSegment {
    int32_t entry;
    size_t start;
    size_t end;
};

class AddedMatcher {
  public:
    AddedMatcher() : nodes_(1) {}

    // Register ``s[0:n]`` (n > 0); the first registration of a content wins.
    void add(const Cp* s, size_t n, AddedEntry e);
    // Characters that ``lstrip`` / ``rstrip`` swallow.
    void set_whitespace(std::vector<Cp> ws) {
        std::sort(ws.begin(), ws.end());
        whitespace_ = std::move(ws);
    }
    // Contents matched second, in the stretches between this matcher's matches (HF's
    // normalized added tokens on a text that has no normalizer); their entries follow
    // this matcher's in ``entry``.
    void set_then(AddedMatcher then) {
        if (!then.empty()) then_ = std::make_shared<const AddedMatcher>(std::move(then));
    }
    bool empty() const { return entries_.empty() && then_ == nullptr; }
    const AddedEntry& entry(int32_t k) const {
        const auto i = static_cast<size_t>(k);
        return i < entries_.size() ? entries_[i] : then_->entry(static_cast<int32_t>(i - entries_.size()));
    }

    // Cut ``s[start:end]`` into segments covering it in order. Special tokens whose id is
    // in the sorted ``skip`` are left in the text. Segments of text may be empty. ``CharT``
    // is one of Python's str storage units (uint8_t, uint16_t, uint32_t).
    template <class CharT>
    void find(const CharT* s, size_t start, size_t end, const std::vector<int32_t>& skip,
              std::vector<AddedSegment>& out) const;

  private:
    template <class CharT>
    void find_own(const CharT* s, size_t start, size_t end, const std::vector<int32_t>& skip,
                  std::vector<AddedSegment>& out) const;
    struct Node {
        int32_t entry = -1;  // the content ending here, if any
    };
    // Longest content starting at ``i`` (its end and entry), or entry -1.
    template <class CharT>
    std::pair<size_t, int32_t> longest(const CharT* s, size_t i, size_t end) const;
    int32_t child(int32_t node, Cp c) const {
        auto it = edges_.find((static_cast<uint64_t>(node) << 32) | c);
        return it == edges_.end() ? -1 : it->second;
    }
    bool is_whitespace(Cp c) const {
        return std::binary_search(whitespace_.begin(), whitespace_.end(), c);
    }
    // The first char of every content when they all share it (-1 otherwise).
    int64_t only_first_ = -2;
    bool may_start(Cp c) const {
        return c < kFirstDense ? first_[c] != 0 : child(0, c) >= 0;
    }
    // False when no content starts with ``s[i]`` then ``s[i+1]``, for ASCII pairs (added
    // words often start with common letters: the trie walk then ran at every such letter).
    template <class CharT>
    bool may_follow(const CharT* s, size_t i, size_t end) const {
        const Cp c0 = s[i];
        if (c0 >= 128 || one_[c0]) return true;
        if (i + 1 >= end) return false;  // every content starting with c0 has 2+ chars
        const Cp c1 = s[i + 1];
        if (c1 >= 128) return wide_[c0] != 0;
        return (pairs_[c0 * 2 + (c1 >> 6)] >> (c1 & 63)) & 1;
    }

    static constexpr Cp kFirstDense = 0x10000;
    std::vector<Node> nodes_;
    std::unordered_map<uint64_t, int32_t> edges_;
    std::vector<uint8_t> first_ = std::vector<uint8_t>(kFirstDense, 0);
    // For an ASCII first char: a one-char content starts with it (``one_``), a content
    // continues it with a non-ASCII char (``wide_``), with ASCII char c1 (``pairs_`` bits).
    std::array<uint8_t, 128> one_{}, wide_{};
    std::array<uint64_t, 256> pairs_{};
    std::vector<AddedEntry> entries_;
    std::vector<Cp> whitespace_;
    std::shared_ptr<const AddedMatcher> then_;
};

}  // namespace codetok
