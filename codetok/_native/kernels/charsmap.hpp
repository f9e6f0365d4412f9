// SentencePiece's compiled normalization map (``precompiled_charsmap``) and the HF
// ``Precompiled`` normalizer over it, with per-character alignment.
//
// Native twin of codetok/formats/precompiled.py (``CharsMap.lookup_first``,
// ``_cluster_units``, ``_hf_changes``, ``_apply_changes``): text walked by extended
// grapheme cluster (grapheme.hpp); a cluster shorter than 6 UTF-8 bytes with a rule is
// replaced whole, otherwise each of its chars by its own rule; alignments follow HF's
// change list, quirks included.
#pragma once

#include <string>
#include <vector>

#include "kernels/common.hpp"
#include "kernels/normalize.hpp"

namespace codetok {

class CharsMap {
  public:
    // ``blob``: the raw charsmap (trie size, darts-clone units, NUL-terminated UTF-8
    // replacements). Throws std::invalid_argument when it is not one (the Python reader
    // has already said why, with the file's name).
    explicit CharsMap(const std::string& blob);

    bool empty() const { return units_.empty(); }

    // HF's rule: the replacement (code points, appended to ``out``) of the shortest key
    // that prefixes the UTF-8 bytes ``key[0:n]``; false when none does.
    bool lookup_first(const uint8_t* key, size_t n, std::vector<Cp>& out) const;

    // ``lookup_first`` of one char, from a table for the BMP: the replacement's range in
    // ``pool_`` (false: no rule).
    bool rule_of(Cp c, const Cp*& rep, size_t& len) const;

    // Whether an ASCII char, or the pair CR LF, has a rule (text without them is left as
    // it is without a walk).
    bool ascii_rule(Cp c) const { return ascii_rules_[c]; }
    bool crlf_rule() const { return crlf_rule_; }
    // The chars from which a text may need the walk: non-ASCII, an ASCII char with a
    // rule, or CR when CR LF has one. False: ``c`` is ASCII and left as it is.
    bool may_change(Cp c) const { return c >= 128 || stops_[c]; }

  private:
    // Value of the shortest key prefixing ``key`` (the replacement's byte offset), or -1.
    int64_t first_value(const uint8_t* key, size_t n) const;
    void decode(int64_t value, std::vector<Cp>& out) const;

    std::vector<uint32_t> units_;
    std::string pool_bytes_;
    std::vector<Cp> pool_;            // replacements of BMP chars, back to back
    std::vector<uint32_t> bmp_;       // per BMP char: (offset in pool_ << 8) | len + 1, 0: none
    bool ascii_rules_[128] = {};
    bool stops_[128] = {};  // ``ascii_rules_``, and CR when ``crlf_rule_``
    bool crlf_rule_ = false;
};

// Working memory of ``precompiled_normalize``.
struct PrecompiledScratch {
    std::vector<Cp> chars;
    std::vector<int32_t> changes;
    std::vector<Cp> rep;
    std::vector<uint8_t> utf8;
};

// ``Precompiled.normalize`` of ``in`` into ``out`` (``out.src`` composed with ``in.src``).
// Returns false, leaving ``out`` untouched, when no rule applies (``in`` is the result).
bool precompiled_normalize(const CharsMap& map, const NormalizedText& in, NormalizedText& out,
                           PrecompiledScratch& w);

}  // namespace codetok
