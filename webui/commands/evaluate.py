"""``tileref eval [DIR]``: score the vision stages against the truth photos.

``--stage reading`` (default) reads every photo as ``tileref read`` does and compares it with the
truth sidecars; ``--stage corners`` scores only the board finder. ``--given-corners`` reads with
the truth corners, to measure reading apart from finding; ``--scale`` shrinks every photo first;
``--training-seed`` trains the held-out models on tiles rendered from another seed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "eval", help="score the camera against photos with truth files",
        description="Score board finding or reading against truth sidecars, one row per photo.")
    parser.add_argument("folder", nargs="?", metavar="DIR",
                        help="photos with <photo>.txt truth files (default: the development "
                             "photos, ../shared/photos beside the checkout)")
    parser.add_argument("--stage", choices=("corners", "reading"), default="reading")
    parser.add_argument("--csv", metavar="OUT", help="also write the rows as CSV")
    parser.add_argument("--given-corners", action="store_true",
                        help="read with the truth corners instead of finding the board")
    parser.add_argument("--scale", type=float, default=1.0, metavar="S",
                        help="shrink every photo to S of its size first (e.g. 0.35): how "
                             "reading holds up on smaller photos")
    parser.add_argument("--training-seed", type=int, metavar="N",
                        help="render the held-out models' training tiles from seed N (the "
                             "committed models' is 1): how much a figure owes to one seed")
    parser.add_argument("--in-sample", action="store_true",
                        help="score the committed models, trained on these photos (optimistic); "
                             "by default each photo is read by models trained without its "
                             "repository's photos")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # The tools that score the reader are offline ones (lab), loaded only for this command.
    from lab.truth import DEV_PHOTOS

    folder = DEV_PHOTOS if args.folder is None else Path(args.folder)
    if not folder.is_dir():
        print(f"tileref eval: not a folder: {folder}", file=sys.stderr)
        return 2
    csv_path = Path(args.csv) if args.csv else None
    if args.stage == "corners":
        from lab.eval_corners import run_corner_eval

        return run_corner_eval(folder, csv_path)
    from lab.eval_reading import run_reading_eval

    return run_reading_eval(folder, csv_path, given_corners=args.given_corners,
                            in_sample=args.in_sample, scale=args.scale,
                            training_seed=args.training_seed)
