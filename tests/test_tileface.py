"""Tile faces: the letters must really be there, turned the right way, the value in its corner."""

from __future__ import annotations

import numpy as np
import pytest

from lab.tileface import TileFaceError, available_fonts, render_tile_face
from referee.tiles import load_tile_set

ENGLISH = load_tile_set("english")


def ink_mask(face: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Pixels where the face differs clearly from the same tile with nothing printed on it."""
    return np.abs(face.astype(int) - background.astype(int)).max(axis=2) > 40


def test_fonts_are_found() -> None:
    fonts = available_fonts()
    assert fonts, "no bold sans TTF found"
    assert all(path.suffix.lower() == ".ttf" and path.is_file() for path in fonts)


@pytest.mark.parametrize("letter", list(ENGLISH.letters))
def test_every_english_letter_has_ink(letter: str) -> None:
    face = render_tile_face(letter, value=ENGLISH.values[letter], size=64)
    empty = render_tile_face("?", value=None, blank=True, size=64)
    assert face.shape == (64, 64, 3) and face.dtype == np.uint8
    ink = ink_mask(face, empty)
    assert ink.sum() > 64 * 64 * 0.05
    # The letter itself covers the middle of the tile.
    assert ink[16:48, 16:48].sum() > 32 * 32 * 0.1


def test_every_font_draws_a_different_letter_shape() -> None:
    faces = [render_tile_face("G", value=2, size=64, font=font) for font in available_fonts()]
    for face in faces:
        assert (face < 100).any()
    if len(faces) > 1:
        assert any(not np.array_equal(faces[0], other) for other in faces[1:])


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_rotation_is_clockwise(rotation: int) -> None:
    upright = render_tile_face("R", value=1, size=48, rng=np.random.default_rng(5))
    turned = render_tile_face("R", value=1, size=48, rotation=rotation,
                              rng=np.random.default_rng(5))
    assert np.array_equal(turned, np.rot90(upright, k=-rotation // 90))
    assert not np.array_equal(turned, upright)


def test_ninety_degrees_moves_the_value_to_the_bottom_left() -> None:
    with_value = render_tile_face("A", value=1, size=64, rotation=90)
    without = render_tile_face("A", value=None, size=64, rotation=90)
    rows, cols = np.nonzero(ink_mask(with_value, without))
    assert rows.size > 0
    assert rows.min() >= 32 and cols.max() < 32


def test_blank_has_no_ink() -> None:
    face = render_tile_face("?", value=None, blank=True, size=64)
    plain = np.array([190, 225, 240])
    middle = face[8:56, 8:56].astype(int)
    assert np.abs(middle - plain).max() < 12
    # A blank played as a letter looks the same: no letter, no value.
    assert np.array_equal(render_tile_face("E", value=0, blank=True, size=64), face)


@pytest.mark.parametrize("letter", ["A", "W", "Q", "Z"])
def test_value_lands_in_the_bottom_right_quadrant(letter: str) -> None:
    value = ENGLISH.values[letter]
    with_value = render_tile_face(letter, value=value, size=80)
    without = render_tile_face(letter, value=None, size=80)
    rows, cols = np.nonzero(ink_mask(with_value, without))
    assert rows.size > 10
    assert rows.min() >= 40 and cols.min() >= 40


@pytest.mark.parametrize("letter", ["Ł", "Ą", "Ż", "Ä", "Ö", "Ü", "Ś"])
def test_national_letters_differ_from_their_base_letter(letter: str) -> None:
    import unicodedata

    base = unicodedata.normalize("NFD", letter)[0]
    if letter == "Ł":
        base = "L"
    national = render_tile_face(letter, value=3, size=64)
    plain = render_tile_face(base, value=3, size=64)
    assert ink_mask(national, plain).sum() > 8


def test_jitter_varies_faces_but_a_seed_repeats_them() -> None:
    first = render_tile_face("K", value=5, size=64, rng=np.random.default_rng(11))
    again = render_tile_face("K", value=5, size=64, rng=np.random.default_rng(11))
    other = render_tile_face("K", value=5, size=64, rng=np.random.default_rng(12))
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"letter": "AB", "value": 1},
        {"letter": "3", "value": 1},
        {"letter": "", "value": 1},
        {"letter": "A", "value": 1, "rotation": 45},
        {"letter": "A", "value": -2},
        {"letter": "A", "value": 1, "size": 4},
    ],
)
def test_bad_input_is_a_clear_error(kwargs: dict) -> None:
    letter = kwargs.pop("letter")
    with pytest.raises(TileFaceError):
        render_tile_face(letter, **kwargs)
