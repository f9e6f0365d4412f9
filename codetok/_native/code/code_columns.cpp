// See code_columns.hpp. Each step names the Python code it repeats.
#include "code/code_columns.hpp"

#include "code/code_kinds.hpp"

#ifdef CODETOK_TREE_SITTER

#include <algorithm>
#include <string>
#include <type_traits>

namespace codetok {
namespace code {
namespace {

using Rec = WalkRecord;

// Byte classes of ``split_gaps``: 0 "\n", 1 "\r", 2 blank, 3 other, 4 backslash.
struct ByteClasses {
    uint8_t of[256];
    constexpr ByteClasses() : of{} {
        for (int b = 0; b < 256; ++b) of[b] = 3;
        of[10] = 0;
        of[13] = 1;
        of[32] = of[9] = of[11] = of[12] = 2;
        of[92] = 4;
    }
};
constexpr ByteClasses kByteClasses;
inline int byte_class(unsigned char b) { return kByteClasses.of[b]; }

constexpr int kAskPython = -2;

// Reference: ``text_kind`` (grammar.py), the kind of a named leaf the grammar file does not
// map, for ASCII text (anything else is asked of Python): a word (``@``/``$`` first
// allowed) is an identifier, a digit (or "." and a digit) starts a number, blank text is
// whitespace, brackets and separators are punctuation, the rest an operator.
int ascii_text_kind(const char* s, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (static_cast<unsigned char>(s[i]) >= 0x80) return kAskPython;
    auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); };
    size_t i = n && (s[0] == '@' || s[0] == '$') ? 1 : 0;
    if (i < n && alpha(s[i])) {
        size_t k = i + 1;
        while (k < n && (alpha(s[k]) || digit(s[k]))) ++k;
        if (k == n || (k + 1 == n && s[k] == '\n')) return kIdentifier;  // "$" of the regex
    }
    if (n && (digit(s[0]) || (n > 1 && s[0] == '.' && digit(s[1])))) return kNumber;
    if (n) {
        size_t k = 0;
        while (k < n && space(s[k])) ++k;
        if (k == n) return kWhitespace;
    }
    static const char* const kPunct[] = {"(", ")", "[", "]", "{", "}", ",", ";", ".", ":", "::"};
    for (const char* p : kPunct)
        if (std::char_traits<char>::length(p) == n && std::char_traits<char>::compare(p, s, n) == 0)
            return kPunctuation;
    return kOperator;
}

class Builder {
  public:
    Builder(const WalkTables& walk, const ColumnTables& g, const char* data, size_t total,
            size_t base, const ColumnCallbacks& cb, LexColumns& out)
        : walk_(walk), g_(g), total_(total), base_(base), cb_(cb), out_(out),
          body_(data + base), gap_(static_cast<int64_t>(walk.roles.size()) - 2) {}

    bool records(WalkResult& w) {
        // The walk's records (string runs merged by the walk), then the bytes after the
        // root node as a gap. Record ``i`` ends where ``i + 1`` starts, the last at ``end``.
        const int64_t body_n = static_cast<int64_t>(total_ - base_);
        auto& recs = w.records;
        const int64_t covered = recs.empty() ? 0 : w.end;
        int64_t end = covered;
        if (body_n > covered) {
            const int64_t root = std::min<int64_t>(w.root_kid, gap_ + 1);
            recs.push_back(Rec{static_cast<uint32_t>(covered), static_cast<uint16_t>(gap_),
                               static_cast<uint16_t>(walk_.type_index[root]), 0, 0});
            end = body_n;
        }
        split_comment_line_breaks(w, end);
        const size_t m = recs.size();
        auto end_of = [&](size_t i) -> int64_t { return i + 1 < m ? recs[i + 1].s : end; };
        // The lexemes to come: one per record, a gap as many as it splits into (counted
        // with the "\r" a comment before it may hand it, so never too few).
        size_t count = base_ ? 1 : 0;
        for (size_t i = 0; i < m; ++i) {
            const Rec& r = recs[i];
            if (r.ctx != 0 || r.kid != gap_) {
                ++count;
                continue;
            }
            const bool cr = i > 0 && r.s > 0 && body_[r.s - 1] == '\r' &&
                            !(recs[i - 1].ctx == 0 && recs[i - 1].kid == gap_);
            count += gap_pieces(cr ? r.s - 1 : r.s, end_of(i));
        }
        out_.reserve(count);
        if (base_) push(kWhitespace, 0, 0, 0, 0, static_cast<int64_t>(base_));
        // Reference: ``_records_to_columns``: kinds, then the comment "\r" fix, then gaps.
        for (size_t i = 0; i < m; ++i) {
            Rec& r = recs[i];
            int64_t e = end_of(i);
            if (r.ctx == 0 && r.kid == gap_) {
                if (!split_gap(r, e)) return false;
                continue;
            }
            int kind = g_.leaf_kinds[r.kid];
            if (r.ctx > 0) kind = kString;
            if (r.ctx < 0) kind = kDocstring;
            if (r.ctx == 0) {
                if (kind == kTextDefined) {
                    const size_t len = static_cast<size_t>(e - r.s);
                    kind = ascii_text_kind(body_ + r.s, len);
                    if (kind == kAskPython) kind = cb_.text_kind(cb_.ctx, body_ + r.s, len);
                    if (kind < 0) return false;
                }
                if (g_.has_by_text[r.kid]) {
                    const auto& table = g_.by_text.at(static_cast<uint32_t>(r.kid));
                    auto it = table.find(std::string(body_ + r.s, static_cast<size_t>(e - r.s)));
                    if (it != table.end()) kind = it->second;
                }
                if (g_.has_by_parent[r.kid]) {
                    auto it = g_.by_parent.find(static_cast<uint32_t>(r.kid) << 16 | r.par);
                    if (it != g_.by_parent.end()) kind = it->second;
                }
                if (g_.comment_doc && kind == kComment) {
                    const int doc = is_doc(r.s);
                    if (doc < 0) return false;
                    if (doc) kind = kDocstring;
                }
                if ((kind == kComment || kind == kDocstring || kind == kString) && e > r.s + 1 &&
                    body_[e - 1] == '\r' && i + 1 < m &&
                    (recs[i + 1].kid == gap_ ||
                     (recs[i + 1].ctx == 0 && g_.leaf_kinds[recs[i + 1].kid] == kNewline))) {
                    --e;  // some grammars end a line comment (or a raw leaf such as C's
                    recs[i + 1].s = static_cast<uint32_t>(e);  // "#define" body) after "\r"
                }
            }
            push(static_cast<uint8_t>(kind), walk_.type_index[r.kid], r.par, r.fl,
                 int64_t{r.s} + base(), e + base());
        }
        if (!g_.doc_owner.empty()) doc_before();
        return true;
    }

    // Reference: ``mark_doc_before`` (doc_before.py): a comment that starts its line and
    // lies right above (no blank line) a token of a documented node, or above the next
    // comment of such a run, is documentation.
    void doc_before() {
        const size_t n = out_.kinds.size();
        size_t next = n;  // the first lexeme after ``i`` that is no whitespace or newline
        for (size_t i = n; i-- > 0;) {
            const uint8_t k = out_.kinds[i];
            if (k == kWhitespace || k == kNewline) continue;
            const size_t j = next;
            next = i;
            if (k != kComment || j == n) continue;
            const uint8_t kj = out_.kinds[j];
            const bool follows_doc =
                (kj == kComment || kj == kDocstring)
                    ? kj == kDocstring
                    : (out_.parents[j] < g_.doc_owner.size() && g_.doc_owner[out_.parents[j]]);
            if (!follows_doc) continue;
            const int64_t b = base();
            int lines = 0;
            for (int64_t p = out_.be[i] - b; p < out_.bs[j] - b; ++p) lines += body_[p] == '\n';
            if (lines > 1) continue;
            int64_t p = out_.bs[i] - b;
            while (p > 0 && (body_[p - 1] == ' ' || body_[p - 1] == '\t')) --p;
            if (p == 0 || body_[p - 1] == '\n' || body_[p - 1] == '\r') out_.kinds[i] = kDocstring;
        }
    }

  private:
    int64_t base() const { return static_cast<int64_t>(base_); }

    // Reference: ``_split_comment_line_breaks``: the line break that ends some grammars'
    // line comments (Rust's ``///``) becomes a gap record of its own (so a NEWLINE lexeme).
    void split_comment_line_breaks(WalkResult& w, int64_t end) {
        auto& recs = w.records;
        const size_t m = recs.size();
        auto cut_of = [&](size_t i) -> int64_t {  // where the line break starts, or -1
            const Rec& r = recs[i];
            const uint8_t k = g_.leaf_kinds[r.kid];
            if (r.ctx != 0 || (k != kComment && k != kDocstring)) return -1;
            const int64_t e = i + 1 < m ? int64_t{recs[i + 1].s} : end;
            if (e - 1 <= int64_t{r.s} || body_[e - 1] != '\n') return -1;
            return e - 2 > int64_t{r.s} && body_[e - 2] == '\r' ? e - 2 : e - 1;
        };
        size_t hits = 0;
        for (size_t i = 0; i < m; ++i) hits += cut_of(i) >= 0;
        if (!hits) return;
        std::remove_reference_t<decltype(recs)> out(recs.get_allocator());
        out.reserve(m + hits);
        for (size_t i = 0; i < m; ++i) {
            const int64_t cut = cut_of(i);
            out.push_back(recs[i]);
            if (cut >= 0)
                out.push_back(Rec{static_cast<uint32_t>(cut), static_cast<uint16_t>(gap_),
                                  recs[i].par, recs[i].fl, 0});
        }
        recs.swap(out);
    }

    void push(uint8_t kind, uint16_t type, uint16_t parent, uint8_t fl, int64_t s, int64_t e) {
        out_.push(kind, type, parent, fl, s, e);
    }

    // ``g.comment_doc`` on the first 8 bytes from ``s`` (1: a documentation comment).
    int is_doc(int64_t s) {
        const size_t body_n = total_ - base_;
        const size_t n = std::min<size_t>(8, body_n - static_cast<size_t>(s));
        const char* head = body_ + s;
        if (!g_.doc_patterns_native) return cb_.is_doc(cb_.ctx, head, n);
        for (const DocPattern& p : g_.doc_patterns) {
            const size_t k = p.literal.size();
            if (k > n || p.literal.compare(0, k, head, k) != 0) continue;
            if (k < n && p.forbidden.find(head[k]) != std::string::npos) continue;
            return 1;
        }
        return 0;
    }

    // The end of the piece of a gap that starts at ``p`` (the gap ends at ``e``): the rule
    // of ``split_gaps``.
    int64_t piece_end(int64_t p, int64_t e) const {
        int prev = byte_class(static_cast<unsigned char>(body_[p]));
        int64_t q = p + 1;
        if (prev == 2 || prev == 3) {  // a run of one class (the rule below, unrolled)
            while (q < e && byte_class(static_cast<unsigned char>(body_[q])) == prev) ++q;
            return q;
        }
        while (q < e) {
            const int d = byte_class(static_cast<unsigned char>(body_[q]));
            const bool boundary = (d == 1 && prev != 4) || (d == 0 && prev != 1 && prev != 4) ||
                                  (d >= 2 && (prev != d || d == 4));
            if (boundary) break;
            prev = d;
            ++q;
        }
        return q;
    }

    // How many lexemes the gap ``[p, e)`` splits into.
    size_t gap_pieces(int64_t p, int64_t e) const {
        size_t n = 0;
        for (; p < e; p = piece_end(p, e)) ++n;
        return n;
    }

    // Reference: ``split_gaps`` of one gap: one NEWLINE per line break ("\r\n" one), blank
    // runs, a backslash with the line break after it, and runs of other bytes (blank when
    // every char is, else ERROR).
    bool split_gap(const Rec& r, int64_t e) {
        int64_t p = r.s;
        while (p < e) {
            const int c = byte_class(static_cast<unsigned char>(body_[p]));
            const int64_t q = piece_end(p, e);
            int kind;
            if (c <= 1)
                kind = kNewline;
            else if (c == 2 || (c == 4 && q - p > 1))
                kind = kWhitespace;
            else
                kind = kError;
            if (c == 3) {
                const int blank = blank_run(p, q);
                if (blank < 0) return false;
                if (blank) {
                    kind = kWhitespace;
                } else if (!g_.gap_kinds.empty()) {
                    auto it = g_.gap_kinds.find(std::string(body_ + p, static_cast<size_t>(q - p)));
                    if (it != g_.gap_kinds.end()) kind = it->second;
                }
            }
            push(static_cast<uint8_t>(kind), 0, static_cast<uint16_t>(r.par),
                 static_cast<uint8_t>(r.fl), p + base(), q + base());
            p = q;
        }
        return true;
    }

    // Whether every char of ``body[p:q]`` is blank (``str.isspace`` or one of
    // ``_EXTRA_BLANKS``); pure ASCII here (of the class-3 bytes only 0x1C..0x1F are blank),
    // other text by Python.
    int blank_run(int64_t p, int64_t q) {
        bool ascii = true, blank = true;
        for (int64_t k = p; k < q; ++k) {
            const unsigned char b = static_cast<unsigned char>(body_[k]);
            if (b >= 0x80) ascii = false;
            blank = blank && b >= 0x1C && b <= 0x1F;
        }
        if (ascii) return blank ? 1 : 0;
        return cb_.blank(cb_.ctx, body_ + p, static_cast<size_t>(q - p));
    }

    const WalkTables& walk_;
    const ColumnTables& g_;
    size_t total_, base_;
    const ColumnCallbacks& cb_;
    LexColumns& out_;
    const char* body_;
    int64_t gap_;
};

// Reference: ``insert_layout``: an INDENT before the first code lexeme of each block that
// starts a line, a DEDENT before the first code lexeme at or after its end (or at the end).
void insert_layout(const std::vector<int64_t>& blocks, size_t base, size_t total,
                   LexColumns& c) {
    const size_t n = c.kinds.size();
    std::vector<size_t> code;
    std::vector<int64_t> code_starts;
    for (size_t i = 0; i < n; ++i) {
        const uint8_t k = c.kinds[i];
        if (k != kWhitespace && k != kNewline && k != kComment) {
            code.push_back(i);
            code_starts.push_back(c.bs[i]);
        }
    }
    if (code.empty()) return;
    struct Marker {
        int64_t pos;
        int order;     // DEDENTs before INDENTs at one position
        int64_t inner;  // then the innermost DEDENT, the outermost INDENT first
        uint8_t kind;
        uint16_t type, parent;
    };
    std::vector<Marker> dedents, indents;
    const int64_t b0 = static_cast<int64_t>(base);
    for (size_t k = 0; 4 * k < blocks.size(); ++k) {
        const int64_t* b = &blocks[4 * k];
        const int64_t start = b[0] + b0, end = b[1] + b0;
        const size_t j = std::lower_bound(code_starts.begin(), code_starts.end(), start) -
                         code_starts.begin();
        if (j >= code.size() || code_starts[j] >= end) continue;
        const size_t first = code[j];
        int64_t prev = static_cast<int64_t>(first) - 1;
        if (prev >= 0 && c.kinds[prev] == kWhitespace) --prev;
        if (!(prev < 0 || c.kinds[prev] == kNewline)) continue;
        const size_t d =
            std::lower_bound(code_starts.begin(), code_starts.end(), end) - code_starts.begin();
        const int64_t dedent_pos = d < code.size() ? code_starts[d] : static_cast<int64_t>(total);
        const uint16_t type = static_cast<uint16_t>(b[2]), parent = static_cast<uint16_t>(b[3]);
        dedents.push_back(Marker{dedent_pos, 0, -b[0], kDedent, type, parent});
        indents.push_back(Marker{c.bs[first], 1, b[0], kIndent, type, parent});
    }
    if (indents.empty()) return;
    std::vector<Marker> markers(dedents);
    markers.insert(markers.end(), indents.begin(), indents.end());
    std::stable_sort(markers.begin(), markers.end(), [](const Marker& x, const Marker& y) {
        if (x.pos != y.pos) return x.pos < y.pos;
        if (x.order != y.order) return x.order < y.order;
        return x.inner < y.inner;
    });
    LexColumns merged;
    merged.reserve(n + markers.size());
    auto copy = [&](size_t i) {
        merged.push(c.kinds[i], c.types[i], c.parents[i], c.flags[i], c.bs[i], c.be[i]);
    };
    auto mark = [&](const Marker& mk) {
        merged.push(mk.kind, mk.type, mk.parent, 0, mk.pos, mk.pos);
    };
    size_t next = 0;
    for (const Marker& mk : markers) {
        const size_t at = mk.pos >= static_cast<int64_t>(total)
                              ? n
                              : std::lower_bound(c.bs.begin(), c.bs.end(), mk.pos) - c.bs.begin();
        while (next < at) copy(next++);
        mark(mk);
    }
    while (next < n) copy(next++);
    c.kinds.swap(merged.kinds);
    c.types.swap(merged.types);
    c.parents.swap(merged.parents);
    c.flags.swap(merged.flags);
    c.bs.swap(merged.bs);
    c.be.swap(merged.be);
}

// Char index of a byte offset, for offsets that never go back: the first char that starts
// at or after it (``bisect_left`` over the chars' byte offsets), walking the text once.
template <class CharT>
class CharCursor {
  public:
    CharCursor(const CharT* t, size_t n, bool from_bytes) : t_(t), n_(n), from_bytes_(from_bytes) {}
    int64_t at(int64_t b) {
        while (pos_ < b && ci_ < n_) {
            const uint32_t cp = t_[ci_++];
            int width = 1 + (cp >= 0x80) + (cp >= 0x800) + (cp >= 0x10000);
            if (from_bytes_ && cp >= 0xDC80 && cp <= 0xDCFF) width = 1;
            pos_ += width;
        }
        return static_cast<int64_t>(ci_);
    }

  private:
    const CharT* t_;
    size_t n_;
    bool from_bytes_;
    size_t ci_ = 0;
    int64_t pos_ = 0;
};

// Reference: ``_positions``: char spans, 1-based lines and 0-based char columns.
template <class Start, class End, class LineChar>
void fill_positions(const char* data, size_t total, LexColumns& c, Start&& start, End&& end,
                    LineChar&& line_char) {
    const size_t n = c.bs.size();
    c.cs.reserve(n + 1);  // one more for ``tile``
    c.cs.resize(n);
    c.ce.resize(n);
    if (!c.with_lines) {  // lines and columns left to the reader (``Lexemes.lines``)
        for (size_t i = 0; i < n; ++i) {
            c.cs[i] = start(c.bs[i]);
            c.ce[i] = end(c.be[i]);
        }
        return;
    }
    c.lines.resize(n);
    c.cols.resize(n);
    int64_t line = 0, line_start = 0, scanned = 0;
    for (size_t i = 0; i < n; ++i) {
        const int64_t b = c.bs[i];
        if (b > scanned) {  // starts never go back (the columns are in source order)
            for (int64_t k = scanned; k < b && k < static_cast<int64_t>(total); ++k) {
                if (data[k] == '\n') {
                    ++line;
                    line_start = k + 1;
                }
            }
            scanned = b;
        }
        c.cs[i] = start(b);
        c.ce[i] = end(c.be[i]);
        c.lines[i] = line + 1;
        c.cols[i] = c.cs[i] - line_char(line_start);
    }
}

template <class CharT>
void positions_of(const char* data, size_t total, const CharT* t, size_t n, bool from_bytes,
                  LexColumns& c) {
    CharCursor<CharT> s(t, n, from_bytes), e(t, n, from_bytes), l(t, n, from_bytes);
    fill_positions(data, total, c, [&](int64_t b) { return s.at(b); },
                   [&](int64_t b) { return e.at(b); }, [&](int64_t b) { return l.at(b); });
}

void positions(const char* data, size_t total, const TextView& text, LexColumns& c) {
    if (text.n == total) {  // ASCII: chars are bytes
        const auto same = [](int64_t b) { return b; };
        fill_positions(data, total, c, same, same, same);
    } else if (text.kind == 1) {
        positions_of(data, total, static_cast<const uint8_t*>(text.data), text.n, text.from_bytes, c);
    } else if (text.kind == 2) {
        positions_of(data, total, static_cast<const uint16_t*>(text.data), text.n, text.from_bytes, c);
    } else {
        positions_of(data, total, static_cast<const uint32_t*>(text.data), text.n, text.from_bytes, c);
    }
}

}  // namespace

bool build_columns(WalkResult& w, const WalkTables& walk, const ColumnTables& g,
                   const char* data, size_t total, size_t base, const TextView& text,
                   const ColumnCallbacks& cb, LexColumns& out) {
    Builder builder(walk, g, data, total, base, cb, out);
    if (!builder.records(w)) return false;
    if (!w.blocks.empty()) insert_layout(w.blocks, base, total, out);
    positions(data, total, text, out);
    return true;
}

}  // namespace code
}  // namespace codetok

#endif  // CODETOK_TREE_SITTER
