"""Known answers for the TypeScript grammar file (grammars/typescript.toml)."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import LexemeFlag, detect_language, lex, split_identifier

LANG = "typescript"

SERVICE = """\
import type { Order } from "./model";

/** Loads orders for one customer. */
export abstract class OrderStore<T extends Order> implements Store {
  private readonly cache = new Map<string, T[]>();
  declare kind?: string;

  constructor(protected api: Api) {}

  async fetchOrders(customerId: number): Promise<readonly T[]> {
    // cached answer first
    const hit = this.cache.get(`${customerId}`);
    return hit ?? (await this.api.get<T[]>("/orders")) as T[];
  }
}
"""

TYPES = """\
type Keys<T> = { [K in keyof T]-?: T[K] extends Function ? never : K }[keyof T];
type Unwrap<P> = P extends Promise<infer U> ? U : P;
declare function isText(v: unknown): v is string;
function assertOk(v: boolean): asserts v {}
namespace Geo { export const origin = { x: 0, y: 0 } as const; }
enum Color { Red = 1, Green }
const big: bigint = 10n;
const cfg = { port: 8080 } satisfies Config;
let legacy = <any>window;
"""


def test_every_snippet_is_lossless() -> None:
    for src in (SERVICE, TYPES):
        check_language(src, LANG)


def test_reserved_and_contextual_keywords() -> None:
    ks = dict(kinds(TYPES, LANG))
    for word in ("type", "keyof", "infer", "never", "declare", "is", "asserts", "namespace",
                 "satisfies", "enum", "unknown", "boolean"):  # fmt: skip
        assert ks[word] == "KEYWORD", word
    assert kind_of(SERVICE, LANG, "abstract") == "KEYWORD"
    assert kind_of(SERVICE, LANG, "readonly") == "KEYWORD"
    assert kind_of(SERVICE, LANG, "private") == "KEYWORD"
    # contextual words used as plain names stay identifiers
    src = "const type = 1; let declare = type + 2; obj.readonly = declare;"
    check_language(src, LANG)
    assert [k for t, k in kinds(src, LANG) if t in ("type", "declare", "readonly")] == [
        "IDENTIFIER"
    ] * 5


def test_predefined_and_user_types() -> None:
    out = kinds("let a: string = 'x'; let b: Order = a as unknown as Order;", LANG)
    assert ("string", "KEYWORD") in out
    assert ("Order", "IDENTIFIER") in out
    assert ("unknown", "KEYWORD") in out


def test_comments_and_tsdoc() -> None:
    src = "/** Doc. */\n/**/\n/*** banner ***/\n/* plain */\n// line\nlet x = 1;\n"
    check_language(src, LANG)
    comments = [(t, k) for t, k in kinds(src, LANG) if k in ("COMMENT", "DOCSTRING")]
    assert comments == [
        ("/** Doc. */", "DOCSTRING"),
        ("/**/", "COMMENT"),
        ("/*** banner ***/", "COMMENT"),
        ("/* plain */", "COMMENT"),
        ("// line", "COMMENT"),
    ]


def test_template_literal_interpolation_is_code() -> None:
    src = "const s = `total: ${price * qty} EUR`;"
    lx = check_language(src, LANG)
    out = kinds(src, LANG)
    assert out[3:-1] == [
        ("`total: ", "STRING"),
        ("${", "PUNCTUATION"),
        ("price", "IDENTIFIER"),
        ("*", "OPERATOR"),
        ("qty", "IDENTIFIER"),
        ("}", "PUNCTUATION"),
        (" EUR`", "STRING"),
    ]
    i = next(i for i in range(len(lx)) if lx.text(i) == "price")
    assert lx.flags[i] & LexemeFlag.INTERPOLATION


def test_numbers() -> None:
    src = "const n = [0x1F, 1_000, 3.5e-2, 10n, 0b101, 0o17];"
    check_language(src, LANG)
    nums = [t for t, k in kinds(src, LANG) if k == "NUMBER"]
    assert nums == ["0x1F", "1_000", "3.5e-2", "10n", "0b101", "0o17"]


def test_decorators_are_flagged() -> None:
    src = '@Component({ selector: "app" })\nclass View { @Input() name = ""; }\n'
    lx = check_language(src, LANG)
    flagged = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.DECORATOR]
    assert flagged[:3] == ["@", "Component", "("]
    assert "Input" in flagged and "View" not in flagged and "name" not in flagged
    assert kind_of(src, LANG, "@") == "PUNCTUATION"


def test_angle_brackets_generics_vs_comparison() -> None:
    src = "function f<T>(xs: Array<T>): boolean { return a < b && c > d; }"
    lx = check_language(src, LANG)
    angle = [(lx.text(i), lx.parent_type(i), lx.kind(i).name) for i in range(len(lx))
             if lx.text(i) in "<>" and lx.text(i)]  # fmt: skip
    assert angle == [
        ("<", "type_parameters", "PUNCTUATION"),
        (">", "type_parameters", "PUNCTUATION"),
        ("<", "type_arguments", "PUNCTUATION"),
        (">", "type_arguments", "PUNCTUATION"),
        ("<", "binary_expression", "OPERATOR"),
        (">", "binary_expression", "OPERATOR"),
    ]
    # the old-style "<T>x" type assertion
    assert kind_of(TYPES, LANG, "<") == "PUNCTUATION"


def test_identifier_splitting() -> None:
    src = "const fetchOrderHistory = loadJSONResponse();"
    check_language(src, LANG)
    assert kind_of(src, LANG, "fetchOrderHistory") == "IDENTIFIER"
    assert split_identifier("fetchOrderHistory").parts == ("fetch", "Order", "History")
    assert split_identifier("loadJSONResponse").parts == ("load", "JSON", "Response")


@pytest.mark.parametrize(
    "src", ["class { private x: = ; }}", "let a: Array<string = [;", "function f(x: { y"]
)
def test_syntax_errors_stay_lossless(src: str) -> None:
    lx = check_language(src, LANG)
    assert lx.has_error


def test_crlf_line_endings() -> None:
    src = SERVICE.replace("\n", "\r\n")
    lx = check_language(src, LANG)
    assert "".join(lx.texts()) == src
    assert kind_of(src, LANG, "// cached answer first") == "COMMENT"
    assert kind_of(src, LANG, "/** Loads orders for one customer. */") == "DOCSTRING"


def test_detection() -> None:
    assert detect_language(path="src/app.ts") == LANG
    assert detect_language(path="types/index.d.ts") == LANG
    assert detect_language(path="lib/mod.mts") == LANG
    assert detect_language("#!/usr/bin/env ts-node\nconsole.log(1);\n") == LANG
    assert detect_language(SERVICE) == LANG
    assert detect_language(TYPES) == LANG
    assert lex(SERVICE).language == LANG
