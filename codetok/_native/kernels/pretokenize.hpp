// Pre-tokenizer scanners: hand-written cutters for the well-known split regexes.
//
// Each scanner cuts a code-point string exactly as the reference pipeline does with the
// regex module (codetok/pre_tokenizers.py: Split(pattern, "isolated"), or ByteLevel's
// GPT-2 regex): the pieces are the regex matches, tiling the text, found by leftmost
// first-alternative matching with the engine's backtracking rules. The character classes
// come from unicode_tables (generated from the same regex module). Which pattern strings
// map to which scanner is decided in codetok/engine/scanners.py, and only for patterns the
// differential tests (tests/engine/test_native_scanners.py) prove equal. Not handled here: any
// other pattern (the reference regex runs those), and behaviours other than "isolated".
#pragma once

#include <cstdint>

#include "kernels/common.hpp"

namespace codetok {

enum class Scanner : int {
    // GPT-2 / r50k / p50k:
    //   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
    Gpt2 = 0,
    // cl100k as tiktoken writes it (with \s++$ and possessive forms).
    Cl100k = 1,
    // o200k (tiktoken's and the HF-converted gpt-4o form are the same string).
    O200k = 2,
    // cl100k as HF-converted GPT-4 and Llama-3 tokenizer.json files write it (no \s++$).
    Llama3 = 3,
};
constexpr int kScannerCount = 4;

// Cut s[0:n] as Split(pattern, behavior="isolated") of the reference would: the pieces
// tile s (no empty piece). Appends the exclusive end of each piece, in order, to `ends`.
// n must be below 2**32.
//
// ``start`` (a piece boundary, 0 for the whole text) and ``max_pieces`` let a caller cut a
// long text a window at a time: the patterns look only forward, so cutting from a piece
// boundary gives the same pieces as cutting from the start.
//
// CharT is the storage unit of the text, one code point per unit, as Python keeps a str:
// uint8_t (PyUnicode_1BYTE_KIND, Latin-1), uint16_t (2BYTE: the BMP, lone surrogates as
// plain values) or uint32_t (4BYTE, and Cp strings). The three cut alike: a text gives the
// same ends whichever storage holds it. Instantiated for exactly these three types (in
// pretokenize.cpp); no allocation apart from growing `ends`.
template <class CharT>
void scan(Scanner which, const CharT* s, size_t n, std::vector<uint32_t>& ends, size_t start = 0,
          size_t max_pieces = SIZE_MAX);

// BertPreTokenizer (and Punctuation's "isolated" cuts) over code points: whitespace
// (bert::kSpace) is dropped and each punctuation char (bert::kPunct) is a piece of its own;
// appends ``start, end`` of each piece to ``bounds``.
void bert_pieces(const Cp* s, size_t n, std::vector<uint32_t>& bounds);

extern template void scan<uint8_t>(Scanner, const uint8_t*, size_t, std::vector<uint32_t>&, size_t,
                                   size_t);
extern template void scan<uint16_t>(Scanner, const uint16_t*, size_t, std::vector<uint32_t>&,
                                    size_t, size_t);
extern template void scan<uint32_t>(Scanner, const uint32_t*, size_t, std::vector<uint32_t>&,
                                    size_t, size_t);

}  // namespace codetok
