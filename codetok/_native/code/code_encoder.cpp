// See code_encoder.hpp.
#include "code/code_encoder.hpp"

#ifdef CODETOK_TREE_SITTER

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>
#include <thread>

#include "kernels/threads.hpp"

namespace codetok {
namespace code {
namespace {

// Calls ``fn(units, n)`` with the text's storage as uint8_t, uint16_t or uint32_t units.
template <class Fn>
auto with_text(const TextView& v, Fn&& fn) {
    if (v.kind == 1) return fn(static_cast<const uint8_t*>(v.data), v.n);
    if (v.kind == 2) return fn(static_cast<const uint16_t*>(v.data), v.n);
    return fn(static_cast<const uint32_t*>(v.data), v.n);
}

struct Cuts {
    std::vector<int64_t> lex, off;
    std::vector<int32_t> id;
    void add(size_t i, int64_t at, int32_t marker) {
        lex.push_back(static_cast<int64_t>(i));
        off.push_back(at);
        id.push_back(marker);
    }
};

// Reference: ``_doc_cuts`` (codetok/code/routing/native.py): the section headers of every
// docstring lexeme, in lexeme order; ASCII ones found here, the others by the Python
// scanner. False: the Python scanner failed.
template <class CharT>
bool doc_cuts(const EncodePlan& p, const CharT* text, const LexColumns& c, Cuts& cuts) {
    std::string scratch;
    std::vector<std::pair<int64_t, int32_t>> found;
    std::vector<Cp> chars;
    for (size_t i = 0; i < c.kinds.size(); ++i) {
        if (c.kinds[i] != kDocstring) continue;
        const auto s = static_cast<size_t>(c.cs[i]);
        const auto e = static_cast<size_t>(c.tiled ? c.cs[i + 1] : c.ce[i]);
        found.clear();
        if (p.sections->find(text + s, e - s, scratch, found)) {
            for (const auto& [at, code] : found) cuts.add(i, at, p.section_ids.at(code));
            continue;
        }
        chars.assign(text + s, text + e);
        if (!p.section_fallback(p.section_ctx, chars.data(), chars.size(), found)) return false;
        for (const auto& [at, marker] : found) cuts.add(i, at, marker);
    }
    return true;
}

}  // namespace

void encode_file(const EncodeJob& job, EncodeOutput& out) {
    const EncodePlan& p = *job.plan;
    WalkResult walked;
    if (!walk_source(job.language, job.data + job.base, static_cast<uint32_t>(job.size - job.base),
                     *p.walk, job.limits, walked, out.report)) {
        out.status = EncodeStatus::no_tree;
        return;
    }
    LexColumns& c = out.columns;
    c.with_lines = false;  // what the encoding needs not: ``Lexemes`` works them out if read
    if (!build_columns(walked, *p.walk, *p.columns, job.data, job.size, job.base, job.text,
                       p.callbacks, c)) {
        out.status = EncodeStatus::failed;
        return;
    }
    out.has_error = walked.has_error;
    walked = WalkResult();  // the records, no longer needed, before the tokens grow
    c.tile(static_cast<int64_t>(job.size), static_cast<int64_t>(job.text.n));
    const bool ok = with_text(job.text, [&](const auto* t, size_t n) {
        Cuts cuts;
        if (p.sections != nullptr && !doc_cuts(p, t, c, cuts)) return false;
        const int64_t* ends = c.tiled ? c.cs.data() + 1 : c.ce.data();
        const LexemeView lx{c.kinds.data(), c.cs.data(), ends, c.kinds.size()};
        const DocCuts dc{cuts.lex.data(), cuts.off.data(), cuts.id.data(), cuts.lex.size()};
        out.routed.lean = true;
        return p.router->run(t, n, job.text.from_bytes, lx, dc, p.split, p.split_ctx, out.routed);
    });
    out.status = ok ? EncodeStatus::ok : EncodeStatus::failed;
}

void encode_files(const EncodeJob* jobs, size_t count, size_t threads, EncodeOutput* outs,
                  const std::function<void()>& enter, const std::function<void()>& leave,
                  const std::function<void(size_t)>& failed) {
    for (size_t k = 0; k < count; ++k) outs[k].status = EncodeStatus::skipped;
    threads = std::max<size_t>(1, std::min(threads, count));
    // The longest files first when one is long against the batch (no thread is left with
    // it at the end); else source order.
    const std::vector<size_t> order = batch_order(
        count, static_cast<long long>(threads), [&](size_t k) { return jobs[k].size; });
    std::atomic<size_t> next{0};
    std::atomic<size_t> stop{count};  // the first file (in source order) that failed so far
    auto work = [&] {
        for (;;) {
            const size_t at = next.fetch_add(1, std::memory_order_relaxed);
            if (at >= count) return;
            const size_t k = order[at];
            if (k > stop.load(std::memory_order_relaxed)) continue;
            EncodeOutput& out = outs[k];
            out.status = EncodeStatus::failed;
            try {
                encode_file(jobs[k], out);
            } catch (const std::exception& e) {  // the router's own checks
                out.status = EncodeStatus::failed;
                out.report.status = ParseStatus::ok;
                out.error = e.what();
            }
            if (out.status == EncodeStatus::ok) continue;
            if (out.status == EncodeStatus::failed && out.error.empty()) failed(k);
            size_t seen = stop.load(std::memory_order_relaxed);
            while (k < seen && !stop.compare_exchange_weak(seen, k)) {
            }
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (size_t t = 1; t < threads; ++t)
        pool.emplace_back([&] {
            enter();
            work();
            leave();
        });
    work();
    for (std::thread& t : pool) t.join();
}

}  // namespace code
}  // namespace codetok

#endif  // CODETOK_TREE_SITTER
