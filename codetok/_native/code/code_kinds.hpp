// Lexeme kinds as the code lexer and router store them (``LexemeKind``,
// codetok/code/front/kinds.py, whose values these are).
#pragma once

#include <cstdint>

namespace codetok {
namespace code {

enum Kind : uint8_t {
    kKeyword = 0,
    kIdentifier = 1,
    kOperator = 2,
    kPunctuation = 3,
    kNumber = 4,
    kString = 5,
    kComment = 6,
    kDocstring = 7,
    kWhitespace = 8,
    kNewline = 9,
    kIndent = 10,
    kDedent = 11,
    kError = 12,
};

}  // namespace code
}  // namespace codetok
