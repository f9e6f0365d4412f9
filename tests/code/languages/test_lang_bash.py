"""Known answers for grammars/bash.toml: reserved words, builtins, expansions, heredocs."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import CodeTokenizer, LexemeFlag, detect_language, split_identifier

BACKUP_SRC = """\
#!/usr/bin/env bash
# Nightly backup of the uploads folder.
set -euo pipefail

readonly BACKUP_DIR="/var/backups/${APP_NAME:-site}"
export RETENTION_DAYS=14

rotate_archives() {
  local keep=$1
  find "$BACKUP_DIR" -name '*.tar.gz' -mtime +"$keep" -delete
}

if [[ ! -d "$BACKUP_DIR" ]]; then
  mkdir -p "$BACKUP_DIR"
elif [ "$(ls -A "$BACKUP_DIR")" ]; then
  rotate_archives "$RETENTION_DAYS"
fi

for f in uploads/*; do
  tar -czf "$BACKUP_DIR/$(basename "$f").tar.gz" "$f" || echo "failed: $f" >&2
done
"""


def test_reserved_words() -> None:
    check_language(BACKUP_SRC, "bash")
    k = dict(kinds(BACKUP_SRC, "bash"))
    for word in ["if", "[[", "]]", "then", "elif", "fi", "for", "in", "do", "done"]:
        assert k[word] == "KEYWORD", word
    src = (
        'case "$1" in\n  start|up) run ;;\n  *) usage ;;\nesac\n'
        "until false; do :; done\nselect x in a b; do break; done\n"
        "while read -r line; do echo; done\nfunction cleanup { rm -f x; }\n"
    )
    check_language(src, "bash")
    k = dict(kinds(src, "bash"))
    for word in ["case", "in", "esac", "until", "do", "done", "select", "while", "function"]:
        assert k[word] == "KEYWORD", word
    assert k[";;"] == "PUNCTUATION" and k["cleanup"] == "IDENTIFIER"


def test_builtins_are_commands_except_declarations() -> None:
    src = "local count=0\ndeclare -A map\nunset count\necho done_now\ncd /tmp\nbreak\n"
    check_language(src, "bash")
    k = dict(kinds(src, "bash"))
    assert k["local"] == k["declare"] == k["unset"] == "KEYWORD"
    assert k["echo"] == k["cd"] == k["break"] == "IDENTIFIER"
    assert k["count"] == k["map"] == k["-A"] == "IDENTIFIER"
    # a reserved word used as an argument is a plain word
    assert kind_of("echo done\n", "bash", "done") == "IDENTIFIER"


def test_bang_is_a_keyword_only_before_a_pipeline() -> None:
    src = "! grep -q x file\n[ ! -f y ]\n(( !z ))\n"
    lx = check_language(src, "bash")
    bangs = [(lx.parent_type(i), lx.kind(i).name) for i in range(len(lx)) if lx.text(i) == "!"]
    assert bangs[0] == ("negated_command", "KEYWORD")
    assert [k for _, k in bangs[1:]] == ["OPERATOR", "OPERATOR"]


def test_comments() -> None:
    k = dict(kinds(BACKUP_SRC, "bash"))
    assert k["#!/usr/bin/env bash"] == "COMMENT"
    # no documentation convention: a comment above a function stays a comment
    assert k["# Nightly backup of the uploads folder."] == "COMMENT"
    src = "# Rotates old archives.\nrotate() { :; }\necho a#b # tail\n"
    check_language(src, "bash")
    k = dict(kinds(src, "bash"))
    assert k["# Rotates old archives."] == "COMMENT" and k["# tail"] == "COMMENT"
    assert k["a#b"] == "IDENTIFIER"


def test_expansions_inside_strings_are_code() -> None:
    src = 'msg="user ${USER:-nobody} has $(id -u) in $HOME"\n'
    lx = check_language(src, "bash")
    assert kinds(src, "bash")[2:] == [
        ('"user ', "STRING"),
        ("${", "PUNCTUATION"),
        ("USER", "IDENTIFIER"),
        (":-", "OPERATOR"),
        ("nobody", "IDENTIFIER"),
        ("}", "PUNCTUATION"),
        (" has ", "STRING"),
        ("$(", "PUNCTUATION"),
        ("id", "IDENTIFIER"),
        ("-u", "IDENTIFIER"),
        (")", "PUNCTUATION"),
        (" in ", "STRING"),
        ("$", "PUNCTUATION"),
        ("HOME", "IDENTIFIER"),
        ('"', "STRING"),
    ]
    inside = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.INTERPOLATION]
    assert "USER" in inside and "id" in inside and "msg" not in inside


def test_quoted_strings_and_numbers() -> None:
    src = "a='no $x here'\nb=$'tab\\there'\nc=$((n * 2 + 0x10))\nexec 3>&2\n"
    check_language(src, "bash")
    k = dict(kinds(src, "bash"))
    assert k["'no $x here'"] == "STRING"
    assert k["$'tab\\there'"] == "STRING"
    assert k["$(("] == k["))"] == "PUNCTUATION"
    assert k["2"] == k["0x10"] == "NUMBER" and k["*"] == "OPERATOR"


def test_heredocs() -> None:
    src = "cat <<EOF > out.txt\nHello $USER\nEOF\ncat <<'RAW'\nkeep $this\nRAW\n"
    check_language(src, "bash")
    k = kinds(src, "bash")
    assert ("EOF", "STRING") in k and ("RAW", "STRING") in k
    assert ("Hello ", "STRING") in k and ("USER", "IDENTIFIER") in k
    assert ("keep $this\n", "STRING") in k  # a quoted delimiter: no expansion
    assert ("'RAW'", "STRING") in k


def test_test_operators_and_regex() -> None:
    src = '[[ $n -gt 3 && $s =~ ^v[0-9]+$ ]] && echo "ok"\n'
    check_language(src, "bash")
    k = dict(kinds(src, "bash"))
    assert k["-gt"] == "OPERATOR" and k["=~"] == "OPERATOR" and k["&&"] == "OPERATOR"
    assert k["^v[0-9]+$"] == "STRING"


def test_identifier_splitting() -> None:
    assert split_identifier("RETENTION_DAYS").parts == ("RETENTION", "DAYS")
    tok = CodeTokenizer.default()
    assert tok.decode(tok.encode(BACKUP_SRC, language="bash").ids) == BACKUP_SRC


def test_syntax_errors_stay_lossless() -> None:
    for src in [
        "if [[ -f x; then\n",
        'echo "unterminated $(cmd\n',
        "case x in\n  a) ;; esac fi }\n",
    ]:
        lx = check_language(src, "bash")
        assert lx.has_error


def test_crlf_line_endings() -> None:
    src = '# note\r\nx=1 # c\r\necho "$x"\r\n'
    lx = check_language(src, "bash")
    newlines = [lx.text(i) for i in range(len(lx)) if lx.kind(i).name == "NEWLINE"]
    assert newlines == ["\r\n"] * 3
    assert kind_of(src, "bash", "# c") == "COMMENT"


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("scripts/build.sh", None),
        ("env.bash", None),
        (None, "#!/bin/sh\necho hi\n"),
        (None, "#!/usr/bin/env bash\necho hi\n"),
        (None, "#!/bin/dash\necho hi\n"),
        (None, BACKUP_SRC.split("\n", 1)[1]),
    ],
)
def test_detection(path: str | None, content: str | None) -> None:
    assert detect_language(content, path=path) == "bash"
