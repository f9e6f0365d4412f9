// Blocks of work on threads, with results combined in block order.
//
// A pass over many items (words, pieces) is cut into blocks. Threads take blocks in turn and
// compute each into a result buffer; the buffers are then merged one at a time in block
// order, whichever thread finished them. A float sum built by the merges is therefore the
// same on any number of threads (the training kernels rely on this). Not handled here: the
// GIL (the caller releases it; ``tick`` may take it back on the calling thread).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace codetok {

// Cut ``items`` (anything with ``size()`` and ``len(i)``) into blocks of consecutive items
// of about ``chars`` chars: block b is [starts[b], starts[b + 1]).
template <class Items>
std::vector<size_t> block_starts(const Items& items, size_t chars) {
    std::vector<size_t> starts{0};
    size_t run = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        run += items.len(i) + 1;
        if (run >= chars) {
            starts.push_back(i + 1);
            run = 0;
        }
    }
    if (starts.back() != items.size()) starts.push_back(items.size());
    return starts;
}

// Run ``work(block, out, scratch)`` for blocks 0..n-1 on up to ``threads`` threads (the
// calling one included), then ``merge(block, out)`` for each block in increasing order,
// one at a time. ``Out`` buffers are reused (``work`` must reset the one it gets);
// ``Scratch`` is one per thread. On the calling thread, ``tick()`` runs between blocks at
// most every 100 ms; when it returns false the pass stops and ordered_blocks returns false.
// An exception in ``work`` or ``merge`` stops the pass and is rethrown.
template <class Out, class Scratch, class Work, class Merge>
bool ordered_blocks(size_t n, size_t threads, Work&& work, Merge&& merge,
                    const std::function<bool()>& tick) {
    const size_t t = std::max<size_t>(1, std::min(threads, n));
    std::mutex mu;
    std::vector<std::unique_ptr<Out>> ready(n);
    std::vector<std::unique_ptr<Out>> pool;
    size_t next_merge = 0;
    std::atomic<size_t> next{0};
    std::atomic<bool> stop{false};
    std::exception_ptr error;
    bool stopped = false;
    auto run = [&](bool caller) {
        Scratch scratch;
        std::unique_ptr<Out> out;
        auto last = std::chrono::steady_clock::now();
        try {
            for (size_t b = next.fetch_add(1); b < n; b = next.fetch_add(1)) {
                if (stop.load(std::memory_order_relaxed)) return;
                if (!out) {
                    std::lock_guard<std::mutex> lock(mu);
                    if (!pool.empty()) {
                        out = std::move(pool.back());
                        pool.pop_back();
                    }
                }
                if (!out) out = std::make_unique<Out>();
                work(b, *out, scratch);
                {
                    std::lock_guard<std::mutex> lock(mu);
                    ready[b] = std::move(out);
                    while (next_merge < n && ready[next_merge]) {
                        merge(next_merge, *ready[next_merge]);
                        pool.push_back(std::move(ready[next_merge]));
                        ++next_merge;
                    }
                }
                if (caller) {
                    const auto now = std::chrono::steady_clock::now();
                    if (now - last >= std::chrono::milliseconds(100)) {
                        last = now;
                        if (!tick()) {
                            stopped = true;
                            stop = true;
                            return;
                        }
                    }
                }
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(mu);
            if (!error) error = std::current_exception();
            stop = true;
        }
    };
    std::vector<std::thread> pool_threads;
    for (size_t i = 1; i < t; ++i) pool_threads.emplace_back(run, false);
    run(true);
    for (std::thread& th : pool_threads) th.join();
    if (error) std::rethrow_exception(error);
    return !stopped;
}

}  // namespace codetok
