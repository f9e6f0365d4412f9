"""``CodetokCodeTokenizer``: a code tokenizer inside ``transformers`` (collators, a causal
LM's forward pass, ``save_pretrained`` / ``from_pretrained``)."""

from __future__ import annotations

import pytest

transformers = pytest.importorskip("transformers")

from codetok.code import CodeTokenizer  # noqa: E402
from codetok.integrations.transformers import VOCAB_FILE, CodetokCodeTokenizer  # noqa: E402

SOURCES = [
    "def add(a, b):\n    return a + b\n",
    "x = 1\n",
    "class Box:\n    def get(self):\n        # the value\n        return self.value\n",
]


@pytest.fixture(scope="module")
def tok():
    return CodetokCodeTokenizer(language="python", model_max_length=64)


def test_the_same_inputs_as_the_code_tokenizers_own_call(tok):
    code = tok.code
    code.model_max_length = 64
    for kwargs in (
        {},
        {"padding": True},
        {"padding": "max_length", "max_length": 24, "truncation": True},
        {"truncation": True, "max_length": 6, "padding": True, "padding_side": "left"},
        {"add_special_tokens": False, "padding": True, "pad_to_multiple_of": 8},
    ):
        hf = tok(SOURCES, **kwargs)
        own = code(SOURCES, "python", **kwargs)
        assert hf["input_ids"] == own["input_ids"], kwargs
        assert hf["attention_mask"] == own["attention_mask"], kwargs
    one = tok(SOURCES[0], SOURCES[1], return_token_type_ids=True)
    own = code(SOURCES[0], "python", source_pair=SOURCES[1], return_token_type_ids=True)
    assert one["input_ids"] == own["input_ids"]
    assert one["token_type_ids"] == own["token_type_ids"]


def test_tokens_ids_and_special_tokens(tok):
    code = tok.code
    assert len(tok) == tok.vocab_size == code.vocab_size
    assert (tok.eos_token_id, tok.bos_token_id) == (code.control_id("eos"),) * 2
    assert tok.pad_token_id == code.control_id("pad")
    assert tok.mask_token_id == code.control_id("mask")
    ids = tok(SOURCES[2])["input_ids"]
    assert tok.convert_ids_to_tokens(ids) == code.encode(SOURCES[2], "python").tokens + [
        "<|endoftext|>"
    ]
    assert tok.decode(ids, skip_special_tokens=True) == SOURCES[2]
    assert tok.decode(ids) == SOURCES[2] + "<|endoftext|>"
    assert tok.get_special_tokens_mask(ids[:-1]) == [0] * (len(ids) - 1) + [1]
    assert (
        tok("y = 2\n", language="javascript")["input_ids"][:-1]
        == code.encode("y = 2\n", "javascript").ids
    )


def test_a_collator_batch_runs_a_causal_lm(tok):
    torch = pytest.importorskip("torch")
    collator = transformers.DataCollatorForLanguageModeling(tokenizer=tok, mlm=False)
    batch = collator([tok(s) for s in SOURCES])
    ids, labels, mask = batch["input_ids"], batch["labels"], batch["attention_mask"]
    assert ids.shape == labels.shape == mask.shape and ids.shape[0] == len(SOURCES)
    assert (labels[mask == 0] == -100).all() and (labels[mask == 1] == ids[mask == 1]).all()
    config = transformers.GPT2Config(
        vocab_size=len(tok), n_positions=128, n_embd=32, n_layer=2, n_head=2,
        bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
    )  # fmt: skip
    torch.manual_seed(0)
    model = transformers.GPT2LMHeadModel(config).eval()
    with torch.no_grad():
        out = model(**batch)
    assert out.logits.shape == (*ids.shape, len(tok))
    assert torch.isfinite(out.loss) and out.loss.item() > 0
    mlm = transformers.DataCollatorForLanguageModeling(tokenizer=tok, mlm=True, mlm_probability=0.5)
    masked = mlm([tok(s) for s in SOURCES * 4])
    assert (masked["input_ids"] == tok.mask_token_id).any()
    assert (masked["labels"] != -100).any()


def test_save_pretrained_round_trip(tok, tmp_path):
    tok.save_pretrained(tmp_path)
    assert (tmp_path / VOCAB_FILE).is_file()
    again = CodetokCodeTokenizer.from_pretrained(str(tmp_path))
    assert again.language == "python" and again.model_max_length == 64
    for source in SOURCES:
        assert again(source)["input_ids"] == tok(source)["input_ids"]
    assert again.code.to_str() == tok.code.to_str()
    other = CodetokCodeTokenizer(code_tokenizer=CodeTokenizer.default())
    assert other.language is None
    assert other(SOURCES[0], language="python")["input_ids"] == tok(SOURCES[0])["input_ids"]


TEXTS = [
    "Hello, world! This is a test of the tokenizer.",
    "short",
    "Ünïcödé naïve café — déjà vu, 日本語 done",
]
PAIRS = ["a question?", "another, much longer second sequence that goes on and on", "x"]


@pytest.fixture(scope="module")
def bert_pair(bert_dir):
    from codetok import Tokenizer
    from codetok.integrations.transformers import CodetokTokenizer

    path = str(bert_dir / "tokenizer.json")
    names = dict(pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]",
                 mask_token="[MASK]", model_max_length=512)  # fmt: skip
    hf = transformers.PreTrainedTokenizerFast(tokenizer_file=path, **names)
    source = Tokenizer.from_file(path)  # its own padding and truncation are on: left alone
    ours = CodetokTokenizer(tokenizer=source, **names)
    assert source.padding is not None  # the wrapper copied it
    return ours, hf


def test_a_text_tokenizer_gives_transformers_inputs(bert_pair):
    ours, hf = bert_pair
    for kwargs in (
        {},
        {"padding": True},
        {"padding": "max_length", "max_length": 24, "truncation": True},
        {"truncation": True, "max_length": 8, "padding": True, "padding_side": "left"},
        {"add_special_tokens": False, "padding": True, "pad_to_multiple_of": 8},
    ):
        for pairs in (None, PAIRS):
            want = hf(TEXTS, pairs, return_token_type_ids=True, **kwargs)
            got = ours(TEXTS, pairs, return_token_type_ids=True, **kwargs)
            for key in ("input_ids", "token_type_ids", "attention_mask"):
                assert got[key] == want[key], (key, kwargs, pairs)
    assert ours.decode(ours(TEXTS[0])["input_ids"], skip_special_tokens=True) == hf.decode(
        hf(TEXTS[0])["input_ids"], skip_special_tokens=True
    )
    assert len(ours) == len(hf) and ours.mask_token_id == hf.mask_token_id


def test_a_text_tokenizer_round_trips_and_masks(bert_pair, tmp_path):
    from codetok.integrations.transformers import TEXT_VOCAB_FILE, CodetokTokenizer

    ours, _ = bert_pair
    ours.save_pretrained(tmp_path)
    assert (tmp_path / TEXT_VOCAB_FILE).is_file()
    again = CodetokTokenizer.from_pretrained(str(tmp_path))
    assert again(TEXTS, PAIRS)["input_ids"] == ours(TEXTS, PAIRS)["input_ids"]
    pytest.importorskip("torch")
    mlm = transformers.DataCollatorForLanguageModeling(tokenizer=again, mlm_probability=0.5)
    batch = mlm([again(t) for t in TEXTS * 4])
    assert (batch["input_ids"] == again.mask_token_id).any() and (batch["labels"] != -100).any()
