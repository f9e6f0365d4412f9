// An allocator for the large lookup tables (piece caches, the Unigram hot table): blocks of
// 1 MiB and more are aligned to 2 MiB and offered to the kernel as transparent huge pages.
//
// Those tables are probed at random, a few times per word. With 4 KiB pages most probes
// also miss the TLB, so each costs a page walk on top of the cache miss, and a software
// prefetch of the entry stalls on the walk. Where the kernel has no huge pages (or says
// no), the memory is ordinary memory: nothing else changes.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace codetok {

// ``bytes`` rounded up to whole 2 MiB pages (``size``), 2 MiB-aligned and offered to the
// kernel as transparent huge pages; ``std::free`` frees it.
inline void* huge_alloc(size_t bytes, size_t& size) {
    constexpr size_t kHuge = size_t{2} << 20;
    size = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, size);
    if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(p, size, MADV_HUGEPAGE);  // advice only: a refusal changes nothing
#endif
    return p;
}

template <class T>
struct HugePageAllocator {
    using value_type = T;
    static constexpr size_t kFrom = size_t{1} << 20;

    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(size_t n) {
        if (n > static_cast<size_t>(-1) / sizeof(T)) throw std::bad_alloc();
        const size_t bytes = n * sizeof(T);
        if (bytes < kFrom) {
            void* p = std::malloc(bytes == 0 ? 1 : bytes);
            if (p == nullptr) throw std::bad_alloc();
            return static_cast<T*>(p);
        }
        size_t rounded = 0;
        return static_cast<T*>(huge_alloc(bytes, rounded));
    }
    void deallocate(T* p, size_t) noexcept { std::free(p); }

    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
    template <class U>
    bool operator!=(const HugePageAllocator<U>&) const noexcept {
        return false;
    }
};

// A vector whose large buffers sit on huge pages (see above).
template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace codetok
