// See doc_sections.hpp. Each step names the part of ``_HEADER`` it repeats.
#include "code/doc_sections.hpp"

#include <algorithm>

namespace codetok {
namespace code {
namespace {

inline char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

inline bool is_word(char c) {  // ``\w`` on ASCII
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

inline size_t blanks(const std::string& t, size_t p) {  // ``[ \t]*``
    while (p < t.size() && (t[p] == ' ' || t[p] == '\t')) ++p;
    return p;
}

// ``word`` at ``t[p:]``, ignoring ASCII case (the words are lower case).
inline bool word_at(const std::string& t, size_t p, const std::string& word) {
    if (t.size() - p < word.size()) return false;
    for (size_t k = 0; k < word.size(); ++k)
        if (lower(t[p + k]) != word[k]) return false;
    return true;
}

// ``(?P<name>w1|w2|...)\b`` at ``t[p:]``: the first word (longest first) followed by a
// word boundary; its index, or -1.
int tag_at(const std::string& t, size_t p, const std::vector<DocSections::Word>& words) {
    for (size_t k = 0; k < words.size(); ++k) {
        const std::string& w = words[k].first;
        if (word_at(t, p, w) && (p + w.size() == t.size() || !is_word(t[p + w.size()])))
            return static_cast<int>(k);
    }
    return -1;
}

std::vector<DocSections::Word> longest_first(std::vector<DocSections::Word> words) {
    // ``sorted(words, key=len, reverse=True)``: stable, so equal lengths keep their order.
    std::stable_sort(words.begin(), words.end(), [](const auto& a, const auto& b) {
        return a.first.size() > b.first.size();
    });
    return words;
}

}  // namespace

DocSections::DocSections(std::vector<Word> google, std::vector<Word> tags, std::vector<Word> xml)
    : google_(longest_first(std::move(google))),
      tags_(longest_first(std::move(tags))),
      xml_(longest_first(std::move(xml))) {}

size_t DocSections::google_at(const std::string& t, size_t p, size_t& word,
                              int32_t& code) const {
    const size_t n = t.size();
    // ``^[ \t]*(?:(?:\*|///|//|#)[ \t]*)?``: each way of reading the prefix, in the order
    // the regex tries them (the group, its alternatives in order, then without it).
    const size_t indent = blanks(t, p);
    size_t starts[4];
    int ways = 0;
    if (indent < n && (t[indent] == '*' || t[indent] == '#'))
        starts[ways++] = blanks(t, indent + 1);
    if (t.compare(indent, 3, "///") == 0) starts[ways++] = blanks(t, indent + 3);
    if (t.compare(indent, 2, "//") == 0) starts[ways++] = blanks(t, indent + 2);
    starts[ways++] = indent;
    for (int w = 0; w < ways; ++w) {
        const size_t at = starts[w];
        for (const Word& g : google_) {
            if (!word_at(t, at, g.first)) continue;
            // ``[ \t]*(?::[ \t]*$|:[ \t]|\r?\n[ \t]*-{3,})``
            const size_t q = blanks(t, at + g.first.size());
            size_t end = 0;
            if (q < n && t[q] == ':') {
                const size_t r = blanks(t, q + 1);
                if (r == n || t[r] == '\n')
                    end = r;  // ``$``: the end of the text or of a line
                else if (q + 1 < n && (t[q + 1] == ' ' || t[q + 1] == '\t'))
                    end = q + 2;
            } else {
                size_t r = q;
                if (r < n && t[r] == '\r') ++r;
                if (r < n && t[r] == '\n') {
                    r = blanks(t, r + 1);
                    size_t dashes = r;
                    while (dashes < n && t[dashes] == '-') ++dashes;
                    if (dashes - r >= 3) end = dashes;
                }
            }
            if (end) {
                word = at;
                code = g.second;
                return end;
            }
        }
    }
    return 0;
}

void DocSections::find_ascii(const std::string& t,
                             std::vector<std::pair<int64_t, int32_t>>& out) const {
    const size_t n = t.size();
    size_t p = 0;
    while (p < n) {  // ``finditer``: a match, then the search goes on from its end
        const char c = t[p];
        if (p == 0 || t[p - 1] == '\n') {
            size_t word = 0;
            int32_t code = 0;
            if (const size_t end = google_at(t, p, word, code)) {
                // ``word[:1].isupper()``: "returns: ..." in prose is no header (but the
                // match is consumed all the same)
                if (t[word] >= 'A' && t[word] <= 'Z') out.emplace_back(word, code);
                p = end;
                continue;
            }
        }
        if (c == '@' && (p == 0 || (!is_word(t[p - 1]) && t[p - 1] != '{'))) {  // (?<![\w{])@
            const int k = tag_at(t, p + 1, tags_);
            if (k >= 0) {
                out.emplace_back(p, tags_[k].second);
                p += 1 + tags_[k].first.size();
                continue;
            }
        }
        if (c == '<') {
            const int k = tag_at(t, p + 1, xml_);
            if (k >= 0) {
                out.emplace_back(p, xml_[k].second);
                p += 1 + xml_[k].first.size();
                continue;
            }
        }
        ++p;
    }
}

}  // namespace code
}  // namespace codetok
