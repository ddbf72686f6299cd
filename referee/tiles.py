"""Tile sets as data: each letter's value and count, one JSON file per language.

Another language is a data file in ``referee/data/tilesets/``, not a code branch. The camera uses
the values too (the digit printed in a tile's corner tells H from I turned over).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class TileSet:
    name: str
    language: str
    values: dict[str, int]
    counts: dict[str, int]
    blanks: int

    @property
    def letters(self) -> str:
        return "".join(self.values)

    @property
    def total(self) -> int:
        return sum(self.counts.values()) + self.blanks

    def value(self, letter: str, blank: bool = False) -> int:
        """A tile's value; a blank scores 0 whatever letter it stands for."""
        return 0 if blank or letter == "?" else self.values.get(letter.upper(), 0)


def tile_set_names() -> list[str]:
    folder = resources.files("referee") / "data" / "tilesets"
    return sorted(entry.name.removesuffix(".json") for entry in folder.iterdir()
                  if entry.name.endswith(".json"))


@cache
def load_tile_set(name: str = "english") -> TileSet:
    """A built-in tile set by name (``english``, ``german``, ``polish``)."""
    if name not in tile_set_names():
        raise ValueError(f"no tile set named {name!r}; known: {', '.join(tile_set_names())}")
    path = resources.files("referee") / "data" / "tilesets" / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return TileSet(
        name=data["name"],
        language=data["language"],
        values={letter: pair[0] for letter, pair in data["tiles"].items()},
        counts={letter: pair[1] for letter, pair in data["tiles"].items()},
        blanks=data["blanks"],
    )


ENGLISH = "english"
