"""One stress scene: its axis values drawn from a seed, rendered, and saved as a phone saves it.

The conditions (:mod:`lab.stress.axes`) become :class:`lab.render.RenderOptions` here; what no
axis names (the field of view, how much of the frame the board fills, the tiles' height and
jitter, sensor noise) is drawn as :meth:`RenderOptions.random` draws it for any render, and the
harsh effects no axis asked for are off, so that a row's figure is its own condition's.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from lab.render import RenderedPhoto, RenderOptions, random_position, render_board_photo
from lab.stress.axes import (
    FONT_FILES,
    SIZES,
    TABLE_SETTINGS,
    WORDS,
    draw_conditions,
    installed_fonts,
)
from referee.cells import SEAT_ORDER

FIRST_SEED = 100_000
"""Stress scenes are seeds from here on: far from every training render's seed
(:func:`lab.train.training_render_seeds`), so no scene is one a model learnt from."""


@dataclass(frozen=True, eq=False)
class StressScene:
    """A rendered scene with its whole truth.

    ``photo`` holds the photo as the reader sees it (the JPEG decoded), the grid's corners in
    image pixels (A1, O1, O15, A15 of the South view), every tile with its letter, blank flag and
    rotation, and the cells something hides; ``conditions`` the value of every axis; ``details``
    the numbers drawn within them (the font file, the tilt in degrees, the blur in pixels, ...);
    ``jpeg`` the file a phone would have written, which is what the benchmark reads.
    """

    seed: int
    conditions: dict[str, str]
    details: dict[str, float | str]
    photo: RenderedPhoto
    jpeg: bytes


def _range(text: str) -> tuple[float, float]:
    """"0.5-1.5" or "motion 2-4" to its two ends."""
    low, high = text.split()[-1].split("-")
    return float(low), float(high)


def _within(share: float, bounds: tuple[float, float]) -> float:
    return bounds[0] + share * (bounds[1] - bounds[0])


def scene_options(conditions: dict[str, str], rng: np.random.Generator
                  ) -> tuple[RenderOptions, dict[str, float | str]]:
    """The render options of a scene with these conditions, and the numbers drawn for them.

    Every number is drawn up front, whatever the conditions: a scene and its twin with one axis
    pinned to another value draw the same camera, the same tiles and the same other effects.
    """
    base = RenderOptions.random(rng)
    u = rng.random(24)
    normal = rng.normal(0, 1, 2)
    details: dict[str, float | str] = {}
    fonts = installed_fonts(conditions["font"])
    if not fonts:
        raise RuntimeError(f"no {conditions['font']} font is installed (one of "
                           f"{', '.join(FONT_FILES[conditions['font']])}): make system-deps")
    font = fonts[int(u[0] * len(fonts))]
    details["font file"] = font
    turn = conditions["turn"]
    quarter = 0 if turn == "upright" else 1 + int(u[1] * 3)
    azimuth = 360 * u[2] if turn == "any angle" else 90.0 * quarter + _within(u[2], (-5, 5))
    light = conditions["light"]
    quality = _range(conditions["jpeg"])
    changes: dict[str, object] = dict(
        TABLE_SETTINGS[conditions["table"]],
        board_style=conditions["edition"], premium_labels=conditions["labels"],
        centre_mark=conditions["centre"], tile_font=font, tile_colour=conditions["tile colour"],
        value_place=conditions["value"], tilt=_within(u[3], _range(conditions["tilt"])),
        azimuth=float(azimuth % 360), roll=float(3 * normal[0]),
        brightness=_within(u[4], (0.8, 1.1)), white_balance=(1.0, 1.0, 1.0), glare=0.0,
        shadow=0.0, sheen=0.0, hand=False, cup=False, rack=False, clutter=int(u[5] * 4),
        blur=_within(u[6], (0, 0.4)), jpeg_quality=int(round(_within(u[7], quality))),
    )
    # A travel board is small, its frame thin; a deluxe board's is broad.
    changes["frame_width"] = {"travel": _within(u[8], (0.3, 0.6)),
                              "deluxe": _within(u[8], (1.2, 2.2))}.get(
        conditions["edition"], base.frame_width)
    if light == "lamp":
        changes["lamp"] = _within(u[9], (0.4, 0.8))
    elif light == "warm":
        changes["white_balance"] = (_within(u[9], (0.6, 0.8)), _within(u[10], (0.9, 1.0)),
                                    _within(u[11], (1.1, 1.25)))
    elif light == "cool":
        changes["white_balance"] = (_within(u[9], (1.1, 1.25)), _within(u[10], (1.0, 1.05)),
                                    _within(u[11], (0.75, 0.9)))
    elif light in ("arm shadow", "head shadow"):
        changes.update(shadow=_within(u[9], (0.35, 0.6)), shadow_shape=light.split()[0],
                       shadow_softness=_within(u[10], (0.2, 1.0)))
    elif light == "glare":
        changes["glare"] = _within(u[9], (0.3, 0.8))
    elif light == "washed far row":
        changes["washout"] = _within(u[9], (0.4, 0.75))
    lens = conditions["lens"]
    if lens != "straight":
        strength = _within(u[12], (0.04, 0.15))
        changes["distortion"] = -strength if lens == "barrel" else strength
    focus = conditions["focus"]
    if focus.startswith("defocus"):
        changes["defocus"] = _within(u[13], _range(focus))
    elif focus == "depth of field":
        changes["depth_of_field"] = _within(u[13], (1.0, 3.0))
    motion = conditions["motion"]
    if motion != "still":
        changes.update(motion=_within(u[14], _range(motion)), motion_angle=180 * u[15])
    occlusion = conditions["occlusion"]
    if occlusion == "hand":
        changes["hand"] = True
    elif occlusion == "rack":
        changes["rack"] = True
    elif occlusion == "loose tiles":
        changes["clutter"] = 15 + int(u[16] * 25)
    elif occlusion == "cup":
        changes["cup"] = True
    options = replace(base, **{name: float(value) if isinstance(value, np.floating) else value
                               for name, value in changes.items()})  # type: ignore[arg-type]
    for name in ("tilt", "azimuth", "defocus", "motion", "depth_of_field", "distortion", "lamp",
                 "washout", "shadow", "glare"):
        details[name] = round(float(getattr(options, name)), 3)
    details["jpeg quality"] = float(options.jpeg_quality or 95)
    return options, details


UPSCALED = {"48 MP": 2}
"""Sizes rendered smaller and enlarged (by this factor): a 48 MP render took over 8 minutes on
this machine's shared cores, and a phone's 48 MP photo is itself four binned sensor pixels per
detail, as soft as an enlarged 12 MP one."""


def _enlarged(photo: RenderedPhoto, factor: int) -> RenderedPhoto:
    """A render enlarged ``factor`` times, its corners moved with it (pixel centres kept)."""
    height, width = photo.image.shape[:2]
    image = cv2.resize(photo.image, (width * factor, height * factor),
                       interpolation=cv2.INTER_CUBIC)
    return replace(photo, image=image, corners=(photo.corners + 0.5) * factor - 0.5)


def _decoded(jpeg: np.ndarray) -> np.ndarray:
    image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    if image is None:
        raise RuntimeError("OpenCV could not decode a JPEG it encoded")
    return image


def make_scene(seed: int, **pinned: str) -> StressScene:
    """The scene of ``seed``: the same seed always gives the same conditions and pixels.

    ``pinned`` fixes axis values (``make_scene(7, font="serif", tile_colour="wood")``); the other
    axes are drawn as they would be without it.
    """
    rng = np.random.default_rng([seed, 33])
    conditions = draw_conditions(rng, **pinned)
    options, details = scene_options(conditions, rng)
    seats = list(SEAT_ORDER) if rng.random() < 0.3 else []
    fewest, most = WORDS[conditions["position"]]
    words = int(rng.integers(fewest, most + 1))
    tiles = random_position(rng, words=words, seats=seats) if words else {}
    width, height = SIZES[conditions["size"]]
    # Rendered raw, then saved once as a phone saves it: JPEG at the scene's quality.
    upscale = UPSCALED.get(conditions["size"], 1)
    photo = render_board_photo(tiles, seed=seed, width=width // upscale,
                               height=height // upscale,
                               options=replace(options, jpeg_quality=None))
    if upscale > 1:
        photo = _enlarged(photo, upscale)
    ok, data = cv2.imencode(".jpg", photo.image,
                            [cv2.IMWRITE_JPEG_QUALITY, int(options.jpeg_quality or 95)])
    if not ok:
        raise RuntimeError("OpenCV could not encode a JPEG")
    details["seats"] = float(len(seats) or 1)
    # The photo as the reader sees it: the JPEG decoded (as :func:`cached_scene` gives it back).
    seen = replace(photo, image=_decoded(data))
    return StressScene(seed, conditions, details, seen, data.tobytes())


CACHE_DIR = Path(os.environ.get("TILEREF_CACHE", Path.home() / ".cache" / "tileref")) / "stress"
_SCENE_CODE = ("lab/stress/axes.py", "lab/stress/scene.py", "lab/tileface.py",
               *(f"lab/render/{name}.py" for name in ("options", "camera", "surfaces", "solids",
                                                      "scene", "positions")))


@cache
def scene_key() -> str:
    """A digest of the code that draws and renders scenes: cached scenes are reused only while
    it is unchanged."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256(b"stress scenes 1")
    for name in _SCENE_CODE:
        digest.update((root / name).read_bytes())
    return digest.hexdigest()[:16]


def cached_scene(seed: int, cache_dir: Path = CACHE_DIR) -> StressScene:
    """:func:`make_scene` of ``seed``, kept on disk (the JPEG and the truth; the image is the
    JPEG decoded, as the reader sees it) so that a second run, the held-out models' and the blur
    curve's read the same scenes without rendering them again."""
    path = cache_dir / scene_key() / f"{seed}.pickle"
    if path.exists():
        with path.open("rb") as file:
            stored = pickle.load(file)
        photo = RenderedPhoto(_decoded(np.frombuffer(stored["jpeg"], np.uint8)),
                              stored["corners"], stored["tiles"], stored["orientation"],
                              seed, stored["options"], stored["covered"])
        return StressScene(seed, stored["conditions"], stored["details"], photo, stored["jpeg"])
    scene = make_scene(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".part")
    with temporary.open("wb") as file:
        pickle.dump({"jpeg": scene.jpeg, "corners": scene.photo.corners,
                     "tiles": scene.photo.tiles, "orientation": scene.photo.orientation,
                     "options": scene.photo.options, "covered": scene.photo.covered,
                     "conditions": scene.conditions, "details": scene.details}, file)
    temporary.replace(path)
    return scene


def stress_seeds(count: int, first: int = FIRST_SEED) -> range:
    """The seeds of a stress set of ``count`` scenes."""
    return range(first, first + count)


__all__ = ["CACHE_DIR", "FIRST_SEED", "StressScene", "cached_scene", "make_scene", "scene_key",
           "scene_options", "stress_seeds"]
