// WordPiece greedy longest-match-first of one piece.
//
// Native twin of codetok/reference/wordpiece.py. Not handled here: the unknown-token
// policy (the caller gets ``false`` and decides), caching.
#pragma once

#include "kernels/common.hpp"

namespace codetok {

class WordPieceKernel {
  public:
    WordPieceKernel(std::vector<Cp> prefix, int64_t max_chars)
        : prefix_(std::move(prefix)), max_chars_(max_chars) {}

    // Register the vocabulary entry with index ``key`` (the caller keeps the text).
    void add_token(const Cp* s, size_t n, int32_t id, int32_t key);

    // Greedy match of ``s[0:n]``. On success appends (id, key, start, end) per sub-token and
    // returns true; returns false (appending nothing) when the piece is unknown.
    bool encode(const Cp* s, size_t n, std::vector<int32_t>& ids, std::vector<int32_t>& keys,
                std::vector<int64_t>& spans) const;

  private:
    std::vector<Cp> prefix_;
    int64_t max_chars_;
    StrMap first_;         // whole tokens
    StrMap cont_;          // tokens that start with the prefix, prefix stripped
    size_t max_first_ = 0;  // longest key of each map, in chars
    size_t max_cont_ = 0;
};

}  // namespace codetok
