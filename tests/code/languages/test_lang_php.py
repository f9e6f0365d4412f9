"""Known answers for the PHP grammar file (grammars/php.toml): HTML with PHP islands."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import LexemeFlag, detect_language, split_identifier

LANG = "php"

CLASS = """\
<?php
declare(strict_types=1);

namespace Shop\\Billing;

use Shop\\Core\\Money as Cash;

/** Computes invoice totals. */
final class InvoiceTotals
{
    # running sum
    private array $lines = [];

    public function __construct(private readonly int $taxRate = 20) {}

    public function addLine(string $label, float $amount): static
    {
        $this->lines[] = ['label' => $label, 'amount' => $amount];
        return $this;
    }

    public function total(): float
    {
        $sum = 0.0;
        foreach ($this->lines as $line) {
            $sum += $line['amount'];
        }
        return $sum * (1 + $this->taxRate / 100);
    }
}
"""

TEMPLATE = """\
<!DOCTYPE html>
<ul class="items">
<?php foreach ($items as $item): ?>
  <li><?= htmlspecialchars($item->name) ?></li>
<?php endforeach; ?>
</ul>
"""


def test_every_snippet_is_lossless() -> None:
    for src in (CLASS, TEMPLATE):
        check_language(src, LANG)


def test_keywords() -> None:
    ks = dict(kinds(CLASS, LANG))
    for word in ("declare", "namespace", "use", "as", "final", "class", "private", "readonly",
                 "function", "foreach", "return", "array", "string", "float", "int",
                 "strict_types"):  # fmt: skip
        assert ks[word] == "KEYWORD", word
    # "match" and "enum" are keywords in their constructs, names elsewhere
    src = "<?php\nenum Suit { case Hearts; }\n$r = match($x) { 1 => 'a', default => 'b' };\n"
    src += "$match = $enum->match();\n"
    check_language(src, LANG)
    out = kinds(src, LANG)
    assert [k for t, k in out if t == "match"] == ["KEYWORD", "IDENTIFIER", "IDENTIFIER"]
    assert [k for t, k in out if t == "enum"] == ["KEYWORD", "IDENTIFIER"]


def test_variables_are_sigil_and_name() -> None:
    out = kinds("<?php $totalPrice = $unitPrice * 2;", LANG)
    assert out[1:4] == [("$", "PUNCTUATION"), ("totalPrice", "IDENTIFIER"), ("=", "OPERATOR")]
    assert split_identifier("totalPrice").parts == ("total", "Price")


def test_comments_and_phpdoc() -> None:
    src = "<?php\n/** Doc. */\n/**/\n/* block */\n// line\n# hash\n#[Pure]\nfunction f() {}\n"
    lx = check_language(src, LANG)
    comments = [(t, k) for t, k in kinds(src, LANG) if k in ("COMMENT", "DOCSTRING")]
    assert comments == [
        ("/** Doc. */", "DOCSTRING"),
        ("/**/", "COMMENT"),
        ("/* block */", "COMMENT"),
        ("// line", "COMMENT"),
        ("# hash", "COMMENT"),
    ]
    flagged = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.DECORATOR]
    assert flagged == ["#[", "Pure", "]"]


def test_attributes_are_flagged() -> None:
    src = '<?php\n#[Route("/cart", methods: ["POST"])]\nfunction add() {}\n'
    lx = check_language(src, LANG)
    flagged = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.DECORATOR]
    assert flagged[:4] == ["#[", "Route", "(", '"/cart"']
    assert flagged[-1] == "]" and "add" not in flagged


def test_interpolated_strings() -> None:
    src = '<?php $s = "Hi {$user->name}, you owe $amount[0] EUR";'
    lx = check_language(src, LANG)
    out = kinds(src, LANG)
    assert out[4:] == [
        ('"Hi {', "STRING"),
        ("$", "PUNCTUATION"),
        ("user", "IDENTIFIER"),
        ("->", "OPERATOR"),
        ("name", "IDENTIFIER"),
        ("}, you owe ", "STRING"),
        ("$", "PUNCTUATION"),
        ("amount", "IDENTIFIER"),
        ("[", "PUNCTUATION"),
        ("0", "NUMBER"),
        ("]", "PUNCTUATION"),
        (' EUR"', "STRING"),
        (";", "PUNCTUATION"),
    ]
    i = next(i for i in range(len(lx)) if lx.text(i) == "user")
    assert lx.flags[i] & LexemeFlag.INTERPOLATION
    assert kind_of("<?php $t = 'no $interp here';", LANG, "'no $interp here'") == "STRING"


def test_heredoc_and_nowdoc() -> None:
    src = "<?php\n$a = <<<EOT\nDear {$name},\nEOT;\n$b = <<<'RAW'\nkeep $this\nRAW;\n"
    check_language(src, LANG)
    out = kinds(src, LANG)
    strings = [t for t, k in out if k == "STRING"]
    assert strings == ["<<<EOT\nDear {", "},\nEOT", "<<<'RAW'\nkeep $this\nRAW"]
    assert ("name", "IDENTIFIER") in out


def test_numbers() -> None:
    src = "<?php $n = [0x1F, 0b101, 0o17, 1_000, 1.5e3, .5];"
    check_language(src, LANG)
    nums = [t for t, k in kinds(src, LANG) if k == "NUMBER"]
    assert nums == ["0x1F", "0b101", "0o17", "1_000", "1.5e3", ".5"]


def test_html_around_php() -> None:
    lx = check_language(TEMPLATE, LANG)
    out = kinds(TEMPLATE, LANG)
    assert out[0] == ('<!DOCTYPE html>\n<ul class="items">\n', "STRING")
    assert [t for t, k in out if t in ("<?php", "<?=", "?>")] == ["<?php", "?>", "<?=", "?>",
                                                                   "<?php", "?>"]  # fmt: skip
    assert {k for t, k in out if t in ("<?php", "<?=", "?>")} == {"PUNCTUATION"}
    assert kind_of(TEMPLATE, LANG, "foreach") == "KEYWORD"
    assert kind_of(TEMPLATE, LANG, "endforeach") == "KEYWORD"
    assert kind_of(TEMPLATE, LANG, "htmlspecialchars") == "IDENTIFIER"
    # PHP drops the line break right after "?>": it is a NEWLINE, not part of the text
    assert out[-1] == ("</ul>\n", "STRING")
    assert lx.has_error is False


def test_comparison_operators() -> None:
    src = "<?php if ($a < $b && $c >= 2 || $d <=> $e) {}"
    check_language(src, LANG)
    out = kinds(src, LANG)
    assert [(t, k) for t, k in out if t in ("<", ">=", "<=>")] == [
        ("<", "OPERATOR"), (">=", "OPERATOR"), ("<=>", "OPERATOR"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "src",
    ["<?php function ( { $x = ; }}", "<p><?php echo $a->; ?></p>", '<?php $s = "{$a'],
)
def test_syntax_errors_stay_lossless(src: str) -> None:
    lx = check_language(src, LANG)
    assert lx.has_error


def test_crlf_line_endings() -> None:
    for base in (CLASS, TEMPLATE):
        src = base.replace("\n", "\r\n")
        lx = check_language(src, LANG)
        assert "".join(lx.texts()) == src
    assert kind_of(CLASS.replace("\n", "\r\n"), LANG, "# running sum") == "COMMENT"


def test_detection() -> None:
    assert detect_language(path="src/Invoice.php") == LANG
    assert detect_language(path="views/list.phtml") == LANG
    assert detect_language("#!/usr/bin/env php\n<?php echo 1;\n") == LANG
    assert detect_language(CLASS) == LANG
    assert detect_language(TEMPLATE) == LANG


def test_self_static_and_parent_as_types_are_keywords() -> None:
    src = (
        "<?php\nclass Node extends Base {\n"
        "    public function copy(): static { return new static(); }\n"
        "    public function up(): ?parent { return null; }\n"
        "    public function me(): self { return $this; }\n}\n"
    )
    found = kinds(src, "php")
    assert found.count(("static", "KEYWORD")) == 2
    assert ("self", "KEYWORD") in found and ("parent", "KEYWORD") in found
    assert ("Node", "IDENTIFIER") in found
    check_language(src, "php")
