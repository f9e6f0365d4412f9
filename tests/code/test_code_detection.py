"""Language detection beyond the core four: a file name that names a language always wins,
content only chooses between languages that share an extension, and what codetok cannot
read is a LanguageError that names the file and the languages it knows, never a guess."""

from __future__ import annotations

import pytest

from codetok.code import detect_language
from codetok.code.front.language import language_from_path
from codetok.errors import LanguageError

PYTHON = "import os\n\n\ndef main(argv):\n    if not argv:\n        return None\n"
CPP_HEADER = (
    "#pragma once\n#include <vector>\n#include <string>\n\nnamespace acme {\n"
    "template <typename T>\nclass Stack {\n public:\n  void push(const T& v) { items_.push_back(v); }\n"
    " private:\n  std::vector<T> items_;\n};\n}  // namespace acme\n"
)
C_HEADER = (
    "#ifndef ACME_H\n#define ACME_H\n#include <stddef.h>\n\n"
    "typedef struct acme_buf { char *data; size_t len; } acme_buf;\n"
    "int acme_buf_init(acme_buf *b, size_t cap);\n#endif\n"
)


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("src/Main.kt", "kotlin"),
        ("build.gradle.kts", "kotlin"),
        ("app/index.ts", "typescript"),
        ("types.d.ts", "typescript"),
        ("ui/View.tsx", "tsx"),
        ("lib/x.cpp", "cpp"),
        ("lib/x.hpp", "cpp"),
        ("lib/x.c", "c"),
        ("web/index.php", "php"),
        ("cmd/main.go", "go"),
        ("src/lib.rs", "rust"),
        ("Rakefile.rb", "ruby"),
        ("App.scala", "scala"),
        ("run.sh", "bash"),
        ("init.lua", "lua"),
        ("Sources/App.swift", "swift"),
    ],
)
def test_a_file_name_that_names_a_language_wins_over_content(path: str, name: str) -> None:
    assert language_from_path(path) == name
    assert detect_language(path=path) == name
    assert detect_language(PYTHON, path=path) == name  # the name decides, not the content


@pytest.mark.parametrize(
    ("path", "name"),
    [("lib/foo.ex", "elixir"), ("Dockerfile", "dockerfile"), ("main.zig", "zig")],
)
def test_generic_languages_are_named_by_their_files(path: str, name: str) -> None:
    assert detect_language(PYTHON, path=path) == name


def test_a_shared_extension_is_decided_by_content() -> None:
    assert detect_language(C_HEADER, path="acme.h") == "c"
    assert detect_language(CPP_HEADER, path="stack.h") == "cpp"
    assert detect_language(path="stack.h") == "c"  # no content: the extension's owner
    assert detect_language(PYTHON, path="odd.h") == "c"  # never a language it does not list


@pytest.mark.parametrize(
    ("first_line", "name"),
    [
        ("#!/bin/sh", "bash"),
        ("#!/bin/bash -e", "bash"),
        ("#!/usr/bin/env bash", "bash"),
        ("#!/usr/bin/env ruby", "ruby"),
        ("#!/usr/bin/env php", "php"),
        ("#!/usr/bin/lua5.4", "lua"),
        ("#!/usr/bin/env perl", "perl"),
    ],
)
def test_shebangs_of_the_new_languages(first_line: str, name: str) -> None:
    assert detect_language(first_line + "\nx\n", path="script") == name


def test_what_cannot_be_read_names_the_file_and_the_known_languages() -> None:
    with pytest.raises(LanguageError) as info:
        detect_language(path="notes.xyz")
    message = str(info.value)
    assert "notes.xyz" in message and "kotlin" in message and "python" in message
    with pytest.raises(LanguageError, match="mystery.dat"):
        detect_language("hello there, general remarks\n", path="mystery.dat")


def test_a_rust_inner_attribute_is_no_shebang() -> None:
    src = "#![cfg_attr(docsrs, feature(doc_cfg))]\n//! A crate.\npub fn run() -> Result<(), String> {\n    Ok(())\n}\n"
    assert detect_language(src) == "rust"
