// Rule-based identifier splitting for ASCII identifiers: the native twin of
// ``IdentifierSplitter`` without a segmenter (codetok/code/routing/identifiers.py, the
// specification): ``split_identifier(name).pieces()`` as piece lengths. The word lists
// (digit stems, function words, protected terms, ordinal suffixes) come from that module.
//
// Only ASCII names are split here: the rules ask Python's ``str.islower`` and ``str.lower``
// of their parts, whose answers on other scripts (``\u212A``.lower() is "k") this file does
// not repeat. The router gives other names to the Python splitter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace codetok {
namespace code {

class IdentifierRules {
  public:
    enum Kind : uint8_t { Prot, Plural, Acro, Word, Upper, Digit, Other, Num, Dim };
    struct Tok {
        Kind kind;
        uint32_t a, b;  // [a, b) in the segment
    };
    // Working memory of one caller.
    struct Scratch {
        std::string name;
        std::vector<Tok> toks, out;
    };

    IdentifierRules(std::vector<std::string> stems, std::vector<std::string> function_words,
                    std::vector<std::string> protected_terms, std::vector<std::string> suffixes);

    // The piece lengths of the ASCII name ``s[0:n]`` (n >= 1) appended to ``lens``; false
    // (nothing appended) when the name is not ASCII.
    template <class CharT>
    bool split(const CharT* s, size_t n, Scratch& w, std::vector<uint32_t>& lens) const {
        // A lowercase word, capitalised or not (most names): one piece, as the rules below
        // find (one word token; no protected term or digit rule applies to it).
        size_t k = n > 1 && s[0] >= 'A' && s[0] <= 'Z' ? 1 : 0;
        while (k < n && s[k] >= 'a' && s[k] <= 'z') ++k;
        if (k == n && n > 0) {
            lens.push_back(static_cast<uint32_t>(n));
            return true;
        }
        std::string& name = w.name;
        name.resize(n);
        for (size_t k = 0; k < n; ++k) {
            if (s[k] >= 0x80) return false;
            name[k] = static_cast<char>(s[k]);
        }
        split_ascii(name, w, lens);
        return true;
    }

  private:
    void split_ascii(const std::string& name, Scratch& w, std::vector<uint32_t>& lens) const;
    // ``_tokens`` then ``_apply_digit_rules`` of ``seg[0:n]``: the word lengths.
    void split_segment(const char* seg, size_t n, Scratch& w, std::vector<uint32_t>& lens) const;
    void tokens(const char* seg, size_t n, std::vector<Tok>& out) const;

    std::unordered_set<std::string> stems_, function_words_, suffixes_;
    std::vector<std::string> protected_;
    // Bit c: some protected term starts with the ASCII char c (most token starts are
    // ruled out by one test before the terms are compared).
    uint64_t protected_first_[2] = {0, 0};
    bool may_be_protected(char c) const {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x80 && ((protected_first_[u >> 6] >> (u & 63)) & 1) != 0;
    }
};

}  // namespace code
}  // namespace codetok
