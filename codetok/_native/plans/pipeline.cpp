// See pipeline.hpp. Comments name the Python function each block mirrors.
#include "plans/pipeline.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace codetok {

// ---------------------------------------------------------------------------- helpers
bool py_isspace(Cp c) {
    if (c <= 0x20) return c == 0x20 || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
    if (c < 0x85) return false;
    switch (c) {
        case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F:
        case 0x205F: case 0x3000:
            return true;
        default:
            return c >= 0x2000 && c <= 0x200A;
    }
}

namespace {
constexpr Cp kSpaceChar = 0x120;  // "Ġ", the byte-level form of " "

bool trim_char(Cp c) { return c == kSpaceChar || py_isspace(c); }
}  // namespace

template <class CharT>
uint16_t lead_spaces(const CharT* s, size_t n) {
    size_t k = 0;
    while (k < n && trim_char(s[k])) ++k;
    return static_cast<uint16_t>(std::min<size_t>(k, 0xFFFF));
}

template <class CharT>
uint16_t trail_spaces(const CharT* s, size_t n) {
    size_t k = 0;
    while (k < n && trim_char(s[n - 1 - k])) ++k;
    return static_cast<uint16_t>(std::min<size_t>(k, 0xFFFF));
}

// ------------------------------------------------------------------------- PieceCache
bool PieceCache::find(const Cp* s, size_t n, uint64_t h, const int32_t*& ids,
                      const int64_t*& lens, size_t& count) const {
    size_t i = mix64(h) & mask_;
    while (slots_[i].key_len != 0) {
        const Slot& sl = slots_[i];
        if (sl.hash == h && sl.key_len == n &&
            std::equal(s, s + n, keys_.data() + sl.key_off)) {
            ids = ids_.data() + sl.val_off;
            lens = lens_.data() + sl.val_off;
            count = sl.val_len;
            return true;
        }
        i = (i + 1) & mask_;
    }
    return false;
}

void PieceCache::put(const Cp* s, size_t n, uint64_t h, const std::vector<int32_t>& ids,
                     const std::vector<int64_t>& lens) {
    if (n == 0 || n > kMaxKeyChars / 64) return;
    if (keys_.size() + n > kMaxKeyChars) {
        clear();
    } else if (count_ >= max_entries_) {
        if (slots_.size() < kMaxSlots)
            grow();
        else
            clear();
    }
    size_t i = mix64(h) & mask_;
    while (slots_[i].key_len != 0) i = (i + 1) & mask_;
    Slot& sl = slots_[i];
    sl.hash = h;
    sl.key_off = static_cast<uint32_t>(keys_.size());
    sl.key_len = static_cast<uint32_t>(n);
    sl.val_off = static_cast<uint32_t>(ids_.size());
    sl.val_len = static_cast<uint32_t>(ids.size());
    keys_.insert(keys_.end(), s, s + n);
    ids_.insert(ids_.end(), ids.begin(), ids.end());
    lens_.insert(lens_.end(), lens.begin(), lens.end());
    ++count_;
}

void PieceCache::grow() {
    HugeVector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    max_entries_ = slots_.size() / 2;
    for (const Slot& sl : old) {
        if (sl.key_len == 0) continue;
        size_t i = mix64(sl.hash) & mask_;
        while (slots_[i].key_len != 0) i = (i + 1) & mask_;
        slots_[i] = sl;
    }
}

void PieceCache::clear() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    keys_.clear();
    ids_.clear();
    lens_.clear();
    count_ = 0;
}

// ----------------------------------------------------------------------- Pipeline

Pipeline::Pipeline(std::shared_ptr<const BpeKernel> bpe, PipelineSpec spec,
                           AddedMatcher raw, AddedMatcher norm, NormSteps steps)
    : bpe_(std::move(bpe)),
      spec_(std::move(spec)),
      raw_(std::move(raw)),
      norm_(std::move(norm)),
      steps_(std::move(steps)),
      byte_char_(byte_level_alphabet()) {}

// Reference: ``Tokenizer._splits`` + ``_encode_one`` (without a normalizer), then
// ``trim_byte_level_offsets`` when the ByteLevel post-processor trims.
template <class CharT>
void Pipeline::run(const CharT* t, size_t n, const std::vector<int32_t>& skip, int trim,
                          bool want_offsets, Encoded& out) const {
    out.clear();
    std::unique_ptr<Scratch> scratch = scratch_.take();
    Scratch& w = *scratch;
    std::unique_lock<std::mutex> drawing;
    if (rng_) drawing = std::unique_lock<std::mutex>(rng_->mutex);
    w.raw.clear();
    out.ids.reserve(n / 4 + 16);
    if (want_offsets) {
        out.offsets.reserve(2 * (n / 4 + 16));
        out.words.reserve(n / 4 + 16);
    }
    int32_t word = 0;
    raw_.find(t, 0, n, skip, w.raw);
    for (const AddedSegment& seg : w.raw) {
        if (seg.entry >= 0) {
            out.push_added(raw_.entry(seg.entry).id, seg.start, seg.end, want_offsets, word);
            continue;
        }
        if (seg.start == seg.end) continue;
        w.norm.clear();
        norm_.find(t, seg.start, seg.end, skip, w.norm);
        for (const AddedSegment& sub : w.norm) {
            if (sub.entry >= 0) {
                out.push_added(norm_.entry(sub.entry).id, sub.start, sub.end, want_offsets, word);
            } else if (sub.start < sub.end) {
                encode_segment(t, sub.start, sub.end, want_offsets, w, word, out);
                if (!out.ok) break;
            }
        }
        if (!out.ok) break;
    }
    scratch_.give(std::move(scratch));
    if (out.ok && trim != 0 && want_offsets && !spec_.lead.empty()) trim_offsets(t, trim == 2, out);
}

// Reference: ``ByteLevel.split`` (prefix space, GPT-2 regex) or ``Split`` then ByteLevel
// without its regex; each piece then goes through the model (``BPE.encode_pieces``).
template <class CharT>
void Pipeline::encode_segment(const CharT* t, size_t a, size_t b, bool want_offsets,
                                  Scratch& w, int32_t& word, Encoded& out) const {
    if (spec_.spm) {
        spm_segment(t, a, b, want_offsets, w, word, out);
        return;
    }
    if (!spec_.passes.empty()) {
        words_segment(t, a, b, want_offsets, w, word, out);
        return;
    }
    if (!steps_.empty()) {
        // Reference: the normalizer on the segment; its chars keep their original index.
        NormalizedText& nt = w.normalized;
        steps_.run(t, a, b, nt, w.steps);
        if (nt.text.empty()) return;
        if (spec_.add_prefix_space && nt.text[0] != ' ') {
            w.text.assign(1, ' ');
            w.text.insert(w.text.end(), nt.text.begin(), nt.text.end());
            encode_pieces(w.text.data(), w.text.size(), a, 1, nt.src.data(), want_offsets, w,
                          word, out);
        } else {
            encode_pieces(nt.text.data(), nt.text.size(), a, 0, nt.src.data(), want_offsets, w,
                          word, out);
        }
        return;
    }
    if (spec_.add_prefix_space && t[a] != ' ') {
        // The prefix space makes a new text: widened, with the space first.
        w.text.assign(1, ' ');
        w.text.insert(w.text.end(), t + a, t + b);
        encode_pieces(w.text.data(), w.text.size(), a, 1, nullptr, want_offsets, w, word, out);
    } else {
        encode_pieces(t + a, b - a, a, 0, nullptr, want_offsets, w, word, out);
    }
}

// The pieces of ``s[0:n]``, which stands for the original text from ``a`` on, with ``pre``
// prefix chars in front.
template <class CharT>
void Pipeline::encode_pieces(const CharT* s, size_t n, size_t a, size_t pre,
                             const uint32_t* src, bool want_offsets, Scratch& w, int32_t& word,
                             Encoded& out) const {
    // Char k of ``s`` stands for original chars [orig(k), orig(k) + 1); the prefix space is
    // aligned to the segment's first char, as ``NormalizedString.prepend`` does.
    auto orig = [&](size_t k) -> int64_t {
        const size_t i = k < pre ? 0 : k - pre;
        return static_cast<int64_t>(a + (src != nullptr ? src[i] : i));
    };
    // A window of pieces at a time, so a long text needs no array of all its pieces.
    constexpr size_t kWindow = 4096;
    size_t p0 = 0;
    while (p0 < n) {
        w.ends.clear();
        scan(spec_.scanner, s, n, w.ends, p0, kWindow);
        for (uint32_t p1 : w.ends) {
            const CharT* p = s + p0;
            const size_t len = p1 - p0;
            // Fast path: a short ASCII piece that is one token.
            const PieceCache::ShortKey key =
                rng_ ? PieceCache::ShortKey{} : PieceCache::short_key(p, len);
            const int32_t hit = key ? w.cache.find_short(key) : -1;
            if (hit >= 0) {
                out.ids.push_back(hit);
                if (want_offsets) {
                    out.offsets.push_back(orig(p0));
                    out.offsets.push_back(orig(p1 - 1) + 1);
                    out.words.push_back(word);
                }
                ++word;
                p0 = p1;
                continue;
            }
            const Cp* cp = nullptr;
            if constexpr (std::is_same_v<CharT, Cp>) {
                cp = p;
            } else {
                w.piece.assign(p, p + len);
                cp = w.piece.data();
            }
            const int32_t* ids;
            const int64_t* lens;
            size_t count;
            if (!encode_piece(cp, len, w, ids, lens, count)) {
                out.ok = false;
                return;
            }
            if (key && count == 1) w.cache.put_short(key, ids[0]);
            out.ids.insert(out.ids.end(), ids, ids + count);
            if (want_offsets) {
                bool ascii = true;
                for (size_t k = 0; k < len; ++k)
                    if (p[k] >= 0x80) {
                        ascii = false;
                        break;
                    }
                if (!ascii) {
                    w.byte_char.clear();
                    for (size_t k = 0; k < len; ++k)
                        for (int q = utf8_len(p[k]); q > 0; --q)
                            w.byte_char.push_back(static_cast<uint32_t>(k));
                }
                int64_t pos = 0;
                for (size_t j = 0; j < count; ++j) {
                    const int64_t end = pos + lens[j];
                    const size_t c0 = ascii ? static_cast<size_t>(pos) : w.byte_char[pos];
                    const size_t c1 = ascii ? static_cast<size_t>(end - 1) : w.byte_char[end - 1];
                    out.offsets.push_back(orig(p0 + c0));
                    out.offsets.push_back(orig(p0 + c1) + 1);
                    out.words.push_back(word);
                    pos = end;
                }
            }
            ++word;
            p0 = p1;
        }
    }
}

// Reference: the ``Prepend`` and ``Replace`` normalizers of a SentencePiece-style tokenizer
// on one segment, which is then one pre-tokenized piece (one word id) for BPE over chars;
// or ``Metaspace.split`` (replace, prepend by scheme, cut before each meta char when
// ``split``: one word per cut).
template <class CharT>
void Pipeline::spm_segment(const CharT* t, size_t a, size_t b, bool want_offsets, Scratch& w,
                           int32_t& word, Encoded& out) const {
    const Cp kMeta = spec_.meta;
    const Cp first = t[a] == ' ' ? kMeta : static_cast<Cp>(t[a]);
    bool prepend = false;
    switch (spec_.prepend) {
        case Prepend::Never: break;
        case Prepend::Always: prepend = true; break;
        case Prepend::Missing: prepend = first != kMeta; break;
        case Prepend::FirstMissing: prepend = first != kMeta && a == 0; break;
    }
    const size_t pre = prepend ? 1 : 0;
    w.text.clear();
    if (pre) w.text.push_back(kMeta);
    for (size_t k = a; k < b; ++k) w.text.push_back(t[k] == ' ' ? kMeta : static_cast<Cp>(t[k]));
    const Cp* s = w.text.data();
    const size_t n = w.text.size();
    // The prepended char is aligned to the segment's first char (``NormalizedString.prepend``).
    auto orig = [&](size_t k) -> int64_t {
        return static_cast<int64_t>(a + (k < pre ? 0 : k - pre));
    };
    size_t p0 = 0;
    while (p0 < n) {
        size_t p1 = n;
        if (spec_.spm_words) {  // Metaspace: every meta char starts a piece
            p1 = p0 + 1;
            while (p1 < n && s[p1] != kMeta) ++p1;
        } else if (spec_.spm_split) {
            p1 = p0 + 1;
            while (p1 < n && !(s[p1] == kMeta && s[p1 - 1] != kMeta)) ++p1;
        }
        if (!push_char_piece(s, p0, p1, orig, want_offsets, w, word, out)) return;
        p0 = p1;
        if (spec_.spm_words) ++word;
    }
    if (!spec_.spm_words) ++word;
}

// Reference: the normalizer on the segment, then the pre-tokenizer's word splitting
// (``Sequence.split`` of Whitespace, WhitespaceSplit, Punctuation, Digits); each piece is
// one word through char-level BPE (``BPE.encode_pieces``).
template <class CharT>
void Pipeline::words_segment(const CharT* t, size_t a, size_t b, bool want_offsets,
                             Scratch& w, int32_t& word, Encoded& out) const {
    const Cp* s;
    size_t n;
    const uint32_t* src = nullptr;  // original index (from ``a``) of each char, or identity
    if (!steps_.empty()) {
        steps_.run(t, a, b, w.normalized, w.steps);
        s = w.normalized.text.data();
        n = w.normalized.text.size();
        src = w.normalized.src.data();
    } else {
        w.text.assign(t + a, t + b);
        s = w.text.data();
        n = w.text.size();
    }
    auto orig = [&](size_t k) -> int64_t {
        return static_cast<int64_t>(a + (src != nullptr ? src[k] : k));
    };
    split_words(s, n, spec_.passes, w.words, w.split);
    for (const Span32& piece : w.words) {
        if (!push_char_piece(s, piece.start, piece.end, orig, want_offsets, w, word, out))
            return;
        ++word;
    }
}

// The char-level BPE tokens of ``s[p0:p1]`` appended to ``out`` as word ``word``;
// ``orig(k)``: the original index of char k of ``s``. False (``out.ok`` false) when a
// token has no string.
template <class Orig>
bool Pipeline::push_char_piece(const Cp* s, size_t p0, size_t p1, Orig&& orig,
                               bool want_offsets, Scratch& w, int32_t word,
                               Encoded& out) const {
    const int32_t* ids;
    const int64_t* spans;  // start << 32 | end, in chars of the piece
    size_t count;
    if (!char_piece(s + p0, p1 - p0, w, ids, spans, count)) {
        out.ok = false;
        return false;
    }
    out.ids.insert(out.ids.end(), ids, ids + count);
    if (want_offsets) {
        for (size_t j = 0; j < count; ++j) {
            const auto st = static_cast<size_t>(spans[j] >> 32);
            const auto en = static_cast<size_t>(spans[j] & 0xFFFFFFFF);
            out.offsets.push_back(orig(p0 + st));
            out.offsets.push_back(orig(p0 + en - 1) + 1);
            out.words.push_back(word);
        }
    }
    return true;
}

bool Pipeline::char_piece(const Cp* p, size_t len, Scratch& w, const int32_t*& ids,
                          const int64_t*& spans, size_t& count) const {
    const uint64_t h = hash_cps(p, len);
    if (!rng_ && w.cache.find(p, len, h, ids, spans, count)) return true;
    BpeOutput bo;
    if (rng_)
        bpe_->encode(p, len, dropout_, rng_->random, bo);
    else
        bpe_->encode(p, len, bo);
    w.ids.assign(bo.ids.begin(), bo.ids.end());
    w.lens.clear();
    for (size_t j = 0; j < bo.ids.size(); ++j) {
        const int64_t st = bo.spans[2 * j], en = bo.spans[2 * j + 1];
        const int32_t id = bo.ids[j];
        if (en <= st || id < 0 || static_cast<size_t>(id) >= spec_.has_value.size() ||
            !spec_.has_value[static_cast<size_t>(id)])
            return false;  // a missing unk token or an empty span: Python decides
        w.lens.push_back((st << 32) | en);
    }
    if (!rng_) w.cache.put(p, len, h, w.ids, w.lens);
    ids = w.ids.data();
    spans = w.lens.data();
    count = w.ids.size();
    return true;
}

// One piece through the byte-level alphabet and BPE (``BPE.encode_pieces``), cached.
bool Pipeline::encode_piece(const Cp* p, size_t n, Scratch& w, const int32_t*& ids,
                                const int64_t*& lens, size_t& count) const {
    const uint64_t h = hash_cps(p, n);
    if (!rng_ && w.cache.find(p, n, h, ids, lens, count)) return true;
    w.ids.clear();
    w.lens.clear();
    std::array<uint8_t, 4> buf{};
    // With dropout, whole tokens are not looked up (reference: ``BPE._sample``).
    const bool whole = bpe_->options().ignore_merges && !rng_;
    if (whole) w.bytechars.clear();
    for (size_t k = 0; k < n; ++k) {
        const int m = utf8_encode(p[k], buf.data());
        for (int q = 0; q < m; ++q) {
            w.ids.push_back(spec_.byte_symbol[buf[q]]);
            w.lens.push_back(1);
            if (whole) w.bytechars.push_back(byte_char_[buf[q]]);
        }
    }
    const int32_t tid = whole ? bpe_->whole_token(w.bytechars.data(), w.bytechars.size()) : -1;
    if (tid >= 0) {
        int64_t total = static_cast<int64_t>(w.ids.size());
        w.ids.assign(1, tid);
        w.lens.assign(1, total);
    } else if (rng_) {
        bpe_->merge(w.ids, w.lens, dropout_, rng_->random);
    } else {
        bpe_->merge(w.ids, w.lens);
    }
    for (int32_t id : w.ids)
        if (id < 0 || static_cast<size_t>(id) >= spec_.has_value.size() ||
            !spec_.has_value[static_cast<size_t>(id)])
            return false;
    if (!rng_) w.cache.put(p, n, h, w.ids, w.lens);
    ids = w.ids.data();
    lens = w.lens.data();
    count = w.ids.size();
    return true;
}

// Reference: ``trim_byte_level_offsets`` (codetok/processors.py).
template <class CharT>
void Pipeline::trim_offsets(const CharT* t, bool add_prefix_space, Encoded& out) const {
    size_t next_added = 0;
    const size_t n = out.ids.size();
    for (size_t i = 0; i < n; ++i) {
        uint16_t lead, trail;
        if (next_added < out.added.size() &&
            static_cast<size_t>(out.added[next_added]) == i) {
            const size_t s = static_cast<size_t>(out.added[next_added + 1]);
            const size_t e = static_cast<size_t>(out.added[next_added + 2]);
            lead = lead_spaces(t + s, e - s);
            trail = trail_spaces(t + s, e - s);
            next_added += 3;
        } else {
            const size_t id = static_cast<size_t>(out.ids[i]);
            lead = spec_.lead[id];
            trail = spec_.trail[id];
        }
        if (lead == 0 && trail == 0) continue;
        int64_t& s = out.offsets[2 * i];
        int64_t& e = out.offsets[2 * i + 1];
        if (lead) {
            int64_t l = lead;
            if ((i == 0 || s == 0) && add_prefix_space && lead == 1) l = 0;
            s = std::min<int64_t>(s + l, e);
        }
        if (trail && e >= trail) e = std::max<int64_t>(e - trail, s);
    }
}

template uint16_t lead_spaces(const uint32_t*, size_t);
template uint16_t trail_spaces(const uint32_t*, size_t);
template void Pipeline::run(const uint8_t*, size_t, const std::vector<int32_t>&, int, bool,
                            Encoded&) const;
template void Pipeline::run(const uint16_t*, size_t, const std::vector<int32_t>&, int, bool,
                            Encoded&) const;
template void Pipeline::run(const uint32_t*, size_t, const std::vector<int32_t>&, int, bool,
                            Encoded&) const;
}  // namespace codetok
