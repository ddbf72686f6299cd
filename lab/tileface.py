"""One tile seen from straight above, drawn from a TrueType font: the atom of every render.

The tile classifier learns from these faces and the board renderer pastes them onto boards, so
both see the same letters. OpenCV only draws Hershey strokes, which look nothing like a printed
tile, hence Pillow and the bold sans fonts the machine already has. A national letter (Ł, Ä, ...)
is drawn with the first font that really has its glyph, never with a missing-glyph box.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_FOLDERS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts"))
BOLD_SANS_NAMES = (
    "DejaVuSans-Bold.ttf",
    "LiberationSans-Bold.ttf",
    "FreeSansBold.ttf",
    "NotoSans-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "LiberationSansNarrow-Bold.ttf",
)
"""Bold sans faces close to the lettering on real tiles, best first."""

VALUE_ANCHORS = {"corner": (0.9, 1.0), "inset": (0.82, 1.0), "large": (0.93, 1.45)}
"""Where the value's bottom-right corner sits (a share of the face, both ways) and how much
bigger than usual it is drawn, by ``value_place``."""

SUPERSAMPLE = 4
"""Faces are drawn this many times larger and shrunk: small tiles keep smooth letter edges."""


class TileFaceError(ValueError):
    """A tile face that cannot be drawn: not a letter, a bad rotation, no font with the glyph."""


@dataclass(frozen=True)
class FaceStyle:
    """Everything random about one face, drawn before anything is painted.

    Drawing all the randomness up front keeps a face and its rotated twin identical pixel for
    pixel when they come from generators with the same seed.
    """

    tile_bgr: tuple[float, float, float]
    ink_bgr: tuple[float, float, float]
    letter_scale: float
    value_scale: float
    letter_dx: float  # fraction of the tile, added to the letter centre
    letter_dy: float
    value_dx: float  # fraction of the tile, added to the value's bottom-right corner
    value_dy: float
    bevel: float  # fraction of the tile shaded at each edge
    bevel_strength: float
    grain: float  # amplitude of wood-like streaks, 0 for plastic


TILE_COLOURS_BGR = {
    "ivory": (190, 225, 240),
    "beige": (160, 200, 222),
    "wood": (110, 165, 205),
    "white plastic": (232, 238, 240),
}


MORE_TILE_COLOURS_BGR = {"black plastic": (38, 36, 35)}
"""Tile colours beyond :data:`TILE_COLOURS_BGR`, drawn only when asked for by name (their ink is
light: :data:`LIGHT_INK`)."""
LIGHT_INK = (235, 235, 232)


def available_fonts() -> list[Path]:
    """Bold sans TTFs installed here, in order of preference (may be empty on a bare system)."""
    return list(_installed_fonts())


@cache
def _installed_fonts() -> tuple[Path, ...]:
    found: list[Path] = []
    for name in BOLD_SANS_NAMES:
        for folder in FONT_FOLDERS:
            if not folder.is_dir():
                continue
            match = next(iter(sorted(folder.rglob(name))), None)
            if match is not None and match not in found:
                found.append(match)
                break
    return tuple(found)


@cache
def find_font(name: str) -> Path | None:
    """The installed font file called ``name`` (``"RobotoSlab-Bold.otf"``), or None.

    Any installed face may be named, not only :data:`BOLD_SANS_NAMES`: the stress scenes
    (:mod:`lab.stress`) letter their tiles in serif, slab, condensed, rounded and geometric faces.
    """
    for folder in FONT_FOLDERS:
        if folder.is_dir():
            match = next(iter(sorted(folder.rglob(name))), None)
            if match is not None:
                return match
    return None


@cache
def _font(path: Path, pixels: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), pixels)


@cache
def has_glyph(path: Path, char: str) -> bool:
    """True if the font draws ``char`` itself rather than its missing-glyph box."""
    font = _font(path, 48)
    missing = font.getmask("\U0010fffd")
    mask = font.getmask(char)
    if mask.size == (0, 0) or mask.getbbox() is None:
        return False
    return bool(mask.size != missing.size or bytes(mask) != bytes(missing))


def fonts_for(char: str) -> list[Path]:
    """The available fonts that have a glyph for ``char``."""
    return [path for path in available_fonts() if has_glyph(path, char)]


def _text_mask(text: str, font_path: Path, height: float, canvas: int,
               anchor_xy: tuple[float, float], align: str, max_width: float) -> np.ndarray:
    """``text`` as a float mask on a ``canvas`` square, its capitals ``height`` pixels tall.

    Sizing by the ink of a reference capital (not by font metrics) makes every font look the
    same size on the tile, and keeps Ą or Ó as big as A and O with the marks outside the box.
    ``align`` "centre" puts the middle of the capital box at ``anchor_xy``; "bottom-right" puts
    its bottom-right corner there. Wide glyphs (W, M) shrink to fit ``max_width``.
    """
    reference = "0" if text.isdigit() else "H"
    probe = _font(font_path, 200)
    _, cap_top, _, cap_bottom = probe.getbbox(reference)
    left, _, right, _ = probe.getbbox(text)
    scale = height / max(cap_bottom - cap_top, 1)
    scale = min(scale, max_width / max(right - left, 1))
    font = _font(font_path, max(int(round(200 * scale)), 4))
    _, cap_top, _, cap_bottom = font.getbbox(reference)
    left, _, right, _ = font.getbbox(text)
    if align == "centre":
        x = anchor_xy[0] - (left + right) / 2
        y = anchor_xy[1] - (cap_top + cap_bottom) / 2
    else:
        x = anchor_xy[0] - right
        y = anchor_xy[1] - cap_bottom
    image = Image.new("L", (canvas, canvas), 0)
    ImageDraw.Draw(image).text((x, y), text, fill=255, font=font)
    return np.asarray(image, dtype=np.float32) / 255.0


def _style(tile_bgr: tuple[int, int, int], ink_bgr: tuple[int, int, int], letter_scale: float,
           value_scale: float, rng: np.random.Generator | None,
           colour: str | None = None) -> FaceStyle:
    if rng is None:
        tile = (float(tile_bgr[0]), float(tile_bgr[1]), float(tile_bgr[2]))
        ink = (float(ink_bgr[0]), float(ink_bgr[1]), float(ink_bgr[2]))
        return FaceStyle(tile, ink, letter_scale, value_scale, 0.0, 0.0, 0.0, 0.0, 0.07, 0.18,
                         0.0)
    names = list(TILE_COLOURS_BGR)
    name = names[int(rng.integers(len(names)))]
    if colour is not None:  # asked for by name: drawn as above, the colour replaced
        name = colour
        if colour in MORE_TILE_COLOURS_BGR:
            ink_bgr = LIGHT_INK
    base = np.array({**TILE_COLOURS_BGR, **MORE_TILE_COLOURS_BGR}[name], dtype=np.float64)
    face_bgr = np.clip(base + rng.normal(0, 4, 3) + rng.normal(0, 10), 0, 255)
    light_ink = name in MORE_TILE_COLOURS_BGR
    ink_jitter = np.clip(np.array(ink_bgr, dtype=np.float64) + rng.normal(0, 6, 3)
                         + rng.uniform(-25, 30), 135 if light_ink else 0, 255 if light_ink else 120)
    colour_bgr = face_bgr
    return FaceStyle(
        tile_bgr=(float(colour_bgr[0]), float(colour_bgr[1]), float(colour_bgr[2])),
        ink_bgr=(float(ink_jitter[0]), float(ink_jitter[1]), float(ink_jitter[2])),
        letter_scale=letter_scale * float(rng.uniform(0.88, 1.12)),
        value_scale=value_scale * float(rng.uniform(0.85, 1.2)),
        letter_dx=float(rng.uniform(-0.04, 0.03)),
        letter_dy=float(rng.uniform(-0.04, 0.03)),
        # Some sets print the value close in, touching a wide letter (M3, Q10 on real tiles).
        value_dx=float(rng.uniform(-0.05, 0.03)),
        value_dy=float(rng.uniform(-0.04, 0.03)),
        bevel=float(rng.uniform(0.03, 0.11)),
        bevel_strength=float(rng.uniform(0.05, 0.3)),
        grain=float(rng.uniform(4, 12)) if name == "wood" else 0.0,
    )


def _shaded_tile(size: int, style: FaceStyle, rng: np.random.Generator | None) -> np.ndarray:
    """The blank tile body: its colour, a bevel lit from the top-left, wood grain if any."""
    face = np.empty((size, size, 3), dtype=np.float32)
    face[:] = style.tile_bgr
    ramp = np.arange(size, dtype=np.float32) + 0.5
    width = max(style.bevel * size, 1.0)
    near_start = np.clip(1 - ramp / width, 0, 1)  # 1 at the top/left edge, 0 inside
    near_end = near_start[::-1]
    light = (near_start[:, None] + near_start[None, :]) * 0.5
    dark = np.maximum(near_end[:, None], near_end[None, :])
    shade = 1 + style.bevel_strength * (0.6 * light - dark)
    face *= shade[:, :, None]
    if style.grain and rng is not None:
        phase = rng.uniform(0, 2 * np.pi)
        freq = rng.uniform(6, 14) * 2 * np.pi / size
        wobble = np.sin(ramp * 3.1 / size + phase) * rng.uniform(0.5, 3)
        streaks = np.sin(freq * (ramp[:, None] + wobble * ramp[None, :] / size * 4) + phase)
        face += (streaks * style.grain * 0.5)[:, :, None]
    return face


def render_tile_face(letter: str, *, value: int | None, size: int = 64, font: Path | None = None,
                     rotation: int = 0, blank: bool = False,
                     tile_bgr: tuple[int, int, int] = (190, 225, 240),
                     ink_bgr: tuple[int, int, int] = (30, 30, 30), letter_scale: float = 0.62,
                     value_scale: float = 0.26, value_place: str = "corner",
                     rng: np.random.Generator | None = None,
                     colour: str | None = None) -> np.ndarray:
    """A ``size`` x ``size`` BGR face of one tile, its top turned ``rotation`` degrees clockwise.

    The letter sits a little up and left of centre and the value sits small in the bottom-right
    corner, as printed on real tiles; that corner digit is what tells a turned tile's rotation.
    A blank has neither. With ``rng`` the colour, ink, letter placement and bevel vary.
    ``value_place`` "inset" prints the value nearer the letter, "large" half as big again.
    ``colour`` (with ``rng``) names the tile colour instead of drawing one: "black plastic"
    (:data:`MORE_TILE_COLOURS_BGR`) too, lettered light.
    """
    if rotation not in (0, 90, 180, 270):
        raise TileFaceError(f"rotation must be 0, 90, 180 or 270, not {rotation!r}")
    if not isinstance(size, int) or size < 8:
        raise TileFaceError(f"tile face size must be an integer of at least 8 pixels, not {size!r}")
    if not blank and not (isinstance(letter, str) and len(letter) == 1 and letter.isalpha()):
        raise TileFaceError(f"a tile face shows one letter, not {letter!r}")
    if value is not None and (not isinstance(value, int) or not 0 <= value <= 99):
        raise TileFaceError(f"a tile value is a whole number 0 to 99, not {value!r}")
    if value_place not in VALUE_ANCHORS:
        raise TileFaceError(f"value_place must be one of {', '.join(VALUE_ANCHORS)}, "
                            f"not {value_place!r}")
    style = _style(tile_bgr, ink_bgr, letter_scale, value_scale, rng, colour)
    face = _shaded_tile(size, style, rng)
    if not blank:
        glyph = letter.upper()
        if font is None:
            candidates = fonts_for(glyph)
            if not candidates:
                raise TileFaceError(f"no installed bold sans font has a glyph for {glyph!r}")
            font = candidates[int(rng.integers(len(candidates)))] if rng is not None \
                else candidates[0]
        elif not has_glyph(Path(font), glyph):
            raise TileFaceError(f"font {Path(font).name} has no glyph for {glyph!r}")
        canvas = size * SUPERSAMPLE
        ink = _text_mask(glyph, Path(font), style.letter_scale * canvas, canvas,
                         ((0.46 + style.letter_dx) * canvas, (0.45 + style.letter_dy) * canvas),
                         "centre", 0.7 * canvas)
        if value is not None:
            anchor, grow = VALUE_ANCHORS[value_place]
            ink = np.maximum(ink, _text_mask(str(value), Path(font),
                                             style.value_scale * grow * canvas, canvas,
                                             ((anchor + style.value_dx) * canvas,
                                              (anchor + style.value_dy) * canvas),
                                             "bottom-right", 0.3 * grow * canvas))
        alpha = cv2.resize(ink, (size, size), interpolation=cv2.INTER_AREA)[:, :, None]
        face = face * (1 - alpha) + np.array(style.ink_bgr, dtype=np.float32) * alpha
    face = np.clip(face + 0.5, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(np.rot90(face, k=-(rotation // 90)))


__all__ = [
    "TileFaceError",
    "available_fonts",
    "find_font",
    "fonts_for",
    "has_glyph",
    "render_tile_face",
]
