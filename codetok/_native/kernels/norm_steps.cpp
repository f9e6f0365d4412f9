// See norm_steps.hpp. Comments name the Python method each block mirrors.
#include "kernels/norm_steps.hpp"

#include <algorithm>

#include "tables/bert_tables.hpp"

namespace codetok {

CharSet::CharSet(const std::vector<Cp>& chars) : dense_(0x3001, 0) {
    for (Cp c : chars) {
        if (c < dense_.size())
            dense_[c] = 1;
        else
            high_.push_back(c);
    }
    std::sort(high_.begin(), high_.end());
}

bool CharSet::high(Cp c) const { return std::binary_search(high_.begin(), high_.end(), c); }

NormSteps::NormSteps(std::vector<NormStep> steps, const std::vector<Cp>& whitespace)
    : steps_(std::move(steps)), space_(whitespace) {}

namespace {

// Reference: ``Strip.normalize`` (``NormalizedString.slice``).
template <class IsSpace>
void strip(NormalizedText& t, bool left, bool right, IsSpace is_space) {
    size_t a = 0, b = t.text.size();
    if (left)
        while (a < b && is_space(t.text[a])) ++a;
    if (right)
        while (b > a && is_space(t.text[b - 1])) --b;
    if (a == 0 && b == t.text.size()) return;
    t.text.erase(t.text.begin() + static_cast<std::ptrdiff_t>(b), t.text.end());
    t.src.erase(t.src.begin() + static_cast<std::ptrdiff_t>(b), t.src.end());
    t.text.erase(t.text.begin(), t.text.begin() + static_cast<std::ptrdiff_t>(a));
    t.src.erase(t.src.begin(), t.src.begin() + static_cast<std::ptrdiff_t>(a));
}

// Reference: ``Replace.normalize``: leftmost non-overlapping matches; the content aligns
// to the last char of its match. Returns false when nothing matched.
bool replace(const NormStep& step, const NormalizedText& in, NormalizedText& out) {
    const std::vector<Cp>& s = in.text;
    const size_t n = s.size();
    const std::vector<Cp>& p = step.pattern;
    const size_t m = p.size();
    if (!m || n < std::max(m, step.min_run)) return false;
    bool found = false;
    size_t copied = 0;  // in[0:copied] is in out
    auto emit = [&](size_t a, size_t e) {
        if (!found) {
            out.clear();
            found = true;
        }
        out.text.insert(out.text.end(), s.begin() + static_cast<std::ptrdiff_t>(copied),
                        s.begin() + static_cast<std::ptrdiff_t>(a));
        out.src.insert(out.src.end(), in.src.begin() + static_cast<std::ptrdiff_t>(copied),
                       in.src.begin() + static_cast<std::ptrdiff_t>(a));
        out.text.insert(out.text.end(), step.content.begin(), step.content.end());
        out.src.insert(out.src.end(), step.content.size(), in.src[e - 1]);
        copied = e;
    };
    size_t i = 0;
    if (step.min_run) {
        const Cp c = p[0];
        while (i < n) {
            if (s[i] != c) {
                ++i;
                continue;
            }
            size_t j = i + 1;
            while (j < n && s[j] == c) ++j;
            if (j - i >= step.min_run) emit(i, j);
            i = j;
        }
    } else {
        while (i + m <= n) {
            if (s[i] == p[0] && std::equal(p.begin() + 1, p.end(), s.begin() + static_cast<std::ptrdiff_t>(i + 1))) {
                emit(i, i + m);
                i += m;
            } else {
                ++i;
            }
        }
    }
    if (!found) return false;
    out.text.insert(out.text.end(), s.begin() + static_cast<std::ptrdiff_t>(copied), s.end());
    out.src.insert(out.src.end(), in.src.begin() + static_cast<std::ptrdiff_t>(copied), in.src.end());
    return true;
}

// Reference: ``NormalizedString.prepend``.
void prepend(NormalizedText& t, const std::vector<Cp>& content) {
    if (t.text.empty() || content.empty()) return;
    const uint32_t first = t.src[0];
    t.text.insert(t.text.begin(), content.begin(), content.end());
    t.src.insert(t.src.begin(), content.size(), first);
}

// Reference: ``_lower_chars`` (the pinned table of Rust's ``char::to_lowercase``).
bool lowercase(const NormalizedText& in, NormalizedText& out) {
    const size_t n = in.text.size();
    size_t i = 0;
    for (; i < n; ++i) {
        const Cp c = in.text[i];
        if (c < 0x80 ? (c >= 'A' && c <= 'Z') : (bert::flags(c) & bert::kLowers) != 0) break;
    }
    if (i == n) return false;
    out.clear();
    out.text.assign(in.text.begin(), in.text.begin() + static_cast<std::ptrdiff_t>(i));
    out.src.assign(in.src.begin(), in.src.begin() + static_cast<std::ptrdiff_t>(i));
    Cp buf[bert::kMaxLower];
    for (; i < n; ++i) {
        const Cp c = in.text[i];
        if (c < 0x80) {
            out.text.push_back(c >= 'A' && c <= 'Z' ? c + 32 : c);
            out.src.push_back(in.src[i]);
            continue;
        }
        const size_t k = bert::lower(c, buf);
        out.text.insert(out.text.end(), buf, buf + k);
        out.src.insert(out.src.end(), k, in.src[i]);
    }
    return true;
}

// Reference: ``StripAccents.normalize`` (HF's combining marks, deleted; the other chars
// keep their source). Returns false when nothing was deleted.
bool strip_accents(NormalizedText& t) {
    size_t o = 0;
    const size_t n = t.text.size();
    for (size_t i = 0; i < n; ++i) {
        const Cp c = t.text[i];
        if (c >= 0x300 && bert::strip_accent(c)) continue;
        t.text[o] = c;
        t.src[o] = t.src[i];
        ++o;
    }
    t.text.resize(o);
    t.src.resize(o);
    return false;  // edited in place
}

}  // namespace

namespace {

// ``unicode_form`` without the NFC shortcut (``nfc_inert`` is built with it).
bool full_form(const NormalizedText& in, NormalizedText& out, bool compat, bool compose,
               NormStepsScratch& w) {
    const std::vector<Cp>& s = in.text;
    const size_t n = s.size();
    size_t first = 0;  // chars before the first non-ASCII one stay as they are
    while (first < n && s[first] < 0x80) ++first;
    if (first == n) return false;
    std::vector<Cp>& seq = w.seq;
    std::vector<int32_t>& chg = w.chg;
    seq.assign(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(first));
    chg.assign(first, 0);
    // Decomposition: a char's first char takes its place (0), the others are inserted (1).
    Cp d[bert::kMaxCompatDecomposition];
    for (size_t i = first; i < n; ++i) {
        const Cp c = s[i];
        size_t m = 1;
        d[0] = c;
        if (c >= 0x80) m = compat ? bert::decompose_compat(c, d) : bert::decompose(c, d);
        for (size_t k = 0; k < m; ++k) {
            seq.push_back(d[k]);
            chg.push_back(k > 0 ? 1 : 0);
        }
    }
    // Canonical ordering: runs of non-starters stably sorted by class, changes along.
    const size_t m = seq.size();
    auto ccc = [](Cp c) { return c < 0x300 ? uint8_t{0} : bert::combining_class(c); };
    for (size_t i = first; i < m;) {
        if (ccc(seq[i]) == 0) {
            ++i;
            continue;
        }
        size_t j = i + 1;
        while (j < m && ccc(seq[j]) != 0) ++j;
        for (size_t a = i + 1; a < j; ++a) {  // insertion sort: runs are short
            const Cp c = seq[a];
            const int32_t g = chg[a];
            const uint8_t k = ccc(c);
            size_t b = a;
            while (b > i && ccc(seq[b - 1]) > k) {
                seq[b] = seq[b - 1];
                chg[b] = chg[b - 1];
                --b;
            }
            seq[b] = c;
            chg[b] = g;
        }
        i = j;
    }
    size_t len = m;
    if (compose) {
        // A char joins the last starter unless a char between them blocks it (class 0,
        // or not lower); the starter's change takes ``change - 1`` of the char.
        size_t o = 0;
        ptrdiff_t starter = -1;
        for (size_t k = 0; k < m; ++k) {
            const Cp c = seq[k];
            const uint8_t cc = ccc(c);
            if (starter >= 0) {
                const size_t st = static_cast<size_t>(starter);
                const bool adjacent = o - 1 == st;
                if (adjacent || ccc(seq[o - 1]) < cc) {
                    const Cp comp = bert::compose(seq[st], c);
                    if (comp != 0) {
                        seq[st] = comp;
                        chg[st] += chg[k] - 1;
                        continue;
                    }
                }
            }
            if (cc == 0) starter = static_cast<ptrdiff_t>(o);
            seq[o] = c;
            chg[o] = chg[k];
            ++o;
        }
        len = o;
    }
    if (len == n && std::equal(s.begin(), s.end(), seq.begin()) &&
        std::all_of(chg.begin(), chg.begin() + static_cast<std::ptrdiff_t>(len),
                    [](int32_t g) { return g == 0; }))
        return false;
    // HF's alignment: a char with change <= 0 takes the next source char (and -g more
    // are consumed), an insertion the source char before it.
    out.clear();
    size_t pos = 0;
    for (size_t k = 0; k < len; ++k) {
        out.text.push_back(seq[k]);
        if (chg[k] > 0) {
            out.src.push_back(pos > 0 ? in.src[pos - 1] : in.src[0]);
        } else {
            out.src.push_back(in.src[pos]);
            pos += static_cast<size_t>(1 - chg[k]);
        }
    }
    return true;
}

// One bit per code point: set when ``nfc_inert`` says no (see norm_steps.hpp).
std::vector<uint64_t> nfc_stirred() {
    constexpr Cp kEnd = 0x110000, kHangulFirst = 0xAC00, kHangulLast = 0xD7A3;
    std::vector<uint64_t> later(kEnd / 64, 0), stirred(kEnd / 64, 0);
    const auto set = [](std::vector<uint64_t>& bits, Cp c) {
        bits[c >> 6] |= uint64_t{1} << (c & 63);
    };
    const auto has = [](const std::vector<uint64_t>& bits, Cp c) {
        return ((bits[c >> 6] >> (c & 63)) & 1) != 0;
    };
    // What a composition may take as a later char: every char after the first of a
    // decomposition, and the Hangul vowels and trailing consonants (composed by rule).
    Cp d[bert::kMaxDecomposition];
    for (Cp c = 0x80; c < kEnd; ++c) {
        if ((c >= kHangulFirst && c <= kHangulLast) || !(bert::flags(c) & bert::kDecomposes))
            continue;
        const size_t m = bert::decompose(c, d);
        for (size_t k = 1; k < m; ++k) set(later, d[k]);
    }
    for (Cp c = 0x1161; c <= 0x1175; ++c) set(later, c);
    for (Cp c = 0x11A8; c <= 0x11C2; ++c) set(later, c);
    // A starter that is no later char is inert when it does not decompose, or when it
    // decomposes from a starter that is no later char either and composes back to itself
    // (a Hangul syllable does, by rule).
    NormalizedText one, got;
    NormStepsScratch w;
    for (Cp c = 0x300; c < kEnd; ++c) {
        if (has(later, c) || (bert::flags(c) & bert::kCombining)) {
            set(stirred, c);
            continue;
        }
        if ((c >= kHangulFirst && c <= kHangulLast) || !(bert::flags(c) & bert::kDecomposes))
            continue;
        bert::decompose(c, d);
        bool back = bert::combining_class(d[0]) == 0 && !has(later, d[0]);
        if (back) {
            one.text.assign(1, c);
            one.src.assign(1, 0);
            back = !full_form(one, got, false, true, w);
        }
        if (!back) set(stirred, c);
    }
    return stirred;
}

}  // namespace

bool nfc_inert(Cp c) {
    if (c < 0x300) return true;
    if (c >= 0x110000) return false;
    static const std::vector<uint64_t> stirred = nfc_stirred();
    return !((stirred[c >> 6] >> (c & 63)) & 1);
}

bool unicode_form(const NormalizedText& in, NormalizedText& out, bool compat, bool compose,
                  NormStepsScratch& w) {
    if (compose && !compat) {  // NFC: a text of chars it leaves alone stays as it is
        size_t k = 0;
        while (k < in.text.size() && nfc_inert(in.text[k])) ++k;
        if (k == in.text.size()) return false;
    }
    return full_form(in, out, compat, compose, w);
}

void NormSteps::run(NormalizedText& text, NormStepsScratch& w) const {
    for (const NormStep& step : steps_) {
        if (text.text.empty()) return;
        bool changed = false;
        switch (step.kind) {
            case NormStep::kPrecompiled:
                changed = precompiled_normalize(*step.charsmap, text, w.tmp, w.precompiled);
                break;
            case NormStep::kStrip:
                strip(text, step.left, step.right, [this](Cp c) { return space_.has(c); });
                break;
            case NormStep::kReplace:
                changed = replace(step, text, w.tmp);
                break;
            case NormStep::kPrepend:
                prepend(text, step.content);
                break;
            case NormStep::kLowercase:
                changed = lowercase(text, w.tmp);
                break;
            case NormStep::kUnicode:
                changed = unicode_form(text, w.tmp, step.compat, step.compose, w);
                break;
            case NormStep::kStripAccents:
                strip_accents(text);
                break;
        }
        if (changed) {
            std::swap(text.text, w.tmp.text);
            std::swap(text.src, w.tmp.src);
        }
    }
}

}  // namespace codetok
