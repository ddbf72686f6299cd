"""Premium layouts as data: which squares double or triple a letter or a word.

The camera looks at a real board, so the layout the referee scores with must be the one printed
on the table's board. Each layout is a text file in ``referee/data/layouts/`` (15 rows of 15
tokens: ``..``, ``DL``, ``TL``, ``DW``, ``TW``); another board is another file, not a code branch.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType

from referee.cells import SIZE, Cell


class LayoutError(ValueError):
    """A layout that does not exist or whose data file is malformed; one line."""


class Premium(enum.Enum):
    """A premium square; ``letter_factor`` and ``word_factor`` say what it multiplies."""

    DL = "DL"
    TL = "TL"
    DW = "DW"
    TW = "TW"

    @property
    def letter_factor(self) -> int:
        return {"DL": 2, "TL": 3}.get(self.value, 1)

    @property
    def word_factor(self) -> int:
        return {"DW": 2, "TW": 3}.get(self.value, 1)


NO_PREMIUM = ".."


@dataclass(frozen=True)
class Layout:
    """A named premium layout; cells without a premium are absent from ``premiums``."""

    name: str
    premiums: Mapping[Cell, Premium] = field(compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "premiums", MappingProxyType(dict(self.premiums)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.name == other.name and dict(self.premiums) == dict(other.premiums)

    def __hash__(self) -> int:
        return hash((self.name, frozenset(self.premiums.items())))

    def get(self, cell: Cell) -> Premium | None:
        return self.premiums.get(cell)

    def text(self) -> str:
        """The data-file spelling (without comments): 15 rows of 15 tokens."""
        rows = []
        for row in range(SIZE):
            tokens = []
            for col in range(SIZE):
                premium = self.premiums.get(Cell(col, row))
                tokens.append(premium.value if premium else NO_PREMIUM)
            rows.append(" ".join(tokens))
        return "\n".join(rows) + "\n"


def parse_layout(name: str, text: str) -> Layout:
    """Read a layout file's text; ``#`` lines are comments. Raises :class:`LayoutError`."""
    rows = [line.split() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]
    if len(rows) != SIZE:
        raise LayoutError(f"layout {name!r} has {len(rows)} rows, expected {SIZE}")
    premiums: dict[Cell, Premium] = {}
    for row, tokens in enumerate(rows):
        if len(tokens) != SIZE:
            raise LayoutError(
                f"layout {name!r} row {row + 1} has {len(tokens)} squares, expected {SIZE}")
        for col, token in enumerate(tokens):
            if token == NO_PREMIUM:
                continue
            try:
                premiums[Cell(col, row)] = Premium(token)
            except ValueError:
                raise LayoutError(f"layout {name!r} row {row + 1}: {token!r} is not a premium"
                                  " (.., DL, TL, DW, TW)") from None
    return Layout(name, premiums)


def layout_names() -> list[str]:
    folder = resources.files("referee") / "data" / "layouts"
    return sorted(entry.name.removesuffix(".txt") for entry in folder.iterdir()
                  if entry.name.endswith(".txt"))


@cache
def load_layout(name: str = "classic") -> Layout:
    """A built-in layout: ``classic`` (the official board) or ``seed`` (seed 003's drawing)."""
    if not isinstance(name, str) or name not in layout_names():
        raise LayoutError(f"no premium layout named {name!r}; known: {', '.join(layout_names())}")
    path = resources.files("referee") / "data" / "layouts" / f"{name}.txt"
    return parse_layout(name, path.read_text(encoding="utf-8"))


__all__ = ["Layout", "LayoutError", "Premium", "layout_names", "load_layout", "parse_layout"]
