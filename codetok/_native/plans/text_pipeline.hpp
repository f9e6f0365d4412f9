// What every native plan shares: the arrays one text becomes, the interface the Python
// binding drives (one call per text, any of Python's str storage widths), and the
// bookkeeping of an added-token match. The plans themselves: pipeline.hpp (the BPE family)
// and wordpiece_pipeline.hpp (BERT-style WordPiece).
#pragma once

#include <cstdint>
#include <memory>
#include <array>
#include <atomic>
#include <thread>
#include <vector>

#include "kernels/added.hpp"
#include "kernels/common.hpp"
#include "kernels/py_random.hpp"

namespace codetok {

// What one text (one sequence) becomes. Offsets index the caller's str (code points).
struct Encoded {
    std::vector<int32_t> ids;
    std::vector<int64_t> offsets;  // start0, end0, start1, end1, ... (when asked for)
    std::vector<int32_t> words;    // pre-tokenized piece index of each token (when asked for)
    std::vector<int64_t> added;    // token index, start, end of each added-token match
    // The strings of tokens that show their own text rather than the vocabulary's (HF's
    // Unigram shows an unknown token as the normalized text it covers): token index, start,
    // end in ``texts`` of each (when offsets are asked for).
    std::vector<int64_t> text_at;
    std::vector<Cp> texts;
    bool ok = true;                // false: the Python path decides (see each plan)
    void clear() {
        ids.clear();
        offsets.clear();
        words.clear();
        added.clear();
        text_at.clear();
        texts.clear();
        ok = true;
    }
    // Token ``token`` shows ``s[0:n]``.
    void push_text(size_t token, const Cp* s, size_t n) {
        text_at.push_back(static_cast<int64_t>(token));
        text_at.push_back(static_cast<int64_t>(texts.size()));
        texts.insert(texts.end(), s, s + n);
        text_at.push_back(static_cast<int64_t>(texts.size()));
    }
    // One normalized added-token match as token ``id``, a word of its own: the normalized
    // chars ``s[0:n]``, which came from the original chars ``[start, end)``; HF shows the
    // token as those normalized chars.
    void push_normalized_added(int32_t id, size_t start, size_t end, const Cp* s, size_t n,
                               bool want_offsets, int32_t& word) {
        const size_t token = ids.size();
        ids.push_back(id);
        if (want_offsets) {
            offsets.push_back(static_cast<int64_t>(start));
            offsets.push_back(static_cast<int64_t>(end));
            words.push_back(word);
            push_text(token, s, n);
        }
        ++word;
    }
    // One added-token match ``[start, end)`` as token ``id``: it is a word of its own.
    void push_added(int32_t id, size_t start, size_t end, bool want_offsets, int32_t& word) {
        added.push_back(static_cast<int64_t>(ids.size()));
        added.push_back(static_cast<int64_t>(start));
        added.push_back(static_cast<int64_t>(end));
        ids.push_back(id);
        if (want_offsets) {
            offsets.push_back(static_cast<int64_t>(start));
            offsets.push_back(static_cast<int64_t>(end));
            words.push_back(word);
        }
        ++word;
    }
};

// Reference: ``Tokenizer._splits``: ``out`` starts over (room for about ``expect``
// tokens), the added tokens matched on the original text ``t[0:n]`` become their tokens,
// and each stretch between them goes to ``stretch(a, b, word)``, which appends its tokens
// (``word``: the next word id, advanced by it) and returns false to stop with ``out.ok``
// false. ``segments`` is working memory.
template <class CharT, class Stretch>
void encode_around_added(const AddedMatcher& raw, const CharT* t, size_t n,
                         const std::vector<int32_t>& skip, bool want_offsets, size_t expect,
                         std::vector<AddedSegment>& segments, Encoded& out, Stretch&& stretch) {
    out.clear();
    out.ids.reserve(expect);
    if (want_offsets) {
        out.offsets.reserve(2 * expect);
        out.words.reserve(expect);
    }
    segments.clear();
    if (raw.empty())
        segments.push_back(AddedSegment{-1, 0, n});
    else
        raw.find(t, 0, n, skip, segments);
    int32_t word = 0;
    for (const AddedSegment& seg : segments) {
        if (seg.entry >= 0) {
            out.push_added(raw.entry(seg.entry).id, seg.start, seg.end, want_offsets, word);
        } else if (seg.start < seg.end && !stretch(seg.start, seg.end, word)) {
            out.ok = false;
            return;
        }
    }
}

// Reference: ``Tokenizer._splits`` behind a normalizer: the added tokens ``norm`` (their
// contents normalized) matched on the normalized chars ``text[0:m]`` of the stretch that
// starts at original index ``a`` (``src``: each char's original index from ``a``). Each
// match is a word of its own, shown as the normalized chars it matched; each non-empty
// stretch between matches goes to ``stretch(p0, p1)``, which appends its tokens and returns false
// to stop. With ``norm`` empty the whole text is one stretch. ``segments``: working memory.
template <class Stretch>
bool around_normalized_added(const AddedMatcher& norm, const Cp* text, const uint32_t* src,
                             size_t m, size_t a, const std::vector<int32_t>& skip,
                             bool want_offsets, std::vector<AddedSegment>& segments,
                             int32_t& word, Encoded& out, Stretch&& stretch) {
    if (m == 0) return true;
    if (norm.empty()) return stretch(size_t{0}, m);
    segments.clear();
    norm.find(text, 0, m, skip, segments);
    for (const AddedSegment& g : segments) {
        if (g.start == g.end) continue;
        if (g.entry < 0) {
            if (!stretch(g.start, g.end)) return false;
            continue;
        }
        out.push_normalized_added(norm.entry(g.entry).id, a + src[g.start],
                                  a + src[g.end - 1] + 1, text + g.start, g.end - g.start,
                                  want_offsets, word);
    }
    return true;
}

// A compiled plan: text ``t[0:n]`` (one unit per code point, read in place) to ``out``.
// ``skip``: sorted ids of special tokens to read as text. ``trim``: the plan's offset
// trimming mode (0: none). Implementations are thread-safe.
class TextPipeline {
  public:
    virtual ~TextPipeline() = default;
    virtual void encode(const uint8_t* t, size_t n, const std::vector<int32_t>& skip, int trim,
                        bool want_offsets, Encoded& out) const = 0;
    virtual void encode(const uint16_t* t, size_t n, const std::vector<int32_t>& skip,
                        int trim, bool want_offsets, Encoded& out) const = 0;
    virtual void encode(const uint32_t* t, size_t n, const std::vector<int32_t>& skip,
                        int trim, bool want_offsets, Encoded& out) const = 0;
    // Subword regularization, drawing from ``rng`` (set before the plan is shared): BPE
    // dropout ``p`` (pipeline.hpp), Unigram sampling ``p`` = alpha over ``nbest`` paths
    // (unigram_pipeline.hpp). False: this plan does not sample.
    virtual bool set_sampling(double p, long long nbest, std::shared_ptr<SharedRandom> rng) {
        (void)p, (void)nbest, (void)rng;
        return false;
    }
    // Whether texts draw from a generator (then a batch runs them in order on one thread,
    // so a seed gives the same draws as the Python engine).
    virtual bool samples() const { return false; }
    // Plans that know a text's token count before encoding it (one token per byte or per
    // char) encode it straight into its result's columns, with no buffer to copy out of:
    // ``direct_count`` gives that count for ``t[0:n]`` encoded with nothing skipped and no
    // trim (offsets wanted), or -1 when the text takes ``encode``; ``encode_direct`` then
    // writes its ``count`` ids, ``2 * count`` offsets and ``count`` word ids, or returns
    // false (a char has no token and there is no unknown token: ``encode`` decides).
    virtual int64_t direct_count(const uint8_t*, size_t) const { return -1; }
    virtual int64_t direct_count(const uint16_t*, size_t) const { return -1; }
    virtual int64_t direct_count(const uint32_t*, size_t) const { return -1; }
    virtual bool encode_direct(const uint8_t*, size_t, int32_t*, int64_t*, int32_t*) const {
        return false;
    }
    virtual bool encode_direct(const uint16_t*, size_t, int32_t*, int64_t*, int32_t*) const {
        return false;
    }
    virtual bool encode_direct(const uint32_t*, size_t, int32_t*, int64_t*, int32_t*) const {
        return false;
    }
};

// The three widths of ``TextPipeline::encode`` forwarded to one template,
// ``Derived::run(t, n, skip, trim, want_offsets, out)``.
template <class Derived>
class TextPipelineOf : public TextPipeline {
  public:
    void encode(const uint8_t* t, size_t n, const std::vector<int32_t>& skip, int trim,
                bool want_offsets, Encoded& out) const override {
        self().run(t, n, skip, trim, want_offsets, out);
    }
    void encode(const uint16_t* t, size_t n, const std::vector<int32_t>& skip, int trim,
                bool want_offsets, Encoded& out) const override {
        self().run(t, n, skip, trim, want_offsets, out);
    }
    void encode(const uint32_t* t, size_t n, const std::vector<int32_t>& skip, int trim,
                bool want_offsets, Encoded& out) const override {
        self().run(t, n, skip, trim, want_offsets, out);
    }

  private:
    const Derived& self() const { return static_cast<const Derived&>(*this); }
};

// Per-call working memory reused across calls and threads: a call takes one (a new one
// when all are in use) and gives it back, so a warm plan allocates nothing and each
// scratch keeps its caches.
//
// Each thread first uses its home slot (one of ``kHomes``, in turn per thread): a
// batch of short texts takes and gives a scratch per text on every thread, and through one
// shared list the threads passed its lock's cache line and their scratches (with their
// warm caches) back and forth, so two threads ran no faster than one. Two threads with
// one home share it through the list; a home left by a finished thread is taken over by
// the next thread given it, or stolen when the list is empty, so the number
// of scratches stays near the largest number of calls at once. The list's lock is a spin
// lock: it is held for a pointer move.
template <class Scratch>
class ScratchPool {
  public:
    std::unique_ptr<Scratch> take() const {
        Home& h = homes_[home_index()];
        if (!h.busy.exchange(true, std::memory_order_acquire)) {
            h.owner.store(token(), std::memory_order_relaxed);
            if (h.scratch) return std::move(h.scratch);
            return spare();
        }
        return spare();
    }
    void give(std::unique_ptr<Scratch> w) const {
        Home& h = homes_[home_index()];
        if (h.busy.load(std::memory_order_relaxed) &&
            h.owner.load(std::memory_order_relaxed) == token()) {
            h.scratch = std::move(w);
            h.owner.store(nullptr, std::memory_order_relaxed);
            h.busy.store(false, std::memory_order_release);
            return;
        }
        Lock lock(busy_);
        pool_.push_back(std::move(w));
    }

  private:
    static constexpr size_t kHomes = 8;
    struct alignas(64) Home {
        std::atomic<bool> busy{false};
        std::atomic<const void*> owner{nullptr};
        std::unique_ptr<Scratch> scratch;
    };
    // A scratch from the list, else one stolen from an idle home, else a new one.
    std::unique_ptr<Scratch> spare() const {
        {
            Lock lock(busy_);
            if (!pool_.empty()) {
                std::unique_ptr<Scratch> w = std::move(pool_.back());
                pool_.pop_back();
                return w;
            }
        }
        for (Home& other : homes_) {
            if (other.busy.exchange(true, std::memory_order_acquire)) continue;
            std::unique_ptr<Scratch> w = std::move(other.scratch);
            other.busy.store(false, std::memory_order_release);
            if (w) return w;
        }
        return std::make_unique<Scratch>();
    }
    // This thread's identity (the address of its own variable) and home.
    static const void* token() {
        static thread_local char mark;
        return &mark;
    }
    static size_t home_index() {
        // Threads in order of their first call: threads running at once get other homes.
        static std::atomic<size_t> threads{0};
        static thread_local size_t index = threads.fetch_add(1, std::memory_order_relaxed) % kHomes;
        return index;
    }
    struct Lock {
        explicit Lock(std::atomic<bool>& busy) : busy_(busy) {
            while (busy_.exchange(true, std::memory_order_acquire))
                while (busy_.load(std::memory_order_relaxed)) std::this_thread::yield();
        }
        ~Lock() { busy_.store(false, std::memory_order_release); }
        std::atomic<bool>& busy_;
    };
    mutable std::array<Home, kHomes> homes_;
    mutable std::atomic<bool> busy_{false};
    mutable std::vector<std::unique_ptr<Scratch>> pool_;
};

}  // namespace codetok
