// See word_splits.hpp. Comments name the Python function each block mirrors.
#include "kernels/word_splits.hpp"

#include <algorithm>

#include "tables/bert_tables.hpp"

namespace codetok {

namespace {

// Reference: ``split_spans`` of the single chars ``is_match`` accepts in ``s[a:b]``
// (``Punctuation.split``, ``Digits.split``): each such char is one match.
template <class IsMatch>
void char_matches(const Cp* s, uint32_t a, uint32_t b, IsMatch is_match,
                  SplitPass::Behavior behavior, std::vector<SplitScratch::Seg>& segs,
                  std::vector<Span32>& out) {
    segs.clear();
    uint32_t i = a;
    while (i < b) {
        if (is_match(s[i])) {
            segs.push_back({i, i + 1, true});
            ++i;
            continue;
        }
        uint32_t j = i + 1;
        while (j < b && !is_match(s[j])) ++j;
        segs.push_back({i, j, false});
        i = j;
    }
    const size_t first = out.size();  // this piece's own output starts here
    bool prev = false;
    switch (behavior) {
        case SplitPass::Removed:
            for (const auto& g : segs)
                if (!g.match) out.push_back({g.start, g.end});
            break;
        case SplitPass::Isolated:
            for (const auto& g : segs) out.push_back({g.start, g.end});
            break;
        case SplitPass::MergedWithPrevious:
            for (const auto& g : segs) {
                if (g.match && !prev && out.size() > first)
                    out.back().end = g.end;
                else
                    out.push_back({g.start, g.end});
                prev = g.match;
            }
            break;
        case SplitPass::MergedWithNext:
            for (auto it = segs.rbegin(); it != segs.rend(); ++it) {
                if (it->match && !prev && out.size() > first)
                    out.back().start = it->start;
                else
                    out.push_back({it->start, it->end});
                prev = it->match;
            }
            std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
            break;
        case SplitPass::Contiguous:
            for (const auto& g : segs) {
                if (g.match == prev && out.size() > first)
                    out.back().end = g.end;
                else
                    out.push_back({g.start, g.end});
                prev = g.match;
            }
            break;
    }
}

void split_one(const Cp* s, Span32 piece, const SplitPass& pass, SplitScratch& w,
               std::vector<Span32>& out) {
    auto push = [&out](size_t i, size_t j) {
        out.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(j)});
        return true;
    };
    switch (pass.kind) {
        case SplitPass::Whitespace:
            whitespace_pieces(s, piece.start, piece.end, push);
            break;
        case SplitPass::WhitespaceSplit:
            whitespace_split_pieces(s, piece.start, piece.end, push);
            break;
        case SplitPass::Punctuation:
            char_matches(
                s, piece.start, piece.end,
                [](Cp c) { return (bert::flags(c) & bert::kPunct) != 0; }, pass.behavior,
                w.segs, out);
            break;
        case SplitPass::Digits:
            char_matches(s, piece.start, piece.end, [](Cp c) { return bert::numeric(c); },
                         pass.behavior, w.segs, out);
            break;
    }
}

}  // namespace

void split_words(const Cp* s, size_t n, const std::vector<SplitPass>& passes,
                 std::vector<Span32>& out, SplitScratch& w) {
    out.clear();
    if (n == 0) return;
    out.push_back({0, static_cast<uint32_t>(n)});
    for (const SplitPass& pass : passes) {
        w.next.clear();
        for (const Span32& piece : out) split_one(s, piece, pass, w, w.next);
        out.swap(w.next);
    }
}

}  // namespace codetok
