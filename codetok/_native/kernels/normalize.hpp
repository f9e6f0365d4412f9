// Normalizers with per-character alignment: text in, normalized code points out, and for
// each of them the index of the original char it stands for (every step here maps one
// original char to zero or more chars, so one index is the whole alignment span
// ``[src, src + 1)``).
//
// Native twin of ``BertNormalizer`` (codetok/normalizers.py: clean text, CJK spacing,
// accent stripping through NFD, lowercase) over the pinned tables of bert_tables.hpp, with
// the alignment rules of ``NormalizedString.transform`` / ``_unicode_form``.
#pragma once

#include <vector>

#include "tables/bert_tables.hpp"
#include "kernels/common.hpp"

namespace codetok {

struct BertNormalizerSpec {
    bool clean_text = true;
    bool handle_chinese_chars = true;
    bool strip_accents = true;  // already resolved (HF's None means "as lowercase")
    bool lowercase = true;
};

// Reusable buffers of one normalization.
struct NormalizedText {
    std::vector<Cp> text;
    std::vector<uint32_t> src;  // original index (relative to the segment start) per char
    // Working memory.
    std::vector<Cp> tmp_text;
    std::vector<uint32_t> tmp_src;
    std::vector<uint8_t> tmp_inserted;
    void clear() {
        text.clear();
        src.clear();
    }
};

// ``BertNormalizer.normalize`` of ``t[a:b]`` into ``out`` (``src`` relative to ``a``).
template <class CharT>
void bert_normalize(const BertNormalizerSpec& spec, const CharT* t, size_t a, size_t b,
                    NormalizedText& out);

}  // namespace codetok
