// Pre-tokenizer scanners (see pretokenize.hpp).
//
// A scanner stands at the start of the next piece and tries the pattern's alternatives in
// the pattern's order, each with the regex engine's choices (greedy runs, backtracking,
// possessive forms), but written as straight-line code over the character classes of
// unicode_tables. Every alternative either consumes what it scans or fails after scanning
// a run that the next alternative then consumes, so each scanner runs in linear time.
//
// Classes used below (the generated tables assert the facts relied on: \s, \p{L}, \p{N}
// are disjoint; marks are in none of them; \r and \n are in \s):
//   L      \p{L}                    N   \p{N}              WS  \s
//   other  [^\s\p{L}\p{N}]          (punctuation, symbols, marks, controls, surrogates)
//   UP     [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]   LO  [\p{Ll}\p{Lm}\p{Lo}\p{M}]   (o200k)
//
// The scanners are templates over the storage unit of the text (uint8_t, uint16_t or
// uint32_t, as Python stores a str): only props() differs. Latin-1 units read a 256-entry
// copy of the table; wider units take the same copy below U+0100 and the two-stage table
// above.
#include "kernels/pretokenize.hpp"

#include "tables/bert_tables.hpp"

#include <algorithm>

#include "tables/unicode_tables.hpp"

namespace codetok {
namespace {

constexpr size_t kFail = SIZE_MAX;
constexpr uint8_t kLNW = kL | kN | kWS;  // none of these: an "other" char
constexpr uint8_t kLetterOrMark = kUpperish | kLowerish;

// The flags of U+0000..U+00FF, copied out of the generated tables at load time (they are
// constant-initialized, so ready before any dynamic initializer runs).
struct Latin1Props {
    uint8_t v[256];
    Latin1Props() {
        for (uint32_t c = 0; c < 256; ++c) v[c] = uprops(c);
    }
};
const Latin1Props kLatin1;

inline uint8_t props(uint8_t c) { return kLatin1.v[c]; }
inline uint8_t props(uint16_t c) { return c < 0x100 ? kLatin1.v[c] : uprops(c); }
inline uint8_t props(uint32_t c) { return c < 0x100 ? kLatin1.v[c] : uprops(c); }
inline bool is_nl(uint32_t c) { return c == '\r' || c == '\n'; }

// End of the run of chars having a flag of `mask`, from i.
template <class CharT>
inline size_t run_any(const CharT* s, size_t i, size_t n, uint8_t mask) {
    while (i < n && (props(s[i]) & mask)) ++i;
    return i;
}
// End of the run of "other" chars ([^\s\p{L}\p{N}]+), from i.
template <class CharT>
inline size_t run_other(const CharT* s, size_t i, size_t n) {
    while (i < n && !(props(s[i]) & kLNW)) ++i;
    return i;
}
// [\r\n]* from i.
template <class CharT>
inline size_t run_nl(const CharT* s, size_t i, size_t n) {
    while (i < n && is_nl(s[i])) ++i;
    return i;
}
// [\r\n/]* from i (o200k).
template <class CharT>
inline size_t run_nl_slash(const CharT* s, size_t i, size_t n) {
    while (i < n && (is_nl(s[i]) || s[i] == '/')) ++i;
    return i;
}
// \p{N}{1,3} at i (s[i] is a digit).
template <class CharT>
inline size_t digits3(const CharT* s, size_t i, size_t n) {
    const size_t stop = std::min(n, i + 3);
    size_t e = i + 1;
    while (e < stop && (props(s[e]) & kN)) ++e;
    return e;
}

// Length of 's|'t|'re|'ve|'m|'ll|'d at i, case-sensitive (GPT-2), or 0.
template <class CharT>
inline size_t contraction_cs(const CharT* s, size_t i, size_t n) {
    if (i + 1 >= n || s[i] != '\'') return 0;
    switch (s[i + 1]) {
        case 's':
        case 't':
        case 'm':
        case 'd':
            return 2;
        case 'r':
        case 'v':
            return i + 2 < n && s[i + 2] == 'e' ? 3 : 0;
        case 'l':
            return i + 2 < n && s[i + 2] == 'l' ? 3 : 0;
        default:
            return 0;
    }
}

// The same under (?i:...) (cl100k, o200k, Llama-3), with the engine's case folding.
template <class CharT>
inline size_t contraction_ci(const CharT* s, size_t i, size_t n) {
    if (i + 1 >= n || s[i] != '\'') return 0;
    switch (contraction_letter(s[i + 1])) {
        case 's':
        case 't':
        case 'm':
        case 'd':
            return 2;
        case 'r':
        case 'v':
            return i + 2 < n && contraction_letter(s[i + 2]) == 'e' ? 3 : 0;
        case 'l':
            return i + 2 < n && contraction_letter(s[i + 2]) == 'l' ? 3 : 0;
        default:
            return 0;
    }
}

// The whitespace alternatives at i (s[i] is \s), once the others failed:
//   kEndRun   \s++$         a run that reaches the end is one piece (the run is possessive,
//                           so `$` before a final "\n" cannot apply: "\n" is in the run)
//   kNewline  \s*[\r\n]     up to the last \r or \n of the run (also \s*[\r\n]+: the
//                           backtracking stops at the last one, which no \r\n follows)
//   always    \s+(?!\S)     the run, minus its last char when a non-space follows
//             \s | \s+      else one char (a single space before a non-space)
template <bool kEndRun, bool kNewline, class CharT>
inline size_t ws_piece(const CharT* s, size_t i, size_t n) {
    size_t w = i;
    size_t last_nl = kFail;
    while (w < n) {
        const CharT c = s[w];
        if (c != ' ' && !(props(c) & kWS)) break;
        if (kNewline && is_nl(c)) last_nl = w;
        ++w;
    }
    if (kEndRun && w == n) return n;
    if (kNewline && last_nl != kFail) return last_nl + 1;
    if (w == n) return n;
    return w - i >= 2 ? w - 1 : i + 1;
}

// ---- GPT-2: 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+

template <class CharT>
void scan_gpt2(const CharT* s, size_t n, std::vector<uint32_t>& ends, size_t i,
               size_t limit) {
    while (i < n && ends.size() < limit) {
        const CharT c = s[i];
        const uint8_t f = props(c);
        size_t e;
        if (f & kL) {
            e = run_any(s, i + 1, n, kL);
        } else if (f & kN) {
            e = run_any(s, i + 1, n, kN);
        } else if (!(f & kWS)) {
            const size_t k = contraction_cs(s, i, n);
            e = k ? i + k : run_other(s, i + 1, n);
        } else if (c == ' ' && i + 1 < n && !(props(s[i + 1]) & kWS)) {
            const uint8_t g = props(s[i + 1]);
            e = (g & kL) ? run_any(s, i + 2, n, kL)
                : (g & kN) ? run_any(s, i + 2, n, kN)
                           : run_other(s, i + 2, n);
        } else {
            e = ws_piece<false, false>(s, i, n);
        }
        ends.push_back(static_cast<uint32_t>(e));
        i = e;
    }
}

// ---- cl100k (tiktoken) and its HF / Llama-3 form:
//   '(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+
//   |\s++$|\s*[\r\n]|\s+(?!\S)|\s                                              (tiktoken)
//   (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
//   | ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+                        (HF)
// The possessive and plain forms cut alike (nothing after them could give back a char);
// the one difference is \s++$, i.e. kEndRun.

template <bool kEndRun, class CharT>
void scan_cl100k(const CharT* s, size_t n, std::vector<uint32_t>& ends, size_t i,
               size_t limit) {
    while (i < n && ends.size() < limit) {
        const CharT c = s[i];
        const uint8_t f = props(c);
        size_t e;
        if (f & kL) {
            e = run_any(s, i + 1, n, kL);
        } else if (f & kN) {
            e = digits3(s, i, n);
        } else if (!(f & kWS)) {
            // other: a contraction, the prefix of a word, or punctuation with its newlines
            const size_t k = contraction_ci(s, i, n);
            if (k) {
                e = i + k;
            } else if (i + 1 < n && (props(s[i + 1]) & kL)) {
                e = run_any(s, i + 2, n, kL);
            } else {
                e = run_nl(s, run_other(s, i + 1, n), n);
            }
        } else {
            e = kFail;
            if (!is_nl(c) && i + 1 < n) {
                const uint8_t g = props(s[i + 1]);
                if (g & kL) {
                    e = run_any(s, i + 2, n, kL);  // a space-like prefix of a word
                } else if (c == ' ' && !(g & kLNW)) {
                    e = run_nl(s, run_other(s, i + 2, n), n);  // " ?" punctuation
                }
            }
            if (e == kFail) e = ws_piece<kEndRun, true>(s, i, n);
        }
        ends.push_back(static_cast<uint32_t>(e));
        i = e;
    }
}

// ---- o200k:
//   [^\r\n\p{L}\p{N}]?UP*LO+C?|[^\r\n\p{L}\p{N}]?UP+LO*C?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*
//   |\s*[\r\n]+|\s+(?!\S)|\s+             with C = (?i:'s|'t|'re|'ve|'m|'ll|'d)
// Marks are "other" (so they may be the optional prefix) and also UP and LO.

// The first alternative from p, where q ends the UP run from p: UP* gives back chars
// until LO+ can match, i.e. LO+ starts at the last LO char in [p, q].
template <class CharT>
inline size_t o200k_alt1(const CharT* s, size_t p, size_t q, size_t n) {
    size_t k;
    if (q < n && (props(s[q]) & kLowerish)) {
        k = q;
    } else {
        k = q;
        while (k > p && !(props(s[k - 1]) & kLowerish)) --k;
        if (k == p) return kFail;
        --k;
    }
    const size_t e = run_any(s, k + 1, n, kLowerish);
    return e + contraction_ci(s, e, n);
}

// The second alternative from p: UP+ then LO*.
template <class CharT>
inline size_t o200k_alt2(const CharT* s, size_t p, size_t q, size_t n) {
    if (q == p) return kFail;
    const size_t e = run_any(s, q, n, kLowerish);
    return e + contraction_ci(s, e, n);
}

template <class CharT>
void scan_o200k(const CharT* s, size_t n, std::vector<uint32_t>& ends, size_t i,
               size_t limit) {
    while (i < n && ends.size() < limit) {
        const CharT c = s[i];
        const uint8_t f = props(c);
        size_t e;
        if (f & kL) {
            // not a possible prefix: both word alternatives start here
            const size_t q = run_any(s, i, n, kUpperish);
            e = o200k_alt1(s, i, q, n);
            if (e == kFail) e = o200k_alt2(s, i, q, n);
        } else if (f & kN) {
            e = digits3(s, i, n);
        } else if (is_nl(c)) {
            e = ws_piece<false, true>(s, i, n);
        } else {
            // other or whitespace: first as the prefix of a word (with, then without it)
            const size_t q = run_any(s, i + 1, n, kUpperish);
            const bool mark = (f & kLetterOrMark) != 0;  // a word may also start here
            const size_t q0 = (f & kUpperish) ? q : i;   // the UP run from i
            e = o200k_alt1(s, i + 1, q, n);
            if (e == kFail && mark) e = o200k_alt1(s, i, q0, n);
            if (e == kFail) e = o200k_alt2(s, i + 1, q, n);
            if (e == kFail && mark) e = o200k_alt2(s, i, q0, n);
            if (e == kFail) {
                // " ?[^\s\p{L}\p{N}]+[\r\n/]*" ('/' is "other", so the run took it already)
                if (!(f & kWS)) {
                    e = run_nl_slash(s, run_other(s, i + 1, n), n);
                } else if (c == ' ' && i + 1 < n && !(props(s[i + 1]) & kLNW)) {
                    e = run_nl_slash(s, run_other(s, i + 2, n), n);
                } else {
                    e = ws_piece<false, true>(s, i, n);
                }
            }
        }
        ends.push_back(static_cast<uint32_t>(e));
        i = e;
    }
}

}  // namespace

template <class CharT>
void scan(Scanner which, const CharT* s, size_t n, std::vector<uint32_t>& ends, size_t start,
          size_t max_pieces) {
    if (n > UINT32_MAX) throw std::length_error("scan: text longer than 2**32 - 1 chars");
    const size_t limit = max_pieces > SIZE_MAX - ends.size() ? SIZE_MAX : ends.size() + max_pieces;
    switch (which) {
        case Scanner::Gpt2:
            return scan_gpt2(s, n, ends, start, limit);
        case Scanner::Cl100k:
            return scan_cl100k<true>(s, n, ends, start, limit);
        case Scanner::O200k:
            return scan_o200k(s, n, ends, start, limit);
        case Scanner::Llama3:
            return scan_cl100k<false>(s, n, ends, start, limit);
    }
    throw std::invalid_argument("scan: unknown scanner");
}

template void scan<uint8_t>(Scanner, const uint8_t*, size_t, std::vector<uint32_t>&, size_t, size_t);
template void scan<uint16_t>(Scanner, const uint16_t*, size_t, std::vector<uint32_t>&, size_t, size_t);
template void scan<uint32_t>(Scanner, const uint32_t*, size_t, std::vector<uint32_t>&, size_t, size_t);

// Reference: ``BertPreTokenizer.split`` (``_BERT_RE``: runs of neither class, or one
// punctuation char).
void bert_pieces(const Cp* s, size_t n, std::vector<uint32_t>& bounds) {
    size_t i = 0;
    while (i < n) {
        const uint8_t f = bert::flags(s[i]);
        if (f & bert::kSpace) {
            ++i;
            continue;
        }
        const auto start = static_cast<uint32_t>(i);
        if (f & bert::kPunct) {
            ++i;
        } else {
            while (i < n && !(bert::flags(s[i]) & (bert::kSpace | bert::kPunct))) ++i;
        }
        bounds.push_back(start);
        bounds.push_back(static_cast<uint32_t>(i));
    }
}

}  // namespace codetok
