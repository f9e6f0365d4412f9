// An allocator for a parse's large transient buffers (the walk records): blocks of 1 MiB
// or more are mapped straight from the system, so freeing one gives its pages back at once.
//
// Through malloc they would not: glibc raises its mmap threshold to the size of any mapped
// block it frees (up to 32 MiB), and from then on buffers below that size come from the
// heap, where freed memory stays resident. One big file's records, freed, made every later
// column and token buffer of the process heap memory, and the peak of an encode grew by
// the records' size.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>

namespace codetok {
namespace code {

template <class T>
struct MappedAllocator {
    using value_type = T;
    static constexpr size_t kMapped = size_t{1} << 20;

    MappedAllocator() = default;
    template <class U>
    MappedAllocator(const MappedAllocator<U>&) {}

    T* allocate(size_t n) {
        const size_t bytes = n * sizeof(T);
        if (bytes < kMapped) return static_cast<T*>(::operator new(bytes));
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, size_t n) {
        const size_t bytes = n * sizeof(T);
        if (bytes < kMapped)
            ::operator delete(p);
        else
            munmap(p, bytes);
    }
    template <class U>
    bool operator==(const MappedAllocator<U>&) const {
        return true;
    }
    template <class U>
    bool operator!=(const MappedAllocator<U>&) const {
        return false;
    }
};

}  // namespace code
}  // namespace codetok
