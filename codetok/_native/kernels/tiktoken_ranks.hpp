// tiktoken's mergeable ranks: reading a ``.tiktoken`` file (one "base64-token rank" line per
// token) and deriving the BPE merge rows a rank table implies. Plain C++17; the Python side
// is codetok/formats/tiktoken_file.py, whose loop ``read_ranks`` twins.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace codetok {

// One token's bytes and its rank, in file order.
using RankedToken = std::pair<std::string, int64_t>;

// Parse a ``.tiktoken`` file's bytes into ``out``. Returns 0 when every line reads plainly
// (blank lines are skipped; "\r\n", "\r" and "\n" end lines, as ``bytes.splitlines``), or the
// 1-based number of the first line that does not: then ``out`` holds the lines before it and
// the caller names the error.
long long read_ranks(const char* data, size_t size, std::vector<RankedToken>& out);

// Every split of every ranked token into two ranked tokens, as rows (rank of the whole, rank
// of the left, rank of the right), sorted: HF's tiktoken converter orders its merges so.
std::vector<std::array<int32_t, 3>> rank_merges(const std::vector<std::pair<std::string, int32_t>>& ranks);

}  // namespace codetok
