// See parse_arena.hpp.
#include "code/parse_arena.hpp"

#ifdef CODETOK_TREE_SITTER

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace codetok {
namespace code {
namespace {

constexpr size_t kSlab = size_t{1} << 16;   // 64 KiB, aligned: a block's slab is its address
constexpr size_t kChunk = size_t{1} << 20;  // slabs are mapped 16 at a time
constexpr size_t kHeader = 64;              // a slab's (or large block's) header
constexpr size_t kMaxSmall = 8192;

// The start of every slab and of every large block.
struct SlabHeader {
    uint32_t cls;      // size class, or kLarge
    uint32_t index;    // large blocks: their entry in ``maps_``
    size_t bytes;      // large blocks: the mapped size
};
constexpr uint32_t kLarge = UINT32_MAX;

inline SlabHeader* header_of(void* p) {
    return reinterpret_cast<SlabHeader*>(reinterpret_cast<uintptr_t>(p) & ~(kSlab - 1));
}

// Size classes: 16, 32, ..., 256, then four per doubling: 320, 384, 448, 512, 640, ...
inline int class_of(size_t n) {
    if (n <= 256) return n == 0 ? 0 : static_cast<int>((n - 1) >> 4);
    const int k = 63 - __builtin_clzll(static_cast<unsigned long long>(n - 1));  // 2^k < n
    return 16 + (k - 8) * 4 + static_cast<int>((n - 1 - (size_t{1} << k)) >> (k - 2));
}

inline size_t class_size(int c) {
    if (c < 16) return static_cast<size_t>(c + 1) << 4;
    const int j = c - 16, k = 8 + j / 4;
    return (size_t{1} << k) + static_cast<size_t>(j % 4 + 1) * (size_t{1} << (k - 2));
}

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Maps ``bytes`` (a multiple of the page size) at a 64 KiB aligned address, or nullptr.
void* map_aligned(size_t bytes) {
    const size_t want = bytes + kSlab;
    void* raw = mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (start + kSlab - 1) & ~(kSlab - 1);
    if (aligned > start) munmap(raw, aligned - start);
    const uintptr_t end = start + want, used = aligned + bytes;
    if (end > used) munmap(reinterpret_cast<void*>(used), end - used);
    return reinterpret_cast<void*>(aligned);
}

size_t page_size() {
    static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return page;
}

thread_local ParseArena* t_arena = nullptr;

// A thread's warm chunks: the chunks of its finished arenas, kept mapped for its next parse
// (their pages are already faulted in, which a fresh mapping pays for page by page: a
// tenth of a parse's time), up to ``kKeptChunks``; given back when the thread ends.
constexpr size_t kKeptChunks = 8;

struct ChunkCache {
    std::vector<char*> chunks;
    ~ChunkCache() {
        for (char* c : chunks) munmap(c, kChunk);
    }
};

ChunkCache& chunk_cache() {
    thread_local ChunkCache cache;
    return cache;
}

// Tree-sitter used outside any scope (nothing in codetok does) draws on a thread's own
// arena that lives as long as the thread.
ParseArena& current() {
    if (t_arena != nullptr) return *t_arena;
    thread_local ParseArena ambient;
    return ambient;
}

void* arena_malloc(size_t n) { return current().allocate(n); }

void* arena_calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) {
        std::fprintf(stderr, "tree-sitter asked for %zu blocks of %zu bytes\n", count, size);
        std::abort();
    }
    void* p = current().allocate(count * size);
    std::memset(p, 0, count * size);
    return p;
}

void* arena_realloc(void* p, size_t n) { return current().resize(p, n); }

void arena_free(void* p) { current().release(p); }

}  // namespace

// Touching the thread's chunk cache first makes it outlive every arena of the thread
// (thread_local objects end in the reverse order they were made).
ParseArena::ParseArena() { chunk_cache(); }

ParseArena::~ParseArena() {
    std::vector<char*>& kept = chunk_cache().chunks;
    for (const auto& m : maps_) {
        if (m.first == nullptr) continue;
        if (m.second == kChunk && kept.size() < kKeptChunks)
            kept.push_back(static_cast<char*>(m.first));
        else
            munmap(m.first, m.second);
    }
}

void* ParseArena::map(size_t bytes) {
    if (armed_ && limit_ && held_ + bytes > limit_) escape(ParseStatus::over_memory);
    std::vector<char*>& kept = chunk_cache().chunks;
    void* p = nullptr;
    if (bytes == kChunk && !kept.empty()) {
        p = kept.back();
        kept.pop_back();
    } else {
        p = map_aligned(bytes);
    }
    if (p == nullptr) {
        if (armed_) escape(ParseStatus::over_memory);
        // Outside a parse, as tree-sitter's own allocator: its callers cannot go on.
        std::fprintf(stderr, "tree-sitter failed to allocate %zu bytes\n", bytes);
        std::abort();
    }
    maps_.emplace_back(p, bytes);
    held_ += bytes;
    if (held_ > peak_) peak_ = held_;
    return p;
}

char* ParseArena::next_slab() {
    if (chunk_ == chunk_end_) {
        chunk_ = static_cast<char*>(map(kChunk));
        chunk_end_ = chunk_ + kChunk;
    }
    char* slab = chunk_;
    chunk_ += kSlab;
    return slab;
}

void ParseArena::note_allocation() {
    if (armed_ && deadline_ > 0 && (++allocations_ & 4095) == 0 && now_seconds() > deadline_)
        escape(ParseStatus::over_time);
}

void* ParseArena::allocate(size_t n) {
    if (n > kMaxSmall) return allocate_large(n);
    note_allocation();
    const int c = class_of(n);
    if (void* p = heads_[c]) {
        heads_[c] = *static_cast<void**>(p);
        return p;
    }
    const size_t size = class_size(c);
    if (bump_[c] == nullptr || bump_[c] + size > bump_end_[c]) {
        char* slab = next_slab();
        reinterpret_cast<SlabHeader*>(slab)->cls = static_cast<uint32_t>(c);
        bump_[c] = slab + kHeader;
        bump_end_[c] = slab + kSlab;
    }
    void* p = bump_[c];
    bump_[c] += size;
    return p;
}

void* ParseArena::allocate_large(size_t n) {
    note_allocation();
    const size_t page = page_size();
    const size_t bytes = (n + kHeader + page - 1) / page * page;
    auto* h = static_cast<SlabHeader*>(map(bytes));
    h->cls = kLarge;
    h->index = static_cast<uint32_t>(maps_.size() - 1);
    h->bytes = bytes;
    return reinterpret_cast<char*>(h) + kHeader;
}

void ParseArena::release(void* p) {
    if (p == nullptr) return;
    SlabHeader* h = header_of(p);
    if (h->cls == kLarge) {
        const size_t bytes = h->bytes;
        maps_[h->index] = {nullptr, 0};
        munmap(h, bytes);
        held_ -= bytes;
        return;
    }
    *static_cast<void**>(p) = heads_[h->cls];
    heads_[h->cls] = p;
}

void* ParseArena::resize(void* p, size_t n) {
    if (p == nullptr) return allocate(n);
    const SlabHeader* h = header_of(p);
    const bool large = h->cls == kLarge;
    const size_t old = large ? h->bytes - kHeader : class_size(static_cast<int>(h->cls));
    if (!large && n <= kMaxSmall && class_of(n) == static_cast<int>(h->cls)) return p;
    if (large && n <= old && n > old / 2) return p;
    void* q = allocate(n);
    std::memcpy(q, p, n < old ? n : old);
    release(p);
    return q;
}

void ParseArena::escape(ParseStatus why) {
    why_ = why;
    armed_ = false;
    std::longjmp(jump_, 1);
}

bool ParseArena::progress(TSParseState* state) {
    auto* a = static_cast<ParseArena*>(state->payload);
    a->offset_ = state->current_byte_offset;
    if (a->limit_ && a->held_ > a->limit_) {
        a->why_ = ParseStatus::over_memory;
        return true;
    }
    if (a->deadline_ > 0 && now_seconds() > a->deadline_) {
        a->why_ = ParseStatus::over_time;
        return true;
    }
    return false;
}

// The only frame between a parse and ``escape``'s jump with anything of C++ in it: it holds
// nothing that needs destroying, and reads only members after the jump.
TSTree* ParseArena::run(const TSLanguage* language) {
    if (setjmp(jump_) != 0) return nullptr;  // escaped: ``why_`` says why
    armed_ = true;
    parser_ = ts_parser_new();
    TSTree* tree = nullptr;
    if (ts_parser_set_language(parser_, language)) {
        struct Reader {
            static const char* read(void* payload, uint32_t byte, TSPoint, uint32_t* got) {
                const auto* a = static_cast<const ParseArena*>(payload);
                *got = byte < a->n_ ? a->n_ - byte : 0;
                return byte < a->n_ ? a->src_ + byte : "";
            }
        };
        const TSInput input{this, Reader::read, TSInputEncodingUTF8, nullptr};
        const bool checked = limit_ != 0 || deadline_ > 0;
        const TSParseOptions options{this, checked ? progress : nullptr};
        tree = ts_parser_parse_with_options(parser_, nullptr, input, options);
    } else {
        why_ = ParseStatus::no_language;
    }
    armed_ = false;
    ts_parser_delete(parser_);  // runs the grammar's scanner destructor (its own malloc)
    parser_ = nullptr;
    return tree;
}

TSTree* ParseArena::parse(const TSLanguage* language, const char* src, uint32_t n,
                          const ParseLimits& limits, ParseReport& report) {
    const double start = now_seconds();
    limit_ = limits.bytes ? held_ + limits.bytes : 0;
    deadline_ = limits.seconds > 0 ? start + limits.seconds : 0;
    allocations_ = 0;
    why_ = ParseStatus::ok;
    offset_ = 0;
    src_ = src;
    n_ = n;
    TSTree* tree = run(language);
    // A jump left the parser mid-step: its blocks are dropped with the arena, never used.
    parser_ = nullptr;
    limit_ = 0;
    deadline_ = 0;
    report.seconds = now_seconds() - start;
    report.peak_bytes = peak_;
    report.offset = offset_;
    report.status = tree != nullptr ? ParseStatus::ok : why_;
    if (tree == nullptr && report.status == ParseStatus::ok)
        report.status = ParseStatus::no_language;  // no tree, for no reason of ours
    return tree;
}

ArenaScope::ArenaScope(ParseArena& arena) : previous_(t_arena) { t_arena = &arena; }

ArenaScope::~ArenaScope() { t_arena = previous_; }

void install_parse_allocator() {
    ts_set_allocator(arena_malloc, arena_calloc, arena_realloc, arena_free);
}

}  // namespace code
}  // namespace codetok

#endif  // CODETOK_TREE_SITTER
