"""``codetok lex`` and ``codetok encode`` on files of the curated languages: known by their
names or ``#!`` lines, read with their grammar and the default's keyword tokens."""

from __future__ import annotations

import pytest

from codetok.cli.app import main

FILES = {
    "main.go": ("package main\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n", "go"),
    "App.kt": ("fun main() {\n    val x = 1\n    println(x)\n}\n", "kotlin"),
    "lib.rs": ("/// Doubles.\npub fn double(x: i32) -> i32 { x * 2 }\n", "rust"),
    "deploy": ('#!/bin/sh\nset -e\nif [ -n "$1" ]; then echo "$1"; fi\n', "bash"),
    "view.tsx": ("export const A = (p: { n: number }) => <b>{p.n}</b>;\n", "tsx"),
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_lex_and_encode_read_the_new_languages(name, tmp_path, capsys):
    source, language = FILES[name]
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    assert main(["lex", str(path)]) == 0
    out = capsys.readouterr()
    assert out.out.startswith(f"# {path}: {language},") and out.err == ""
    assert main(["encode", str(path), "--format", "tokens"]) == 0
    out = capsys.readouterr()
    assert out.err == "" and out.out.strip()


def test_encode_uses_the_default_keyword_tokens_of_go(tmp_path, capsys):
    path = tmp_path / "main.go"
    path.write_text(FILES["main.go"][0], encoding="utf-8")
    assert main(["encode", str(path), "--format", "tokens"]) == 0
    tokens = capsys.readouterr().out.split()
    assert "<go:func>" in tokens and "<go:package>" in tokens and "<doc>" in tokens
