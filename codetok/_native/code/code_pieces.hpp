// Cutting one lexeme's text into the pieces a subword model sees: the native twin of
// ``PieceSplitter.spans`` (codetok/code/routing/pieces.py, the specification). Its three patterns
// are written out as scans; the character classes come from a table the Python side builds
// from the ``regex`` module it uses itself (``code_classes`` in codetok/code/routing/native.py), so
// both agree on every code point whatever that module's Unicode version.
#pragma once

#include <cstddef>
#include <cstdint>

namespace codetok {
namespace code {

// Bits of the class table (one byte per code point, 0..0x10FFFF).
constexpr uint8_t kClassL = 1;   // \p{L}
constexpr uint8_t kClassM = 2;   // \p{M}
constexpr uint8_t kClassNd = 4;  // \p{Nd}
constexpr uint8_t kClassWS = 8;  // \s

enum class PieceMode : int { Words = 0, Number = 1, Whitespace = 2 };
enum class Digits : int { Single = 0, Group3 = 1, Whole = 2 };

struct ClassTable {
    const uint8_t* flags = nullptr;  // 0x110000 entries
    uint8_t of(uint32_t c) const { return c < 0x110000 ? flags[c] : 0; }
};

// The end of the digit group starting at ``t[i]`` (an Nd char), under ``digits``.
template <class CharT>
size_t digit_group_end(const CharT* t, size_t i, size_t n, Digits digits, const ClassTable& cls) {
    const size_t limit = digits == Digits::Single ? i + 1 : digits == Digits::Group3 ? i + 3 : n;
    size_t j = i + 1;
    while (j < n && j < limit && (cls.of(t[j]) & kClassNd)) ++j;
    return j;
}

// The pieces of ``t[0:n]`` as ``emit(a, b)`` char ranges that tile it, none longer than
// ``cap`` chars. Words: ``DIGITS| ?[\p{L}\p{M}]+| ?[^\s\p{L}\p{M}\p{Nd}]+|\s+(?!\S)|\s+``;
// number: ``DIGITS|[^\p{Nd}]+``; whitespace: ``(.)\1*``.
template <class CharT, class Emit>
void split_pieces(const CharT* t, size_t n, PieceMode mode, Digits digits, size_t cap,
                  const ClassTable& cls, Emit&& emit) {
    auto letter = [&](size_t k) { return (cls.of(t[k]) & (kClassL | kClassM)) != 0; };
    auto other = [&](size_t k) {
        return (cls.of(t[k]) & (kClassL | kClassM | kClassNd | kClassWS)) == 0;
    };
    size_t i = 0;
    while (i < n) {
        size_t j;
        const uint8_t f = cls.of(t[i]);
        if (mode == PieceMode::Whitespace) {
            j = i + 1;
            while (j < n && t[j] == t[i]) ++j;
        } else if (f & kClassNd) {
            j = digit_group_end(t, i, n, digits, cls);
        } else if (mode == PieceMode::Number) {
            j = i + 1;
            while (j < n && !(cls.of(t[j]) & kClassNd)) ++j;
        } else if (letter(i) || (t[i] == ' ' && i + 1 < n && letter(i + 1))) {
            j = i + 1;
            while (j < n && letter(j)) ++j;
        } else if (other(i) || (t[i] == ' ' && i + 1 < n && other(i + 1))) {
            j = i + 1;
            while (j < n && other(j)) ++j;
        } else {  // \s: the run, less its last char when a non-space follows
            j = i + 1;
            while (j < n && (cls.of(t[j]) & kClassWS)) ++j;
            if (j < n && j - i >= 2) --j;
        }
        size_t a = i;
        while (j - a > cap) {
            emit(a, a + cap);
            a += cap;
        }
        emit(a, j);
        i = j;
    }
}

}  // namespace code
}  // namespace codetok
