"""The ``tileref`` command line: one subcommand per module in ``webui/commands``.

Each command module exposes ``add_parser(subparsers)`` and ``run(args) -> int``; this file only
wires them together, so adding a command never touches the others. Commands import their heavy
dependencies (OpenCV, Flask) inside ``run`` so ``tileref judge`` starts as fast as the referee.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# numpy's BLAS on one thread, set before any command loads numpy: the reader's products are small
# ((225 x 28) by (28 x 160)), and OpenBLAS's default thread per core made them wait for its idle
# threads on a busy two-core machine -- reading a photo with given corners took 210 ms instead of
# 100 (measured alternating separate processes). A user's own setting still wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# The order in which ``tileref --help`` lists them.
COMMANDS = ("judge", "read", "evaluate", "calibrate", "serve")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tileref",
        description="Camera companion and referee for word games on a physical Scrabble board.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"webui.commands.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"webui.commands.{name}":
                raise
            continue
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`tileref judge game.json | head`): stop quietly, as Unix tools do.
        # Point stdout at /dev/null so the interpreter's final flush does not complain again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except Exception as error:  # a bug, not bad input: still one line unless asked for more
        if os.environ.get("TILEREF_DEBUG"):
            raise
        print(f"tileref {args.command}: internal error: {error} "
              "(set TILEREF_DEBUG=1 for the traceback)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
