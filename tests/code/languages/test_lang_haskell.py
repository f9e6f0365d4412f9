"""Known answers for grammars/haskell.toml: keywords, Haddock, pragmas, literals."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import CodeTokenizer, detect_language, split_identifier

STACK_SRC = """\
{-# LANGUAGE ScopedTypeVariables #-}
-- | A persistent stack.
module Data.Stack
  ( Stack
  , emptyStack -- ^ a stack with no elements
  , push
  ) where

import qualified Data.List as L
import Data.Maybe (fromMaybe)

-- Internal representation; not documentation.
newtype Stack a = Stack [a] deriving (Show, Eq)

emptyStack :: Stack a
emptyStack = Stack []

-- | Put an element on top.
--   The old stack is unchanged.
push :: a -> Stack a -> Stack a
push x (Stack xs) = Stack (x : xs)

{-| Remove the top element. -}
pop :: Stack a -> Maybe (a, Stack a)
pop (Stack []) = Nothing
pop (Stack (y:ys)) = Just (y, Stack ys)
"""


def test_reserved_keywords() -> None:
    check_language(STACK_SRC, "haskell")
    k = dict(kinds(STACK_SRC, "haskell"))
    for word in ["module", "where", "import", "newtype", "deriving"]:
        assert k[word] == "KEYWORD", word
    src = (
        "class Shape s where\n  area :: s -> Double\ninstance Shape Circle where\n"
        "  area (Circle r) = let d = r * 2 in pi * d\n"
        "data T = A | B\ntype Name = String\ninfixl 6 <+>\n"
        "f n = case n of\n  0 -> if True then 1 else 2\n  _ -> do\n    print n\n    pure 3\n"
    )
    check_language(src, "haskell")
    k = dict(kinds(src, "haskell"))
    for word in ["class", "where", "instance", "let", "in", "data", "type", "infixl", "case",
                 "of", "if", "then", "else", "_", "do"]:  # fmt: skip
        assert k[word] == "KEYWORD", word
    assert k["True"] == k["Circle"] == k["pi"] == "IDENTIFIER"


def test_contextual_keywords() -> None:
    k = dict(kinds(STACK_SRC, "haskell"))
    assert k["qualified"] == k["as"] == "KEYWORD"
    src = "import Prelude hiding (lookup)\nid' :: forall a. a -> a\nid' x = x\nas = 1\n"
    check_language(src, "haskell")
    k = kinds(src, "haskell")
    assert ("hiding", "KEYWORD") in k and ("forall", "KEYWORD") in k
    assert k[-3] == ("as", "IDENTIFIER")  # an ordinary name outside an import


def test_haddock_comments() -> None:
    k = dict(kinds(STACK_SRC, "haskell"))
    assert k["-- | A persistent stack."] == "DOCSTRING"
    assert k["-- ^ a stack with no elements"] == "DOCSTRING"
    assert k["-- | Put an element on top.\n--   The old stack is unchanged."] == "DOCSTRING"
    assert k["{-| Remove the top element. -}"] == "DOCSTRING"
    assert k["-- Internal representation; not documentation."] == "COMMENT"
    src = "-- * Constructors\nx = 1 {- inline -}\n-- $usage\ny = 2\n"
    check_language(src, "haskell")
    k = dict(kinds(src, "haskell"))
    assert k["-- * Constructors"] == "DOCSTRING" and k["-- $usage"] == "DOCSTRING"
    assert k["{- inline -}"] == "COMMENT"


def test_pragmas_and_cpp_are_comments() -> None:
    k = dict(kinds(STACK_SRC, "haskell"))
    assert k["{-# LANGUAGE ScopedTypeVariables #-}"] == "COMMENT"
    src = "#if DEBUG\ntrace = True\n#endif\n{-# INLINE go #-}\ngo = 1\n"
    check_language(src, "haskell")
    k = dict(kinds(src, "haskell"))
    assert k["#if DEBUG"] == k["#endif"] == k["{-# INLINE go #-}"] == "COMMENT"


def test_literals_and_operators() -> None:
    src = "xs = [1, 0x1F, 2.5e-3, 1_000] ++ map (`div` 2) ys <> \"s\\n\" <> ['c']\n"
    check_language(src, "haskell")
    k = dict(kinds(src, "haskell"))
    for num in ["1", "0x1F", "2.5e-3", "1_000", "2"]:
        assert k[num] == "NUMBER", num
    assert k['"s\\n"'] == k["'c'"] == "STRING"
    assert k["++"] == k["<>"] == "OPERATOR"
    assert k["`"] == "PUNCTUATION" and k["div"] == "IDENTIFIER"
    lx = check_language("g = f . h\nimport Data.Map\n", "haskell")
    dots = [lx.kind(i).name for i in range(len(lx)) if lx.text(i) == "."]
    assert dots == ["OPERATOR", "PUNCTUATION"]


def test_quasi_quotes() -> None:
    src = "q = [sql|SELECT * FROM users WHERE id = $uid|]\ne = [e| 1 + 2 |]\n"
    check_language(src, "haskell")
    k = dict(kinds(src, "haskell"))
    assert k["sql"] == "IDENTIFIER"
    assert k["SELECT * FROM users WHERE id = $uid"] == "STRING"
    assert kind_of(src, "haskell", "e") == "IDENTIFIER" and k["+"] == "OPERATOR"
    assert kinds(src, "haskell")[-7:-5] == [("[", "PUNCTUATION"), ("e", "PUNCTUATION")]


def test_identifier_splitting() -> None:
    assert split_identifier("fromMaybeDefault").parts == ("from", "Maybe", "Default")
    tok = CodeTokenizer.default()
    assert tok.decode(tok.encode(STACK_SRC, language="haskell").ids) == STACK_SRC


def test_syntax_errors_stay_lossless() -> None:
    for src in ["module where (\nf :: -> =\n", 'x = "open\n', "data = | | deriving\n"]:
        lx = check_language(src, "haskell")
        assert lx.has_error


def test_crlf_line_endings() -> None:
    src = "-- | Doc.\r\nf :: Int\r\nf = 1 -- c\r\n"
    lx = check_language(src, "haskell")
    newlines = [lx.text(i) for i in range(len(lx)) if lx.kind(i).name == "NEWLINE"]
    assert newlines == ["\r\n"] * 3
    assert kind_of(src, "haskell", "-- c") == "COMMENT"
    assert kind_of(src, "haskell", "-- | Doc.") == "DOCSTRING"


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("src/Data/Stack.hs", None),
        (None, "#!/usr/bin/env runhaskell\nmain = print 1\n"),
        (None, "#!/usr/bin/env stack\nmain = print 1\n"),
        (None, STACK_SRC),
        (None, "import Data.List (sort)\n\nmain :: IO ()\nmain = print (sort [3, 1, 2])\n"),
    ],
)
def test_detection(path: str | None, content: str | None) -> None:
    assert detect_language(content, path=path) == "haskell"
