"""Applications of the front end and the code tokenizer.

- CodeBERT mode (:mod:`.codebert`): a pretrained text tokenizer's ids, each aligned to its
  lexeme (:mod:`.align`);
- program-synthesis pairs (:mod:`.pairs`): (docstring, function) pairs, cut to a token
  budget at a statement boundary (:mod:`.truncation`), which the ``codetok pairs`` command
  (:mod:`codetok.cli.pairs`) writes;
- an HTML view of a :class:`~codetok.code.CodeEncoding` (:mod:`.html`).

Nothing outside this package imports it (except the ``codetok`` command line), so it can
grow without touching the tokenizer; ``tests/code/test_code_layout.py`` checks it.
"""
