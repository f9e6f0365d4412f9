// See normalize.hpp. Comments name the Python function each block mirrors.
#include "kernels/normalize.hpp"

#include <algorithm>

namespace codetok {

namespace {

// Reference: ``_pinned_nfd`` then the deletion of ``_pinned().mark`` in
// ``BertNormalizer.normalize``: each char
// becomes its decomposition, its first char keeps the char's place and the others are
// insertions; runs of non-starters are stably sorted by combining class (an insertion
// moves with its char); then an original place aligns to the next unconsumed original
// char and an insertion to the last consumed one; non-spacing marks go.
void strip_accents(NormalizedText& io) {
    std::vector<Cp>& seq = io.tmp_text;
    std::vector<uint8_t>& inserted = io.tmp_inserted;
    seq.clear();
    inserted.clear();
    Cp d[bert::kMaxDecomposition];
    bool any = false;
    for (Cp c : io.text) {
        if (c >= 0x80 && (bert::flags(c) & (bert::kDecomposes | bert::kCombining | bert::kMark)))
            any = true;
        const size_t m = c < 0x80 || !(bert::flags(c) & bert::kDecomposes) ? (d[0] = c, 1)
                                                                           : bert::decompose(c, d);
        for (size_t k = 0; k < m; ++k) {
            seq.push_back(d[k]);
            inserted.push_back(k > 0);
        }
    }
    if (!any) return;
    // Canonical ordering.
    const size_t n = seq.size();
    for (size_t i = 0; i < n;) {
        if (seq[i] < 0x80 || bert::combining_class(seq[i]) == 0) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < n && seq[j] >= 0x80 && bert::combining_class(seq[j]) != 0) ++j;
        if (j - i > 1) {
            std::vector<size_t> order(j - i);
            for (size_t k = 0; k < order.size(); ++k) order[k] = i + k;
            std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
                return bert::combining_class(seq[x]) < bert::combining_class(seq[y]);
            });
            std::vector<Cp> c2(order.size());
            std::vector<uint8_t> i2(order.size());
            for (size_t k = 0; k < order.size(); ++k) {
                c2[k] = seq[order[k]];
                i2[k] = inserted[order[k]];
            }
            std::copy(c2.begin(), c2.end(), seq.begin() + static_cast<std::ptrdiff_t>(i));
            std::copy(i2.begin(), i2.end(), inserted.begin() + static_cast<std::ptrdiff_t>(i));
        }
        i = j;
    }
    // Alignment, then the marks go.
    std::vector<uint32_t>& src = io.tmp_src;
    src.clear();
    const std::vector<uint32_t>& old = io.src;
    size_t pos = 0;
    io.text.clear();
    for (size_t k = 0; k < n; ++k) {
        uint32_t s;
        if (!inserted[k]) {
            s = old[pos++];
        } else {
            s = pos > 0 ? old[pos - 1] : old[0];
        }
        const Cp c = seq[k];
        if (c >= 0x80 && (bert::flags(c) & bert::kMark)) continue;
        io.text.push_back(c);
        src.push_back(s);
    }
    io.src.swap(src);
}

// Reference: ``_lower_chars`` (per char, no final-sigma context).
void lowercase(NormalizedText& io) {
    bool expands = false;
    for (Cp& c : io.text) {
        if (c < 0x80) {
            if (c >= 'A' && c <= 'Z') c += 32;
            continue;
        }
        if (!(bert::flags(c) & bert::kLowers)) continue;
        Cp low[bert::kMaxLower];
        if (bert::lower(c, low) != 1) {
            expands = true;
            continue;
        }
        c = low[0];
    }
    if (!expands) return;
    std::vector<Cp>& text = io.tmp_text;
    std::vector<uint32_t>& src = io.tmp_src;
    text.clear();
    src.clear();
    for (size_t k = 0; k < io.text.size(); ++k) {
        const Cp c = io.text[k];
        if (c < 0x80 || !(bert::flags(c) & bert::kLowers)) {
            text.push_back(c);
            src.push_back(io.src[k]);
            continue;
        }
        Cp low[bert::kMaxLower];
        const size_t m = bert::lower(c, low);
        for (size_t q = 0; q < m; ++q) {
            text.push_back(low[q]);
            src.push_back(io.src[k]);
        }
    }
    io.text.swap(text);
    io.src.swap(src);
}

}  // namespace

// Reference: ``BertNormalizer.normalize`` (``_clean``, the CJK transform, then the two
// steps above).
template <class CharT>
void bert_normalize(const BertNormalizerSpec& spec, const CharT* t, size_t a, size_t b,
                    NormalizedText& out) {
    out.clear();
    out.text.reserve(b - a);
    out.src.reserve(b - a);
    bool ascii = true;
    for (size_t i = a; i < b; ++i) {
        Cp c = t[i];
        const auto at = static_cast<uint32_t>(i - a);
        uint8_t f = bert::flags(c);
        if (c >= 0x80) ascii = false;
        if (spec.clean_text) {
            if (f & bert::kDrop) continue;
            if (f & bert::kSpace) {
                c = ' ';
                f = bert::flags(c);
            }
        }
        if (spec.handle_chinese_chars && (f & bert::kCjk)) {
            out.text.push_back(' ');
            out.text.push_back(c);
            out.text.push_back(' ');
            out.src.insert(out.src.end(), 3, at);
            continue;
        }
        out.text.push_back(c);
        out.src.push_back(at);
    }
    if (spec.strip_accents && !ascii) strip_accents(out);
    if (spec.lowercase) lowercase(out);
}

template void bert_normalize(const BertNormalizerSpec&, const uint8_t*, size_t, size_t,
                             NormalizedText&);
template void bert_normalize(const BertNormalizerSpec&, const uint16_t*, size_t, size_t,
                             NormalizedText&);
template void bert_normalize(const BertNormalizerSpec&, const uint32_t*, size_t, size_t,
                             NormalizedText&);

}  // namespace codetok
