// Shared building blocks of the native kernels: code-point strings, a string -> int hash
// map that can be probed with an incrementally computed hash, and a pair -> merge map.
//
// Everything here is plain C++17 (no Python headers), so the kernels can be compiled and
// reasoned about on their own. Text is always a sequence of Unicode code points (Python's
// own view of a str); lone surrogates are ordinary values here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace codetok {

using Cp = uint32_t;  // one Unicode code point (surrogates included)

// UTF-8 length of one code point; surrogates count 3 bytes, as Python's "surrogatepass".
inline int utf8_len(Cp c) {
    if (c < 0x80) return 1;
    if (c < 0x800) return 2;
    if (c < 0x10000) return 3;
    return 4;
}

// Decode UTF-8 (3-byte surrogate forms accepted, as Python's "surrogatepass").
inline bool utf8_decode(const uint8_t* p, size_t n, std::vector<Cp>& out) {
    size_t i = 0;
    while (i < n) {
        const uint8_t b = p[i];
        int extra;
        Cp c;
        if (b < 0x80) { c = b; extra = 0; }
        else if (b >= 0xC2 && b < 0xE0) { c = b & 0x1F; extra = 1; }
        else if (b >= 0xE0 && b < 0xF0) { c = b & 0x0F; extra = 2; }
        else if (b >= 0xF0 && b < 0xF5) { c = b & 0x07; extra = 3; }
        else return false;
        for (int k = 1; k <= extra; ++k) {
            if (i + k >= n || (p[i + k] & 0xC0) != 0x80) return false;
            c = (c << 6) | (p[i + k] & 0x3F);
        }
        if ((extra == 2 && c < 0x800) || (extra == 3 && (c < 0x10000 || c > 0x10FFFF))) return false;
        out.push_back(c);
        i += static_cast<size_t>(extra) + 1;
    }
    return true;
}

// The UTF-8 bytes of ``c`` into ``buf`` (room for 4); returns their count. Surrogates are
// encoded like any other BMP code point.
inline int utf8_encode(Cp c, uint8_t* buf) {
    if (c < 0x80) {
        buf[0] = static_cast<uint8_t>(c);
        return 1;
    }
    if (c < 0x800) {
        buf[0] = static_cast<uint8_t>(0xC0 | (c >> 6));
        buf[1] = static_cast<uint8_t>(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        buf[0] = static_cast<uint8_t>(0xE0 | (c >> 12));
        buf[1] = static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3F));
        buf[2] = static_cast<uint8_t>(0x80 | (c & 0x3F));
        return 3;
    }
    buf[0] = static_cast<uint8_t>(0xF0 | (c >> 18));
    buf[1] = static_cast<uint8_t>(0x80 | ((c >> 12) & 0x3F));
    buf[2] = static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3F));
    buf[3] = static_cast<uint8_t>(0x80 | (c & 0x3F));
    return 4;
}

// Append the UTF-8 bytes of ``c`` (surrogates encoded like any other BMP code point).
inline void utf8_append(Cp c, std::vector<uint8_t>& out) {
    if (c < 0x80) {
        out.push_back(static_cast<uint8_t>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<uint8_t>(0xC0 | (c >> 6)));
        out.push_back(static_cast<uint8_t>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<uint8_t>(0xE0 | (c >> 12)));
        out.push_back(static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<uint8_t>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<uint8_t>(0xF0 | (c >> 18)));
        out.push_back(static_cast<uint8_t>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<uint8_t>(0x80 | (c & 0x3F)));
    }
}

// GPT-2's bytes_to_unicode (codetok/unicode/byte_alphabet.py): printable bytes stand for themselves, the
// others take the code points from 256 on, in byte order.
inline std::array<Cp, 256> byte_level_alphabet() {
    std::array<Cp, 256> out{};
    Cp next = 256;
    for (int b = 0; b < 256; ++b) {
        const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
        out[b] = printable ? static_cast<Cp>(b) : next++;
    }
    return out;
}

// An allocator whose ``resize`` leaves the new elements uninitialized: for scratch
// buffers that are grown and then written in place (a value-initializing ``resize``
// would clear them first).
template <class T>
struct NoInitAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = NoInitAllocator<U>;
    };
    NoInitAllocator() = default;
    template <class U>
    NoInitAllocator(const NoInitAllocator<U>&) noexcept {}
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible<U>::value) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

// A vector of a trivial type whose ``resize`` does not initialize (see above).
template <class T>
using ScratchVector = std::vector<T, NoInitAllocator<T>>;

// FNV-1a over code points; ``hash_step`` lets a caller extend a key one char at a time.
constexpr uint64_t kHashSeed = 1469598103934665603ULL;
inline uint64_t hash_step(uint64_t h, Cp c) { return (h ^ c) * 1099511628211ULL; }
inline uint64_t hash_cps(const Cp* p, size_t n) {
    uint64_t h = kHashSeed;
    for (size_t i = 0; i < n; ++i) h = hash_step(h, p[i]);
    return h;
}
inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

// The layout of the tables below as saved in codetok's binary files; change it whenever
// Slot layouts, hashing or probing change (files with another layout are rebuilt).
constexpr uint32_t kTableLayout = 1;

// Open-addressing map from a code-point string to (value, extra). Keys are copied into one
// flat buffer. Lookups never allocate. The slots and keys can also be borrowed from memory
// the map does not own (a memory-mapped file, see ``borrow``); such a map is read-only.
class StrMap {
  public:
    struct Entry {
        int32_t value;
        int32_t extra;
    };
    struct Slot {
        uint64_t hash = 0;
        uint32_t off = 0;
        uint32_t len = 0;
        Entry entry{0, 0};
        uint32_t used = 0;
        uint32_t pad = 0;
    };

    StrMap() { rehash(16); }
    StrMap(const StrMap&) = delete;  // slots_ / keys_ point into this object's vectors
    StrMap& operator=(const StrMap&) = delete;

    size_t size() const { return count_; }

    // Make room for ``n`` entries of ``chars`` code points in all, so inserting them does
    // not rehash.
    void reserve(size_t n, size_t chars) {
        size_t cap = cap_;
        while (n * 4 > cap * 3) cap *= 2;
        if (cap != cap_) rehash(cap);
        chars_.reserve(chars);
    }

    // Insert or (when ``overwrite``) replace; returns the stored entry.
    Entry* insert(const Cp* p, size_t n, Entry e, bool overwrite) {
        if (borrowed_) throw std::logic_error("a borrowed StrMap is read-only");
        if ((count_ + 1) * 4 > cap_ * 3) rehash(cap_ * 2);
        uint64_t h = hash_cps(p, n);
        size_t i = mix64(h) & mask_;
        while (own_[i].used) {
            Slot& s = own_[i];
            if (s.hash == h && same(s, p, n)) {
                if (overwrite) s.entry = e;
                return &s.entry;
            }
            i = (i + 1) & mask_;
        }
        if (chars_.size() + n > UINT32_MAX) throw std::length_error("vocabulary text too large");
        Slot& s = own_[i];
        s.used = 1;
        s.hash = h;
        s.off = static_cast<uint32_t>(chars_.size());
        s.len = static_cast<uint32_t>(n);
        s.entry = e;
        chars_.insert(chars_.end(), p, p + n);
        keys_ = chars_.data();
        n_keys_ = chars_.size();
        ++count_;
        return &s.entry;
    }

    // Find with a hash the caller computed with ``hash_cps`` / ``hash_step``.
    const Entry* find(const Cp* p, size_t n, uint64_t h) const {
        size_t i = mix64(h) & mask_;
        while (slots_[i].used) {
            const Slot& s = slots_[i];
            if (s.hash == h && same(s, p, n)) return &s.entry;
            i = (i + 1) & mask_;
        }
        return nullptr;
    }
    const Entry* find(const Cp* p, size_t n) const { return find(p, n, hash_cps(p, n)); }

    // The raw tables, for saving: ``cap`` slots and ``n_keys`` key code points.
    const Slot* slots() const { return slots_; }
    size_t capacity() const { return cap_; }
    const Cp* keys() const { return keys_; }
    size_t n_keys() const { return n_keys_; }
    // Read from tables saved by another map (``capacity`` a power of two); they must
    // outlive this map. False (and nothing changed) when they are inconsistent.
    bool borrow(const Slot* slots, size_t cap, const Cp* keys, size_t n_keys) {
        if (cap == 0 || (cap & (cap - 1)) != 0) return false;
        size_t count = 0;
        for (size_t i = 0; i < cap; ++i) {
            if (!slots[i].used) continue;
            if (static_cast<size_t>(slots[i].off) + slots[i].len > n_keys) return false;
            ++count;
        }
        if (count >= cap) return false;  // a full table would never end a probe
        own_.clear();
        own_.shrink_to_fit();
        chars_.clear();
        slots_ = slots;
        cap_ = cap;
        mask_ = cap - 1;
        keys_ = keys;
        n_keys_ = n_keys;
        count_ = count;
        borrowed_ = true;
        return true;
    }

  private:
    bool same(const Slot& s, const Cp* p, size_t n) const {
        if (s.len != n) return false;
        const Cp* k = keys_ + s.off;
        for (size_t j = 0; j < n; ++j)
            if (k[j] != p[j]) return false;
        return true;
    }

    void rehash(size_t cap) {
        std::vector<Slot> old;
        old.swap(own_);
        own_.assign(cap, Slot{});
        mask_ = cap - 1;
        for (const Slot& s : old) {
            if (!s.used) continue;
            size_t i = mix64(s.hash) & mask_;
            while (own_[i].used) i = (i + 1) & mask_;
            own_[i] = s;
        }
        slots_ = own_.data();
        cap_ = cap;
    }

    std::vector<Slot> own_;
    std::vector<Cp> chars_;
    const Slot* slots_ = nullptr;
    size_t cap_ = 0;
    const Cp* keys_ = nullptr;
    size_t n_keys_ = 0;
    size_t mask_ = 0;
    size_t count_ = 0;
    bool borrowed_ = false;
};

// Open-addressing map from an id pair to (rank, new id): the BPE merge table. Slots are 16
// bytes; the key of two -1 ids marks an empty slot (ids are never negative). Like StrMap,
// it can borrow saved slots read-only.
class PairMap {
  public:
    struct Merge {
        int32_t rank;
        int32_t new_id;
    };
    static constexpr uint64_t kEmpty = ~uint64_t{0};
    struct Slot {
        uint64_t key = kEmpty;
        Merge merge{0, 0};
    };

    PairMap() { rehash(16); }
    PairMap(const PairMap&) = delete;  // slots_ points into this object's vector
    PairMap& operator=(const PairMap&) = delete;

    // Make room for ``n`` merges, so inserting them does not rehash.
    void reserve(size_t n) {
        size_t cap = cap_;
        while (n * 2 > cap) cap *= 2;
        if (cap != cap_) rehash(cap);
    }

    void insert(int32_t a, int32_t b, Merge m) {
        if (borrowed_) throw std::logic_error("a borrowed PairMap is read-only");
        if ((count_ + 1) * 2 > cap_) rehash(cap_ * 2);
        uint64_t k = key(a, b);
        size_t i = mix64(k) & mask_;
        while (own_[i].key != kEmpty) {
            if (own_[i].key == k) {
                own_[i].merge = m;
                return;
            }
            i = (i + 1) & mask_;
        }
        own_[i] = Slot{k, m};
        ++count_;
    }

    const Merge* find(int32_t a, int32_t b) const {
        uint64_t k = key(a, b);
        size_t i = mix64(k) & mask_;
        while (slots_[i].key != kEmpty) {
            if (slots_[i].key == k) return &slots_[i].merge;
            i = (i + 1) & mask_;
        }
        return nullptr;
    }

    const Slot* slots() const { return slots_; }
    size_t capacity() const { return cap_; }
    // See StrMap::borrow.
    bool borrow(const Slot* slots, size_t cap) {
        if (cap == 0 || (cap & (cap - 1)) != 0) return false;
        size_t empty = 0;  // one empty slot ends every probe (a lookup never loops forever)
        while (empty < cap && slots[empty].key != kEmpty) ++empty;
        if (empty == cap) return false;
        own_.clear();
        own_.shrink_to_fit();
        slots_ = slots;
        cap_ = cap;
        mask_ = cap - 1;
        count_ = 0;  // not counted: size() is not asked of a borrowed merge table
        borrowed_ = true;
        return true;
    }

  private:
    static uint64_t key(int32_t a, int32_t b) {
        return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
    }
    void rehash(size_t cap) {
        std::vector<Slot> old;
        old.swap(own_);
        own_.assign(cap, Slot{});
        mask_ = cap - 1;
        for (const Slot& s : old) {
            if (s.key == kEmpty) continue;
            size_t i = mix64(s.key) & mask_;
            while (own_[i].key != kEmpty) i = (i + 1) & mask_;
            own_[i] = s;
        }
        slots_ = own_.data();
        cap_ = cap;
    }
    std::vector<Slot> own_;
    const Slot* slots_ = nullptr;
    size_t cap_ = 0;
    size_t mask_ = 0;
    size_t count_ = 0;
    bool borrowed_ = false;
};

}  // namespace codetok
