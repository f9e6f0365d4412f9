// See identifier_split.hpp. Each step names the Python function it repeats.
#include "code/identifier_split.hpp"

#include <algorithm>
#include <utility>

namespace codetok {
namespace code {
namespace {

bool is_sep(char c) { return c == '_' || c == '$' || c == '@'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// ``str.islower`` of an ASCII string: a lowercase letter and no uppercase one.
bool ascii_islower(const char* s, size_t n) {
    bool cased = false;
    for (size_t k = 0; k < n; ++k) {
        if (is_upper(s[k])) return false;
        cased = cased || is_lower(s[k]);
    }
    return cased;
}

}  // namespace

IdentifierRules::IdentifierRules(std::vector<std::string> stems,
                                 std::vector<std::string> function_words,
                                 std::vector<std::string> protected_terms,
                                 std::vector<std::string> suffixes)
    : stems_(stems.begin(), stems.end()),
      function_words_(function_words.begin(), function_words.end()),
      suffixes_(suffixes.begin(), suffixes.end()),
      protected_(std::move(protected_terms)) {
    for (const std::string& term : protected_) {
        const auto c = term.empty() ? 0x80u : static_cast<unsigned char>(term[0]);
        if (c < 0x80) protected_first_[c >> 6] |= uint64_t{1} << (c & 63);
    }
}

// Reference: ``IdentifierSplitter._split`` and ``SplitIdentifier.pieces``: the prefix run
// of separators, the words of each segment with the separator runs between them, the
// suffix run.
void IdentifierRules::split_ascii(const std::string& name, Scratch& w,
                                  std::vector<uint32_t>& lens) const {
    const size_t n = name.size();
    size_t first_sep_end = 0;
    while (first_sep_end < n && is_sep(name[first_sep_end])) ++first_sep_end;
    if (first_sep_end == n) {  // only separators: one part
        lens.push_back(static_cast<uint32_t>(n));
        return;
    }
    size_t start = 0, end = n;
    if (first_sep_end > 0) {
        lens.push_back(static_cast<uint32_t>(first_sep_end));
        start = first_sep_end;
    }
    size_t suffix = 0;
    while (suffix < n - start && is_sep(name[n - 1 - suffix])) ++suffix;
    end = n - suffix;
    size_t pos = start;
    while (pos < end) {
        size_t seg_end = pos;
        while (seg_end < end && !is_sep(name[seg_end])) ++seg_end;
        split_segment(name.data() + pos, seg_end - pos, w, lens);
        size_t next = seg_end;
        while (next < end && is_sep(name[next])) ++next;
        if (next > seg_end) lens.push_back(static_cast<uint32_t>(next - seg_end));
        pos = next;
    }
    if (suffix) lens.push_back(static_cast<uint32_t>(suffix));
}

// Reference: the ``_TOKEN`` pattern, alternatives in order: a protected term not followed
// by a lowercase letter, a plural acronym, an acronym before a capitalised word, a word,
// an uppercase run, digits, any other char.
void IdentifierRules::tokens(const char* seg, size_t n, std::vector<Tok>& out) const {
    out.clear();
    size_t p = 0;
    auto push = [&](Kind k, size_t b) {
        out.push_back(Tok{k, static_cast<uint32_t>(p), static_cast<uint32_t>(b)});
        p = b;
    };
    while (p < n) {
        bool done = false;
        if (may_be_protected(seg[p])) {
            for (const std::string& term : protected_) {
                const size_t b = p + term.size();
                if (b <= n && std::equal(term.begin(), term.end(), seg + p) &&
                    (b == n || !is_lower(seg[b]))) {
                    push(Prot, b);
                    done = true;
                    break;
                }
            }
        }
        if (done) continue;
        size_t q = p;
        while (q < n && is_upper(seg[q])) ++q;
        if (q - p >= 2 && q < n && seg[q] == 's' && (q + 1 == n || !is_lower(seg[q + 1]))) {
            push(Plural, q + 1);
        } else if (q - p >= 2 && q < n && is_lower(seg[q])) {
            push(Acro, q - 1);
        } else if (is_lower(seg[p]) || (q - p == 1 && q < n && is_lower(seg[q]))) {
            size_t b = is_lower(seg[p]) ? p + 1 : p + 2;
            while (b < n && is_lower(seg[b])) ++b;
            push(Word, b);
        } else if (q > p) {
            push(Upper, q);
        } else if (is_digit(seg[p])) {
            size_t b = p + 1;
            while (b < n && is_digit(seg[b])) ++b;
            push(Digit, b);
        } else {
            push(Other, p + 1);
        }
    }
}

// Reference: ``_tokens`` then ``_apply_digit_rules``: numeronyms, ordinal and dimension
// suffixes, digits joining a stem or a short part, "2"/"4" read as words.
void IdentifierRules::split_segment(const char* seg, size_t n, Scratch& w,
                                    std::vector<uint32_t>& lens) const {
    std::vector<Tok>& toks = w.toks;
    std::vector<Tok>& out = w.out;
    tokens(seg, n, toks);
    out.clear();
    const size_t m = toks.size();
    auto len = [](const Tok& t) { return static_cast<size_t>(t.b - t.a); };
    auto text = [&](const Tok& t) { return std::string(seg + t.a, len(t)); };
    auto lower_of = [&](const Tok& t) {
        std::string s = text(t);
        for (char& c : s)
            if (is_upper(c)) c = static_cast<char>(c - 'A' + 'a');
        return s;
    };
    size_t i = 0;
    while (i < m) {
        const Tok& t = toks[i];
        if ((t.kind == Word || t.kind == Upper) && len(t) == 1 && i + 2 < m &&
            toks[i + 1].kind == Digit && toks[i + 2].kind == Word && len(toks[i + 2]) <= 2 &&
            ascii_islower(seg + toks[i + 2].a, len(toks[i + 2])) &&
            (out.empty() || !is_lower(seg[out.back().b - 1]))) {
            out.push_back(Tok{Word, t.a, toks[i + 2].b});
            i += 3;
            continue;
        }
        if (t.kind == Digit) {
            if (i + 1 < m && (toks[i + 1].kind == Word || toks[i + 1].kind == Upper) &&
                suffixes_.count(text(toks[i + 1]))) {
                const bool after_word = i + 2 < m && toks[i + 2].kind == Word;
                if (!after_word || text(toks[i + 1]) != "D") {
                    out.push_back(Tok{Dim, t.a, toks[i + 1].b});
                    i += 2;
                    continue;
                }
            }
            if (!out.empty()) {
                const Tok prev = out.back();
                const Kind pk = prev.kind;
                if (pk == Word || pk == Upper || pk == Acro || pk == Plural || pk == Prot) {
                    const std::string letters = lower_of(prev);
                    const bool stem = stems_.count(letters) > 0 || pk == Prot;
                    const std::string digits = text(t);
                    const bool as_word =
                        (digits == "2" || digits == "4") && !stem && letters.size() >= 2 &&
                        i + 1 < m && toks[i + 1].kind == Word &&
                        ascii_islower(seg + toks[i + 1].a, len(toks[i + 1])) &&
                        len(toks[i + 1]) >= 2;
                    const bool is_short = letters.size() <= 3 && len(t) <= 3 &&
                                          function_words_.count(letters) == 0;
                    if ((stem || is_short) && !as_word) {
                        out.back() = Tok{Num, prev.a, t.b};
                        ++i;
                        continue;
                    }
                }
            }
        }
        out.push_back(t);
        ++i;
    }
    for (const Tok& t : out) lens.push_back(t.b - t.a);
}

}  // namespace code
}  // namespace codetok
