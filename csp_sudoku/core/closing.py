"""A resource that is also a context manager: ``with`` closes it at the end.

The backends that hold native solvers and the puzzle bank's database share this
one definition of ``__enter__``/``__exit__``.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closing:
    """Mixin: ``with resource: ...`` calls :meth:`close` when the block ends
    (also when it raises). Subclasses define :meth:`close`."""

    def close(self) -> None:
        """Free what the resource holds."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
