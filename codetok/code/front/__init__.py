"""The front end: source code -> a lossless stream of lexemes.

Languages and their grammar files (:mod:`.languages`, :mod:`.grammar`), language detection
(:mod:`.detect`), the lexer (:mod:`.lexer`, with the layout lexemes of :mod:`.layout` and
its native twin :mod:`.native`), and what it produces: the lexeme kinds (:mod:`.kinds`)
and the :class:`~.lexemes.Lexemes` arrays (:mod:`.lexemes`).

Nothing here imports the router (:mod:`codetok.code.routing`), the code tokenizer or its
uses (:mod:`codetok.code.applications`); ``tests/code/test_code_layout.py`` checks it.
"""
