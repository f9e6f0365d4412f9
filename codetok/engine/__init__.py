"""Native or reference: :mod:`~codetok.engine.native` is the one switch (it imports
``codetok._core``, honours ``CODETOK_PURE_PYTHON`` and hands out the kernels),
:mod:`~codetok.engine.plan` compiles a tokenizer into a native plan, and
:mod:`~codetok.engine.scanners` says which split patterns have native scanners."""
