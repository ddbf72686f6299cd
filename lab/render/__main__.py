"""``python -m lab.render OUT``: render board photos with truth sidecars into a folder."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from lab.render.options import RenderError, RenderOptions
from lab.render.positions import random_position
from lab.render.scene import render_board_photo
from referee.boardtext import Tile, parse_board_text
from referee.cells import Cell, Seat


def _read_position(path: Path) -> dict[Cell, Tile]:
    try:
        return parse_board_text(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise RenderError(f"cannot read board text {path}: {error}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lab.render",
        description="Render board photos with truth sidecars (for training, tests and samples).")
    parser.add_argument("out", type=Path, help="folder to write into (created if missing)")
    parser.add_argument("-n", "--count", type=int, default=10, help="how many photos")
    parser.add_argument("--seed", type=int, default=0, help="first seed; photo i uses seed+i")
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--height", type=int, default=1200)
    parser.add_argument("--quality", type=int, default=85, help="JPEG quality of the files")
    parser.add_argument("--board", type=Path, help="board text to render (else random positions)")
    parser.add_argument("--words", type=Path, help="word list for random positions")
    parser.add_argument("--tile-set", default="english", help="english, german or polish")
    parser.add_argument("--seats", default="", help="seats for rotated tiles, e.g. SWNE")
    parser.add_argument("--clean", action="store_true", help="straight-on, even light, no noise")
    args = parser.parse_args(argv)
    try:
        if args.count < 1:
            raise RenderError("--count must be at least 1")
        seats = [Seat.parse(letter) for letter in args.seats]
        word_list: list[str] = []
        if args.words:
            word_list = [w.strip() for w in args.words.read_text(encoding="utf-8").split()
                         if w.strip().isalpha() and 2 <= len(w.strip()) <= 8]
        fixed = _read_position(args.board) if args.board else None
        args.out.mkdir(parents=True, exist_ok=True)
        for i in range(args.count):
            seed = args.seed + i
            rng = np.random.default_rng([seed, 1])
            tiles = fixed if fixed is not None else random_position(
                rng, tile_set=args.tile_set, words=int(rng.integers(0, 25)), seats=seats,
                word_list=word_list)
            options = RenderOptions.clean(tile_set=args.tile_set) if args.clean else \
                RenderOptions.random(np.random.default_rng([seed, 2]), tile_set=args.tile_set)
            photo = render_board_photo(tiles, seed=seed, width=args.width, height=args.height,
                                       options=options)
            photo.save(args.out / f"render_{seed:06d}.jpg", quality=args.quality)
            print(f"\r{i + 1}/{args.count}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    except (ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
