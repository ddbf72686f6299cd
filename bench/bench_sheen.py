"""Tiles under a sheen: how many are missed, and how many of those no warning names.

Glossy tile tops that mirror a window are washed towards white, letters and all, while the matte
squares between them keep their colour (an unlabelled photo, kristopalka red_boards_014: a row of
grey-white tiles with faint letters along the board's far edge). Renders (``lab.render`` with
``sheen``, from the board's middle to its far edge) of a random position with one more word along
that edge, under random conditions, the three board styles in turn, corners given, read as the
live camera reads: each once with the sheen and once without it (the same scene, position and
light), so the difference is the sheen's.

A tile missed with no warning naming its square is the miss a player cannot catch from the
reading. ``python -m bench sheen``
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from lab.render import (
    BOARD_STYLES,
    RenderedPhoto,
    RenderOptions,
    random_position,
    render_board_photo,
)
from referee.boardtext import Tile
from referee.cells import Cell
from vision import DEFAULT_CONFIG, VisionError, read_board

RENDERS = 39
"""Renders, thirteen of each board style."""
FIRST_SEED = 500
SHEEN = (0.7, 1.0)
"""The sheen's strength at the board's far edge, drawn in this range for each render."""
EDGE_LETTERS = "AEIOURSTLN"


def render_scene(seed: int, sheen: bool) -> tuple[RenderedPhoto, dict[Cell, Tile]]:
    """Render ``seed``'s board and its tiles, with its sheen or without: nothing else differs
    (also for tests that need one of these scenes)."""
    rng = np.random.default_rng(seed)
    tiles = random_position(rng, words=8)
    start = int(rng.integers(0, 8))
    for offset, letter in enumerate(rng.choice(list(EDGE_LETTERS), int(rng.integers(3, 7)))):
        tiles[Cell(start + offset, 0)] = Tile(str(letter), False, 0)
    strength = float(rng.uniform(*SHEEN))
    styles = sorted(BOARD_STYLES)
    options = RenderOptions.random(np.random.default_rng([seed, 99]),
                                   board_style=styles[seed % len(styles)], azimuth=0.0,
                                   sheen=strength if sheen else 0.0)
    return render_board_photo(tiles, seed=seed, options=options), tiles


COLUMNS = ("renders", "refused", "tiles", "missed", "unwarned", "squares named", "squares taken")
"""What each row counts: "unwarned" are the tiles missed that no warning names, "squares named"
the empty squares a warning says may hold a tile (cells under a hand are left out)."""


def _count(counts: Counter[tuple[str, str]], photo: RenderedPhoto,
           tiles: dict[Cell, Tile]) -> None:
    """Add one render's reading to ``counts``, keyed by (board style, column)."""
    style = photo.options.board_style
    counts[style, "renders"] += 1
    try:
        reading = read_board(photo.image, corners=photo.corners, config=DEFAULT_CONFIG)
    except VisionError:
        counts[style, "refused"] += 1
        return
    shown = tiles.keys() - photo.covered
    read = {Cell.parse(cell.cell) for cell in reading.cells} - photo.covered
    named = {Cell.parse(name) for name in reading.warned_empty_cells()}
    counts[style, "tiles"] += len(shown)
    counts[style, "missed"] += len(shown - read)
    counts[style, "unwarned"] += len(shown - read - named)
    counts[style, "squares named"] += len(named - tiles.keys() - photo.covered)
    counts[style, "squares taken"] += len(read - tiles.keys())


def main() -> int:
    tallies: dict[str, Counter[tuple[str, str]]] = {"with": Counter(), "without": Counter()}
    for number, seed in enumerate(range(FIRST_SEED, FIRST_SEED + RENDERS), 1):
        print(f"\rrender {number}/{RENDERS}", end="", flush=True)
        for sheen, counts in zip((True, False), tallies.values(), strict=True):
            _count(counts, *render_scene(seed, sheen))
    print()
    print(f"{'board style':<12} {'sheen':<11}" + "".join(f" {name:>{len(name)}}"
                                                        for name in COLUMNS))
    for style in sorted(BOARD_STYLES):
        for kind, counts in tallies.items():
            print(f"{style:<12} {kind:<11}" + "".join(f" {counts[style, name]:>{len(name)}}"
                                                      for name in COLUMNS))
    return 0
