// See charsmap.hpp. Comments name the Python function each block mirrors.
#include "kernels/charsmap.hpp"

#include <cstring>
#include <stdexcept>

#include "kernels/grapheme.hpp"

namespace codetok {

namespace {
// HF applies a rule to a whole grapheme cluster only when it is shorter than this (bytes).
constexpr size_t kMaxClusterBytes = 6;
}  // namespace

CharsMap::CharsMap(const std::string& blob) {
    if (blob.empty()) return;
    if (blob.size() < 4) throw std::invalid_argument("precompiled_charsmap is shorter than 4 bytes");
    uint32_t trie_size = 0;
    for (int k = 3; k >= 0; --k)
        trie_size = (trie_size << 8) | static_cast<uint8_t>(blob[static_cast<size_t>(k)]);
    if (trie_size % 4 || size_t{4} + trie_size > blob.size())
        throw std::invalid_argument("precompiled_charsmap is truncated");
    units_.resize(trie_size / 4);
    for (size_t i = 0; i < units_.size(); ++i) {
        uint32_t u = 0;
        for (int k = 3; k >= 0; --k)
            u = (u << 8) | static_cast<uint8_t>(blob[4 + 4 * i + static_cast<size_t>(k)]);
        units_[i] = u;
    }
    pool_bytes_ = blob.substr(4 + trie_size);
    // The BMP table: each char's own rule, decoded once.
    bmp_.assign(0x10000, 0);
    std::vector<Cp> rep;
    uint8_t buf[4];
    for (Cp c = 1; c < 0x10000; ++c) {
        const int len = utf8_encode(c, buf);
        const int64_t v = first_value(buf, static_cast<size_t>(len));
        if (v < 0) continue;
        rep.clear();
        decode(v, rep);
        if (rep.size() > 254 || pool_.size() >= (1u << 24))
            throw std::invalid_argument("precompiled_charsmap replacement too long");
        bmp_[c] = (static_cast<uint32_t>(pool_.size()) << 8) | static_cast<uint32_t>(rep.size() + 1);
        pool_.insert(pool_.end(), rep.begin(), rep.end());
    }
    for (Cp c = 0; c < 128; ++c) ascii_rules_[c] = bmp_[c] != 0;
    const uint8_t crlf[2] = {'\r', '\n'};
    crlf_rule_ = first_value(crlf, 2) >= 0;
    for (Cp c = 0; c < 128; ++c) stops_[c] = ascii_rules_[c] || (c == '\r' && crlf_rule_);
}

// Reference: ``CharsMap._prefixes`` with ``first_only``.
int64_t CharsMap::first_value(const uint8_t* key, size_t n) const {
    const size_t size = units_.size();
    if (!size) return -1;
    uint32_t u = units_[0];
    size_t pos = (u >> 10) << ((u & 0x200) >> 6);
    for (size_t i = 0; i < n; ++i) {
        const uint8_t c = key[i];
        if (c == 0) break;
        pos ^= c;
        if (pos >= size) break;
        u = units_[pos];
        if ((u & 0x800000FFu) != c) break;
        pos ^= (u >> 10) << ((u & 0x200) >> 6);
        if (u & 0x100) {
            if (pos >= size) break;
            return units_[pos] & 0x7FFFFFFFu;
        }
    }
    return -1;
}

// Reference: ``CharsMap._replacement`` (the pool is valid UTF-8: the reader checked).
void CharsMap::decode(int64_t value, std::vector<Cp>& out) const {
    const size_t n = pool_bytes_.size();
    size_t i = static_cast<size_t>(value);
    while (i < n && pool_bytes_[i] != '\0') {
        const auto b = static_cast<uint8_t>(pool_bytes_[i]);
        int len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        Cp c = len == 1 ? b : len == 2 ? b & 0x1F : len == 3 ? b & 0x0F : b & 0x07;
        for (int k = 1; k < len && i + static_cast<size_t>(k) < n; ++k)
            c = (c << 6) | (static_cast<uint8_t>(pool_bytes_[i + static_cast<size_t>(k)]) & 0x3F);
        out.push_back(c);
        i += static_cast<size_t>(len);
    }
}

bool CharsMap::lookup_first(const uint8_t* key, size_t n, std::vector<Cp>& out) const {
    const int64_t v = first_value(key, n);
    if (v < 0) return false;
    decode(v, out);
    return true;
}

bool CharsMap::rule_of(Cp c, const Cp*& rep, size_t& len) const {
    if (c < 0x10000) {
        const uint32_t e = bmp_.empty() ? 0 : bmp_[c];
        if (!e) return false;
        rep = pool_.data() + (e >> 8);
        len = (e & 0xFF) - 1;
        return true;
    }
    return false;  // handled by the caller through lookup_first
}

// Reference: ``Precompiled.normalize`` (``_cluster_units``, ``_hf_changes``,
// ``_apply_changes``).
bool precompiled_normalize(const CharsMap& map, const NormalizedText& in, NormalizedText& out,
                           PrecompiledScratch& w) {
    const Cp* s = in.text.data();
    const size_t n = in.text.size();
    if (!n || map.empty()) return false;
    // Most texts are ASCII without a rule: one tight pass finds the first char that may
    // need the walk (two thirds of the instructions of the check below, char for char).
    size_t first = 0;
    while (first < n && !map.may_change(s[first])) ++first;
    if (first == n) return false;
    bool ascii = true, rule = false;
    for (size_t i = first; i < n && !rule; ++i) {
        if (s[i] >= 0x80)
            ascii = false;
        else if (map.ascii_rule(s[i]) || (s[i] == '\r' && map.crlf_rule() && i + 1 < n && s[i + 1] == '\n'))
            rule = true;
    }
    if (ascii && !rule) return false;
    std::vector<Cp>& chars = w.chars;
    std::vector<int32_t>& changes = w.changes;
    chars.clear();
    changes.clear();
    bool modified = false;
    // One unit: ``n_old`` source chars became ``rep[0:len]`` (HF's change bookkeeping).
    auto replaced = [&](size_t n_old, const Cp* rep, size_t len) {
        modified = true;
        chars.insert(chars.end(), rep, rep + len);
        changes.insert(changes.end(), len, 0);
        const auto diff = static_cast<int64_t>(len) - static_cast<int64_t>(n_old);
        if (diff > 0) {
            for (size_t k = changes.size() - static_cast<size_t>(diff); k < changes.size(); ++k)
                changes[k] = 1;
        } else if (diff < 0 && !changes.empty()) {
            changes.back() += static_cast<int32_t>(diff);
        }
    };
    auto one_char = [&](Cp c) {
        const Cp* rep;
        size_t len;
        if (map.rule_of(c, rep, len)) {
            replaced(1, rep, len);
            return;
        }
        if (c >= 0x10000) {
            uint8_t buf[4];
            const int k = utf8_encode(c, buf);
            w.rep.clear();
            if (map.lookup_first(buf, static_cast<size_t>(k), w.rep)) {
                replaced(1, w.rep.data(), w.rep.size());
                return;
            }
        }
        chars.push_back(c);
        changes.push_back(0);
    };
    size_t i = 0;
    while (i < n) {
        const size_t j = grapheme::cluster_end(s, i, n);
        if (j == i + 1) {
            one_char(s[i]);
            i = j;
            continue;
        }
        size_t bytes = 0;
        for (size_t k = i; k < j && bytes < kMaxClusterBytes; ++k) bytes += static_cast<size_t>(utf8_len(s[k]));
        bool whole = false;
        if (bytes < kMaxClusterBytes) {
            w.utf8.clear();
            for (size_t k = i; k < j; ++k) utf8_append(s[k], w.utf8);
            w.rep.clear();
            if (map.lookup_first(w.utf8.data(), w.utf8.size(), w.rep)) {
                replaced(j - i, w.rep.data(), w.rep.size());
                whole = true;
            }
        }
        if (!whole)
            for (size_t k = i; k < j; ++k) one_char(s[k]);
        i = j;
    }
    if (!modified) return false;
    // Reference: ``_apply_changes``.
    out.clear();
    out.text.reserve(chars.size());
    out.src.reserve(chars.size());
    size_t idx = 0;
    for (size_t k = 0; k < chars.size(); ++k) {
        const int32_t ch = changes[k];
        size_t at;
        if (ch > 0) {
            at = idx > 0 && idx - 1 < n ? idx - 1 : 0;
        } else if (idx >= n) {
            at = n - 1;
        } else {
            at = idx;
            idx += static_cast<size_t>(1 - static_cast<int64_t>(ch));
        }
        out.text.push_back(chars[k]);
        out.src.push_back(in.src[at]);
    }
    return true;
}

}  // namespace codetok
