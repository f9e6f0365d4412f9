// HF's character-class pre-tokenizers as splitting passes: ``Whitespace`` (``\w+|[^\w\s]+``,
// whitespace dropped), ``WhitespaceSplit`` (runs of non-whitespace), ``Punctuation`` (each
// punctuation char a match, any split behaviour) and ``Digits`` (each digit a match;
// contiguous runs, or each digit alone). A ``Sequence`` of them runs the passes in order,
// each over every piece the previous one left. The character classes are HF's own, pinned
// in bert_tables.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "tables/bert_tables.hpp"
#include "kernels/common.hpp"

namespace codetok {

struct SplitPass {
    enum Kind : int { Whitespace = 0, WhitespaceSplit = 1, Punctuation = 2, Digits = 3 };
    // codetok/pre_tokenizers.py ``split_spans``' behaviours.
    enum Behavior : int {
        Removed = 0,
        Isolated = 1,
        MergedWithPrevious = 2,
        MergedWithNext = 3,
        Contiguous = 4
    };
    Kind kind = Whitespace;
    Behavior behavior = Isolated;  // Punctuation's; Digits: Contiguous or Isolated (individual)
};

struct Span32 {
    uint32_t start, end;
};

// Working memory of ``split_words``.
struct SplitScratch {
    struct Seg {
        uint32_t start, end;
        bool match;
    };
    std::vector<Span32> next;
    std::vector<Seg> segs;
};

// Reference: ``Sequence.split`` over the passes (codetok/pre_tokenizers.py): the pieces of
// ``s[0:n]``, in order, into ``out``.
void split_words(const Cp* s, size_t n, const std::vector<SplitPass>& passes,
                 std::vector<Span32>& out, SplitScratch& w);

// The scans of the ``Whitespace`` and ``WhitespaceSplit`` passes, one piece at a time, for
// split_words and for a plan that takes each piece as it is found (the WordLevel plan):
// ``emit(i, j)`` for each piece ``s[i:j]`` of ``s[a:b]``, in order, until ``emit`` returns
// false (then so do they). ``CharT``: one of Python's str storage units or Cp.

// The class of ``c`` in HF's ``Whitespace`` pattern: 0 a space (``\s``), 1 a word char
// (``\w``), 2 any other char; ASCII without a table lookup.
inline int word_class(Cp c) {
    if (c < 0x80) {
        if (c == '_' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
            return 1;
        return (c == ' ' || (c >= '\t' && c <= '\r')) ? 0 : 2;
    }
    return bert::word_char(c) ? 1 : bert::word_space(c) ? 0 : 2;
}

// Reference: ``Whitespace.split`` (the pattern ``\w+|[^\w\s]+``, HF's classes): runs of
// word chars and runs of other chars, spaces dropped.
template <class CharT, class Emit>
bool whitespace_pieces(const CharT* s, size_t a, size_t b, Emit&& emit) {
    size_t i = a;
    while (i < b) {
        const int k = word_class(s[i]);
        if (k == 0) {
            ++i;
            continue;
        }
        size_t j = i + 1;
        while (j < b && word_class(s[j]) == k) ++j;
        if (!emit(i, j)) return false;
        i = j;
    }
    return true;
}

// Reference: ``WhitespaceSplit.split``: runs of chars that are not Rust's
// ``char::is_whitespace`` (Unicode White_Space, bert::kSpace).
template <class CharT, class Emit>
bool whitespace_split_pieces(const CharT* s, size_t a, size_t b, Emit&& emit) {
    auto space = [](Cp c) { return (bert::flags(c) & bert::kSpace) != 0; };
    size_t i = a;
    while (i < b) {
        if (space(s[i])) {
            ++i;
            continue;
        }
        size_t j = i + 1;
        while (j < b && !space(s[j])) ++j;
        if (!emit(i, j)) return false;
        i = j;
    }
    return true;
}

}  // namespace codetok
