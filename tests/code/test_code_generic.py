"""Languages read with a generic grammar (tree-sitter-language-pack, the ``languages``
extra): lossless lexemes, the native lexer equal to the Python one, kinds guessed from node
type names, a lossless encode, and detection by file name."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kinds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok.code import detect_language, get_grammar

pytest.importorskip("tree_sitter_language_pack")

SNIPPETS = {
    "elixir": ('defmodule Shop.Cart do\n  # totals\n  def total(items), do: Enum.sum(items)\nend\n',
               "lib/cart.ex"),
    "dart": ("// a counter\nclass Counter {\n  int value = 0;\n  void bump() => value++;\n}\n",
             "lib/counter.dart"),
    "zig": ('const std = @import("std");\npub fn main() void {\n    std.debug.print("hi\\n", .{});\n}\n',
            "src/main.zig"),
    "julia": ("# mean of a vector\nfunction mymean(xs)\n    sum(xs) / length(xs)\nend\n",
              "stats.jl"),
    "perl": ('use strict;\n# greet\nmy $name = "Ada";\nprint "hello $name\\n";\n', "greet.pl"),
    "r": ("# squares\nsquares <- function(n) {\n  (1:n)^2\n}\n", "sq.r"),
    "ocaml": ("(* length of a list *)\nlet rec len = function [] -> 0 | _ :: t -> 1 + len t\n",
              "len.ml"),
    "erlang": ("-module(hello).\n% greet\n-export([hi/0]).\nhi() -> io:format(\"hi~n\").\n",
               "hello.erl"),
    "clojure": ('(ns demo.core)\n; add two numbers\n(defn add [a b] (+ a b))\n', "core.clj"),
    "nix": ('{ pkgs ? import <nixpkgs> {} }:\n# a shell\npkgs.mkShell { name = "dev"; }\n',
            "shell.nix"),
    "yaml": ("# settings\nname: demo\nitems:\n  - one\n  - two\n", "conf.yaml"),
    "json": ('{"name": "demo", "sizes": [1, 2, 3], "ok": true}\n', "data.json"),
    "toml": ('# project\n[tool.demo]\nname = "x"\nlevel = 3\n', "demo.toml"),
    "css": ("/* layout */\n.box { margin: 0 auto; color: #333; }\n", "site.css"),
    "html": ('<!doctype html>\n<p class="note">Hi <b>there</b></p>\n', "page.html"),
    "dockerfile": ("FROM debian:12\n# tools\nRUN apt-get update && apt-get install -y git\n",
                   "Dockerfile"),
    "make": ("# build\nall: main.o\n\tcc -o app main.o\n", "Makefile"),
    "proto": ('syntax = "proto3";\n// a user\nmessage User { string name = 1; }\n',
              "user.proto"),
    "graphql": ("# a query\nquery Hero { hero { name friends { name } } }\n", "hero.graphql"),
    "solidity": ("// SPDX-License-Identifier: MIT\ncontract Box { uint256 value; }\n",
                 "Box.sol"),
    "fortran": ("! add\nprogram add\n  integer :: a = 1\n  print *, a + 2\nend program add\n",
                "add.f90"),
    "verilog": ("// a wire\nmodule top(input a, output b);\n  assign b = ~a;\nendmodule\n",
                "top.sv"),
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(SNIPPETS))
def test_generic_language_is_lossless_and_native(language: str) -> None:
    source, path = SNIPPETS[language]
    assert detect_language(source, path=path) == language
    g = get_grammar(language)
    assert g.generic and g.capsule is not None
    check_language(source, language)
    check_language(source.replace("\n", "\r\n"), language)
    check_language(source[: len(source) // 2] + "\x00}{", language)  # broken syntax


def test_generic_kinds_come_from_node_type_names() -> None:
    found = dict(kinds(SNIPPETS["dart"][0], "dart"))
    assert found["// a counter"] == "COMMENT"
    assert found["class"] == "KEYWORD"
    assert found["Counter"] == "IDENTIFIER"
    assert found["0"] == "NUMBER"
    found = dict(kinds(SNIPPETS["perl"][0], "perl"))
    assert found["# greet"] == "COMMENT"


def test_a_pack_grammar_that_can_hang_is_refused() -> None:
    """COBOL's scanner loops forever on a one-line input; no budget can stop it."""
    from codetok.code import lex
    from codetok.errors import LanguageError

    with pytest.raises(LanguageError, match="loops forever"):
        get_grammar("cobol")
    with pytest.raises(LanguageError, match="prog.cob.*cobol"):
        lex("x\n", path="prog.cob")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    language=st.sampled_from(["html", "perl", "css", "elixir", "tcl"]),
    bits=st.lists(
        st.sampled_from(["<a>", "</a>", "x", " ", "\n", "$v", "@w", "1.5", ".5", "::", ";", "{",
                         "}", "é", "\t", "\x1c", "'s'", "#c\n", "a_b9", "+=", "\r\n"])
        | st.characters(codec="utf-8"),
        max_size=30,
    ),
)  # fmt: skip
def test_native_text_kinds_equal_pythons(language: str, bits: list[str]) -> None:
    """Leaves a generic grammar leaves to their text get the same kind natively (ASCII is
    decided in C++) as from ``text_kind`` in Python."""
    check_language("".join(bits), language)
