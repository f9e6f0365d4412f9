// A growing array kept in fixed blocks: appending never moves what is there, so growth has
// no doubling slack and no moment where the old and the new copy are both held. The per-
// token outputs of the code router use it (a 10 MB file gives millions of tokens, and a
// ``std::vector`` of them peaked at up to three times their size while it grew); the
// caller copies the blocks out once, into the array it returns, freeing each block as it
// is copied.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace codetok {

template <class T>
class Chunked {
  public:
    static constexpr size_t kBlock = size_t{1} << 16;  // elements per block

    size_t size() const { return size_; }

    void push_back(T v) {
        if (size_ == blocks_.size() * kBlock) blocks_.emplace_back(new T[kBlock]);
        blocks_.back()[size_ % kBlock] = v;
        ++size_;
    }

    void append(const T* v, size_t n) {
        for (size_t k = 0; k < n; ++k) push_back(v[k]);
    }

    void append_n(size_t n, T v) {
        for (size_t k = 0; k < n; ++k) push_back(v);
    }

    // Copies every element, in order, to ``out`` (converted to ``U``), freeing each block
    // once it is copied; the array is empty after.
    template <class U>
    void move_to(U* out) {
        size_t done = 0;
        for (auto& block : blocks_) {
            const size_t n = size_ - done < kBlock ? size_ - done : kBlock;
            for (size_t k = 0; k < n; ++k) out[done + k] = static_cast<U>(block[k]);
            done += n;
            block.reset();
        }
        blocks_.clear();
        size_ = 0;
    }

  private:
    std::vector<std::unique_ptr<T[]>> blocks_;
    size_t size_ = 0;
};

}  // namespace codetok
