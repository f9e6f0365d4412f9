"""What every pipeline component shares: the :class:`~codetok.components.base.Component`
base class, change tracking for compiled plans, building from ``tokenizer.json`` dicts
(:mod:`~codetok.components.base`) and the ``type`` -> class registries
(:mod:`~codetok.components.registry`)."""
