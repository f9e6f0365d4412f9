"""What the ``transformers``-parity tests of ``__call__`` share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def outcome(fn: Callable[..., Any], kwargs: dict[str, Any]) -> tuple[str, Any]:
    """``("ok", fn(**kwargs))``, or ``("error", the exception)``: a call's failure mode,
    HF's Rust panics (BaseException subclasses) included."""
    try:
        return "ok", fn(**kwargs)
    except Exception as e:  # noqa: BLE001 - comparing failure modes
        return "error", e
    except BaseException as e:  # HF's Rust core panics with a BaseException subclass
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        return "error", e
