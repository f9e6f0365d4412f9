"""Known answers for grammars/lua.toml: keywords, LDoc/EmmyLua comments, strings, numbers."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import CodeTokenizer, detect_language, split_identifier

QUEUE_SRC = """\
--- A bounded FIFO queue.
-- @module queue
local Queue = {}
Queue.__index = Queue

---@param capacity integer
---@return Queue
function Queue.new(capacity)
  return setmetatable({ first = 1, last = 0, capacity = capacity or 16 }, Queue)
end

-- Not documentation: a plain note.
function Queue:push(value)
  if self.last - self.first + 1 >= self.capacity then
    error("queue is full")
  elseif value == nil then
    return false
  end
  self.last = self.last + 1
  self[self.last] = value
  return true
end

return Queue
"""


def test_reserved_keywords() -> None:
    check_language(QUEUE_SRC, "lua")
    k = dict(kinds(QUEUE_SRC, "lua"))
    for word in ["local", "function", "return", "end", "if", "then", "elseif", "nil", "true",
                 "false"]:  # fmt: skip
        assert k[word] == "KEYWORD", word
    src = (
        "for i = 1, 10 do\n  if not (i % 2 == 0 or i > 5) and true then goto skip end\n"
        "  ::skip::\nend\nwhile x do break end\nrepeat n = n - 1 until n <= 0\n"
        "for k, v in pairs(t) do print(k, v) end\n"
    )
    check_language(src, "lua")
    k = dict(kinds(src, "lua"))
    for word in ["for", "do", "not", "or", "and", "goto", "while", "break", "repeat", "until",
                 "in"]:  # fmt: skip
        assert k[word] == "KEYWORD", word
    assert k["skip"] == "IDENTIFIER" and k["::"] == "PUNCTUATION"
    assert k["pairs"] == k["print"] == "IDENTIFIER"


def test_attributes_and_names() -> None:
    src = "local f <close> = io.open(path)\nlocal LIMIT <const> = 10\nlocal const = 1\n"
    lx = check_language(src, "lua")
    angle = [lx.kind(i).name for i in range(len(lx)) if lx.text(i) in ("<", ">")]
    assert angle == ["PUNCTUATION"] * 4
    assert kind_of(src, "lua", "close") == "IDENTIFIER"
    assert kind_of("if a < b then end\n", "lua", "<") == "OPERATOR"


def test_doc_comments() -> None:
    k = dict(kinds(QUEUE_SRC, "lua"))
    assert k["--- A bounded FIFO queue."] == "DOCSTRING"
    assert k["---@param capacity integer"] == "DOCSTRING"
    assert k["---@return Queue"] == "DOCSTRING"
    assert k["-- Not documentation: a plain note."] == "COMMENT"
    src = "---------- banner ----------\n--[[ block\ncomment ]]\nx = 1 -- trailing\n"
    check_language(src, "lua")
    k = dict(kinds(src, "lua"))
    assert k["---------- banner ----------"] == "COMMENT"
    assert k["--[[ block\ncomment ]]"] == "COMMENT"
    assert k["-- trailing"] == "COMMENT"


def test_strings() -> None:
    src = 'local s = "a\\n\\"b" .. \'c\' .. [[long\nstring]] .. [==[with ]] inside]==]\n'
    check_language(src, "lua")
    k = kinds(src, "lua")
    assert k[3:] == [
        ('"a\\n\\"b"', "STRING"),
        ("..", "OPERATOR"),
        ("'c'", "STRING"),
        ("..", "OPERATOR"),
        ("[[long\nstring]]", "STRING"),
        ("..", "OPERATOR"),
        ("[==[with ]] inside]==]", "STRING"),
    ]


def test_numbers_and_operators() -> None:
    src = "local n = 0x1F + 3.5e2 + 7 // 2 ~ 3 >> 1 .. #list ^ 2\n"
    check_language(src, "lua")
    k = dict(kinds(src, "lua"))
    for num in ["0x1F", "3.5e2", "7", "2", "3", "1"]:
        assert k[num] == "NUMBER", num
    for op in ["//", "~", ">>", "..", "#", "^"]:
        assert k[op] == "OPERATOR", op


def test_varargs_and_method_calls() -> None:
    src = "local function log(fmt, ...)\n  io.stderr:write(fmt:format(...))\nend\n"
    check_language(src, "lua")
    k = dict(kinds(src, "lua"))
    assert k["..."] == "PUNCTUATION" and k[":"] == "PUNCTUATION"
    assert k["write"] == k["format"] == "IDENTIFIER"


def test_identifier_splitting() -> None:
    assert split_identifier("getPlayerName").parts == ("get", "Player", "Name")
    assert split_identifier("max_stack_size").parts == ("max", "stack", "size")
    tok = CodeTokenizer.default()
    assert tok.decode(tok.encode(QUEUE_SRC, language="lua").ids) == QUEUE_SRC


def test_syntax_errors_stay_lossless() -> None:
    for src in ["function (x\n  if then end end\n", 'local s = "open\n', "local t = {1, 2,, }}\n"]:
        lx = check_language(src, "lua")
        assert lx.has_error


def test_crlf_line_endings() -> None:
    src = "--- Doc.\r\nlocal x = 1 -- c\r\nreturn x\r\n"
    lx = check_language(src, "lua")
    newlines = [lx.text(i) for i in range(len(lx)) if lx.kind(i).name == "NEWLINE"]
    assert newlines == ["\r\n"] * 3
    assert kind_of(src, "lua", "-- c") == "COMMENT"
    assert kind_of(src, "lua", "--- Doc.") == "DOCSTRING"


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("init.lua", None),
        (None, "#!/usr/bin/env lua\nprint(1)\n"),
        (None, "#!/usr/bin/luajit\nprint(1)\n"),
        (None, QUEUE_SRC),
        (None, 'local json = require("cjson")\nfor _, v in ipairs(arg) do\n  print(v)\nend\n'),
    ],
)
def test_detection(path: str | None, content: str | None) -> None:
    assert detect_language(content, path=path) == "lua"
