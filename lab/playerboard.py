"""``python -m lab.playerboard PHOTO``: print what a photo of a First Draft player's board says.

A tool to look at one photo by hand; the web UI reads player boards through
:func:`vision.read_player_board` itself.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision import VisionError, load_image, read_player_board


def main(argv: list[str] | None = None) -> int:
    """Print the two rows and the pool read from a photo of a player's board, and its warnings."""
    parser = argparse.ArgumentParser(prog="python -m lab.playerboard", description=main.__doc__)
    parser.add_argument("photo", type=Path)
    args = parser.parse_args(argv)
    try:
        reading = read_player_board(load_image(args.photo))
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    first, second = reading.row_letters
    print(f"row 1: {first or '-'}\nrow 2: {second or '-'}\npool:  {reading.pool_letters or '-'}")
    for warning in reading.warnings:
        print(f"warning: {warning}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
