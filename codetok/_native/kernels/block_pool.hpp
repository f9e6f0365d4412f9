// Large result blocks kept for reuse: the arrays of one big text's encoding (24 bytes a
// token: offsets, ids, word ids) are written to memory that is already mapped.
//
// Freshly mapped memory costs a page fault per 4 KiB page, the kernel zeroing it and
// charging it to the process: for a 4 MB text (a million tokens, 24 MB of arrays) that was
// as much again as encoding it, so ``encode`` took twice ``encode_ordinary``. Blocks of
// 1 MiB and more go to huge-page memory (huge_pages.hpp's ``huge_alloc``), and when
// freed the last few (at most ``kKeep``, ``kKeepBytes`` in all) are kept for the next block
// they fit (not more than twice its size). Smaller blocks are plain ``malloc``.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "kernels/huge_pages.hpp"

namespace codetok {

class BlockPool {
  public:
    static constexpr size_t kLarge = size_t{1} << 20;
    static constexpr size_t kKeep = 4;
    static constexpr size_t kKeepBytes = size_t{128} << 20;

    // A block of at least ``bytes``; ``size`` is set to its real size (for ``give``).
    void* take(size_t bytes, size_t& size) {
        if (bytes < kLarge) {
            size = bytes;
            void* p = std::malloc(bytes == 0 ? 1 : bytes);
            if (p == nullptr) throw std::bad_alloc();
            return p;
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            size_t best = kept_.size();
            for (size_t k = 0; k < kept_.size(); ++k) {
                const size_t have = kept_[k].second;
                if (have >= bytes && have / 2 <= bytes &&
                    (best == kept_.size() || have < kept_[best].second))
                    best = k;
            }
            if (best != kept_.size()) {
                void* p = kept_[best].first;
                size = kept_[best].second;
                kept_bytes_ -= size;
                kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(best));
                return p;
            }
        }
        return huge_alloc(bytes, size);
    }

    // Give back a block of ``take``: kept when large and there is room (the oldest kept
    // block goes first), else freed.
    void give(void* p, size_t size) noexcept {
        if (p == nullptr) return;
        if (size < kLarge || size > kKeepBytes) {
            std::free(p);
            return;
        }
        std::vector<void*> drop;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            while (!kept_.empty() && (kept_.size() >= kKeep || kept_bytes_ + size > kKeepBytes)) {
                drop.push_back(kept_.front().first);
                kept_bytes_ -= kept_.front().second;
                kept_.erase(kept_.begin());
            }
            kept_.emplace_back(p, size);
            kept_bytes_ += size;
        }
        for (void* q : drop) std::free(q);
    }

  private:
    std::mutex mutex_;
    std::vector<std::pair<void*, size_t>> kept_;
    size_t kept_bytes_ = 0;
};

}  // namespace codetok
