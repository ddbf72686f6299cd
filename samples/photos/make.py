"""Re-render the sample photos in this folder: ``.venv/bin/python samples/photos/make.py``.

Each sample is a hand-written position (real English words) and a fixed seed and options, so
the files are reproducible and their truth sidecars are exact.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from lab.render import RenderOptions, render_board_photo  # noqa: E402
from referee.boardtext import parse_board_text  # noqa: E402

MIDGAME = """\
...............
...............
...............
...............
...............
...............
.....ASK.......
......WATER....
......i...OX.Z.
......N...B..O.
......GOT.I..N.
..........NOSE.
............H..
............Y..
...............
"""

LATER = """\
...............
...............
...............
...............
...............
...............
....MASK.......
....E.WATER....
....N.i...OX.Z.
......N...B..O.
......GOT.I..N.
........I.NOSE.
........D...H..
.....QUIET..YEW
...............
"""

# Archipelago, four seats, each seat's first word on its home row and a second word joined to
# it; every word reads in its seat's own across or down (RULES.md section 0).
ARCHIPELAGO = """\
. . . . . Nv Ev Dv Rv Av Gv . . . .
. . . . . . . . . Ev . . . . .
. . . . . . . . . Tv . . . . .
. . . . . . . . . . . . . . .
P> . . . . . . . . . . . . . .
L> . . . . . . . . . . . . . T<
A> . . . . . . . . . . . . . E<
N> . . . . . . . . . . . . . I<
E> N> O> . . . . . . . . . F< L< U<
T> . . . . . . . . . . . . . Q<
. . . . . . . . . . . . . . .
. . . . . . D^ . . . . . . . .
. . . . . . R^ . . . . . . . .
. . . . . . U^ . . . . . . . .
. . . . . S^ M^ I^ L^ E^ . . . . .
"""

EMPTY = "\n".join(["." * 15] * 15) + "\n"

STEADY = dict(glare=0.0, shadow=0.0, hand=False, blur=0.4, noise=2.0, jpeg_quality=None)

SAMPLES = {
    "scrabble-midgame.jpg": (MIDGAME, 101, dict(
        STEADY, tilt=12.0, azimuth=3.0, roll=-2.0, fill=0.85, offset=0.2, board_style="classic",
        tile_colour="ivory", table="wood", clutter=3, rack=True, brightness=1.0,
        white_balance=(1.0, 1.0, 1.0), light_gradient=0.15)),
    "archipelago-four-seats.jpg": (ARCHIPELAGO, 102, dict(
        STEADY, tilt=8.0, azimuth=-2.0, roll=1.0, fill=0.9, offset=0.1, board_style="modern",
        tile_colour="beige", table="cloth", clutter=0, rack=False, brightness=1.0,
        white_balance=(1.0, 1.0, 1.0), light_gradient=0.1)),
    "oblique-dim.jpg": (LATER, 103, dict(
        STEADY, tilt=45.0, azimuth=12.0, roll=3.0, fill=0.9, offset=0.3, board_style="classic",
        tile_colour="wood", table="wood", clutter=5, rack=True, brightness=0.45,
        white_balance=(0.78, 0.95, 1.15), light_gradient=0.35, noise=7.0, blur=0.8)),
    "glare.jpg": (MIDGAME, 104, dict(
        STEADY, tilt=18.0, azimuth=-6.0, roll=0.0, fill=0.85, offset=0.2, board_style="modern",
        tile_colour="white plastic", table="stone", clutter=2, rack=False, brightness=1.05,
        white_balance=(1.02, 1.0, 0.98), light_gradient=0.2, glare=0.9)),
    "turned-90.jpg": (LATER, 105, dict(
        STEADY, tilt=15.0, azimuth=90.0, roll=-4.0, fill=0.9, offset=0.2, board_style="green",
        tile_colour="ivory", table="plain", clutter=4, rack=True, brightness=1.0,
        white_balance=(1.0, 1.0, 1.0), light_gradient=0.2)),
    "hand-over-board.jpg": (LATER, 106, dict(
        STEADY, tilt=20.0, azimuth=0.0, roll=2.0, fill=0.85, offset=0.2, board_style="classic",
        tile_colour="ivory", table="wood", clutter=2, rack=True, brightness=0.95,
        white_balance=(0.95, 1.0, 1.05), light_gradient=0.2, hand=True)),
    "empty-board.jpg": (EMPTY, 107, dict(
        STEADY, tilt=10.0, azimuth=180.0, roll=0.0, fill=0.85, offset=0.3, board_style="classic",
        tile_colour="ivory", table="cloth", clutter=0, rack=False, brightness=1.0,
        white_balance=(1.0, 1.0, 1.0), light_gradient=0.1)),
    "busy-table-shadow.jpg": (LATER, 108, dict(
        STEADY, tilt=30.0, azimuth=-20.0, roll=5.0, fill=0.7, offset=0.6, board_style="green",
        tile_colour="beige", table="wood", clutter=14, rack=True, brightness=0.9,
        white_balance=(0.92, 1.0, 1.08), light_gradient=0.3, shadow=0.5)),
    "black-plastic.jpg": (MIDGAME, 109, dict(
        STEADY, tilt=20.0, azimuth=-4.0, roll=1.0, fill=0.85, offset=0.2, board_style="travel",
        tile_colour="black plastic", table="cloth", clutter=2, rack=True, brightness=1.0,
        white_balance=(1.0, 1.0, 1.0), light_gradient=0.2)),
}


def main() -> int:
    for index, (name, (position, seed, changes)) in enumerate(SAMPLES.items(), start=1):
        options = RenderOptions.clean(**changes)
        photo = render_board_photo(parse_board_text(position), seed=seed, options=options)
        photo.save(HERE / name, quality=85)
        print(f"\r{index}/{len(SAMPLES)} {name}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
