// See bpe.hpp. The comments name the reference function each block mirrors.
#include "kernels/bpe.hpp"

#include <algorithm>
#include <queue>
#include <stdexcept>

namespace codetok {

namespace {
// Below this many symbols a rescan per merge is used (reference: ``_SCAN_LIMIT``).
constexpr size_t kScanLimit = 24;

int hex_digit(Cp c) {
    if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
    if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
    return -1;  // the reference spells byte tokens with upper-case hex only
}

bool has_affix(const Cp* s, size_t n, const std::vector<Cp>& pre, const std::vector<Cp>& suf) {
    if (n != pre.size() + 1 + suf.size()) return false;
    return std::equal(pre.begin(), pre.end(), s) &&
           std::equal(suf.begin(), suf.end(), s + pre.size() + 1);
}
}  // namespace

BpeKernel::BpeKernel(BpeOptions opts) : opts_(std::move(opts)) { byte_ids_.fill(-1); }

void BpeKernel::add_token(const Cp* s, size_t n, int32_t id, bool whole) {
    static const std::vector<Cp> none;
    for (int v = 0; v < 4; ++v) {
        if ((v & 1) && opts_.prefix.empty()) continue;
        if ((v & 2) && opts_.suffix.empty()) continue;
        const std::vector<Cp>& pre = (v & 1) ? opts_.prefix : none;
        const std::vector<Cp>& suf = (v & 2) ? opts_.suffix : none;
        if (!has_affix(s, n, pre, suf)) continue;
        Cp c = s[pre.size()];
        if (c < kDense)
            chars_[v].dense[c] = id;
        else
            chars_[v].sparse[c] = id;
    }
    // "<0xNN>" byte tokens.
    if (n == 6 && s[0] == '<' && s[1] == '0' && s[2] == 'x' && s[5] == '>') {
        int hi = hex_digit(s[3]);
        int lo = hex_digit(s[4]);
        if (hi >= 0 && lo >= 0) byte_ids_[hi * 16 + lo] = id;
    }
    if (opts_.ignore_merges && whole) vocab_.insert(s, n, StrMap::Entry{id, 0}, true);
}

// Reference: ``word_symbols``.
void BpeKernel::symbols(const Cp* s, size_t n, std::vector<int32_t>& ids,
                        std::vector<int64_t>& lens) const {
    const bool has_prefix = !opts_.prefix.empty();
    const bool has_suffix = !opts_.suffix.empty();
    const int32_t unk_id = opts_.unk_id;
    int64_t unk_len = 0;
    std::vector<uint8_t> bytes;
    for (size_t i = 0; i < n; ++i) {
        const Cp c = s[i];
        const int blen = utf8_len(c);
        const bool p = has_prefix && i > 0;
        const bool x = has_suffix && i + 1 == n;
        const int variant = (p ? 1 : 0) | (x ? 2 : 0);
        const int32_t tid = char_id(variant, c);
        if (tid >= 0) {
            if (unk_len) {
                ids.push_back(unk_id);
                lens.push_back(unk_len);
                unk_len = 0;
            }
            ids.push_back(tid);
            lens.push_back(blen);
            continue;
        }
        if (opts_.byte_fallback) {
            bytes.clear();
            if (p)
                for (Cp q : opts_.prefix) utf8_append(q, bytes);
            utf8_append(c, bytes);
            if (x)
                for (Cp q : opts_.suffix) utf8_append(q, bytes);
            bool all = true;
            for (uint8_t b : bytes)
                if (byte_ids_[b] < 0) {
                    all = false;
                    break;
                }
            if (all) {
                for (uint8_t b : bytes) {
                    ids.push_back(byte_ids_[b]);
                    lens.push_back(1);
                }
                continue;
            }
        }
        if (unk_id == -1) continue;
        if (unk_len && !opts_.fuse_unk) {
            ids.push_back(unk_id);
            lens.push_back(unk_len);
            unk_len = 0;
        }
        unk_len += blen;
    }
    if (unk_len) {
        ids.push_back(unk_id);
        lens.push_back(unk_len);
    }
}

// Reference: ``_merge_scan``. The rank of each adjacent pair is looked up once and kept;
// a merge only looks up the two pairs it changes.
void BpeKernel::merge_scan(std::vector<int32_t>& c, std::vector<int64_t>& ln) const {
    constexpr int32_t kNone = INT32_MAX;
    std::array<int32_t, kScanLimit> rank, made;
    auto look = [&](size_t i) {
        const PairMap::Merge* m = merges_.find(c[i], c[i + 1]);
        rank[i] = m != nullptr ? m->rank : kNone;
        made[i] = m != nullptr ? m->new_id : 0;
    };
    size_t n = c.size();
    for (size_t i = 0; i + 1 < n; ++i) look(i);
    while (n > 1) {
        size_t best = 0;
        for (size_t i = 1; i + 1 < n; ++i)
            if (rank[i] < rank[best]) best = i;
        if (rank[best] == kNone) break;
        c[best] = made[best];
        ln[best] += ln[best + 1];
        for (size_t i = best + 1; i + 1 < n; ++i) {
            c[i] = c[i + 1];
            ln[i] = ln[i + 1];
        }
        for (size_t i = best + 1; i + 2 < n; ++i) {
            rank[i] = rank[i + 1];
            made[i] = made[i + 1];
        }
        --n;
        if (best + 1 < n) look(best);
        if (best > 0) look(best - 1);
    }
    c.resize(n);
    ln.resize(n);
}

// Reference: ``_merge_heap`` (``rng`` null: without dropout). A heap entry is one word, rank in the high
// half and position in the low half, so the lowest rank and then the leftmost come first.
void BpeKernel::merge_heap(std::vector<int32_t>& c, std::vector<int64_t>& ln, double dropout,
                           PyRandom* rng) const {
    const int64_t n = static_cast<int64_t>(c.size());
    if (n > INT32_MAX) throw std::length_error("a piece of more than 2**31 symbols");
    std::vector<int32_t> nxt(static_cast<size_t>(n)), prv(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        nxt[i] = i + 1 < n ? static_cast<int32_t>(i + 1) : -1;
        prv[i] = static_cast<int32_t>(i - 1);
    }
    auto item = [](int32_t rank, int64_t pos) {
        return (static_cast<uint64_t>(static_cast<uint32_t>(rank)) << 32) | static_cast<uint64_t>(pos);
    };
    std::vector<uint64_t> init;
    init.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i + 1 < n; ++i) {
        const PairMap::Merge* m = merges_.find(c[i], c[i + 1]);
        if (m != nullptr) init.push_back(item(m->rank, i));
    }
    std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> heap(
        std::greater<uint64_t>(), std::move(init));
    std::vector<uint64_t> skipped;
    const bool use_dropout = dropout > 0.0 && rng != nullptr;
    while (!heap.empty()) {
        const uint64_t top = heap.top();
        heap.pop();
        if (use_dropout) {  // one draw per pop, stale entries included (as the reference)
            if (rng->random() < dropout) {
                skipped.push_back(top);
                continue;
            }
            for (uint64_t again : skipped) heap.push(again);
            skipped.clear();
        }
        const int64_t pos = static_cast<int64_t>(top & 0xFFFFFFFFu);
        const int32_t rank = static_cast<int32_t>(top >> 32);
        if (ln[pos] == 0) continue;
        const int64_t right = nxt[pos];
        if (right == -1) continue;
        const PairMap::Merge* m = merges_.find(c[pos], c[right]);
        if (m == nullptr || m->rank != rank) continue;  // stale entry
        const int32_t new_id = m->new_id;
        c[pos] = new_id;
        ln[pos] += ln[right];
        ln[right] = 0;
        const int32_t after = nxt[right];
        nxt[pos] = after;
        if (after != -1) prv[after] = static_cast<int32_t>(pos);
        const int32_t before = prv[pos];
        if (before >= 0) {
            const PairMap::Merge* mb = merges_.find(c[before], new_id);
            if (mb != nullptr) heap.push(item(mb->rank, before));
        }
        if (after != -1) {
            const PairMap::Merge* ma = merges_.find(new_id, c[after]);
            if (ma != nullptr) heap.push(item(ma->rank, pos));
        }
    }
    size_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (ln[i] == 0) continue;
        c[k] = c[i];
        ln[k] = ln[i];
        ++k;
    }
    c.resize(k);
    ln.resize(k);
}

void BpeKernel::merge(std::vector<int32_t>& ids, std::vector<int64_t>& lens) const {
    if (ids.size() <= 1) return;
    if (ids.size() <= kScanLimit)
        merge_scan(ids, lens);
    else
        merge_heap(ids, lens, 0.0, nullptr);
}

void BpeKernel::merge(std::vector<int32_t>& ids, std::vector<int64_t>& lens, double dropout,
                      PyRandom& rng) const {
    if (ids.size() < 2) return;
    if (dropout <= 0.0) return merge(ids, lens);
    merge_heap(ids, lens, dropout, &rng);
}

void BpeKernel::encode(const Cp* s, size_t n, double dropout, PyRandom& rng,
                       BpeOutput& out) const {
    if (n == 0) return;
    std::vector<int32_t> ids;
    std::vector<int64_t> lens;
    ids.reserve(n);
    lens.reserve(n);
    symbols(s, n, ids, lens);
    merge(ids, lens, dropout, rng);
    append_spans(s, n, ids, lens, out);
}

// Reference: ``BpeCore.encode`` (symbols, merge, then ``char_spans``).
void BpeKernel::encode(const Cp* s, size_t n, BpeOutput& out) const {
    if (n == 0) return;
    if (opts_.ignore_merges) {
        const StrMap::Entry* e = vocab_.find(s, n);
        if (e != nullptr) {
            out.ids.push_back(e->value);
            out.spans.push_back(0);
            out.spans.push_back(static_cast<int64_t>(n));
            return;
        }
    }
    std::vector<int32_t> ids;
    std::vector<int64_t> lens;
    ids.reserve(n);
    lens.reserve(n);
    symbols(s, n, ids, lens);
    merge(ids, lens);
    append_spans(s, n, ids, lens, out);
}

void BpeKernel::append_spans(const Cp* s, size_t n, const std::vector<int32_t>& ids,
                             const std::vector<int64_t>& lens, BpeOutput& out) {
    // Byte lengths -> char spans (reference: ``char_spans``). A token covering part of a
    // char gets the whole char; spans past the end are clamped to the piece.
    const int64_t nc = static_cast<int64_t>(n);
    int64_t nb = 0;
    bool ascii = true;
    for (size_t i = 0; i < n; ++i) {
        const int b = utf8_len(s[i]);
        nb += b;
        if (b != 1) ascii = false;
    }
    out.ids.insert(out.ids.end(), ids.begin(), ids.end());
    int64_t pos = 0;
    if (ascii) {
        for (int64_t len : lens) {
            const int64_t end = pos + len;
            out.spans.push_back(pos < nc ? pos : nc);
            out.spans.push_back(end < nc ? end : nc);
            pos = end;
        }
        return;
    }
    std::vector<int64_t> byte_to_char;
    byte_to_char.reserve(static_cast<size_t>(nb));
    for (size_t i = 0; i < n; ++i)
        for (int b = utf8_len(s[i]); b > 0; --b) byte_to_char.push_back(static_cast<int64_t>(i));
    for (int64_t len : lens) {
        const int64_t end = pos + len;
        const int64_t start_c = pos < nb ? byte_to_char[pos] : nc;
        int64_t end_c;
        if (end > 0 && end <= nb)
            end_c = byte_to_char[end - 1] + 1;
        else
            end_c = end > nb ? nc : start_c;
        out.spans.push_back(start_c);
        out.spans.push_back(end_c);
        pos = end;
    }
}

}  // namespace codetok
