"""Known answers for grammars/scala.toml: keywords, Scaladoc, interpolation, annotations."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import CodeTokenizer, LexemeFlag, detect_language, split_identifier

SERVICE_SRC = """\
package shop.billing

import scala.concurrent.{Future, ExecutionContext => EC}

/** Computes invoice totals.
  *
  * @param taxRate the rate applied to every line
  */
@SerialVersionUID(1L)
final case class InvoiceCalculator(taxRate: Double = 0.2) extends Calculator with Logging {
  // cached per currency
  private[billing] lazy val cache = mutable.Map.empty[String, BigDecimal]

  /**/
  /*** not documentation ***/
  override def total(lines: Seq[Line])(implicit ec: EC): Future[BigDecimal] =
    Future(lines.map(l => l.amount * (1 + taxRate)).sum)
}
"""


def test_hard_keywords() -> None:
    check_language(SERVICE_SRC, "scala")
    k = dict(kinds(SERVICE_SRC, "scala"))
    for word in ["package", "import", "final", "case", "class", "extends", "with", "private",
                 "lazy", "val", "override", "def", "implicit"]:  # fmt: skip
        assert k[word] == "KEYWORD", word
    assert k["InvoiceCalculator"] == k["Seq"] == k["taxRate"] == "IDENTIFIER"
    src = "val r = if x then null else try f() catch { case _ => true } finally g()\n"
    check_language(src, "scala")
    k = dict(kinds(src, "scala"))
    for word in ["if", "then", "null", "else", "try", "catch", "case", "_", "true", "finally"]:
        assert k[word] == "KEYWORD", word


def test_soft_keywords_in_and_out_of_context() -> None:
    src = (
        "object Main:\n  given ord: Ordering[Int] = Ordering.Int\n"
        "  extension (s: String) def shout: String = s.toUpperCase\n"
        "  inline def twice(x: Int): Int = x * 2\n  opaque type Id = Int\n"
        "  enum Color derives CanEqual:\n    case Red, Green\n"
        "  def run(using ctx: Ctx): Unit = ()\n"
        "  import java.util.{List as JList}\n"
        "val inline = 1\nval open = using + derives\n"
    )
    check_language(src, "scala")
    k = kinds(src, "scala")
    for word in ["given", "extension", "inline", "opaque", "derives", "using", "as", "enum"]:
        assert (word, "KEYWORD") in k, word
    # the same words as plain names
    tail = k[k.index(("val", "KEYWORD"), 20) :]
    assert ("inline", "IDENTIFIER") in tail and ("open", "IDENTIFIER") in tail
    assert ("using", "IDENTIFIER") in tail and ("derives", "IDENTIFIER") in tail


def test_this_and_end_markers() -> None:
    """``[kinds.by_text]`` ("this" is an identifier leaf) and ``[kinds.gaps]`` (no node
    covers the "end" of an end marker)."""
    src = "object Config:\n  def self = this.copy()\n  val endpoint = 1\nend Config\n"
    check_language(src, "scala")
    k = kinds(src, "scala")
    assert ("this", "KEYWORD") in k and ("end", "KEYWORD") in k
    assert k[-1] == ("Config", "IDENTIFIER")
    assert ("endpoint", "IDENTIFIER") in k and ("self", "IDENTIFIER") in k
    assert all(kind != "ERROR" for _, kind in k)


def test_scaladoc_and_comments() -> None:
    k = dict(kinds(SERVICE_SRC, "scala"))
    doc = (
        "/** Computes invoice totals.\n  *\n  * @param taxRate the rate applied to every line\n  */"
    )
    assert k[doc] == "DOCSTRING"
    assert k["// cached per currency"] == "COMMENT"
    assert k["/**/"] == "COMMENT"
    assert k["/*** not documentation ***/"] == "COMMENT"


def test_interpolated_strings() -> None:
    src = 'val msg = s"Dear $name, you owe ${amount * 2}%" + raw"C:\\dir" + f"$pct%.2f"\n'
    lx = check_language(src, "scala")
    assert kinds(src, "scala")[3:14] == [
        ('s"Dear ', "STRING"),
        ("$", "PUNCTUATION"),
        ("name", "IDENTIFIER"),
        (", you owe ", "STRING"),
        ("$", "PUNCTUATION"),
        ("{", "PUNCTUATION"),
        ("amount", "IDENTIFIER"),
        ("*", "OPERATOR"),
        ("2", "NUMBER"),
        ("}", "PUNCTUATION"),
        ('%"', "STRING"),
    ]
    k = dict(kinds(src, "scala"))
    assert k['raw"C:\\dir"'] == "STRING"
    assert k['f"'] == "STRING" and k["pct"] == "IDENTIFIER" and k['%.2f"'] == "STRING"
    inside = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.INTERPOLATION]
    assert "amount" in inside and "msg" not in inside


def test_literals() -> None:
    src = 'val xs = List(42, 7L, 0xFF, 1_000, 3.14, 2.5f, 1e-9, \'c\', \'\\n\', """a\nb""")\n'
    check_language(src, "scala")
    k = dict(kinds(src, "scala"))
    for num in ["42", "7L", "0xFF", "1_000", "3.14", "2.5f", "1e-9"]:
        assert k[num] == "NUMBER", num
    assert k["'c'"] == k["'\\n'"] == k['"""a\nb"""'] == "STRING"


def test_operators_and_type_brackets() -> None:
    src = "def f[A <: B](xs: List[A]): Int = xs.foldLeft(0)(_ + _) :: Nil\n"
    check_language(src, "scala")
    k = kinds(src, "scala")
    assert ("[", "PUNCTUATION") in k and ("]", "PUNCTUATION") in k
    assert ("<:", "OPERATOR") in k and ("+", "OPERATOR") in k and ("::", "OPERATOR") in k
    assert kind_of("infix def +++(o: Int) = o\n", "scala", "+++") == "OPERATOR"


def test_annotations_are_flagged() -> None:
    src = '@deprecated("old", "2.0")\ndef legacy(): Unit = ()\nval x: Int @unchecked = 1\n'
    lx = check_language(src, "scala")
    flagged = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.DECORATOR]
    flagged = [t for t in flagged if t.strip()]
    assert flagged == ["@", "deprecated", "(", '"old"', ",", '"2.0"', ")", "@", "unchecked"]
    assert kind_of(src, "scala", "@") == "PUNCTUATION"


def test_identifier_splitting() -> None:
    assert split_identifier("foldLeftWithIndex").parts == ("fold", "Left", "With", "Index")
    tok = CodeTokenizer.default()
    src = 'val maxRetryCount = config.getInt("retry_count")\n'
    assert tok.decode(tok.encode(src, language="scala").ids) == src


def test_syntax_errors_stay_lossless() -> None:
    for src in ["object { def (: = }", 'val s = s"open ${x', "class A extends { case =>\n"]:
        lx = check_language(src, "scala")
        assert lx.has_error


def test_crlf_line_endings() -> None:
    src = "/** Doc. */\r\nobject A {\r\n  val x = 1 // c\r\n}\r\n"
    lx = check_language(src, "scala")
    newlines = [lx.text(i) for i in range(len(lx)) if lx.kind(i).name == "NEWLINE"]
    assert newlines == ["\r\n"] * 4
    assert kind_of(src, "scala", "// c") == "COMMENT"
    assert kind_of(src, "scala", "/** Doc. */") == "DOCSTRING"


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("src/main/scala/App.scala", None),
        ("script.sc", None),
        (None, "#!/usr/bin/env scala\nprintln(1)\n"),
        (None, SERVICE_SRC),
        (None, 'object Hello extends App {\n  val greeting: String = "hi"\n  println(1)\n}\n'),
    ],
)
def test_detection(path: str | None, content: str | None) -> None:
    assert detect_language(content, path=path) == "scala"
