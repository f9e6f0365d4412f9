// See piece_counter.hpp. Comments name the Python code each block mirrors.
#include "piece_counter.hpp"

#include <algorithm>

namespace codetok {

// ------------------------------------------------------------------------- PieceCounts
void PieceCounts::add(const Cp* s, size_t n, uint64_t h, int64_t count) {
    if ((used_.size() + 1) * 2 > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    size_t i = mix64(h) & mask;
    while (slots_[i].used) {
        Slot& sl = slots_[i];
        if (sl.hash == h && sl.len == n && std::equal(s, s + n, keys_.data() + sl.off)) {
            sl.count += count;
            return;
        }
        i = (i + 1) & mask;
    }
    Slot& sl = slots_[i];
    sl.hash = h;
    sl.off = keys_.size();
    sl.len = static_cast<uint32_t>(n);
    sl.used = 1;
    sl.count = count;
    keys_.insert(keys_.end(), s, s + n);
    used_.push_back(static_cast<uint32_t>(i));
}

void PieceCounts::grow() {
    std::vector<Slot> slots(slots_.size() * 2);
    const size_t mask = slots.size() - 1;
    for (uint32_t& u : used_) {
        const Slot& old = slots_[u];
        size_t i = mix64(old.hash) & mask;
        while (slots[i].used) i = (i + 1) & mask;
        slots[i] = old;
        u = static_cast<uint32_t>(i);
    }
    slots_.swap(slots);
}

void PieceCounts::merge(const PieceCounts& other) {
    for (uint32_t u : other.used_) {
        const Slot& sl = other.slots_[u];
        add(other.keys_.data() + sl.off, sl.len, sl.hash, sl.count);
    }
}

// ------------------------------------------------------------------------ PieceCounter
PieceCounter::PieceCounter(CounterSpec spec, AddedMatcher raw, AddedMatcher norm,
                           NormSteps steps)
    : spec_(std::move(spec)),
      raw_(std::move(raw)),
      norm_(std::move(norm)),
      steps_(std::move(steps)),
      byte_char_(byte_level_alphabet()) {}

// Reference: ``Tokenizer.pre_tokenize`` (``_splits``): added tokens on the original text,
// then on the text between them the added tokens matched without a normalizer; neither is
// counted.
template <class CharT>
void PieceCounter::count(const CharT* t, size_t n, int64_t weight, PieceCounts& into,
                         CounterScratch& w) const {
    static const std::vector<int32_t> kNone;
    w.raw.clear();
    raw_.find(t, 0, n, kNone, w.raw);
    for (size_t r = 0; r < w.raw.size(); ++r) {
        const AddedSegment seg = w.raw[r];
        if (seg.entry >= 0 || seg.start == seg.end) continue;
        w.norm.clear();
        norm_.find(t, seg.start, seg.end, kNone, w.norm);
        for (const AddedSegment& sub : w.norm)
            if (sub.entry < 0 && sub.start < sub.end)
                segment(t, sub.start, sub.end, weight, into, w);
    }
}

// Reference: the normalizer on the segment, then ``ByteLevel.split`` (prefix space, the
// scanner) or the character-class passes (``Sequence.split``).
template <class CharT>
void PieceCounter::segment(const CharT* t, size_t a, size_t b, int64_t weight,
                           PieceCounts& into, CounterScratch& w) const {
    std::vector<Cp>& text = w.text;
    text.clear();
    if (!steps_.empty()) {
        steps_.run(t, a, b, w.normalized, w.steps);
        if (w.normalized.text.empty()) return;
        if (spec_.passes.empty() && spec_.add_prefix_space && w.normalized.text[0] != ' ')
            text.push_back(' ');
        text.insert(text.end(), w.normalized.text.begin(), w.normalized.text.end());
    } else {
        if (spec_.passes.empty() && spec_.add_prefix_space && t[a] != ' ') text.push_back(' ');
        text.insert(text.end(), t + a, t + b);
    }
    pieces(text.data(), text.size(), weight, into, w);
}

void PieceCounter::pieces(const Cp* s, size_t n, int64_t weight, PieceCounts& into,
                          CounterScratch& w) const {
    if (!spec_.passes.empty()) {
        split_words(s, n, spec_.passes, w.words, w.split);
        for (const Span32& p : w.words)
            if (p.end > p.start) into.add(s + p.start, p.end - p.start, weight);
        return;
    }
    constexpr size_t kWindow = 4096;  // pieces per scan: no array of all of a long text's
    size_t p0 = 0;
    while (p0 < n) {
        w.ends.clear();
        scan(spec_.scanner, s, n, w.ends, p0, kWindow);
        if (w.ends.empty()) break;
        for (uint32_t p1 : w.ends) {
            // Reference: ``ByteLevel``'s byte alphabet of the piece's UTF-8 bytes.
            w.piece.clear();
            for (size_t k = p0; k < p1; ++k) {
                const Cp c = s[k];
                if (c < 0x80) {
                    w.piece.push_back(byte_char_[c]);
                } else {
                    w.utf8.clear();
                    utf8_append(c, w.utf8);
                    for (uint8_t byte : w.utf8) w.piece.push_back(byte_char_[byte]);
                }
            }
            into.add(w.piece.data(), w.piece.size(), weight);
            p0 = p1;
        }
    }
}

template void PieceCounter::count(const uint8_t*, size_t, int64_t, PieceCounts&,
                                  CounterScratch&) const;
template void PieceCounter::count(const uint16_t*, size_t, int64_t, PieceCounts&,
                                  CounterScratch&) const;
template void PieceCounter::count(const uint32_t*, size_t, int64_t, PieceCounts&,
                                  CounterScratch&) const;

}  // namespace codetok
