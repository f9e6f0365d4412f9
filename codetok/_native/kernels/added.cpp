// See added.hpp. Mirrors ``AddedVocabulary.find`` and ``trie_pattern``.
#include "kernels/added.hpp"

#include "tables/bert_tables.hpp"

#include <cstring>

namespace codetok {

void AddedMatcher::add(const Cp* s, size_t n, AddedEntry e) {
    int32_t node = 0;
    for (size_t i = 0; i < n; ++i) {
        int32_t next = child(node, s[i]);
        if (next < 0) {
            next = static_cast<int32_t>(nodes_.size());
            nodes_.emplace_back();
            edges_.emplace((static_cast<uint64_t>(node) << 32) | s[i], next);
        }
        node = next;
    }
    if (n > 0 && s[0] < kFirstDense) first_[s[0]] = 1;
    if (n == 1 && s[0] < 128) one_[s[0]] = 1;
    if (n > 1 && s[0] < 128) {
        if (s[1] >= 128)
            wide_[s[0]] = 1;
        else
            pairs_[s[0] * 2 + (s[1] >> 6)] |= uint64_t{1} << (s[1] & 63);
    }
    if (n > 0) only_first_ = (only_first_ == -2 || only_first_ == static_cast<int64_t>(s[0]))
                                 ? static_cast<int64_t>(s[0])
                                 : -1;
    Node& leaf = nodes_[static_cast<size_t>(node)];
    if (leaf.entry >= 0) return;  // as ``dict.setdefault``: the first content wins
    leaf.entry = static_cast<int32_t>(entries_.size());
    entries_.push_back(e);
}

template <class CharT>
std::pair<size_t, int32_t> AddedMatcher::longest(const CharT* s, size_t i, size_t end) const {
    int32_t node = 0;
    size_t best_end = i;
    int32_t best = -1;
    for (size_t j = i; j < end; ++j) {
        node = child(node, s[j]);
        if (node < 0) break;
        const int32_t e = nodes_[static_cast<size_t>(node)].entry;
        if (e >= 0) {
            best = e;
            best_end = j + 1;
        }
    }
    return {best_end, best};
}

template <class CharT>
void AddedMatcher::find(const CharT* s, size_t start, size_t end, const std::vector<int32_t>& skip,
                        std::vector<AddedSegment>& out) const {
    if (then_ == nullptr) {
        find_own(s, start, end, skip, out);
        return;
    }
    // Reference: ``Tokenizer._splits``: this matcher's tokens first, then ``then_``'s in
    // each stretch of text between them.
    std::vector<AddedSegment> own, sub;
    find_own(s, start, end, skip, own);
    const auto shift = static_cast<int32_t>(entries_.size());
    for (const AddedSegment& seg : own) {
        if (seg.entry >= 0 || seg.start == seg.end) {
            out.push_back(seg);
            continue;
        }
        sub.clear();
        then_->find(s, seg.start, seg.end, skip, sub);
        for (AddedSegment g : sub) {
            if (g.entry >= 0) g.entry += shift;
            out.push_back(g);
        }
    }
}

template <class CharT>
void AddedMatcher::find_own(const CharT* s, size_t start, size_t end,
                            const std::vector<int32_t>& skip,
                            std::vector<AddedSegment>& out) const {
    size_t pos = start;  // end of the last emitted part
    size_t cur = start;  // where the next search starts (after the last raw match)
    while (cur < end && !entries_.empty()) {
        if constexpr (sizeof(CharT) == 1) {
            // One first char for all contents (specials like "<|...|>"): jump with memchr.
            if (only_first_ >= 0 && only_first_ < 0x100) {
                const void* hit = std::memchr(s + cur, static_cast<int>(only_first_), end - cur);
                if (hit == nullptr) break;
                cur = static_cast<size_t>(static_cast<const CharT*>(hit) - s);
            }
        }
        if (!may_start(s[cur]) || !may_follow(s, cur, end)) {
            ++cur;
            continue;
        }
        auto [mend, k] = longest(s, cur, end);
        if (k < 0) {
            ++cur;
            continue;
        }
        size_t ms = cur;
        size_t me = mend;
        cur = mend;
        const AddedEntry& e = entries_[static_cast<size_t>(k)];
        if (e.special && std::binary_search(skip.begin(), skip.end(), e.id)) continue;
        if (e.single_word && ((ms > start && bert::word_char(s[ms - 1])) ||
                              (me < end && bert::word_char(s[me]))))
            continue;
        if (e.lstrip) {
            size_t a = ms;
            while (a > start && is_whitespace(s[a - 1])) --a;
            ms = std::max(a, pos);
        }
        if (e.rstrip)
            while (me < end && is_whitespace(s[me])) ++me;
        if (pos < ms) out.push_back(AddedSegment{-1, pos, ms});
        out.push_back(AddedSegment{k, ms, me});
        pos = me;
    }
    if (pos < end || out.empty()) out.push_back(AddedSegment{-1, pos, end});
}

template void AddedMatcher::find(const uint8_t*, size_t, size_t, const std::vector<int32_t>&,
                                 std::vector<AddedSegment>&) const;
template void AddedMatcher::find(const uint16_t*, size_t, size_t, const std::vector<int32_t>&,
                                 std::vector<AddedSegment>&) const;
template void AddedMatcher::find(const uint32_t*, size_t, size_t, const std::vector<int32_t>&,
                                 std::vector<AddedSegment>&) const;

}  // namespace codetok
