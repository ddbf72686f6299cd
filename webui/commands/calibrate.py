"""``tileref calibrate``: make a calibration profile for a fixed camera, or print markers.

    tileref calibrate PHOTO [--out PROFILE.json] [--chessboard DIR] [--markers]
                            [--south bottom|left|top|right]
    tileref calibrate --marker-sheet OUT.png|OUT.pdf

The profile goes to ``instance/calibration/default.json`` (relative to the current folder) unless
``--out`` says otherwise: the web app looks profiles up by name in ``instance/calibration/``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

DEFAULT_PROFILE = Path("instance") / "calibration" / "default.json"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "calibrate", help="store where the board is for a fixed camera (or print markers)",
        description="Find the board in one good frame from a fixed camera and store its corners "
                    "(optionally lens distortion and ArUco marker positions) in a profile.")
    parser.add_argument("photo", nargs="?", metavar="PHOTO", help="a frame from the camera")
    parser.add_argument("--out", metavar="PROFILE.json",
                        help=f"where to write the profile (default {DEFAULT_PROFILE})")
    parser.add_argument("--chessboard", metavar="DIR",
                        help="folder of chessboard photos from the same camera (lens model)")
    parser.add_argument("--markers", action="store_true",
                        help="record the four ArUco markers by the corners (they also fix South)")
    parser.add_argument("--south", choices=("bottom", "left", "top", "right"), default="bottom",
                        help="the image side nearest South's edge of the board (default bottom)")
    parser.add_argument("--marker-sheet", metavar="OUT.png|OUT.pdf",
                        help="write the printable marker sheet (A4) and stop")
    parser.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"tileref calibrate: {' '.join(str(message).split())}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from calibration.aruco import write_marker_sheet
    from calibration.intrinsics import calibrate_from_folder
    from calibration.profile import CalibrationProfile
    from vision import load_image

    if args.marker_sheet:
        out = Path(args.marker_sheet)
        try:
            write_marker_sheet(out)
        except ValueError as error:
            return _fail(str(error))
        except OSError as error:
            return _fail(f"{out}: cannot write the marker sheet ({error.strerror or error})")
        print(f"marker sheet written to {out} (print at 100 %, A4)")
        return 0
    if not args.photo:
        return _fail("give a PHOTO from the camera, or --marker-sheet OUT.png|OUT.pdf")
    try:
        intrinsics = calibrate_from_folder(args.chessboard) if args.chessboard else None
        image = load_image(args.photo)
        profile = CalibrationProfile.from_image(
            image, south=args.south, use_markers=args.markers, intrinsics=intrinsics
        )
        out = Path(args.out) if args.out else DEFAULT_PROFILE
        profile.save(out)
    except ValueError as error:  # VisionError, ProfileError, CalibrationError
        return _fail(str(error))
    except OSError as error:
        return _fail(f"cannot write the profile: {error}")
    corners = ", ".join(f"({x:.0f}, {y:.0f})" for x, y in profile.corners)
    print(f"profile written to {out}")
    print(f"grid corners TL TR BR BL: {corners}; South: {profile.south}; "
          f"confidence {profile.confidence:.2f}")
    if intrinsics is not None:
        print(f"lens model from chessboards: reprojection error {intrinsics.rms:.2f} px")
    if profile.marker_positions:
        print(f"markers recorded: {', '.join(str(k) for k in sorted(profile.marker_positions))}")
    return 0
