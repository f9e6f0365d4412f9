"""The router: lexemes -> reserved tokens and subword pieces -> ids.

Each lexeme's kind picks its treatment (:mod:`.router`): a reserved token (:mod:`.reserved`:
keywords, layout and comment markers, docstring section markers found by :mod:`.comments`)
or pieces for a subword model: identifiers split reversibly (:mod:`.identifiers`, with the
statistical word model of :mod:`.segmenter`), other text cut by :mod:`.pieces`. A
:mod:`.channels` channel turns pieces into ids; :mod:`.native` runs the whole route and
encode in one native call.

The router reads the front end (:mod:`codetok.code.front`) and imports nothing from the
code tokenizer or its uses (:mod:`codetok.code.applications`); ``tests/code/test_code_layout.py`` checks
it.
"""
