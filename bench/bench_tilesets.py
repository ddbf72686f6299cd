"""Boards read with the wrong tile set: does the reading say so?

A German or Polish board read as English loses its Ä and Ó to their bare twins, surely read.
The reading warns (``marks on N letters, as on german or polish tiles``) when two or more tiles
carry a mark the set lacks: a mark above the letter, or a letter of another set whose mark is
not above it (Ł, Ą, Ę), read once those letters are allowed (``ReadConfig.unseen_letters_after``
says when that second look is taken). Rendered boards of each tile set (seeds ``FIRST_SEED`` on,
one to four seats, random conditions, corners given) and the truth photos (found corners, models
trained without the photo's repository, as ``tileref eval`` reads them) are read as English
three ways: without that second look, with it after one mark above (as the live camera reads),
and with it always (as a photo is read on request; every other setting is that of a photo read
on request). Counted: boards read, those holding two or more letters English lacks (the ones
that can be told), and of those, boards warned; then boards warned of all (an English board
warned is a false alarm).

``python -m bench tilesets``
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from lab.render import RenderOptions, random_position, render_board_photo
from lab.train import loso_models
from lab.truth import (
    DEV_PHOTOS,
    corrected_grid,
    load_errata,
    photos_with_truth,
    read_truth,
    tile_set_for,
)
from referee.cells import Seat
from referee.tiles import load_tile_set
from vision import (
    DISPUTE_CONFIG,
    ReadConfig,
    VisionError,
    WarningCode,
    load_image,
    read_board,
)
from vision.tuning import MARKS_FOR_ANOTHER_SET

RENDERS = 100
"""Boards rendered of each tile set."""
FIRST_SEED = 2200
TILE_SETS = ("english", "german", "polish")
WAYS = {"without": dataclasses.replace(DISPUTE_CONFIG, unseen_letters_after=MARKS_FOR_ANOTHER_SET),
        "1 mark": dataclasses.replace(DISPUTE_CONFIG, unseen_letters_after=1),
        "always": DISPUTE_CONFIG}
"""Before letters whose mark is not above were looked for, after one mark above, always."""
ENGLISH = set(load_tile_set("english").letters)


@dataclasses.dataclass
class Board:
    """One board read as English each way (None: refused)."""

    strangers: int
    """Its tiles whose letter English lacks."""
    warned: list[bool | None]


def _warned(image: np.ndarray, config: ReadConfig, corners: np.ndarray | None = None,
            models: tuple | None = None) -> bool | None:
    """Whether reading ``image`` as English warns of another tile set; None if it is refused."""
    occupancy, classifier = models or (None, None)
    try:
        reading = read_board(image, corners=corners, tiles="english", config=config,
                             occupancy=occupancy, classifier=classifier)
    except VisionError:
        return None
    return any(warning.code == WarningCode.OTHER_TILE_SET for warning in reading.warning_details)


def _board(letters: list[str], image: np.ndarray, corners: np.ndarray | None = None,
           models: tuple | None = None) -> Board:
    return Board(sum(letter not in ENGLISH for letter in letters),
                 [_warned(image, config, corners, models) for config in WAYS.values()])


def _row(label: str, boards: list[Board]) -> str:
    read = [board for board in boards if None not in board.warned]
    telling = [board for board in read if board.strangers >= 2]
    counts = [f"{sum(bool(board.warned[way]) for board in telling):>7}" for way in range(len(WAYS))]
    return (f"{label:<21} {len(read):>5} {len(telling):>7} {''.join(counts)} "
            f"{sum(bool(board.warned[-1]) for board in read):>7}")


def _renders(tile_set: str) -> list[Board]:
    boards = []
    for number, seed in enumerate(range(FIRST_SEED, FIRST_SEED + RENDERS), 1):
        print(f"\r{tile_set}: render {number}/{RENDERS}", end="", flush=True)
        rng = np.random.default_rng(seed)
        seats = list(Seat)[:int(rng.integers(1, 5))]
        tiles = random_position(rng, tile_set=tile_set, words=int(rng.integers(4, 20)),
                                seats=seats)
        photo = render_board_photo(tiles, seed=seed,
                                   options=RenderOptions.random(rng, tile_set=tile_set))
        boards.append(_board([tile.letter for tile in tiles.values() if not tile.blank],
                             photo.image, photo.corners))
    return boards


def _truth_photos(photos: list[Path]) -> dict[str, list[Board]]:
    by_set: dict[str, list[Board]] = {name: [] for name in TILE_SETS}
    models = loso_models({read_truth(photo).source for photo in photos})
    errata = load_errata()
    for number, photo in enumerate(photos, 1):
        print(f"\rtruth photos: {number}/{len(photos)}", end="", flush=True)
        truth = read_truth(photo)
        if not truth.occupied():
            continue  # an empty board has no letter to carry a mark
        grid = corrected_grid(truth, errata.get(photo.name, {}))
        letters = [cell.letter for row in grid for cell in row
                   if cell is not None and cell.letter not in (None, "?") and not cell.blank]
        by_set[tile_set_for(truth)].append(
            _board(letters, load_image(photo), models=models[truth.source]))
    return by_set


def main() -> int:
    print(f"{'read as english':<21} {'read':>5} {'2+ not':>7} {'warned of those':>21} "
          f"{'warned':>7}")
    print(f"{'':<21} {'':>5} {'english':>7} {''.join(f'{way:>7}' for way in WAYS)} "
          f"{'always':>7}")
    for tile_set in TILE_SETS:
        boards = _renders(tile_set)
        print("\r" + _row(f"{tile_set} renders", boards))
    for tile_set, boards in _truth_photos(photos_with_truth(DEV_PHOTOS)).items():
        print("\r" + _row(f"{tile_set} truth photos", boards))
    print("the second look for letters whose mark is not above (Ł, Ą, Ę): without it, after one "
          "mark above, always")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
