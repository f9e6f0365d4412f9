"""Fill-in-the-middle: a document as prefix, suffix and middle, the middle to be infilled.

A FIM transform cuts a document in three, ``prefix + middle + suffix == document``, and
lays the parts out with the control tokens (:mod:`codetok.code.special`) so that a
left-to-right model learns to write the middle after seeing both sides (Bavarian et al.
2022, "Efficient Training of Language Models to Fill in the Middle"):

- PSM: ``<fim_prefix> prefix <fim_suffix> suffix <fim_middle> middle``;
- SPM: ``<fim_prefix> <fim_suffix> suffix <fim_middle> prefix middle``, the variant of
  their appendix that StarCoder trains with (the prefix runs straight into the middle).

Where the middle falls:

- ``spans="random"``: two character positions drawn uniformly, as Bavarian et al. do;
- ``spans="ast"`` (AST-FIM, Gong et al. 2025, "Structure-Aware Fill-in-the-Middle
  Pretraining for Code"): one whole syntax node, or an aligned run of sibling nodes,
  chosen from the tree-sitter tree with the weights of :data:`NODE_WEIGHTS` by the kind
  of node (:func:`node_kind`).

Each part is encoded on its own (what an editor asking a model to infill sends), so its ids
decode to its text exactly and :func:`undo_fim` gives the document back from the ids.
A transform is deterministic: the same seed and document key choose the same cut, in any
order and on any worker.

Not here: the control tokens themselves, packing documents into sequences.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine import native as _backend
from ..errors import ConfigurationError, VocabularyError
from .front.budget import ParseBudget, parse_tree
from .front.lexer import Prepared, prepare

__all__ = [
    "FIM_MODES",
    "FIM_SPANS",
    "NODE_WEIGHTS",
    "FimExample",
    "FimTransform",
    "ast_span",
    "fim_ids",
    "node_kind",
    "random_span",
    "undo_fim",
]

FIM_MODES = ("psm", "spm", "mixed")
FIM_SPANS = ("ast", "random")

#: AST-FIM's weight of a node by its kind (:func:`node_kind`): statements and definitions
#: most, then blocks and expressions, leaves (names, literals) least; each node of a kind
#: is as likely as the others of it.
NODE_WEIGHTS: dict[str, float] = {
    "statement": 4.0,
    "definition": 3.0,
    "block": 2.0,
    "expression": 2.0,
    "other": 1.0,
    "leaf": 0.5,
}


def node_kind(node_type: str, named_children: int) -> str:
    """The kind of a named node for :data:`NODE_WEIGHTS`, from its type name and
    number of named children.

    >>> node_kind("return_statement", 1), node_kind("identifier", 0), node_kind("block", 3)
    ('statement', 'leaf', 'block')
    """
    if "statement" in node_type:
        return "statement"
    if "definition" in node_type or "declaration" in node_type:
        return "definition"
    if node_type.endswith(("block", "body")):
        return "block"
    if named_children == 0:
        return "leaf"
    if "expression" in node_type or node_type in ("call", "assignment", "arguments",
                                                  "argument_list", "invocation_expression"):  # fmt: skip
        return "expression"
    return "other"


def random_span(length: int, rng: random.Random) -> tuple[int, int]:
    """Bavarian et al.'s middle: between two char positions of ``range(length + 1)``,
    drawn uniformly and sorted."""
    a, b = rng.randint(0, length), rng.randint(0, length)
    return (a, b) if a <= b else (b, a)


def ast_span(
    source: str,
    language: str,
    rng: random.Random,
    weights: dict[str, float] | None = None,
    run_rate: float = 0.5,
    budget: ParseBudget | None = None,
) -> tuple[int, int] | None:
    """AST-FIM's middle: the char span of one named node of ``source``'s tree (the root
    and empty nodes aside), drawn by :data:`NODE_WEIGHTS`; with probability ``run_rate``,
    when it has named siblings, an aligned run of them holding it instead (from the first
    node's start to the last one's end). None when the tree has no such node.

    Raises:
        ParseLimitError: the parse went past ``budget`` (default: the default budget).
    """
    src = prepare(source, language, budget=budget)
    rows = _syntax_nodes(src)
    if not len(rows):
        return None
    start, end, parent, symbol, named = (rows[:, k] for k in range(5))
    usable = (named == 1) & (end > start)
    kids = np.bincount(parent[(named == 1) & (parent >= 0)], minlength=len(rows))
    codes = symbol * 2 + (kids > 0)
    table = _weights(src.grammar, NODE_WEIGHTS if weights is None else weights)
    chance = _lookup(codes, table)
    chance = np.where(usable, chance, 0.0)
    total = np.cumsum(chance)
    if total[-1] <= 0:
        return None
    i = min(int(np.searchsorted(total, rng.random() * total[-1], "right")), len(rows) - 1)
    first = last = i
    siblings = np.flatnonzero((parent == parent[i]) & usable)
    if len(siblings) > 1 and rng.random() < run_rate:
        at = int(np.searchsorted(siblings, i))
        lo, hi = rng.randint(0, at), rng.randint(at, len(siblings) - 1)
        if lo == hi:  # a run is two nodes at least
            lo, hi = (lo, hi + 1) if hi + 1 < len(siblings) else (lo - 1, hi)
        first, last = int(siblings[lo]), int(siblings[hi])
    data, base = src.data, src.base
    a, b = int(start[first]) + base, int(end[last]) + base
    chars = len(data[:a].decode("utf-8", "surrogatepass"))
    return chars, chars + len(data[a:b].decode("utf-8", "surrogatepass"))


def _syntax_nodes(src: Prepared) -> np.ndarray:
    """Rows (start, end, parent row, symbol, named) of every node below the root of the
    parsed body, in document order: from the native parser under the budget, or else
    from the bindings' cursor (the same nodes)."""
    body = src.body
    if _backend.available() and src.grammar.capsule is not None:
        core = _backend.core()
        try:
            return core.syntax_nodes(src.grammar.capsule, body, *src.limits)
        except core.ParseStopped as e:
            raise src.limit_error(e) from None
    tree = parse_tree(src.grammar, body, src.budget)
    rows: list[tuple[int, int, int, int, int]] = []
    cursor = tree.walk()
    open_rows = [-1]
    more = cursor.goto_first_child()
    while more:
        node = cursor.node
        rows.append(
            (node.start_byte, node.end_byte, open_rows[-1], node.kind_id, int(node.is_named))
        )
        if cursor.goto_first_child():
            open_rows.append(len(rows) - 1)
            continue
        while not cursor.goto_next_sibling():
            if len(open_rows) == 1 or not cursor.goto_parent():
                more = False
                break
            open_rows.pop()
    return np.array(rows, np.int64).reshape(-1, 5)


def _weights(grammar: Any, weights: dict[str, float]) -> Any:
    """``code -> weight`` of a grammar's nodes, ``code = symbol * 2 + has named children``."""
    names: dict[int, float] = {}
    language = grammar.language

    def weight(code: int) -> float:
        got = names.get(code)
        if got is None:
            kind = node_kind(language.node_kind_for_id(code // 2) or "", code % 2)
            got = names[code] = weights.get(kind, 1.0)
        return got

    return weight


def _lookup(codes: np.ndarray, weight: Any) -> np.ndarray:
    """``weight`` of every code, each distinct code looked up once."""
    uniq, inverse = np.unique(codes, return_inverse=True)
    return np.array([weight(int(c)) for c in uniq])[inverse]


@dataclass(frozen=True)
class FimExample:
    """One document after a FIM transform.

    Attributes:
        ids: the ids of the example, control tokens included (no EOS).
        mode: ``"psm"``, ``"spm"``, or None when the document was left whole.
        prefix, middle, suffix: the parts' text (None when left whole).
    """

    ids: list[int]
    mode: str | None = None
    prefix: str | None = None
    middle: str | None = None
    suffix: str | None = None


def fim_ids(
    tok: Any, prefix: str, middle: str, suffix: str, mode: str, language: str | None
) -> list[int]:
    """The ids of the three parts laid out in ``mode`` (``"psm"`` or ``"spm"``), each part
    encoded on its own by the code tokenizer ``tok``.

    Raises:
        ConfigurationError: an unknown mode.
        VocabularyError: ``tok`` has no FIM tokens.
    """
    p, m, s = (tok.encode(part, language).ids if part else [] for part in (prefix, middle, suffix))
    fp, fm, fs = (tok.control_id(r) for r in ("fim_prefix", "fim_middle", "fim_suffix"))
    if mode == "psm":
        return [fp, *p, fs, *s, fm, *m]
    if mode == "spm":
        return [fp, fs, *s, fm, *p, *m]
    raise ConfigurationError(f"FIM mode must be 'psm' or 'spm', got {mode!r}")


class FimTransform:
    """A FIM transform of documents: each one, with probability ``rate``, cut and laid out.

    Args:
        tokenizer: the :class:`~codetok.code.CodeTokenizer` (with FIM control tokens).
        rate: the share of documents transformed (Bavarian et al. train with 0.5).
        mode: ``"psm"``, ``"spm"``, or ``"mixed"`` (SPM with probability ``spm_rate``).
        spans: ``"ast"`` (AST-FIM) or ``"random"`` (character positions).
        seed: with a document's key, fixes every choice for it.
        spm_rate: SPM's share under ``"mixed"``.
        weights: node kind weights for ``"ast"`` (default :data:`NODE_WEIGHTS`).

    Raises:
        ConfigurationError: a rate outside [0, 1], an unknown mode or spans.
        VocabularyError: the tokenizer has no FIM tokens.

    >>> from codetok.code import CodeTokenizer
    >>> tok = CodeTokenizer()
    >>> fim = FimTransform(tok, rate=1.0, mode="psm", spans="ast", seed=7)
    >>> src = "def area(r):\\n    return 3.14 * r * r\\n"
    >>> ex = fim.apply(src, "python", key="area.py")
    >>> ex.prefix + ex.middle + ex.suffix == src, undo_fim(tok, ex.ids) == src
    (True, True)
    """

    def __init__(
        self,
        tokenizer: Any,
        rate: float = 0.5,
        mode: str = "psm",
        spans: str = "ast",
        seed: int = 0,
        spm_rate: float = 0.5,
        weights: dict[str, float] | None = None,
    ) -> None:
        if not 0.0 <= rate <= 1.0 or not 0.0 <= spm_rate <= 1.0:
            raise ConfigurationError(
                f"FIM rates are in [0, 1], got rate={rate}, spm_rate={spm_rate}"
            )
        if mode not in FIM_MODES:
            raise ConfigurationError(
                f"FIM mode must be one of {', '.join(FIM_MODES)}, got {mode!r}"
            )
        if spans not in FIM_SPANS:
            raise ConfigurationError(
                f"FIM spans must be one of {', '.join(FIM_SPANS)}, got {spans!r}"
            )
        for role in ("fim_prefix", "fim_middle", "fim_suffix"):
            tokenizer.control_id(role)  # fails now, not on the first document
        self.tokenizer = tokenizer
        self.rate, self.mode, self.spans, self.seed = rate, mode, spans, seed
        self.spm_rate = spm_rate
        self.weights = weights

    def rng(self, key: object) -> random.Random:
        """The random source of the document ``key`` (the same for the same seed and key)."""
        return random.Random(f"{self.seed}\x00{key}")

    def apply(self, source: str, language: str | None, key: object = 0) -> FimExample:
        """The document ``source`` (whose key is ``key``: a path, an index) transformed,
        or whole with the probability ``1 - rate``; whole too when AST-FIM finds no node."""
        if not isinstance(source, str):
            raise ConfigurationError("FIM transforms take str sources")
        rng = self.rng(key)
        if rng.random() >= self.rate:
            return FimExample(self.tokenizer.encode(source, language).ids)
        mode = self.mode
        if mode == "mixed":
            mode = "spm" if rng.random() < self.spm_rate else "psm"
        if self.spans == "random":
            span: tuple[int, int] | None = random_span(len(source), rng)
        else:
            if language is None:
                language = self.tokenizer.lex(source).language
            span = ast_span(source, language, rng, self.weights, budget=self.tokenizer.parse_budget)
        if span is None:
            return FimExample(self.tokenizer.encode(source, language).ids)
        a, b = span
        prefix, middle, suffix = source[:a], source[a:b], source[b:]
        ids = fim_ids(self.tokenizer, prefix, middle, suffix, mode, language)
        return FimExample(ids, mode, prefix, middle, suffix)


def undo_fim(tok: Any, ids: Sequence[int]) -> str:
    """The document a FIM example (PSM or SPM, or a document left whole) came from.

    Raises:
        VocabularyError: the FIM tokens are out of order.
    """
    ids = list(ids)
    fp, fm, fs = (tok.control_id(r) for r in ("fim_prefix", "fim_middle", "fim_suffix"))
    if not ids or ids[0] != fp:
        return tok.decode(ids)
    try:
        s_at, m_at = ids.index(fs), ids.index(fm)
    except ValueError:
        raise VocabularyError("a FIM example without <fim_suffix> or <fim_middle>") from None
    if not 0 < s_at < m_at:
        raise VocabularyError("a FIM example's tokens are out of order")
    if s_at == 1:  # SPM: <fim_prefix><fim_suffix> S <fim_middle> P M
        return tok.decode(ids[m_at + 1 :]) + tok.decode(ids[2:m_at])
    return tok.decode(ids[1:s_at]) + tok.decode(ids[m_at + 1 :]) + tok.decode(ids[s_at + 1 : m_at])
