// Docstring section headers (``Args:``, ``@param``, ``<summary>``) of ASCII docstrings: the
// native twin of ``find_sections`` in codetok/code/routing/comments.py (the specification:
// its ``_HEADER`` regex, run by ``re.finditer`` with MULTILINE | IGNORECASE, and the check
// that a Google-style header word starts upper case). The word lists come from that module.
//
// Only ASCII text is scanned here: on other text, ``re``'s IGNORECASE (``\u017F`` is an
// ``s``) and ``\w`` follow the interpreter's Unicode tables, which this file does not
// repeat; the caller gives such docstrings to the Python scanner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace codetok {
namespace code {

class DocSections {
  public:
    // One header word and the section code it stands for.
    using Word = std::pair<std::string, int32_t>;

    // ``google``: the words of ``Args:``-style headers (lower case, may hold a space);
    // ``tags``: of ``@param``-style ones; ``xml``: of ``<summary``-style ones.
    DocSections(std::vector<Word> google, std::vector<Word> tags, std::vector<Word> xml);

    // The headers of ``s[0:n]`` appended to ``out`` as (offset, code); false (nothing
    // appended) when the text is not ASCII.
    template <class CharT>
    bool find(const CharT* s, size_t n, std::string& scratch,
              std::vector<std::pair<int64_t, int32_t>>& out) const {
        scratch.resize(n);
        for (size_t k = 0; k < n; ++k) {
            if (s[k] >= 0x80) return false;
            scratch[k] = static_cast<char>(s[k]);
        }
        find_ascii(scratch, out);
        return true;
    }

  private:
    void find_ascii(const std::string& t, std::vector<std::pair<int64_t, int32_t>>& out) const;
    // The end of the Google-style header at the line start ``p`` and its word, or 0.
    size_t google_at(const std::string& t, size_t p, size_t& word, int32_t& code) const;

    std::vector<Word> google_, tags_, xml_;  // longest first, as the regex tries them
};

}  // namespace code
}  // namespace codetok
