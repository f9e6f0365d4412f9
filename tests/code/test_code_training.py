"""CodeTokenizer.train: AST-aware pieces, the three models, comment vocabularies, progress."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _code_helpers import check_token_extents

from codetok.code import CodeTokenizer, LexemeKind, split_identifier
from codetok.errors import ConfigurationError, NotFoundError, TrainingError

DATA = Path(__file__).parents[1] / "data" / "code"
FIXTURES = sorted(p for p in DATA.iterdir() if p.suffix in (".py", ".java", ".cs", ".jsx"))
K = LexemeKind


@pytest.fixture(scope="module")
def bpe() -> CodeTokenizer:
    return CodeTokenizer.train([DATA], vocab_size=1400, min_frequency=1, show_progress=False)


def _identifier_cuts(text: str, base: int) -> set[int]:
    cuts, pos = set(), base
    for piece in split_identifier(text).pieces():
        pos += len(piece)
        cuts.add(pos)
    return cuts


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_no_token_crosses_lexeme_or_identifier_part(bpe: CodeTokenizer, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    enc = bpe.encode(text, path=path)
    lx = enc.lexemes
    li = enc.lexeme_indices
    sp = enc.spans
    check_token_extents(enc)  # inside its lexeme, but for what the router folds into it
    for i in np.flatnonzero(enc.kinds == K.IDENTIFIER).tolist():
        lex_i = int(li[i])
        start = int(lx.char_starts[lex_i])
        cuts = _identifier_cuts(lx.text(lex_i), start)
        a, b = sp[i].tolist()
        a = max(a, start)  # a folded space or punctuation char before the identifier
        assert not any(a < c < b for c in cuts), (lx.text(lex_i), text[a:b])


def test_learned_merges_come_from_pieces(bpe: CodeTokenizer) -> None:
    # whole multi-part identifiers of the corpus are never learned as one token
    vocab = bpe.tokenizer.get_vocab()
    assert "getName" not in vocab and "ĠgetName" not in vocab
    # but frequent parts and whitespace runs are
    assert "ĠĠĠĠ" in vocab


@pytest.mark.parametrize("model", ["wordpiece", "unigram"])
def test_other_models_round_trip(model: str) -> None:
    tok = CodeTokenizer.train(
        [DATA], vocab_size=1300, model=model, min_frequency=1, show_progress=False
    )
    assert type(tok.tokenizer.model).__name__.lower() == model
    for f in FIXTURES:
        data = f.read_bytes()
        assert tok.decode(tok.encode(data, path=f).ids, as_bytes=True) == data
    odd = "x = '\u00e9\U0001f600 zz'\n"
    assert tok.decode(tok.encode(odd, "python").ids) == odd


def test_separate_comment_vocab_saves_to_one_file(tmp_path: Path) -> None:
    tok = CodeTokenizer.train(
        [DATA], vocab_size=1300, comment_vocab="separate", comment_vocab_size=400,
        min_frequency=1, show_progress=False,
    )  # fmt: skip
    assert tok.comment_tokenizer is not None
    path = tmp_path / "t.json"
    tok.save(path)
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]
    again = CodeTokenizer.load(path)
    for f in FIXTURES:
        data = f.read_bytes()
        ids = tok.encode(data, path=f).ids
        assert again.encode(data, path=f).ids == ids
        assert again.decode(ids, as_bytes=True) == data


def test_iterator_of_sources_and_pairs() -> None:
    pairs = [("def f():\n    return 1\n", "python"), ("var a = 1;\n", "javascript")] * 3
    tok = CodeTokenizer.train(
        pairs, languages=["python", "javascript"], vocab_size=700, show_progress=False
    )
    assert set(tok.reserved.keywords) == {"python", "javascript"}
    assert tok.decode(tok.encode(pairs[1][0], "javascript").ids) == pairs[1][0]


def test_progress_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    CodeTokenizer.train([DATA], vocab_size=1300, show_progress=True)
    captured = capsys.readouterr()
    assert "lex+count" in captured.err and captured.out == ""


def test_training_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="model must be one of"):
        CodeTokenizer.train([DATA], model="wordlevel", show_progress=False)
    with pytest.raises(ConfigurationError, match="comment_vocab"):
        CodeTokenizer.train([DATA], comment_vocab="both", show_progress=False)
    with pytest.raises(NotFoundError, match="not found"):
        CodeTokenizer.train(tmp_path / "nope", show_progress=False)
    with pytest.raises(TrainingError, match="no code found"):
        CodeTokenizer.train(tmp_path, show_progress=False)
    with pytest.raises(TrainingError, match="smaller than"):
        CodeTokenizer.train([DATA], vocab_size=300, show_progress=False)
    with pytest.raises(ConfigurationError, match="encode-time"):
        CodeTokenizer.train([DATA], drop_comments=True, show_progress=False)


@pytest.mark.parametrize("native", [True, False])
def test_each_piece_is_counted_once(native: bool) -> None:
    """With one shared vocabulary, comment pieces are not counted a second time (they were
    doubled, with the code pieces, which skewed min_frequency)."""
    from codetok.code.routing.reserved import ReservedTokens
    from codetok.code.routing.router import RouterOptions
    from codetok.code.training import count_code_pieces
    from codetok.engine import plan as _plan

    reserved = ReservedTokens.for_languages(["python"])
    previous = _plan.use_plans(native)
    try:
        code, comment = count_code_pieces(
            [("x = 1  # one x\n", "python", None)], reserved, RouterOptions()
        )
    finally:
        _plan.use_plans(previous)
    assert code is comment
    assert code["x"] == 1 and code["Ġ="] == 1 and code["Ġx"] == 1
