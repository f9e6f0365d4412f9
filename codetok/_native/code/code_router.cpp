// See code_router.hpp. Each step names the Python code it repeats.
#include "code/code_router.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace codetok {
namespace code {
namespace {

// UTF-8 of one char as ``str.encode`` writes it: "surrogatepass" for a str source,
// "surrogateescape" (U+DC80..U+DCFF are the bytes 0x80..0xFF) for a decoded bytes source.
inline void append_utf8(Cp c, bool from_bytes, std::vector<uint8_t>& out) {
    if (from_bytes && c >= 0xDC80 && c <= 0xDCFF)
        out.push_back(static_cast<uint8_t>(c - 0xDC00));
    else
        utf8_append(c, out);
}

}  // namespace

CodeRouter::CodeRouter(RouterSpec spec, IdentifierRules rules, std::vector<uint8_t> classes,
                       ChannelSpec code, ChannelSpec comment)
    : spec_(std::move(spec)),
      rules_(std::move(rules)),
      classes_(std::move(classes)),
      channels_{std::move(code), std::move(comment)} {
    classes_.resize(0x110000, 0);
    table_.flags = classes_.data();
    size_t slots = 16;
    while (slots < 2 * spec_.keywords.size()) slots *= 2;
    ascii_keywords_.resize(slots);
    for (const auto& [word, id] : spec_.keywords) {
        bool ascii = !word.empty() && word.size() <= kKeywordChars;
        for (char32_t c : word) ascii = ascii && c < 0x80;
        if (!ascii) continue;  // found in ``spec_.keywords`` alone
        AsciiKeyword k;
        for (size_t i = 0; i < word.size(); ++i) k.text[i] = static_cast<char>(word[i]);
        k.size = static_cast<uint8_t>(word.size());
        k.id = id;
        size_t at = keyword_hash(k.text, k.size) & (slots - 1);
        while (ascii_keywords_[at].size != 0) at = (at + 1) & (slots - 1);
        ascii_keywords_[at] = k;
    }
}

size_t CodeRouter::keyword_hash(const char* s, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 0x100000001b3ull;
    return static_cast<size_t>(h ^ (h >> 29));
}

template <class CharT>
struct CodeRouter::Call {
    const CodeRouter& r;
    const CharT* t;
    size_t size;  // chars in ``t``
    bool from_bytes;
    Scratch& w;
    CodeRouted& out;
    int64_t lex = 0;  // the lexeme being routed
    int64_t lead = -1;  // a folded space: the next piece starts here (-1: none)

    size_t unit(int64_t a, int64_t b) {
        out.unit_start.push_back(a);
        out.unit_end.push_back(b);
        out.unit_lex.push_back(lex);
        return out.unit_start.size() - 1;
    }
    // A reserved token (``Routed.ops`` >= 0): its id is the token.
    void reserved(int32_t id, int64_t a, int64_t b) {
        if (out.lean) {
            out.lean_ids.push_back(id);
            out.lean_lex.push_back(static_cast<int32_t>(lex));
            return;
        }
        const size_t u = unit(a, b);
        out.ids.push_back(id);
        out.tok_unit.push_back(static_cast<int64_t>(u));
    }
    // One piece on channel ``ch`` (0: code, 1: comments), encoded at once.
    void piece(int ch, size_t a, size_t b) {
        if (lead >= 0) {
            a = static_cast<size_t>(lead);
            lead = -1;
        }
        const int64_t u =
            out.lean ? 0 : static_cast<int64_t>(unit(static_cast<int64_t>(a), static_cast<int64_t>(b)));
        if (out.count[0] != nullptr) {  // Reference: ``count_code_pieces``
            std::vector<uint8_t>& bytes = w.utf8;
            bytes.clear();
            for (size_t k = a; k < b; ++k) append_utf8(static_cast<Cp>(t[k]), from_bytes, bytes);
            w.cps.clear();
            for (unsigned char byte : bytes) w.cps.push_back(r.byte_level_[byte]);
            out.count[ch]->add(w.cps.data(), w.cps.size(), 1);
            return;
        }
        std::unique_ptr<PieceCache>& slot = w.cache[ch * 2 + (from_bytes ? 1 : 0)];
        if (!slot) slot = std::make_unique<PieceCache>(16);
        PieceCache& cache = *slot;
        const PieceCache::ShortKey key = short_key(a, b - a);
        if (key) {  // short ASCII: one probe, when the piece is one token
            const int32_t id = cache.find_short(key);
            if (id >= 0) {
                emit(&id, 1, u);
                return;
            }
        }
        miss(ch, cache, key, a, b, u);
    }
    // ``PieceCache::short_key`` of ``t[a:a + n]``; one-byte text away from its end is read
    // a word at a time (the same key on a little-endian machine).
    PieceCache::ShortKey short_key(size_t a, size_t n) const {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if constexpr (sizeof(CharT) == 1) {
            if (n <= PieceCache::kShortChars && a + 16 <= size) {
                uint64_t lo, hi;
                std::memcpy(&lo, t + a, 8);
                std::memcpy(&hi, t + a + 8, 8);
                if (n < 8) {
                    lo &= (uint64_t{1} << (8 * n)) - 1;
                    hi = 0;
                } else {
                    hi &= (uint64_t{1} << (8 * (n - 8))) - 1;
                }
                PieceCache::ShortKey k;
                if (((lo | hi) & 0x8080808080808080ull) != 0 || n == 0) return k;
                k.lo = lo;
                k.hi = hi | (static_cast<uint64_t>(n) << 56);
                return k;
            }
        }
#endif
        return PieceCache::short_key(t + a, n);
    }
    // A piece the short table does not hold: the cache of longer pieces, else the model.
    [[gnu::noinline]] void miss(int ch, PieceCache& cache, PieceCache::ShortKey key, size_t a,
                                size_t b, int64_t u) {
        const size_t n = b - a;
        std::vector<Cp>& chars = w.chars;
        chars.assign(t + a, t + b);
        const uint64_t h = hash_cps(chars.data(), n);
        const int32_t* ids;
        const int64_t* lens;
        size_t count;
        if (!cache.find(chars.data(), n, h, ids, lens, count)) {
            encode(r.channels_[ch], chars);
            if (key && w.ids.size() == 1)
                cache.put_short(key, w.ids[0]);
            else {
                w.zeros.assign(w.ids.size(), 0);
                cache.put(chars.data(), n, h, w.ids, w.zeros);
            }
            ids = w.ids.data();
            count = w.ids.size();
        }
        emit(ids, count, u);
    }
    // The tokens of one piece, in unit ``u``.
    void emit(const int32_t* ids, size_t count, int64_t u) {
        if (out.lean) {
            out.lean_ids.append(ids, count);
            out.lean_lex.append_n(count, static_cast<int32_t>(lex));
            return;
        }
        out.ids.insert(out.ids.end(), ids, ids + count);
        out.tok_unit.insert(out.tok_unit.end(), count, u);
    }
    // Reference: ``Channel.encode``: the model on the byte-level spelling of ``chars``
    // (into ``w.ids``); one token per byte when its tokens do not spell the bytes exactly
    // (or hold the unknown token).
    void encode(const ChannelSpec& c, const std::vector<Cp>& chars) {
        std::vector<uint8_t>& bytes = w.utf8;
        bytes.clear();
        for (Cp ch : chars) append_utf8(ch, from_bytes, bytes);
        w.cps.clear();
        for (unsigned char byte : bytes) w.cps.push_back(c.byte_char[byte]);
        w.bpe.ids.clear();
        w.bpe.spans.clear();
        c.kernel->encode(w.cps.data(), w.cps.size(), w.bpe);
        bool exact = true;
        size_t pos = 0;
        const size_t n_ids = c.bytes_off.size() - 1;
        for (int32_t id : w.bpe.ids) {
            if (id < 0 || static_cast<size_t>(id) >= n_ids || id == c.unk_id) {
                exact = false;
                break;
            }
            const size_t at = c.bytes_off[id], len = c.bytes_off[id + 1] - at;
            if (pos + len > bytes.size() ||
                std::memcmp(bytes.data() + pos, c.bytes_blob.data() + at, len) != 0) {
                exact = false;
                break;
            }
            pos += len;
        }
        exact = exact && pos == bytes.size();
        w.ids.clear();
        if (exact) {
            for (int32_t id : w.bpe.ids) w.ids.push_back(id + c.offset);
        } else {
            for (unsigned char byte : bytes) w.ids.push_back(c.byte_ids[byte] + c.offset);
        }
    }
    // Reference: ``PieceSplitter.spans`` of ``t[a:b]``, each piece on channel ``ch``.
    void spans(int ch, PieceMode mode, size_t a, size_t b) {
        split_pieces(t + a, b - a, mode, r.spec_.digits, r.spec_.cap, r.table_,
                     [&](size_t x, size_t y) { piece(ch, a + x, a + y); });
    }
};

// The reserved id of the keyword ``text[s:e]`` (``kw_ids`` in ``route``), or -1.
template <class CharT>
int32_t CodeRouter::keyword_id(const CharT* text, size_t s, size_t e) const {
    if (spec_.keywords.empty()) return -1;
    const size_t n = e - s;
    if (n != 0 && n <= kKeywordChars) {
        char word[kKeywordChars];
        bool ascii = true;
        for (size_t i = 0; i < n; ++i) {
            ascii = ascii && text[s + i] < 0x80;
            word[i] = static_cast<char>(text[s + i]);
        }
        if (ascii) {
            const size_t mask = ascii_keywords_.size() - 1;
            for (size_t at = keyword_hash(word, n) & mask;; at = (at + 1) & mask) {
                const AsciiKeyword& k = ascii_keywords_[at];
                if (k.size == 0) break;
                if (k.size == n && std::memcmp(k.text, word, n) == 0) return k.id;
            }
            return -1;  // no other keyword is short ASCII
        }
    }
    const auto kw = spec_.keywords.find(std::u32string(text + s, text + e));
    return kw == spec_.keywords.end() ? -1 : kw->second;
}

// Reference: ``_FOLDS_INTO`` in ``route``: whether lexeme ``j`` starts with a code piece (a
// single space before it joins that piece): not a reserved keyword, comment or marker.
template <class CharT>
bool CodeRouter::folds_into(const CharT* text, size_t n, const LexemeView& lx, size_t j) const {
    switch (lx.kinds[j]) {
        case kIdentifier:
        case kOperator:
        case kPunctuation:
        case kString:
        case kNumber:
        case kError:
            return true;
        case kKeyword: {
            const size_t s = static_cast<size_t>(lx.starts[j]);
            const size_t e = static_cast<size_t>(lx.ends[j]);
            return s > e || e > n || keyword_id(text, s, e) < 0;
        }
        default:
            return false;
    }
}

bool CodeRouter::known_split(const std::u32string& key, std::vector<uint32_t>& lens) const {
    std::lock_guard<std::mutex> hold(foreign_lock_);
    auto it = foreign_.find(key);
    if (it != foreign_.end()) {
        lens = it->second;
        return true;
    }
    auto old = foreign_old_.find(key);
    if (old == foreign_old_.end()) return false;
    lens = old->second;  // copied: a turnover below drops the old generation
    if (foreign_.size() >= kForeign) {
        foreign_old_ = std::move(foreign_);
        foreign_ = Splits();
    }
    foreign_.emplace(key, lens);  // still in use: it lives on in the young generation
    return true;
}

void CodeRouter::keep_split(std::u32string key, const std::vector<uint32_t>& lens) const {
    std::lock_guard<std::mutex> hold(foreign_lock_);
    if (foreign_.size() >= kForeign) {
        foreign_old_ = std::move(foreign_);
        foreign_ = Splits();
    }
    foreign_.emplace(std::move(key), lens);
}

// Reference: ``route`` (one branch per lexeme kind) and ``_docstring``.
template <class CharT>
bool CodeRouter::run(const CharT* text, size_t n, bool from_bytes, const LexemeView& lx,
                     const DocCuts& cuts, SplitFallback fallback, void* ctx,
                     CodeRouted& out) const {
    if (out.count[0] == nullptr && (!channels_[0].kernel || !channels_[1].kernel))
        throw std::logic_error("this router only counts: it has no subword models");
    if (out.count[0] != nullptr && out.count[1] == nullptr) out.count[1] = out.count[0];
    if (out.lean && lx.count > static_cast<size_t>(INT32_MAX))
        throw std::length_error("a file of over 2^31 lexemes is more than the router indexes");
    std::unique_ptr<Scratch> scratch = scratch_.take();
    Scratch& w = *scratch;
    Call<CharT> call{*this, text, n, from_bytes, w, out};
    const RouterSpec& o = spec_;
    const size_t cap = o.cap;
    size_t cut = 0;
    bool ok = true;
    for (size_t i = 0; i < lx.count && ok; ++i) {
        call.lex = static_cast<int64_t>(i);
        const size_t s = static_cast<size_t>(lx.starts[i]);
        const size_t e = static_cast<size_t>(lx.ends[i]);
        if (s > e || e > n) continue;  // not a span of this text (the caller checked)
        const size_t len = e - s;
        switch (lx.kinds[i]) {
            case kIdentifier: {
                if (!(o.split_identifiers && len > 1)) {
                    if (len > cap)
                        call.spans(0, PieceMode::Words, s, e);
                    else
                        call.piece(0, s, e);
                    break;
                }
                std::vector<uint32_t>& lens = w.lens;
                lens.clear();
                if (!rules_.split(text + s, len, w.rules, lens)) {
                    std::u32string key(text + s, text + e);
                    if (!known_split(key, lens)) {  // the splitter runs unlocked (it takes the GIL)
                        if (!fallback(ctx, reinterpret_cast<const Cp*>(key.data()), len, lens)) {
                            ok = false;
                            break;
                        }
                        keep_split(std::move(key), lens);
                    }
                }
                size_t p = s;
                for (uint32_t part : lens) {
                    if (part > cap)
                        call.spans(0, PieceMode::Words, p, p + part);
                    else
                        call.piece(0, p, p + part);
                    p += part;
                }
                break;
            }
            case kWhitespace: {
                if (o.fold_whitespace && len == 1 && text[s] == ' ' && i + 1 < lx.count) {
                    // Reference: ``route``: a keyword's spaced twin (" function"), when the
                    // reserved set has one, takes the space and the keyword.
                    const size_t ke = static_cast<size_t>(lx.ends[i + 1]);
                    if (lx.kinds[i + 1] == kKeyword && static_cast<size_t>(lx.starts[i + 1]) == e &&
                        e <= ke && ke <= n) {
                        const int32_t kw = keyword_id(text, s, ke);
                        if (kw >= 0) {
                            call.lex = static_cast<int64_t>(i + 1);
                            call.reserved(kw, static_cast<int64_t>(s), static_cast<int64_t>(ke));
                            ++i;
                            break;
                        }
                    }
                    if (folds_into(text, n, lx, i + 1)) {
                        call.lead = static_cast<int64_t>(s);
                        break;
                    }
                }
                bool same = len <= cap;
                for (size_t k = s + 1; same && k < e; ++k) same = text[k] == text[s];
                if (same)
                    call.piece(0, s, e);
                else
                    call.spans(0, PieceMode::Whitespace, s, e);
                break;
            }
            case kOperator:
            case kPunctuation: {
                size_t end = e;
                if (o.join_punctuation && lx.kinds[i] == kPunctuation && len <= cap) {
                    // Reference: ``route``: a run of touching punctuation, one piece.
                    while (i + 1 < lx.count && lx.kinds[i + 1] == kPunctuation &&
                           static_cast<size_t>(lx.starts[i + 1]) == end &&
                           lx.ends[i + 1] >= lx.starts[i + 1] &&
                           static_cast<size_t>(lx.ends[i + 1]) <= n &&
                           static_cast<size_t>(lx.ends[i + 1]) - s <= cap) {
                        end = static_cast<size_t>(lx.ends[i + 1]);
                        ++i;
                    }
                    if (end == e && len == 1 && i + 1 < lx.count &&
                        lx.kinds[i + 1] == kIdentifier &&
                        static_cast<size_t>(lx.starts[i + 1]) == e) {
                        // a lone punctuation char joins the identifier after it
                        if (call.lead < 0) call.lead = static_cast<int64_t>(s);
                        break;
                    }
                }
                if (end - s > cap)
                    call.spans(0, PieceMode::Words, s, end);
                else
                    call.piece(0, s, end);
                break;
            }
            case kKeyword: {
                const int32_t kw = keyword_id(text, s, e);
                if (kw >= 0)
                    call.reserved(kw, static_cast<int64_t>(s), static_cast<int64_t>(e));
                else
                    call.spans(0, PieceMode::Words, s, e);
                break;
            }
            case kNewline: {
                if (o.fold_whitespace) {
                    // Reference: ``route``: the newline, the newlines of blank lines after it
                    // (``fold_blank_lines``) and the indentation after them, one piece.
                    size_t j = i + 1, end = e;
                    while (o.fold_blank_lines && j < lx.count && lx.kinds[j] == kNewline &&
                           static_cast<size_t>(lx.starts[j]) == end &&
                           lx.ends[j] >= lx.starts[j] && static_cast<size_t>(lx.ends[j]) <= n &&
                           static_cast<size_t>(lx.ends[j]) - s <= cap) {
                        end = static_cast<size_t>(lx.ends[j]);
                        ++j;
                    }
                    if (j < lx.count && lx.kinds[j] == kWhitespace) {
                        const size_t ws = static_cast<size_t>(lx.starts[j]);
                        const size_t we = static_cast<size_t>(lx.ends[j]);
                        bool blank = ws <= we && we <= n && end + (we - ws) - s <= cap;
                        for (size_t k = ws; blank && k < we; ++k)
                            blank = text[k] == ' ' || text[k] == '\t';
                        if (blank) {
                            end += we - ws;
                            ++j;
                        }
                    }
                    if (j > i + 1) {
                        call.piece(0, s, end);
                        i = j - 1;
                        break;
                    }
                }
                int32_t id = -1;
                if (len == 1 && text[s] == '\n')
                    id = o.nl;
                else if (len == 1 && text[s] == '\r')
                    id = o.cr;
                else if (len == 2 && text[s] == '\r' && text[s + 1] == '\n')
                    id = o.crlf;
                if (id >= 0)
                    call.reserved(id, static_cast<int64_t>(s), static_cast<int64_t>(e));
                else
                    call.spans(0, PieceMode::Whitespace, s, e);
                break;
            }
            case kString:
                call.spans(0, PieceMode::Words, s, e);
                break;
            case kNumber:
                call.spans(0, PieceMode::Number, s, e);
                break;
            case kIndent:
                call.reserved(o.indent, static_cast<int64_t>(s), static_cast<int64_t>(s));
                break;
            case kDedent:
                call.reserved(o.dedent, static_cast<int64_t>(s), static_cast<int64_t>(s));
                break;
            case kComment:
                if (o.drop_comments) break;
                if (o.comment_markers)
                    call.reserved(o.comment_open, static_cast<int64_t>(s), static_cast<int64_t>(s));
                call.spans(1, PieceMode::Words, s, e);
                if (o.comment_markers)
                    call.reserved(o.comment_close, static_cast<int64_t>(e), static_cast<int64_t>(e));
                break;
            case kDocstring: {
                while (cut < cuts.count && cuts.lex[cut] < static_cast<int64_t>(i)) ++cut;
                if (o.drop_docstrings) break;
                if (o.comment_markers)
                    call.reserved(o.doc_open, static_cast<int64_t>(s), static_cast<int64_t>(s));
                size_t pos = s;
                for (; cut < cuts.count && cuts.lex[cut] == static_cast<int64_t>(i); ++cut) {
                    const size_t at = s + static_cast<size_t>(cuts.off[cut]);
                    if (at < pos || at > e) continue;  // not a cut of this text
                    if (at > pos) call.spans(1, PieceMode::Words, pos, at);
                    call.reserved(cuts.id[cut], static_cast<int64_t>(at), static_cast<int64_t>(at));
                    pos = at;
                }
                if (pos < e) call.spans(1, PieceMode::Words, pos, e);
                if (o.comment_markers)
                    call.reserved(o.doc_close, static_cast<int64_t>(e), static_cast<int64_t>(e));
                break;
            }
            default:  // ERROR and anything new
                call.spans(0, PieceMode::Words, s, e);
        }
    }
    scratch_.give(std::move(scratch));
    if (ok && out.count[0] == nullptr && !out.lean) annotate(text, n, from_bytes, out);
    return ok;
}

// Units start in source order and tokens follow their units, so one pass over the text
// keeps char, byte and line positions together.
template <class CharT>
void CodeRouter::annotate(const CharT* text, size_t n, bool from_bytes, CodeRouted& out) const {
    auto width = [&](size_t k) -> int64_t {
        const uint32_t c = text[k];
        if (from_bytes && c >= 0xDC80 && c <= 0xDCFF) return 1;
        return 1 + (c >= 0x80) + (c >= 0x800) + (c >= 0x10000);
    };
    // A cursor over the text: ``chr`` chars (``byte`` bytes, ``nl`` newlines) behind it.
    struct Cursor {
        size_t chr = 0;
        int64_t byte = 0, nl = 0;
    };
    Cursor at;
    auto to_char = [&](Cursor& c, size_t k) {  // move forward to char k
        while (c.chr < k && c.chr < n) {
            c.byte += width(c.chr);
            c.nl += text[c.chr] == '\n';
            ++c.chr;
        }
    };
    // The char holding byte ``b`` (at or after ``c``), and the first char starting at or
    // after ``b``.
    auto char_of = [&](Cursor& c, int64_t b) {
        while (c.chr < n && c.byte + width(c.chr) <= b) to_char(c, c.chr + 1);
    };
    const size_t tokens = out.ids.size();
    out.tok_lex.resize(tokens);
    out.byte_spans.resize(2 * tokens);
    out.char_spans.resize(2 * tokens);
    out.lines.resize(tokens);
    const std::vector<int64_t>& lengths = spec_.lengths;
    bool ascii = true;
    for (size_t k = 0; k < n && ascii; ++k) ascii = text[k] < 0x80;
    if (ascii && spec_.lossless) {  // chars are bytes, and tokens spell their units
        int64_t nl = 0, scanned = 0;
        size_t t = 0;
        for (size_t u = 0; u < out.unit_start.size(); ++u) {
            int64_t b = out.unit_start[u];
            for (; t < tokens && out.tok_unit[t] == static_cast<int64_t>(u); ++t) {
                const int32_t id = out.ids[t];
                const int64_t len =
                    id >= 0 && static_cast<size_t>(id) < lengths.size() ? lengths[id] : 0;
                for (; scanned < b && scanned < static_cast<int64_t>(n); ++scanned)
                    nl += text[scanned] == '\n';
                out.tok_lex[t] = out.unit_lex[u];
                out.byte_spans[2 * t] = out.char_spans[2 * t] = b;
                out.byte_spans[2 * t + 1] = out.char_spans[2 * t + 1] = b + len;
                out.lines[t] = nl + 1;
                b += len;
            }
        }
        return;
    }
    size_t t = 0;
    Cursor start, end;
    for (size_t u = 0; u < out.unit_start.size(); ++u) {
        to_char(at, static_cast<size_t>(out.unit_start[u]));
        const int64_t ub = at.byte;
        int64_t ue = 0;
        if (!spec_.lossless) {
            Cursor e = at;
            to_char(e, static_cast<size_t>(out.unit_end[u]));
            ue = e.byte;
        }
        int64_t b = ub;
        for (; t < tokens && out.tok_unit[t] == static_cast<int64_t>(u); ++t) {
            const int32_t id = out.ids[t];
            const int64_t len = id >= 0 && static_cast<size_t>(id) < lengths.size() ? lengths[id] : 0;
            int64_t b0 = b, b1 = b + len;
            b = b1;
            if (!spec_.lossless) {
                b0 = std::min(b0, ue);
                b1 = std::min(b1, ue);
            }
            // Spans never go back (units in source order, tokens in their units), so both
            // cursors only move forward: the char holding b0, the first char from b1 on.
            char_of(start, b0);
            to_char(end, start.chr);
            while (end.chr < n && end.byte < b1) to_char(end, end.chr + 1);
            out.tok_lex[t] = out.unit_lex[u];
            out.byte_spans[2 * t] = b0;
            out.byte_spans[2 * t + 1] = b1;
            out.char_spans[2 * t] = static_cast<int64_t>(start.chr);
            out.char_spans[2 * t + 1] = static_cast<int64_t>(end.chr);
            out.lines[t] = start.nl + 1;
        }
    }
}

template bool CodeRouter::run<uint8_t>(const uint8_t*, size_t, bool, const LexemeView&,
                                       const DocCuts&, SplitFallback, void*, CodeRouted&) const;
template bool CodeRouter::run<uint16_t>(const uint16_t*, size_t, bool, const LexemeView&,
                                        const DocCuts&, SplitFallback, void*, CodeRouted&) const;
template bool CodeRouter::run<uint32_t>(const uint32_t*, size_t, bool, const LexemeView&,
                                        const DocCuts&, SplitFallback, void*, CodeRouted&) const;

}  // namespace code
}  // namespace codetok
