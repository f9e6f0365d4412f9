"""Known answers for grammars/ruby.toml: keywords, RDoc comments, interpolation, heredocs."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import CodeTokenizer, LexemeFlag, detect_language, lex, split_identifier

CLASS_SRC = """\
# frozen_string_literal: true

require "set"

# Keeps track of visited pages.
# Two lines of RDoc.
module Crawler
  # A queue of pages still to fetch.
  class PageQueue < BaseQueue
    attr_reader :max_depth

    # Adds a page unless it was seen.
    def push(url, depth = 0)
      return if depth > @max_depth || seen?(url)

      @@pushed += 1
      @pending << [url, depth] # remember it
    end

    # Builds a queue from a list.
    def self.from_list(urls) = new.tap { |q| urls.each { |u| q.push(u) } }
  end
end
"""


def test_reserved_keywords_and_names() -> None:
    src = (
        "BEGIN { x = nil }\nunless defined?(y) then y = true end\n"
        "while false do redo end\nuntil a and not b or c do break end\n"
        "case v when 1 then next else retry end\nalias old_name new_name\nundef gone\n"
    )
    check_language(src, "ruby")
    k = dict(kinds(src, "ruby"))
    for word in ["BEGIN", "unless", "defined?", "then", "true", "end", "while", "false",
                 "do", "redo", "until", "and", "not", "or", "break", "case", "when",
                 "next", "else", "retry", "alias", "undef", "nil"]:  # fmt: skip
        assert k[word] == "KEYWORD", word
    assert k["old_name"] == "IDENTIFIER" and k["gone"] == "IDENTIFIER"


def test_keywords_the_grammar_lexes_as_names_or_leaves_uncovered() -> None:
    """``[kinds.by_text]`` and ``[kinds.gaps]``: "__FILE__" is an identifier leaf, and no
    node covers "__END__" nor the "#" of "#@ivar"."""
    src = 'dir = File.dirname(__FILE__) + __LINE__.to_s\ns = "at #@home"\n__END__\ndata\n'
    check_language(src, "ruby")
    k = dict(kinds(src, "ruby"))
    assert k["__FILE__"] == k["__LINE__"] == k["__END__"] == "KEYWORD"
    assert k["#"] == "PUNCTUATION" and k["@home"] == "IDENTIFIER"
    assert k["\ndata\n"] == "STRING"
    assert "ERROR" not in dict(kinds(src, "ruby")).values()


def test_methods_called_like_keywords_are_identifiers() -> None:
    src = "private\nputs self.class.name\nraise ArgumentError, 'no' if loop?\n"
    check_language(src, "ruby")
    k = dict(kinds(src, "ruby"))
    assert k["private"] == "IDENTIFIER"
    assert k["puts"] == "IDENTIFIER"
    assert k["class"] == "IDENTIFIER"  # a method name after "."
    assert k["self"] == "KEYWORD"
    assert k["raise"] == "IDENTIFIER" and k["ArgumentError"] == "IDENTIFIER"
    assert k["if"] == "KEYWORD"


def test_variables_symbols_and_numbers() -> None:
    src = (
        "@count = @@total + $stdout.size\nopts = { depth: 3, :mode => :fast }\n"
        "n = 0x1F + 1_000 + 2.5e-3 + 3r + 2i\n"
    )
    check_language(src, "ruby")
    k = dict(kinds(src, "ruby"))
    assert k["@count"] == k["@@total"] == k["$stdout"] == "IDENTIFIER"
    assert k["depth"] == "IDENTIFIER" and k[":"] == "PUNCTUATION"
    assert k[":mode"] == k[":fast"] == "IDENTIFIER"
    assert k["=>"] == "OPERATOR"
    for num in ["0x1F", "1_000", "2.5e-3", "3", "r", "2", "i"]:
        assert k[num] == "NUMBER", num


def test_rdoc_comments_above_definitions_are_docstrings() -> None:
    """Needs the ``[comments] doc_before`` key (RDoc/YARD position rule)."""
    check_language(CLASS_SRC, "ruby")
    k = dict(kinds(CLASS_SRC, "ruby"))
    assert k["# frozen_string_literal: true"] == "COMMENT"
    assert k["# remember it"] == "COMMENT"
    for doc in ["# Keeps track of visited pages.", "# Two lines of RDoc.",
                "# A queue of pages still to fetch.", "# Adds a page unless it was seen.",
                "# Builds a queue from a list."]:  # fmt: skip
        assert k[doc] == "DOCSTRING", doc


def test_comment_separated_by_blank_line_is_not_documentation() -> None:
    src = "# Just a note.\n\ndef run\nend\n# Trailing.\nx = 1\n=begin\nblock\n=end\n"
    check_language(src, "ruby")
    k = dict(kinds(src, "ruby"))
    assert k["# Just a note."] == "COMMENT"
    assert k["# Trailing."] == "COMMENT"
    assert k["=begin\nblock\n=end"] == "COMMENT"
    assert lex(src, "ruby").language == "ruby"


def test_interpolation_is_code_inside_strings() -> None:
    src = 'msg = "hi #{user.name(1)}!"\nre = /a#{x}b/i\nout = `ls #{dir}`\nq = %q(raw #{no})\n'
    lx = check_language(src, "ruby")
    assert kinds(src, "ruby")[2:9] == [
        ('"hi ', "STRING"),
        ("#{", "PUNCTUATION"),
        ("user", "IDENTIFIER"),
        (".", "PUNCTUATION"),
        ("name", "IDENTIFIER"),
        ("(", "PUNCTUATION"),
        ("1", "NUMBER"),
    ]
    k = dict(kinds(src, "ruby"))
    assert k["}"] == "PUNCTUATION" and k['!"'] == "STRING"
    assert k["/a"] == "STRING" and k["b/i"] == "STRING" and k["x"] == "IDENTIFIER"
    assert k["`ls "] == "STRING" and k["dir"] == "IDENTIFIER"
    assert k["%q(raw #{no})"] == "STRING"
    inside = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.INTERPOLATION]
    assert "user" in inside and "dir" in inside and "msg" not in inside
    # "#@ivar" interpolates without braces: the variable is code
    assert kind_of('s = "at #@home"\n', "ruby", "@home") == "IDENTIFIER"


def test_heredoc_body_is_one_string_per_stretch() -> None:
    src = "sql = <<~SQL\n  SELECT * FROM t\n  WHERE id = #{id}\nSQL\nputs sql\n"
    check_language(src, "ruby")
    k = kinds(src, "ruby")
    assert ("<<~SQL", "STRING") in k
    assert ("\n  SELECT * FROM t\n  WHERE id = ", "STRING") in k
    assert ("id", "IDENTIFIER") in k
    assert ("\nSQL", "STRING") in k
    assert k[-1] == ("sql", "IDENTIFIER")


def test_symbols_strings_and_characters() -> None:
    src = 'a = %w[x y]\nb = %i[p q]\nc = :"dyn#{n}"\nd = ?z\n'
    check_language(src, "ruby")
    k = dict(kinds(src, "ruby"))
    assert k["%w[x y]"] == k["%i[p q]"] == "STRING"
    assert k[':"dyn'] == "STRING" and k["n"] == "IDENTIFIER"
    assert k["?z"] == "STRING"


def test_block_parameters_pipes_are_punctuation() -> None:
    src = "items.each_with_index do |item, i|\n  total = a | b\nend\n"
    lx = check_language(src, "ruby")
    pipes = [(lx.parent_type(i), lx.kind(i).name) for i in range(len(lx)) if lx.text(i) == "|"]
    assert pipes == [
        ("block_parameters", "PUNCTUATION"),
        ("block_parameters", "PUNCTUATION"),
        ("binary", "OPERATOR"),
    ]
    assert kind_of("x = a ? b : c\n", "ruby", ":") == "OPERATOR"


def test_identifier_splitting() -> None:
    assert split_identifier("max_depth").parts == ("max", "depth")
    assert split_identifier("@pending_urls").parts == ("pending", "urls")
    tok = CodeTokenizer.default()
    src = "def fetch_next_page!(pageNumber) = @page_queue.pop\n"
    assert tok.decode(tok.encode(src, language="ruby").ids) == src


def test_syntax_errors_stay_lossless() -> None:
    for src in ["def broken(a, \n  x = {\nend end end\n", 'puts "open #{x', "class < < ::\n"]:
        lx = check_language(src, "ruby")
        assert lx.has_error


def test_crlf_line_endings() -> None:
    src = "# Doc.\r\ndef go\r\n  x = 1 # c\r\nend\r\n"
    lx = check_language(src, "ruby")
    newlines = [lx.text(i) for i in range(len(lx)) if lx.kind(i).name == "NEWLINE"]
    assert newlines == ["\r\n"] * 4
    assert kind_of(src, "ruby", "# c") == "COMMENT"


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("tasks/build.rake", None),
        ("app.gemspec", None),
        ("config.ru", None),
        (None, "#!/usr/bin/env ruby\nputs 1\n"),
        (None, CLASS_SRC),
        (None, "require 'json'\n\n[1, 2].each do |n|\n  puts n\nend\n"),
    ],
)
def test_detection(path: str | None, content: str | None) -> None:
    assert detect_language(content, path=path) == "ruby"
