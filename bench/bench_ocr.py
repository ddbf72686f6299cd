"""Tesseract as a second opinion: what it mends and what it costs, by how doubtful a letter must be.

``tileref read`` and ``tileref eval`` hand Tesseract the letters the classifier read with less
than ``ReadConfig.ocr_below`` confidence, and Tesseract's letter wins where it reads one
(:func:`vision.letters.ocr.second_opinion`); the live camera does not ask it. Here the same readings
are made with it off, and with it asked below each of :data:`BELOW` (the setting among them):

* the truth photos as ``tileref eval`` reads them (boards found, models trained without the
  photo's repository): English letters right, the goal's figure, and letters of every tile set
  right against the corrected truth;
* :data:`RENDERS` renders of two and four seats' tiles (seeds :data:`FIRST_SEED` on, none a
  training board: :func:`lab.train.training_render_seeds`), corners given: letters read
  wrong of their lettered tiles found as tiles.

Each with the median milliseconds a photo takes, which Tesseract's calls (0.1-0.2 s each) add to.
``python -m bench ocr``
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass, field, replace

import numpy as np

from lab.eval_reading import evaluate_reading
from lab.render import random_position, render_board_photo
from lab.truth import DEV_PHOTOS
from referee.cells import SEAT_ORDER, Cell
from vision import DISPUTE_CONFIG, ReadConfig, VisionError, read_board
from vision.letters.ocr import ocr_available

BELOW = (0.5, 0.6, 0.7, 0.8)
"""Where Tesseract is asked: letters read with less confidence than this."""
RENDERS = 200
FIRST_SEED = 4000


@dataclass
class Scores:
    """Letters of one set read with one setting."""

    right: int = 0
    scored: int = 0
    ms: list[float] = field(default_factory=list)  # per photo

    def wrong(self) -> int:
        return self.scored - self.right


def settings() -> list[tuple[str, ReadConfig]]:
    """Each setting measured, named as the table names it."""
    named = [("off", replace(DISPUTE_CONFIG, ocr_second_opinion=False))]
    for below in BELOW:
        mark = " (setting)" if below == DISPUTE_CONFIG.ocr_below else ""
        named.append((f"below {below}{mark}",
                      replace(DISPUTE_CONFIG, ocr_second_opinion=True, ocr_below=below)))
    return named


def truth_photos(config: ReadConfig) -> tuple[Scores, Scores]:
    """English letters (against the truth as written, as ``tileref eval`` gives the goal's
    figure) and letters of every set (against the corrected truth)."""
    rows = [row for row in evaluate_reading(DEV_PHOTOS, config=config, progress=False)
            if row.found]
    english = [row for row in rows if row.tile_set == "english"]
    ms = [row.ms for row in rows]
    return (Scores(sum(r.letters_scored - r.letter_errors for r in english),
                   sum(r.letters_scored for r in english), ms),
            Scores(sum(r.corrected_letters_scored - r.corrected_letter_errors for r in rows),
                   sum(r.corrected_letters_scored for r in rows), ms))


def renders(configs: list[ReadConfig]) -> list[Scores]:
    """Each setting's letters on the same renders; a render is made once and read by each."""
    scores = [Scores() for _ in configs]
    for number, seed in enumerate(range(FIRST_SEED, FIRST_SEED + RENDERS), 1):
        print(f"\rrender {number}/{RENDERS}", end="", file=sys.stderr, flush=True)
        rng = np.random.default_rng(seed)
        seats = list(SEAT_ORDER[:2] if seed % 2 == 0 else SEAT_ORDER)
        tiles = random_position(rng, words=14, seats=seats)
        photo = render_board_photo(tiles, seed=seed, width=1600, height=1200)
        wanted = {cell: tile.letter for cell, tile in tiles.items()
                  if not tile.blank and cell not in photo.covered}
        for config, score in zip(configs, scores, strict=True):
            started = time.perf_counter()
            try:
                reading = read_board(photo.image, corners=photo.corners, config=config)
            except VisionError:
                continue  # refused (a hand over the board): nothing read, nothing scored
            score.ms.append((time.perf_counter() - started) * 1000)
            # Letters of the tiles found: a tile read as empty has no letter for Tesseract to
            # mend (on these renders some 170 are, most under glare), and would hide its effect.
            read = {Cell.parse(cell.cell): cell.letter for cell in reading.cells}
            found = [cell for cell in wanted if cell in read]
            score.right += sum(read[cell] == wanted[cell] for cell in found)
            score.scored += len(found)
    print(file=sys.stderr)
    return scores


def main() -> int:
    if not ocr_available():
        print("tesseract is not installed: the second opinion cannot be measured",
              file=sys.stderr)
        return 1
    named = settings()
    rendered = renders([config for _, config in named])
    print(f"{'Tesseract asked':22} | {'truth photos (held out, boards found)':^40} | "
          f"{f'{RENDERS} renders, corners given':^26}")
    print(f"{'':22} | {'English right':>15} {'all right':>15} {'ms':>6} | "
          f"{'wrong of found':>17} {'ms':>6}")
    for (name, config), on_renders in zip(named, rendered, strict=True):
        english, every = truth_photos(config)
        print(f"{name:22} | {english.right:>6}/{english.scored:<8} {every.right:>6}/"
              f"{every.scored:<8} {statistics.median(english.ms or [0]):6.0f} | "
              f"{on_renders.wrong():>6} of {on_renders.scored:<7} "
              f"{statistics.median(on_renders.ms or [0]):6.0f}")
    print("\nms: median per photo, read on this machine's cores as tileref read reads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
