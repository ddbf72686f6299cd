"""The position: which tile lies on which cell, apart from any history or rules.

``Board`` is the mutable grid a game plays on; ``run_through`` is the one line-walking primitive
every ruleset uses (in any seat's frame); ``Board.status`` lists everything wrong with a position
at once, because a board read by a camera may have several problems and the person fixing it
wants to see them all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from referee.boardtext import Tile, format_board_text, parse_board_text
from referee.cells import CENTRE, Cell, Direction, Seat
from referee.tiles import TileSet

PROBLEM_CODES = (
    "centre-empty",
    "not-connected",
    "too-many-letter",
    "too-many-blanks",
    "too-many-tiles",
    "blank-undesignated",
    "no-rotation",
    "unseated-rotation",
    "unknown-letter",
)
"""Codes :meth:`Board.status` may report (docs/formats.md explains each)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a position: a code, the cells involved, a sentence for a person."""

    code: str
    cells: tuple[Cell, ...]
    message: str

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "cells": [cell.name for cell in self.cells],
                "message": self.message}


def run_through(occupied: Callable[[Cell], bool], cell: Cell, direction: Direction,
                seat: Seat = Seat.S) -> list[Cell]:
    """The maximal run of occupied cells through ``cell`` along ``direction`` in ``seat``'s frame.

    ``cell`` itself counts as occupied (the caller is usually asking "what word would a tile
    here make"). Cells come in the seat's reading order, so the letters spell the word.
    """
    start = cell
    while True:
        before = seat.step(start, direction, -1)
        if not before.on_board() or not occupied(before):
            break
        start = before
    run = [start]
    while True:
        after = seat.step(run[-1], direction, 1)
        if not after.on_board() or not (after == cell or occupied(after)):
            break
        run.append(after)
    return run


def spell(tiles: Mapping[Cell, Tile], cells: Iterable[Cell]) -> str:
    """The word the tiles on ``cells`` spell: uppercase letters, lowercase for blanks."""
    return "".join(tiles[cell].token[0] for cell in cells)


def _names(cells: Iterable[Cell]) -> str:
    names = [cell.name for cell in sorted(cells, key=lambda c: (c.row, c.col))]
    if len(names) > 6:
        return ", ".join(names[:6]) + f" and {len(names) - 6} more"
    return ", ".join(names)


def _on(what: str, cells: Iterable[Cell], one: str, many: str) -> str:
    """``_on("tile", cells, "is", "are")``: "the tile on H8 is" or "the tiles on H8, I8 are"."""
    cells = list(cells)
    if len(cells) == 1:
        return f"the {what} on {_names(cells)} {one}"
    return f"the {what}s on {_names(cells)} {many}"


class Board:
    """A 15x15 grid of tiles in the South view. Mutating methods keep ``tiles`` the only state."""

    def __init__(self, tiles: Mapping[Cell, Tile] | None = None) -> None:
        self._tiles: dict[Cell, Tile] = {}
        for cell, tile in (tiles or {}).items():
            self.place(cell, tile)

    @property
    def tiles(self) -> Mapping[Cell, Tile]:
        """A read-only view; change the board through :meth:`place` and :meth:`remove`."""
        return MappingProxyType(self._tiles)

    @classmethod
    def from_text(cls, text: str) -> Board:
        return cls(parse_board_text(text))

    def text(self, spaced: bool | None = None) -> str:
        return format_board_text(self._tiles, spaced)

    def copy(self) -> Board:
        return Board(self._tiles)

    def get(self, cell: Cell) -> Tile | None:
        return self._tiles.get(cell)

    def place(self, cell: Cell, tile: Tile) -> None:
        if not isinstance(cell, Cell) or not cell.on_board():
            raise ValueError(f"cannot place a tile off the board at {cell!r}")
        if not isinstance(tile, Tile):
            raise ValueError(f"not a tile: {tile!r}")
        self._tiles[cell] = tile

    def remove(self, cell: Cell) -> Tile:
        """Take the tile off ``cell`` and return it; an empty cell is a ``ValueError``."""
        try:
            return self._tiles.pop(cell)
        except KeyError:
            raise ValueError(f"no tile on {cell} to remove") from None

    def owner(self, cell: Cell) -> Seat | None:
        """The seat whose rotation the tile on ``cell`` carries (None: empty or no rotation)."""
        tile = self._tiles.get(cell)
        if tile is None or tile.rotation is None:
            return None
        return Seat.from_rotation(tile.rotation)

    def __contains__(self, cell: object) -> bool:
        return cell in self._tiles

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._tiles)

    def __len__(self) -> int:
        return len(self._tiles)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._tiles == other._tiles

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Board.from_text({self.text()!r})"

    def status(self, tile_set: TileSet | None = None, seats: Iterable[Seat] | None = None,
               centred: bool = True) -> list[Problem]:
        """Every problem with this position, in a stable order (empty list: nothing wrong).

        ``tile_set`` enables the counting checks; ``seats`` (the seated players) enables the
        rotation checks; ``centred`` is the Scrabble expectation that every tile connects to
        the centre star. Archipelago passes ``centred=False``: each player grows from their
        own home row and captures leave islands, so connectivity means nothing there.
        """
        problems: list[Problem] = []
        tiles = self._tiles
        if centred and tiles:
            if CENTRE not in tiles:
                problems.append(Problem("centre-empty", (CENTRE,),
                                        f"there are tiles on the board but none on {CENTRE}"))
            stray = self._not_connected()
            if stray:
                problems.append(Problem(
                    "not-connected", tuple(sorted(stray)),
                    f"{_on('tile', stray, 'is', 'are')} not connected to the "
                    + ("centre" if CENTRE in tiles else "largest group of tiles")))
        if tile_set is not None:
            problems.extend(self._count_problems(tile_set))
        undesignated = [cell for cell, tile in tiles.items() if tile.letter == "?"]
        if undesignated:
            problems.append(Problem("blank-undesignated", tuple(sorted(undesignated)),
                                    f"{_on('blank', undesignated, 'has', 'have')} no letter yet"))
        if seats is not None:
            problems.extend(self._rotation_problems(set(seats)))
        return problems

    def _not_connected(self) -> set[Cell]:
        """Tiles outside the group holding the centre (or, with no centre tile, the largest)."""
        groups: list[set[Cell]] = []
        seen: set[Cell] = set()
        for cell in sorted(self._tiles):
            if cell in seen:
                continue
            group, frontier = {cell}, [cell]
            while frontier:
                for neighbour in frontier.pop().neighbours():
                    if neighbour in self._tiles and neighbour not in group:
                        group.add(neighbour)
                        frontier.append(neighbour)
            seen |= group
            groups.append(group)
        if len(groups) <= 1:
            return set()
        main = next((group for group in groups if CENTRE in group), None)
        if main is None:
            main = max(groups, key=len)
        return set(self._tiles) - main

    def _count_problems(self, tile_set: TileSet) -> list[Problem]:
        problems = []
        letters = Counter(tile.letter for tile in self._tiles.values() if not tile.blank)
        for letter in sorted(letters):
            cells = tuple(sorted(c for c, t in self._tiles.items()
                                 if t.letter == letter and not t.blank))
            if letter not in tile_set.counts:
                problems.append(Problem("unknown-letter", cells,
                                        f"the {tile_set.name} tile set has no {letter}"))
            elif letters[letter] > tile_set.counts[letter]:
                problems.append(Problem(
                    "too-many-letter", cells,
                    f"{letters[letter]} tiles show {letter} but the {tile_set.name} set has "
                    f"only {tile_set.counts[letter]}"))
        blanks = tuple(sorted(c for c, t in self._tiles.items() if t.blank))
        if len(blanks) > tile_set.blanks:
            problems.append(Problem("too-many-blanks", blanks,
                                    f"{len(blanks)} blanks on the board but the set has "
                                    f"only {tile_set.blanks}"))
        if len(self._tiles) > tile_set.total:
            problems.append(Problem("too-many-tiles", tuple(sorted(self._tiles)),
                                    f"{len(self._tiles)} tiles on the board but the set has "
                                    f"only {tile_set.total}"))
        return problems

    def _rotation_problems(self, seats: set[Seat]) -> list[Problem]:
        problems = []
        unturned = [cell for cell, tile in self._tiles.items() if tile.rotation is None]
        if unturned:
            problems.append(Problem("no-rotation", tuple(sorted(unturned)),
                                    f"{_on('tile', unturned, 'shows', 'show')} no rotation, so "
                                    "the owner is unknown"))
        for seat in Seat:
            if seat in seats:
                continue
            cells = [cell for cell, tile in self._tiles.items()
                     if tile.rotation == seat.rotation]
            if cells:
                problems.append(Problem(
                    "unseated-rotation", tuple(sorted(cells)),
                    f"{_on('tile', cells, 'faces', 'face')} seat {seat.value} ({seat.arrow}), "
                    "where nobody sits"))
        return problems


__all__ = ["PROBLEM_CODES", "Board", "Problem", "run_through", "spell"]
