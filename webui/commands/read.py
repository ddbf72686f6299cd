"""``tileref read PHOTO``: what the camera saw, as board text or FORMATS.md's JSON.

Text output is the board (spaced form, every tile with its rotation arrow) followed by the
warnings, one per line after a ``#``, so the output is itself valid board text; a warning in
the same words over several squares is said once, naming them all, as the dispute page says it
(``vision.said_once``; ``--json`` keeps one per square). Bad input (an
unreadable file, no board, malformed corners, an unknown tile set) is one line on standard error
and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "read", help="read the tiles on a board photo",
        description="Read every tile (letter, blank, rotation) on a photo of a board.")
    parser.add_argument("photo", metavar="PHOTO", help="JPEG, PNG, WebP or HEIC photo")
    parser.add_argument("--json", action="store_true", help="print FORMATS.md's reading JSON")
    parser.add_argument("--overlay", metavar="OUT.png",
                        help="also draw the grid and the letters read over the photo")
    parser.add_argument("--corners", metavar='"x,y x,y x,y x,y"',
                        help="the playing grid's corners TL TR BR BL (South = photo bottom)")
    parser.add_argument("--calibration", metavar="PROFILE",
                        help="take the corners from a calibration profile")
    parser.add_argument("--tiles", default="english", help="tile set (english, german, polish)")
    parser.add_argument("--south", choices=("bottom", "auto"), default="bottom",
                        help="bottom: South is the photo's bottom; auto: turn so letters stand up")
    parser.add_argument("--islands", action="store_true",
                        help="a hexhex board with coloured stones (islands), not a Scrabble board")
    parser.add_argument("--size", type=int, metavar="N",
                        help="with --islands: the board's side in cells (3-10, default 7)")
    parser.set_defaults(func=run)


def parse_corners(text: str) -> list[tuple[float, float]]:
    """``"x,y x,y x,y x,y"`` to four points; raises ``ValueError`` with one line."""
    points = []
    for token in text.replace(";", " ").split():
        parts = token.split(",")
        if len(parts) != 2:
            raise ValueError(f"--corners: {token!r} is not x,y")
        try:
            points.append((float(parts[0]), float(parts[1])))
        except ValueError:
            raise ValueError(f"--corners: {token!r} is not two numbers") from None
    if len(points) != 4:
        raise ValueError(f"--corners needs four x,y points, got {len(points)}")
    return points


def refused(error: Exception) -> int:
    """Say why a photo was not read, in one line on stderr, and give the exit code for it."""
    message = " ".join(str(error).split()) or type(error).__name__
    print(f"tileref read: {message}", file=sys.stderr)
    return 2


def written(reading: Any, warnings: Iterable[str], as_json: bool) -> int:
    """Write a reading to stdout: its JSON, or its board text and a ``# warning:`` line for each
    of ``warnings``; the exit code (0)."""
    if as_json:
        print(reading.to_json_text())
    else:
        sys.stdout.write(reading.board_text())
        for warning in warnings:
            print(f"# warning: {warning}")
    return 0


def run_islands(args: argparse.Namespace) -> int:
    """``--islands``: FORMATS.md's islands board text (or JSON) of a hexhex board photo."""
    from vision import VisionError, load_image, save_overlay
    from vision.hexboard import draw_hex_overlay, read_hex_board

    try:
        scrabble_only = [flag for flag, given in (
            ("--corners", args.corners is not None), ("--calibration", bool(args.calibration)),
            ("--tiles", args.tiles != "english"), ("--south", args.south != "bottom")) if given]
        if scrabble_only:
            raise ValueError(f"{scrabble_only[0]} is for a Scrabble board, not with --islands")
        image = load_image(args.photo)
        reading = read_hex_board(image, 7 if args.size is None else args.size)
        if args.overlay:
            save_overlay(draw_hex_overlay(image, reading), args.overlay)
    except (VisionError, ValueError, OSError) as error:
        return refused(error)
    return written(reading, reading.warnings, args.json)


def run(args: argparse.Namespace) -> int:
    if args.islands:
        return run_islands(args)
    if args.size is not None:
        print("tileref read: --size is the side of an islands board: give it with --islands",
              file=sys.stderr)
        return 2
    from vision import warm_colour_tables

    # Built beside the reader's imports and the photo's decoding (vision.warmup says why).
    colour_tables = warm_colour_tables()
    from vision import DISPUTE_CONFIG, VisionError, load_image, read_board, said_once

    try:
        image = load_image(args.photo)
        colour_tables.join()
        corners: np.ndarray | list[tuple[float, float]] | None = None
        if args.corners is not None and args.calibration:
            raise ValueError("give --corners or --calibration, not both")
        if args.corners is not None:  # an empty one too: a script's unset variable, refused
            corners = parse_corners(args.corners)
        elif args.calibration:
            from calibration.profile import CalibrationProfile

            corners = CalibrationProfile.load(args.calibration).corners_for(image)
        reading = read_board(image, corners=corners, tiles=args.tiles, south=args.south,
                             config=DISPUTE_CONFIG)
        if args.overlay:
            from vision import draw_overlay, save_overlay

            save_overlay(draw_overlay(image, reading), args.overlay)
    except (VisionError, ValueError, OSError) as error:
        return refused(error)
    # Said as the dispute page says them: the same words over several squares once.
    return written(reading, [warning.message for warning in said_once(reading.warning_details)],
                   args.json)
