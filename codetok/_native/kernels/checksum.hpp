// The binary format's checksum (codetok/formats/binary.py): the sum of word[i] * (2i + 1)
// mod 2**64 over the data's little-endian uint64 words. Plain C++17.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "kernels/threads.hpp"

namespace codetok {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the binary format's tables are little-endian memory images");

// The checksum of ``words`` 8-byte words at ``p``. A large file (o200k's is 49 MB) is read at
// memory speed: split over the cores, in parts whose sums mod 2**64 add up to the whole's.
inline uint64_t checksum(const unsigned char* p, size_t words) {
    auto part = [p](size_t a, size_t b) {
        uint64_t sum = 0;
        for (size_t i = a; i < b; ++i) {
            uint64_t w;
            std::memcpy(&w, p + 8 * i, 8);  // the format is little-endian, as this machine
            sum += w * (2 * static_cast<uint64_t>(i) + 1);
        }
        return sum;
    };
    constexpr size_t kPerThread = size_t{4} << 20;  // words (32 MB)
    const size_t threads = std::min<size_t>(
        std::max(1u, std::thread::hardware_concurrency()), (words + kPerThread - 1) / kPerThread);
    if (threads <= 1) return part(0, words);
    std::vector<uint64_t> sums(threads, 0);
    const size_t step = (words + threads - 1) / threads;
    parallel_for(threads, static_cast<long long>(threads),
                 [&](size_t t) { sums[t] = part(t * step, std::min(words, (t + 1) * step)); });
    uint64_t sum = 0;
    for (uint64_t v : sums) sum += v;
    return sum;
}

}  // namespace codetok
