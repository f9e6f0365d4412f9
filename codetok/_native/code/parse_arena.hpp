// One tree-sitter parse under a budget of time and memory, in an arena of its own.
//
// Some inputs make a grammar's error recovery take quadratic time and memory inside one
// parser step (``"a<" * 40000`` in Java: 80 KB of input, minutes and 19 GB, spent in
// ``ts_stack_pop_all``), where tree-sitter calls no progress callback; and its default
// allocator aborts the process when memory runs out. So every byte the tree-sitter runtime
// compiled into the extension takes comes from a ``ParseArena``: size-class slabs and large
// blocks in memory mapped for this one parse, counted as they are mapped. Past the
// budget's memory or time (checked as memory is mapped, every 4,096 allocations, and by
// the parser's progress callback), the parse leaves its arena at once (``longjmp`` out of
// the runtime's C frames; nothing of the parse is used again) and the whole arena is given
// back (its chunks kept warm for the thread's next parse); the caller gets a status, never a signal. When a parse ends normally, its tree
// lives in the arena until the walk is done, and the arena is released in one go, which is
// also cheaper than deleting the tree node by node.
//
// One arena per parse and per thread (``ArenaScope`` makes it the thread's); a thread keeps
// the chunks of its finished arenas mapped for its next one. Not here: the
// walk of the tree (code_lexer.hpp), the defaults of the budget (``ParseBudget`` in
// codetok/code/front/budget.py).
#pragma once

#ifdef CODETOK_TREE_SITTER

#include <tree_sitter/api.h>

#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace codetok {
namespace code {

// The limits of one parse; 0 means none.
struct ParseLimits {
    double seconds = 0;
    uint64_t bytes = 0;
};

enum class ParseStatus { ok, no_language, over_time, over_memory };

// What a parse used, and where it stood when stopped.
struct ParseReport {
    ParseStatus status = ParseStatus::ok;
    double seconds = 0;       // time the parse took
    uint64_t peak_bytes = 0;  // the most memory its arena held at once
    uint32_t offset = 0;      // the byte the parser had reached (stopped parses)
};

class ParseArena {
  public:
    ParseArena();
    ParseArena(const ParseArena&) = delete;
    ParseArena& operator=(const ParseArena&) = delete;
    ~ParseArena();  // unmaps everything

    void* allocate(size_t n);
    void release(void* p);
    void* resize(void* p, size_t n);

    uint64_t held() const { return held_; }
    uint64_t peak() const { return peak_; }

    // Run ``ts_parser_parse_with_options`` on a parser made in this arena (the thread's
    // current one) within ``limits``: the tree, or nullptr with ``report.status`` saying
    // why. After it returns, nothing leaves the arena by a jump any more.
    TSTree* parse(const TSLanguage* language, const char* src, uint32_t n,
                  const ParseLimits& limits, ParseReport& report);

  private:
    static constexpr int kClasses = 36;  // 16..256 by 16, then four per doubling to 8 KiB

    TSTree* run(const TSLanguage* language);  // the frame ``escape`` jumps back to
    void* allocate_large(size_t n);
    char* next_slab();
    void* map(size_t bytes);  // 64 KiB aligned and counted; past the budget it escapes
    void note_allocation();
    [[noreturn]] void escape(ParseStatus why);
    static bool progress(TSParseState* state);

    void* heads_[kClasses] = {};     // per size class: the first free block (intrusive list)
    char* bump_[kClasses] = {};      // per size class: the next unused slot of its slab
    char* bump_end_[kClasses] = {};
    char* chunk_ = nullptr;          // 1 MiB chunks, cut into 64 KiB slabs
    char* chunk_end_ = nullptr;
    std::vector<std::pair<void*, size_t>> maps_;  // every mapping (large ones leave early)
    uint64_t held_ = 0, peak_ = 0;
    // While a parse runs: past a limit, ``escape`` jumps back into ``run``.
    bool armed_ = false;
    uint64_t limit_ = 0;
    double deadline_ = 0;
    uint32_t allocations_ = 0;
    ParseStatus why_ = ParseStatus::ok;
    uint32_t offset_ = 0;
    const char* src_ = nullptr;
    uint32_t n_ = 0;
    TSParser* parser_ = nullptr;
    std::jmp_buf jump_;
};

// Makes ``arena`` the thread's current arena for its life (the runtime's allocator draws
// on it); scopes nest.
class ArenaScope {
  public:
    explicit ArenaScope(ParseArena& arena);
    ~ArenaScope();
    ArenaScope(const ArenaScope&) = delete;
    ArenaScope& operator=(const ArenaScope&) = delete;

  private:
    ParseArena* previous_;
};

// Installs the arena allocator; once, before the runtime allocates anything (module init).
void install_parse_allocator();

}  // namespace code
}  // namespace codetok

#endif  // CODETOK_TREE_SITTER
