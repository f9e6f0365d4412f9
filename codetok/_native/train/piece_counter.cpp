// See piece_counter.hpp. Comments name the Python code each block mirrors.
#include "train/piece_counter.hpp"

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
                           NormSteps steps, const std::vector<Cp>& whitespace)
    : spec_(std::move(spec)),
      raw_(std::move(raw)),
      norm_(std::move(norm)),
      steps_(std::move(steps)),
      space_(whitespace),
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

// Reference: the normalizer on the segment (``a``: where it starts in the text), then the
// pre-tokenizer (``split_many``).
template <class CharT>
void PieceCounter::segment(const CharT* t, size_t a, size_t b, int64_t weight,
                           PieceCounts& into, CounterScratch& w) const {
    NormalizedText& nt = w.normalized;
    if (!steps_.empty()) {
        steps_.run(t, a, b, nt, w.steps);
    } else if (spec_.bert_normalizer) {
        bert_normalize(spec_.bert, t, a, b, nt);
    } else {
        nt.clear();
        nt.text.assign(t + a, t + b);
        nt.src.resize(b - a);
        for (size_t i = 0; i < b - a; ++i) nt.src[i] = static_cast<uint32_t>(i);
    }
    if (nt.text.empty()) return;
    if (spec_.pre == CounterSpec::Pre::kByteLevel) {  // ``ByteLevel``'s prefix space
        std::vector<Cp>& text = w.text;
        text.clear();
        if (spec_.add_prefix_space && nt.text[0] != ' ') text.push_back(' ');
        text.insert(text.end(), nt.text.begin(), nt.text.end());
        byte_level(text.data(), text.size(), weight, into, w);
        return;
    }
    pieces(nt.text.data(), nt.src.data(), a, nt.text.size(), weight, into, w);
}

void PieceCounter::pieces(const Cp* s, const uint32_t* src, size_t a, size_t n, int64_t weight,
                          PieceCounts& into, CounterScratch& w) const {
    switch (spec_.pre) {
        case CounterSpec::Pre::kPasses:
            split_words(s, n, spec_.passes, w.words, w.split);
            for (const Span32& p : w.words)
                if (p.end > p.start) into.add(s + p.start, p.end - p.start, weight);
            return;
        case CounterSpec::Pre::kBert:
            w.bounds.clear();
            bert_pieces(s, n, w.bounds);
            for (size_t k = 0; k < w.bounds.size(); k += 2)
                if (w.bounds[k + 1] > w.bounds[k])
                    into.add(s + w.bounds[k], w.bounds[k + 1] - w.bounds[k], weight);
            return;
        case CounterSpec::Pre::kWords: {
            // Reference: ``WhitespaceSplit.split`` then ``Metaspace.split`` of each word.
            size_t i = 0;
            while (i < n) {
                size_t j = n;
                if (spec_.whitespace_split) {
                    if (space_.has(s[i])) {
                        ++i;
                        continue;
                    }
                    j = i + 1;
                    while (j < n && !space_.has(s[j])) ++j;
                }
                if (spec_.metaspace)
                    metaspace(s + i, j - i, a + src[i] == 0, weight, into, w);
                else
                    into.add(s + i, j - i, weight);
                i = j;
            }
            return;
        }
        case CounterSpec::Pre::kByteLevel:
            byte_level(s, n, weight, into, w);
            return;
    }
}

// Reference: ``Metaspace.split`` of one word (``first``: it starts the text).
void PieceCounter::metaspace(const Cp* s, size_t n, bool first, int64_t weight,
                             PieceCounts& into, CounterScratch& w) const {
    const Cp meta = spec_.meta;
    std::vector<Cp>& text = w.text;
    text.clear();
    const bool starts_meta = s[0] == meta || s[0] == ' ';
    if (!starts_meta && (spec_.prepend == 1 || (spec_.prepend == 2 && first)))
        text.push_back(meta);
    for (size_t k = 0; k < n; ++k) text.push_back(s[k] == ' ' ? meta : s[k]);
    const size_t m = text.size();
    size_t i = 0;
    while (i < m) {
        size_t j = m;
        if (spec_.meta_split) {
            j = i + 1;
            while (j < m && text[j] != meta) ++j;
        }
        into.add(text.data() + i, j - i, weight);
        i = j;
    }
}

// Reference: ``ByteLevel.split``: the scanner's pieces, each as the byte-level alphabet
// of its UTF-8 bytes.
void PieceCounter::byte_level(const Cp* s, size_t n, int64_t weight, PieceCounts& into,
                              CounterScratch& w) const {
    constexpr size_t kWindow = 4096;  // pieces per scan: no array of all of a long text's
    size_t p0 = 0;
    while (p0 < n) {
        w.ends.clear();
        scan(spec_.scanner, s, n, w.ends, p0, kWindow);
        if (w.ends.empty()) break;
        for (uint32_t p1 : w.ends) {
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
