// HF's character-class pre-tokenizers as splitting passes: ``Whitespace`` (``\w+|[^\w\s]+``,
// whitespace dropped), ``WhitespaceSplit`` (runs of non-whitespace), ``Punctuation`` (each
// punctuation char a match, any split behaviour) and ``Digits`` (each digit a match;
// contiguous runs, or each digit alone). A ``Sequence`` of them runs the passes in order,
// each over every piece the previous one left. The character classes are HF's own, pinned
// in bert_tables.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "common.hpp"

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

// Rust's ``char::is_whitespace`` (Unicode White_Space), which ``WhitespaceSplit`` cuts on.
bool rust_whitespace(Cp c);

}  // namespace codetok
