"""Known answers for the TSX grammar file (grammars/tsx.toml): TypeScript with JSX."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import LexemeFlag, detect_language, split_identifier

LANG = "tsx"

COMPONENT = """\
import React, { useState } from "react";

interface CounterProps {
  label: string;
  start?: number;
}

/** A button that counts its clicks. */
export function Counter({ label, start = 0 }: CounterProps) {
  const [count, setCount] = useState<number>(start);
  // render
  return (
    <div className="counter">
      <button onClick={() => setCount(count + 1)}>{label}: {count}</button>
      {count > 10 && <Badge tone="warn" />}
    </div>
  );
}
"""


def test_every_snippet_is_lossless() -> None:
    check_language(COMPONENT, LANG)


def test_keywords() -> None:
    out = kinds(COMPONENT, LANG)
    ks = dict(out)
    assert ks["interface"] == "KEYWORD"
    assert ks["string"] == "KEYWORD"
    assert ks["number"] == "KEYWORD"
    assert ks["return"] == "KEYWORD"
    assert ks["CounterProps"] == "IDENTIFIER"
    src = "const interface_ = 1; let type = interface_;"
    check_language(src, LANG)
    assert kind_of(src, LANG, "type") == "IDENTIFIER"


def test_jsx_kinds() -> None:
    lx = check_language(COMPONENT, LANG)
    seen = {(lx.text(i), lx.parent_type(i)): lx.kind(i).name for i in range(len(lx))}
    assert seen[("<", "jsx_opening_element")] == "PUNCTUATION"
    assert seen[(">", "jsx_opening_element")] == "PUNCTUATION"
    assert seen[("</", "jsx_closing_element")] == "PUNCTUATION"
    assert seen[("/>", "jsx_self_closing_element")] == "PUNCTUATION"
    assert seen[(">", "binary_expression")] == "OPERATOR"
    assert seen[(": ", "jsx_element")] == "STRING"


def test_generics_vs_comparison() -> None:
    src = "const xs = useMemo<Item[]>(() => load(), []); const big = n > limit;"
    lx = check_language(src, LANG)
    got = [(lx.text(i), lx.kind(i).name) for i in range(len(lx)) if lx.text(i) in ("<", ">")]
    assert got == [("<", "PUNCTUATION"), (">", "PUNCTUATION"), (">", "OPERATOR")]


def test_comments_and_doc() -> None:
    assert kind_of(COMPONENT, LANG, "/** A button that counts its clicks. */") == "DOCSTRING"
    assert kind_of(COMPONENT, LANG, "// render") == "COMMENT"
    src = "const a = (\n  <p>\n    {/* not doc */}\n    {/** doc */}\n  </p>\n);\n"
    check_language(src, LANG)
    assert kind_of(src, LANG, "/* not doc */") == "COMMENT"
    assert kind_of(src, LANG, "/** doc */") == "DOCSTRING"


def test_template_literal_and_attribute_strings() -> None:
    src = 'const el = <a href={`/u/${user.id}`} title="t">x</a>;'
    lx = check_language(src, LANG)
    out = kinds(src, LANG)
    assert ("`/u/", "STRING") in out and ('"t"', "STRING") in out
    i = next(i for i in range(len(lx)) if lx.text(i) == "user")
    assert lx.kind(i).name == "IDENTIFIER" and lx.flags[i] & LexemeFlag.INTERPOLATION


def test_numbers() -> None:
    src = "const w = <Box width={0x10} ratio={1.5e2} />;"
    check_language(src, LANG)
    assert [t for t, k in kinds(src, LANG) if k == "NUMBER"] == ["0x10", "1.5e2"]


def test_decorators_are_flagged() -> None:
    src = "@observer\nclass Panel extends React.Component<Props> {}\n"
    lx = check_language(src, LANG)
    flagged = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.DECORATOR]
    assert flagged == ["@", "observer"]


def test_identifier_splitting() -> None:
    assert kind_of(COMPONENT, LANG, "setCount") == "IDENTIFIER"
    assert split_identifier("setCount").parts == ("set", "Count")
    assert split_identifier("useHTMLParser").parts == ("use", "HTML", "Parser")


@pytest.mark.parametrize(
    "src", ["const a = <div><span></div>;", "function F(): JSX.Element { return (<p {x}</p>); "]
)
def test_syntax_errors_stay_lossless(src: str) -> None:
    lx = check_language(src, LANG)
    assert lx.has_error


def test_crlf_line_endings() -> None:
    src = COMPONENT.replace("\n", "\r\n")
    lx = check_language(src, LANG)
    assert "".join(lx.texts()) == src
    assert kind_of(src, LANG, "// render") == "COMMENT"


def test_detection() -> None:
    assert detect_language(path="ui/Counter.tsx") == LANG
    assert detect_language(path="ui/counter.ts") == "typescript"
    assert detect_language(COMPONENT) == LANG
    plain_jsx = (
        'import React from "react";\n\nexport default function App() {\n'
        "  const [n, setN] = React.useState(0);\n  return (\n"
        "    <button onClick={() => setN(n + 1)}>{n}</button>\n  );\n}\n"
    )
    assert detect_language(plain_jsx) == "javascript"
