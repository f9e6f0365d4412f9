// Native threads for batches: ``parallel_for`` spreads items over threads; ``parallel_take``
// also hands each finished item back to the calling thread (which holds a lock the workers
// must not take, such as Python's GIL) as soon as it is done. Plain C++17; ``batch_order``
// picks the order a batch's texts are worked in.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace codetok {

// The order to work through ``n`` texts of lengths ``len(k)`` in on ``threads`` threads: the
// longest first, so no thread is left with a long one at the end; but only when one text is
// long against the whole batch: otherwise source order, which keeps each thread's texts and
// results together in memory.
template <class Len>
std::vector<size_t> batch_order(size_t n, long long threads, Len&& len) {
    std::vector<size_t> order(n);
    size_t total = 0, longest = 0;
    for (size_t k = 0; k < n; ++k) {
        order[k] = k;
        total += len(k);
        longest = std::max(longest, len(k));
    }
    if (threads > 1 && longest * static_cast<size_t>(threads) * 8 > total)
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t x, size_t y) { return len(x) > len(y); });
    return order;
}

// Run ``fn(k)`` for k in [0, n) on up to ``threads`` threads (the caller's included). The
// first exception any of them throws is rethrown here, after every thread has stopped.
template <class Fn>
void parallel_for(size_t n, long long threads, Fn fn) {
    const size_t t = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(1LL, threads)), n));
    // Items are handed out in runs: with one atomic step per item, a batch of one-line texts
    // spent its time passing the counter's cache line between the threads.
    const size_t run = std::max<size_t>(1, std::min<size_t>(64, n / (t * 32)));
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto work = [&]() {
        try {
            for (size_t s = next.fetch_add(run); s < n; s = next.fetch_add(run))
                for (size_t k = s, e = std::min(n, s + run); k < e; ++k) {
                    if (failed.load(std::memory_order_relaxed)) return;
                    fn(k);
                }
        } catch (...) {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
            failed = true;  // the others stop at their next item
        }
    };
    std::vector<std::thread> pool;
    for (size_t i = 1; i < t; ++i) pool.emplace_back(work);
    work();
    for (std::thread& th : pool) th.join();
    if (error) std::rethrow_exception(error);
}

// ``work(i)`` for i in [0, n) on up to ``threads`` threads, while the calling thread,
// holding the caller's lock, runs ``take(i)`` on each item as soon as its ``work`` is done, in no
// particular order. The other threads work through runs of items; the calling thread takes
// each finished run and, when none is waiting, works on one item itself (unlocked
// when ``heavy(i)``, or the lock stays held for one short item). For batches whose items
// each become Python objects: made after every item was done, they took as long as
// encoding the batch on two threads; with a whole run of its own each time it caught up,
// the calling thread ended last. The first exception (of any ``work``, or of ``take``) is
// rethrown after every thread has stopped. ``Unlocked`` is the caller's lock guard type:
// constructing one lets the other threads take the caller's lock (for the bindings, the GIL:
// ``py::gil_scoped_release``) until it is destroyed.
template <class Unlocked, class Work, class Heavy, class Take>
void parallel_take(size_t n, long long threads, Work&& work, Heavy&& heavy, Take&& take) {
    if (n == 0) return;
    const size_t t = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(1LL, threads)), n));
    const size_t run = std::max<size_t>(1, std::min<size_t>(64, n / (t * 32)));
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex mutex;  // guards ``error`` and ``finished``
    std::vector<std::pair<size_t, size_t>> finished;  // runs done, not taken yet
    auto fail = [&](std::exception_ptr e) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!error) error = e;
        failed = true;
    };
    auto worker = [&]() {
        try {
            for (size_t s = next.fetch_add(run); s < n && !failed.load(std::memory_order_relaxed);
                 s = next.fetch_add(run)) {
                const size_t e = std::min(n, s + run);
                for (size_t i = s; i < e; ++i) work(i);
                std::lock_guard<std::mutex> lock(mutex);
                finished.emplace_back(s, e);
            }
        } catch (...) {
            fail(std::current_exception());
        }
    };
    std::vector<std::thread> pool;
    struct Joiner {  // the workers stop and are joined on every way out of this function
        std::vector<std::thread>& pool;
        std::atomic<bool>& failed;
        ~Joiner() {
            failed = true;  // a worker still running stops at its next run
            for (std::thread& th : pool)
                if (th.joinable()) th.join();
        }
    } joiner{pool, failed};
    for (size_t i = 1; i < t; ++i) pool.emplace_back(worker);
    std::vector<std::pair<size_t, size_t>> ready;
    size_t taken = 0;
    while (taken < n && !failed.load(std::memory_order_relaxed)) {
        ready.clear();
        {
            std::lock_guard<std::mutex> lock(mutex);
            ready.swap(finished);
        }
        if (!ready.empty()) {
            for (const auto& r : ready)
                for (size_t i = r.first; i < r.second; ++i) take(i);
            for (const auto& r : ready) taken += r.second - r.first;
            continue;
        }
        const size_t i = next.fetch_add(1);
        if (i < n) {  // nothing finished: one item of its own
            try {
                if (heavy(i)) {
                    Unlocked unlocked;
                    work(i);
                } else {
                    work(i);
                }
            } catch (...) {
                fail(std::current_exception());
                break;
            }
            take(i);
            ++taken;
            continue;
        }
        // Every item is someone's: wait for the others' runs, spinning (a sleeping thread
        // woke tens of microseconds late, once per run).
        Unlocked unlocked;
        for (size_t spins = 0;; ++spins) {
            {
                std::lock_guard<std::mutex> lock(mutex);
                if (!finished.empty() || failed.load(std::memory_order_relaxed)) break;
            }
            if (spins < 4096)
                std::this_thread::yield();
            else  // a long text: no need to spin through it
                std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
    }
    for (std::thread& th : pool) th.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace codetok
