"""The typed failures of the vision stages.

Every failure a user can cause (a bad file, a photo without a board, a photo too dark to read) is
a ``VisionError``: a ``ValueError`` carrying one line that the command line prints and the web UI
shows as is. The evaluation harness records the class name, so "board not found" and "image
unreadable" stay apart in the tables; a refusal of a photo also says its ``reason`` as data (no
board, cut off, too blurry, too dark, covered), one for each thing a person does about it.
"""

from __future__ import annotations

from referee.cells import Cell


class VisionError(ValueError):
    """A photo could not be turned into a reading; ``str(error)`` is one line for a person.

    ``cells`` are the squares the line names ("photo too blurry around K3"), as data, so a
    screen can ring them without reading the sentence; none for most failures.
    """

    cells: tuple[Cell, ...] = ()

    def __init__(self, message: str) -> None:
        # One line, always: the CLI prints it as the whole error report.
        super().__init__(" ".join(str(message).split()))

    @property
    def message(self) -> str:
        return str(self)


class ImageError(VisionError):
    """The bytes are not a usable image: unreadable, corrupt, truncated, too big, not an image."""


class BoardNotFoundError(VisionError):
    """The image is fine but holds no Scrabble board we can trust (none, or cut off).

    ``reason`` says which, as data (the web UI and the benchmarks count refusals by it):
    ``"no board"`` or ``"cut off"``.
    """

    def __init__(self, message: str, reason: str = "no board") -> None:
        super().__init__(message)
        self.reason = reason


class ImageQualityError(VisionError):
    """A board may be there but the photo is too blurry or too dark to find or read it, or
    something lies over it.

    ``reason`` says which, as data: ``"too blurry"``, ``"too dark"`` or ``"covered"`` (something
    lies over the board). ``corners`` are the playing grid's corners (TL, TR, BR, BL, photo
    pixels) when the board was found before the photo was refused, else None: a corner editor
    starts from them, so a person sees where the grid was taken to be and can move it if that is
    what went wrong.
    """

    def __init__(self, message: str,
                 corners: tuple[tuple[float, float], ...] | None = None,
                 cells: tuple[Cell, ...] = (), *, reason: str) -> None:
        super().__init__(message)
        self.corners = corners
        self.cells = cells
        self.reason = reason
