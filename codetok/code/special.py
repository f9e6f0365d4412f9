"""The control tokens of a code tokenizer: what model inputs need beyond the source.

Reserved tokens (:mod:`codetok.code.routing.reserved`) stand for text of the source.
Control tokens stand for none: they separate and pad documents and mark fill-in-the-middle
parts. Their names follow StarCoder2's conventions, so data prepared with codetok reads
like the data those models were trained on:

============== ================== ===================================================
role           token              use
============== ================== ===================================================
``eos``        ``<|endoftext|>``  end of a document (also ``bos`` when one is asked for)
``pad``        ``<pad>``          padding
``unk``        ``<unk>``          the unknown token of models that have one
``mask``       ``<mask>``         masked-language-model targets
``fim_prefix`` ``<fim_prefix>``   fill-in-the-middle: the prefix follows
``fim_middle`` ``<fim_middle>``   fill-in-the-middle: the middle follows
``fim_suffix`` ``<fim_suffix>``   fill-in-the-middle: the suffix follows
``fim_pad``    ``<fim_pad>``      fill-in-the-middle padding
``file_sep``   ``<file_sep>``     between the files of one repository in a sequence
``repo_name``  ``<repo_name>``    before a repository's name
============== ================== ===================================================

A code tokenizer keeps them as special added tokens of its code model, never matched in
source text (source that spells ``<|endoftext|>`` is encoded as that text). Decoding skips
them unless asked to show them.

Not here: where they go in a sequence (the post-processor template of
:meth:`~codetok.code.CodeTokenizer.__call__`, :mod:`codetok.code.fim`, packing).
"""

from __future__ import annotations

__all__ = ["CONTROL_TOKENS", "ROLES", "default_template"]

#: role -> token, in the order a new tokenizer adds them.
CONTROL_TOKENS: dict[str, str] = {
    "pad": "<pad>",
    "eos": "<|endoftext|>",
    "unk": "<unk>",
    "mask": "<mask>",
    "fim_prefix": "<fim_prefix>",
    "fim_middle": "<fim_middle>",
    "fim_suffix": "<fim_suffix>",
    "fim_pad": "<fim_pad>",
    "file_sep": "<file_sep>",
    "repo_name": "<repo_name>",
}

#: ``transformers``' names of the roles it knows (``special_tokens_map`` keys).
ROLES: dict[str, str] = {
    "bos": "bos_token",
    "eos": "eos_token",
    "pad": "pad_token",
    "unk": "unk_token",
    "mask": "mask_token",
}


def default_template() -> tuple[str, str]:
    """The ``(single, pair)`` templates a code tokenizer's post-processor starts with:
    each sequence ends with ``<|endoftext|>`` (a document ends where its EOS is), the pair's
    second part has type id 1.

    >>> default_template()[0]
    '$A <|endoftext|>'
    """
    eos = CONTROL_TOKENS["eos"]
    return f"$A {eos}", f"$A {eos} $B:1 {eos}:1"
