"""Re-render the islands sample photos here: ``.venv/bin/python samples/photos/make_islands.py``.

Each sample is a hand-written ``islands`` position, a fixed seed and fixed conditions, so the
files are reproducible and their truth sidecars (``<photo>.txt``: ``#`` header lines, then the
board text as the reader should give it, line ``a`` along the edge nearest the photo's top) are
exact. They are renders (``lab.hexrender``), not photos: no real photo of a hex board with stones
was at hand.

    tileref read samples/photos/islands-midgame.jpg --islands
    tileref read samples/photos/islands-lamp-oblique.jpg --islands --json
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import cv2  # noqa: E402

from lab.hexrender import HexRenderOptions, render_scene  # noqa: E402
from referee.hexboard import HexBoard  # noqa: E402

# Two players, red and blue, a dozen turns in: islands of two and three, a few lone stones.
MIDGAME = """\
      . . . . . . .
     . . R R . . . .
    . . . . . B . . .
   . B B . . B . . R .
  . . . . R . . . R . .
 . . R . R . . B B . . .
. . . R . . . . . . . . .
 . B . . . . B . . R . .
  . B . . R R . . . . .
   . . . . . . . B . .
    . B . . . . . B .
     . . . R R . . .
      . . . . . . .
"""

# Four players late in the game (white, black, yellow, purple), on a dark plastic board.
LATE = """\
      W W . K K . .
     W . . K . P P .
    . Y Y . . K . P .
   W . Y . W . . . P .
  . . . Y W . K K . . Y
 K K . . W . . . Y Y . .
. K . P . . W W . . . K .
 . . P P . Y . W . K K .
  Y . . . . Y . . . . .
   Y Y . W W . P P . K
    . . K . . . . P .
     P . K . Y Y . W
      P . . . . W W
"""

# Green and orange under a lamp from one side, the camera low and turned.
LAMP = """\
      . . . . . . .
     . G G . . . . .
    . . . . O O . . .
   . . G . . . O . . .
  . O . G G . . . . . .
 . O . . . . G . O . . .
. . . . O . G . O . . . .
 . . G . O . . . . G . .
  . . G . . . O O . G .
   . . . . . . . . . .
    . O O . G . . . .
     . . . . G . . .
      . . . . . . .
"""

STILL = dict(blur=0.3, noise=1.5, jpeg_quality=None, loose_stones=4)

SAMPLES = {
    "islands-midgame.jpg": (MIDGAME, 501, HexRenderOptions(
        **STILL, material="oak", cell_style="engraved", stone_style="glass", table="cloth",
        margin=0.9, thickness=0.3, stone_size=0.8, tilt=18.0, turn=8.0, roll=-2.0,
        fill=0.85, offset=(0.1, -0.1), lamp=0.3, lamp_height=20.0, warmth=0.2)),
    "islands-late-dark-board.jpg": (LATE, 502, HexRenderOptions(
        **STILL, material="dark-plastic", cell_style="cups", stone_style="matte",
        table="wood", margin=0.7, thickness=0.35, stone_size=0.78, tilt=28.0, turn=95.0,
        roll=3.0, fill=0.88, offset=(-0.2, 0.1), lamp=0.0, warmth=-0.1)),
    "islands-lamp-oblique.jpg": (LAMP, 506, HexRenderOptions(
        **STILL, material="painted", cell_style="printed", stone_style="wood",
        table="checked-cloth", margin=1.1, thickness=0.25, stone_size=0.76, tilt=40.0,
        turn=215.0, roll=1.0, fill=0.8, offset=(0.2, 0.2), lamp=0.7, lamp_height=12.0,
        warmth=0.6, brightness=0.9)),
}


def main() -> int:
    for index, (name, (position, seed, options)) in enumerate(SAMPLES.items(), start=1):
        board = HexBoard.parse(position)
        image, truth = render_scene(seed, board.size, options=options, position=board)
        cv2.imwrite(str(HERE / name), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        (HERE / f"{name}.txt").write_text(truth.sidecar(name), encoding="utf-8")
        print(f"\r{index}/{len(SAMPLES)} {name}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
