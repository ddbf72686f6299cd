"""Islands of one colour on a hexhex board, now and in every future of the board.

An island (RULES.md §5) is a connected group of two or more stones of one colour. Stones are
never taken off, so every later board holds this one's stones and more; what a colour's island
count can still become is what frozen irrelevance needs (:mod:`referee.islandrank`):

* :func:`fewest_islands` is exact. Cells that are empty or of the colour form *basins*
  (connected regions of them); no island ever reaches outside its basin, and islands in
  different basins never meet. A basin holding an island keeps at least one (filling all its
  empty cells with the colour merges everything in it into one), and a basin without one can
  end with none (filling it with other colours). So the fewest is the number of basins that
  already hold an island.
* :func:`most_islands` is exact for every basin with at most :data:`EXACT_EMPTY_CELLS` empty
  cells (every way of giving its empty cells the colour or not is tried), and a sound upper
  bound for larger basins: each island still to come needs cells of its own, one empty cell
  at least for a lone stone to join, two for an island made only of new stones.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from referee.hexboard import HexBoard, HexCell, HexGrid

EXACT_EMPTY_CELLS = 10
"""A basin with this many empty cells or fewer has its most islands counted exactly (2**10
colourings at most); a larger one gets the bound. Measured by ``python -m bench.bench_referee``
as part of judging islands moves."""


def _components(members: Iterable[int], neighbours: Sequence[Sequence[int]]) -> list[list[int]]:
    """The connected groups of ``members`` (cell indices) under hex adjacency."""
    left = set(members)
    groups = []
    while left:
        start = left.pop()
        group, frontier = [start], [start]
        while frontier:
            for other in neighbours[frontier.pop()]:
                if other in left:
                    left.remove(other)
                    group.append(other)
                    frontier.append(other)
        groups.append(group)
    return groups


def islands(board: HexBoard, colour: str) -> list[frozenset[HexCell]]:
    """The islands of ``colour``: groups of 2+ connected stones, in reading order of their
    first cell."""
    grid = board.grid
    members = [number for number, stone in enumerate(board.colours) if stone == colour]
    groups = [sorted(group) for group in _components(members, grid.neighbour_indices)
              if len(group) >= 2]
    groups.sort()
    return [frozenset(grid.cells[number] for number in group) for group in groups]


def island_count(board: HexBoard, colour: str) -> int:
    members = [number for number, stone in enumerate(board.colours) if stone == colour]
    return sum(len(group) >= 2
               for group in _components(members, board.grid.neighbour_indices))


def _basins(board: HexBoard, colour: str) -> list[tuple[frozenset[int], frozenset[int]]]:
    """Each basin of ``colour`` as (its stones of the colour, its empty cells)."""
    open_cells = [number for number, stone in enumerate(board.colours)
                  if stone is None or stone == colour]
    basins = []
    for basin in _components(open_cells, board.grid.neighbour_indices):
        stones = frozenset(number for number in basin if board.colours[number] == colour)
        basins.append((stones, frozenset(basin) - stones))
    return basins


def fewest_islands(board: HexBoard, colour: str) -> int:
    """The fewest islands ``colour`` can have on any board that adds stones to this one."""
    total = 0
    neighbours = board.grid.neighbour_indices
    for stones, _ in _basins(board, colour):
        total += any(len(group) >= 2 for group in _components(stones, neighbours))
    return total


def most_islands(board: HexBoard, colour: str) -> int:
    """An upper bound, exact for basins of up to :data:`EXACT_EMPTY_CELLS` empty cells, on the
    islands ``colour`` can have on any board that adds stones to this one."""
    return sum(_most_in_basin(board.grid, stones, empty) for stones, empty
               in _basins(board, colour))


@lru_cache(maxsize=4096)
def _most_in_basin(grid: HexGrid, stones: frozenset[int], empty: frozenset[int]) -> int:
    """Most islands in one basin. Cached: a move changes one or two basins of each colour, so a
    game asks again about the others unchanged."""
    neighbours = grid.neighbour_indices
    groups = _components(stones, neighbours)
    existing = sum(len(group) >= 2 for group in groups)
    if not empty:
        return existing
    if len(empty) <= EXACT_EMPTY_CELLS:
        cells = sorted(empty)
        best = 0
        for mask in range(1 << len(cells)):
            chosen = [cell for bit, cell in enumerate(cells) if mask >> bit & 1]
            count = sum(len(group) >= 2
                        for group in _components([*stones, *chosen], neighbours))
            best = max(best, count)
        return best
    lone = sum(len(group) == 1 for group in groups)
    joined = min(lone, len(empty))  # a lone stone joins an island through one empty cell
    return existing + joined + (len(empty) - joined) // 2


__all__ = [
    "EXACT_EMPTY_CELLS",
    "fewest_islands",
    "island_count",
    "islands",
    "most_islands",
]
