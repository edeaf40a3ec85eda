"""What a count, limit, size or seed given by a caller must be: a whole number.

An ``int`` or a numpy integer, and never a ``bool`` (``True`` is an ``int`` to
Python, but ``limit=True`` is a mistake, not a limit of 1). Each caller then
checks its own bound and raises its own error class, naming the argument.
"""

from __future__ import annotations

from typing import Any, TypeGuard

import numpy as np

__all__ = ["is_whole"]


def is_whole(value: object) -> TypeGuard[int | np.integer[Any]]:
    """True when ``value`` is an ``int`` or a numpy integer, and not a ``bool``."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
