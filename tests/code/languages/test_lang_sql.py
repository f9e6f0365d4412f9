"""Known answers for grammars/sql.toml: keyword nodes, literals, comments, function bodies."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import CodeTokenizer, detect_language, split_identifier

REPORT_SRC = """\
-- Monthly revenue per customer.
/* Reads the orders table only. */
CREATE TABLE IF NOT EXISTS customer_totals (
  customer_id BIGINT PRIMARY KEY,
  label VARCHAR(100) NOT NULL DEFAULT 'none',
  updated_at TIMESTAMP
);

SELECT c.customer_id, SUM(o.amount) AS total, 'it''s' AS note
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
WHERE o.status <> 'void' AND o.created_at >= $1
GROUP BY c.customer_id
HAVING SUM(o.amount) > 100
ORDER BY total DESC
LIMIT 10;
"""


def test_keyword_nodes_are_keywords() -> None:
    check_language(REPORT_SRC, "sql")
    k = dict(kinds(REPORT_SRC, "sql"))
    for word in ["CREATE", "TABLE", "IF", "NOT", "EXISTS", "BIGINT", "PRIMARY", "KEY",
                 "VARCHAR", "NULL", "DEFAULT", "TIMESTAMP", "SELECT", "AS", "FROM", "LEFT",
                 "JOIN", "ON", "WHERE", "AND", "GROUP", "BY", "HAVING", "ORDER", "DESC",
                 "LIMIT"]:  # fmt: skip
        assert k[word] == "KEYWORD", word
    assert k["customer_totals"] == k["customer_id"] == k["SUM"] == "IDENTIFIER"


def test_lower_case_keywords_and_names() -> None:
    src = "insert into users (id, name) values (1, 'ann');\nupdate users set name = 'b' where id in (1, 2);\n"
    check_language(src, "sql")
    k = dict(kinds(src, "sql"))
    for word in ["insert", "into", "values", "update", "set", "where", "in"]:
        assert k[word] == "KEYWORD", word
    assert k["users"] == k["id"] == k["name"] == "IDENTIFIER"


def test_comments() -> None:
    k = dict(kinds(REPORT_SRC, "sql"))
    assert k["-- Monthly revenue per customer."] == "COMMENT"
    assert k["/* Reads the orders table only. */"] == "COMMENT"


def test_literals_and_parameters() -> None:
    k = dict(kinds(REPORT_SRC, "sql"))
    assert k["'none'"] == k["'it''s'"] == k["'void'"] == "STRING"
    # numbers share the "literal" node with strings (see sql.toml)
    assert k["100"] == "STRING"
    assert k["$1"] == "IDENTIFIER"
    assert k["<>"] == k[">="] == k["="] == "OPERATOR"
    assert k["("] == k[","] == k[";"] == k["."] == "PUNCTUATION"


def test_function_body_between_dollar_quotes_is_code() -> None:
    src = "CREATE FUNCTION one() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql;\n"
    check_language(src, "sql")
    k = kinds(src, "sql")
    assert ("$$", "PUNCTUATION") in k
    i = k.index(("$$", "PUNCTUATION"))
    assert k[i + 1] == ("SELECT", "KEYWORD")
    assert kind_of(src, "sql", "RETURNS") == "KEYWORD"


def test_identifier_splitting() -> None:
    assert split_identifier("customer_totals").parts == ("customer", "totals")
    tok = CodeTokenizer.default()
    assert tok.decode(tok.encode(REPORT_SRC, language="sql").ids) == REPORT_SRC


def test_syntax_errors_stay_lossless() -> None:
    for src in [
        "SELECT * FROM WHERE ) (;",
        "INSERT INTO t VALUES ('open",
        "CREATE TABLE (,,) x y;",
    ]:
        lx = check_language(src, "sql")
        assert lx.has_error


def test_crlf_line_endings() -> None:
    src = "-- c\r\nSELECT a\r\nFROM t;\r\n"
    lx = check_language(src, "sql")
    newlines = [lx.text(i) for i in range(len(lx)) if lx.kind(i).name == "NEWLINE"]
    assert newlines == ["\r\n"] * 3
    assert kind_of(src, "sql", "-- c") == "COMMENT"


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("migrations/001_init.sql", None),
        (None, REPORT_SRC),
        (None, "select id, name\nfrom users\nwhere active = 1;\n"),
    ],
)
def test_detection(path: str | None, content: str | None) -> None:
    assert detect_language(content, path=path) == "sql"
