// See wordpiece.hpp.
#include "kernels/wordpiece.hpp"

#include <algorithm>

namespace codetok {

void WordPieceKernel::add_token(const Cp* s, size_t n, int32_t id, int32_t key) {
    first_.insert(s, n, StrMap::Entry{id, key}, true);
    max_first_ = std::max(max_first_, n);
    const size_t p = prefix_.size();
    if (n > p && std::equal(prefix_.begin(), prefix_.end(), s)) {
        cont_.insert(s + p, n - p, StrMap::Entry{id, key}, true);
        max_cont_ = std::max(max_cont_, n - p);
    }
}

// Reference: ``longest_match``. Looking ``prefix + sub`` up in the whole vocabulary is the
// same as looking ``sub`` up among the prefixed tokens with the prefix stripped.
bool WordPieceKernel::encode(const Cp* s, size_t n, std::vector<int32_t>& ids,
                             std::vector<int32_t>& keys, std::vector<int64_t>& spans) const {
    if (static_cast<int64_t>(n) > max_chars_) return false;
    const size_t mark = ids.size();
    size_t start = 0;
    while (start < n) {
        const StrMap& map = start == 0 ? first_ : cont_;
        const size_t longest = start == 0 ? max_first_ : max_cont_;
        size_t end = std::min(n, start + longest);
        const StrMap::Entry* found = nullptr;
        while (start < end) {
            found = map.find(s + start, end - start);
            if (found != nullptr) break;
            --end;
        }
        if (found == nullptr) {
            ids.resize(mark);
            keys.resize(mark);
            spans.resize(mark * 2);
            return false;
        }
        ids.push_back(found->value);
        keys.push_back(found->extra);
        spans.push_back(static_cast<int64_t>(start));
        spans.push_back(static_cast<int64_t>(end));
        start = end;
    }
    return true;
}

}  // namespace codetok
