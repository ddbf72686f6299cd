"""Something over the board: how often a hand is caught, and how often a clear board is not.

Renders with a hand reaching over the board and renders without (``lab.render``, random
positions and conditions, seeds ``FIRST_SEED`` on: none of the seeds :mod:`vision.cells.cover` was
chosen on), read as ``tileref read`` reads them with their own corners, and the truth photos
read with theirs. Each reading ends one of four ways: refused ("something lies over ..."), read
with cells named ("something over K3"), read with nothing said about a cover, or refused for
another reason (a blur check comes first). The truth photos are read once more with the grid
right of column H out of focus (:data:`SOFT_BLUR`): a lens focused on one half is no hand.

``python -m bench cover``
"""

from __future__ import annotations

import numpy as np

from lab.render import RenderOptions, random_position, render_board_photo, soft_focus
from lab.truth import DEV_PHOTOS, photo_corners, photos_with_truth, read_truth
from vision import DISPUTE_CONFIG, ImageQualityError, WarningCode, load_image, read_board
from vision.board.rectify import SIZE

RENDERS = 40
"""Renders of each kind."""
FIRST_SEED = 7000
SOFT_FROM_COLUMN = 8
SOFT_BLUR = 0.12
"""The Gaussian blur of the soft part, in cells (a tenth of a cell is a strongly soft focus)."""


def outcome(image: np.ndarray, corners: np.ndarray) -> str:
    """``refused``, ``named``, ``quiet`` (what the reader says of a cover on one photo), or
    ``other``: refused for another reason (blur)."""
    try:
        reading = read_board(image, corners=corners, config=DISPUTE_CONFIG)
    except ImageQualityError as error:
        return "refused" if "lies over" in str(error) else "other"
    covered = (WarningCode.SOMETHING_OVER, WarningCode.SOMETHING_OVER_MAY_HIDE_A_TILE)
    return "named" if any(w.code in covered for w in reading.warning_details) else "quiet"


def _render(seed: int, hand: bool):
    rng = np.random.default_rng(seed)
    tiles = random_position(rng, words=int(rng.integers(2, 14)))
    options = RenderOptions.random(np.random.default_rng(seed + 1000), hand=hand)
    return render_board_photo(tiles, seed=seed, width=1600, height=1200, options=options)


def main() -> int:
    rows: dict[str, list[str]] = {"renders with a hand": [], "renders without": [],
                                  "truth photos": [], "the same, half soft": []}
    for number, seed in enumerate(range(FIRST_SEED, FIRST_SEED + RENDERS), 1):
        print(f"\rrender {number}/{RENDERS}", end="", flush=True)
        for hand, kind in ((True, "renders with a hand"), (False, "renders without")):
            photo = _render(seed, hand)
            rows[kind].append(outcome(photo.image, photo.corners))
    print()
    for path in photos_with_truth(DEV_PHOTOS):
        corners = photo_corners(read_truth(path))
        if corners is not None:
            image = load_image(path)
            rows["truth photos"].append(outcome(image, corners))
            soft = soft_focus(image, corners, (SOFT_FROM_COLUMN, SIZE + 1), (-1, SIZE + 1),
                              SOFT_BLUR)
            rows["the same, half soft"].append(outcome(soft, corners))
    print(f"{'photos':22} {'count':>5} {'refused':>8} {'named':>6} {'quiet':>6} "
          f"{'refused, other reason':>22}")
    for kind, outcomes in rows.items():
        print(f"{kind:22} {len(outcomes):5d} {outcomes.count('refused'):8d} "
              f"{outcomes.count('named'):6d} {outcomes.count('quiet'):6d} "
              f"{outcomes.count('other'):22d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
