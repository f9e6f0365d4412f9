#!/usr/bin/env python3
"""Module docstring."""

import functools


@functools.total_ordering
class Greeter:
    """Class docstring."""

    def greet(self, name: str) -> str:
        """Function docstring."""
        x = "not a docstring"
        if name:
            return f"Hello {name!r:>10}!" + x
        return "none"


def héllo():
    pass
