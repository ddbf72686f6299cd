"""The tile classifier: letter and rotation of rendered and real tiles, and its parts."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from lab.tileface import available_fonts, render_tile_face
from referee.tiles import load_tile_set
from vision.letters import classify
from vision.letters.classify import (
    TileClassifier,
    _ink_blobs,
    features_batch,
    features_of_ink,
    find_glyph,
    ink_maps,
    tile_features,
    turn_features,
    turned_features,
)
from vision.perceptron import Mlp

ENGLISH = load_tile_set("english")
TURNED_ALIKE = "HINOSXZ"  # letters that look the same turned over: the digit decides


def _face(letter: str, rotation: int, seed: int, font_index: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    fonts = available_fonts()
    return render_tile_face(letter, value=ENGLISH.values[letter], size=56, rotation=rotation,
                            font=fonts[font_index % len(fonts)], rng=rng)


def _pad(face: np.ndarray) -> np.ndarray:
    """A face on a plain board square, as a rectified cell crop looks."""
    out = np.full((62, 62, 3), (150, 170, 160), np.uint8)
    out[3:59, 3:59] = face
    return out


@pytest.mark.slow
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_rendered_letters_in_all_four_rotations(rotation: int) -> None:
    classifier = TileClassifier.load()
    letters = ENGLISH.letters
    crops = [_pad(_face(letter, rotation, seed=1000 + i, font_index=i))
             for i, letter in enumerate(letters)]
    guesses = classifier.classify(crops, letters)
    letter_ok = sum(g.letter == want for g, want in zip(guesses, letters, strict=True))
    both_ok = sum(g.letter == want and g.rotation == rotation
                  for g, want in zip(guesses, letters, strict=True))
    # Measured on fresh seeds: 25-26 of 26 letters with the rotation.
    assert letter_ok >= 24
    assert both_ok >= 23


@pytest.mark.slow
def test_letters_alike_when_turned_are_told_apart_by_the_digit() -> None:
    classifier = TileClassifier.load()
    total = correct = 0
    for i, letter in enumerate(TURNED_ALIKE):
        for rotation in (0, 90, 180, 270):
            guess = classifier.classify([_pad(_face(letter, rotation, seed=77 + i))],
                                        ENGLISH.letters)[0]
            total += 1
            correct += guess.letter == letter and guess.rotation == rotation
    assert correct / total >= 0.85, f"{correct}/{total}"


def test_a_blank_face_is_read_as_blank() -> None:
    rng = np.random.default_rng(3)
    face = render_tile_face("A", value=None, size=56, blank=True, rng=rng)
    ink = ink_maps([_pad(face)])[0]
    assert find_glyph(ink) is None
    guess = TileClassifier.load().classify([_pad(face)], ENGLISH.letters)[0]
    assert guess.letter == "?"


@pytest.mark.slow
def test_a_faint_crop_is_a_blank_and_a_printed_letter_is_not(monkeypatch) -> None:
    """Blank faces with grain and bevels filling their crops (their faint texture, stretched to
    full ink, has letter-like blobs): read as blanks because no ink is much darker than the
    face. Without that prior the perceptron reads most as letters (the tile network the product
    reads with beside it reads these blanks itself); lettered faces lose nothing to it."""
    pair = TileClassifier.load()
    # Faces filling their crops, as a tile a little larger than its square is cut.
    blanks = [render_tile_face("A", value=None, size=56, blank=True,
                               rng=np.random.default_rng(seed)) for seed in range(40)]
    lettered = [_pad(_face(letter, 0, seed=500 + i, font_index=i))
                for i, letter in enumerate(ENGLISH.letters * 2)]
    crops = blanks + lettered
    with_prior = {name: classifier.classify(crops, ENGLISH.letters)
                  for name, classifier in (("alone", TileClassifier(pair.model)), ("pair", pair))}
    monkeypatch.setattr(classify, "FAINT_ODDS", 1.0)
    without = TileClassifier(pair.model).classify(crops, ENGLISH.letters)
    for guesses in with_prior.values():
        assert sum(g.letter == "?" for g in guesses[:40]) >= 38
    assert sum(g.letter == "?" for g in without[:40]) <= 20
    assert [g.letter for g in with_prior["alone"][40:]] == [g.letter for g in without[40:]]


def test_the_digit_direction_turns_with_the_tile() -> None:
    directions = []
    for rotation in (0, 90, 180, 270):
        # Z keeps its digit clear of the letter in every font (K's 5 often touches its leg).
        ink = ink_maps([_pad(_face("Z", rotation, seed=5))])[0]
        parts = find_glyph(ink)
        assert parts is not None and parts.digit_weight > 0
        directions.append(np.sign(parts.digit))
    # Upright the value sits bottom-right; each clockwise quarter turn moves it one corner on.
    assert [tuple(d) for d in directions] == [(1, 1), (-1, 1), (-1, -1), (1, -1)]


def test_only_the_tile_sets_letters_are_read() -> None:
    classifier = TileClassifier.load()
    crops = [_pad(_face(letter, 0, seed=9)) for letter in "ABC"]
    for guess in classifier.classify(crops, "ABC"):
        assert guess.letter in "ABC?"


@pytest.mark.slow
def test_model_round_trips_through_npz(tmp_path) -> None:
    model = TileClassifier.load().model
    path = tmp_path / "m.npz"
    model.save(path)
    again = Mlp.load(path)
    x = np.stack([tile_features(_pad(_face("Q", 0, seed=2)))])
    assert np.allclose(model.logits(x), again.logits(x))
    assert again.labels == model.labels


def _classifier_over(labels: tuple[str, ...]) -> TileClassifier:
    """A classifier whose model only names ``labels``: for the board-level steps alone."""
    n = len(labels)
    return TileClassifier(Mlp(np.zeros(1, np.float32), np.ones(1, np.float32),
                              np.zeros((1, 1), np.float32), np.zeros(1, np.float32),
                              np.zeros((1, n), np.float32), np.zeros(n, np.float32), labels))


LABELS = ("?0", "O0", "O90", "O180", "O270", "R0", "R90", "R180", "R270")


def _row(**probs: float) -> np.ndarray:
    row = np.full(len(LABELS), 1e-4)
    for label, p in probs.items():
        row[LABELS.index(label)] = p
    return row / row.sum()


def test_a_doubtful_turned_over_letter_follows_the_boards_rotation() -> None:
    classifier = _classifier_over(LABELS)
    sure = [_row(R0=0.99)] * 12
    doubtful = _row(O180=0.5, O0=0.45)
    probs = classifier.with_board_rotations(np.stack(sure + [doubtful]))
    assert classifier.guesses(probs)[-1].rotation == 0


def test_four_seats_sharing_a_board_keep_their_own_rotations() -> None:
    classifier = _classifier_over(LABELS)
    rows = [_row(**{f"R{rotation}": 0.97}) for rotation in (0, 90, 180, 270) for _ in range(4)]
    probs = classifier.with_board_rotations(np.stack(rows))
    assert [g.rotation for g in classifier.guesses(probs)] == [r for r in (0, 90, 180, 270)
                                                              for _ in range(4)]


def test_a_letter_pushed_against_the_crop_edge_is_still_the_letter() -> None:
    ink = np.zeros((60, 60), np.float32)
    ink[0:30, 18:42] = 1.0  # a T's bar and stem reaching the top edge
    ink[10:28, 26:34] = 1.0
    ink[34:40, 40:44] = 1.0  # its value digit
    parts = find_glyph(ink)
    assert parts is not None
    x0, y0, x1, y1 = parts.box
    assert x1 - x0 >= 20 and y0 == 0


def test_a_heavy_t_high_on_its_tile_is_the_letter_not_its_digit() -> None:
    ink = np.zeros((48, 48), np.float32)
    ink[2:8, 9:27] = 1.0  # a heavy bar: most of the T's ink, far above the crop's centre
    ink[8:21, 16:21] = 1.0  # its stem
    ink[19:24, 27:31] = 1.0  # its value digit, near the centre
    parts = find_glyph(ink)
    assert parts is not None
    assert parts.box == (9, 2, 27, 21)


def _mixed_crops() -> list[np.ndarray]:
    """Rendered crops as a board gives them: letters in every rotation and font, a blank, a
    tile shifted against the crop's edge."""
    crops = [_pad(_face(letter, 90 * (i % 4), seed=300 + i, font_index=i))
             for i, letter in enumerate("AEGKMNQSTWXZ")]
    crops.append(_pad(render_tile_face("A", value=None, size=56, blank=True,
                                       rng=np.random.default_rng(3))))
    crops.append(np.roll(_pad(_face("T", 0, seed=8)), -14, axis=0))
    return crops


def test_a_batch_reads_each_crop_as_it_alone_would() -> None:
    # The batch lays all maps in one column (one labelling, one Sobel, one resize): a map's
    # place in it must not change its features, to the last bit.
    inks = ink_maps(_mixed_crops())
    batch = features_batch(inks)
    np.testing.assert_array_equal(batch, np.stack([features_of_ink(ink) for ink in inks]))
    np.testing.assert_array_equal(turn_features(batch),
                                  np.stack([turned_features(ink) for ink in inks]))
    assert [find_glyph(ink) is None for ink in inks] == [False] * 12 + [True, False]


def test_the_blobs_of_a_batch_are_each_maps_own_in_its_own_order() -> None:
    # Two blobs starting on neighbouring rows: a labelling in 2 x 2 blocks meets the lower one
    # first, left of the other, unless a map starts on an odd row of the column.
    staggered = np.zeros((48, 48), np.float32)
    staggered[11:20, 5:9] = 1.0
    staggered[10:20, 30:34] = 1.0
    inks = np.concatenate([ink_maps(_mixed_crops()), [staggered, staggered]])
    blobs = _ink_blobs(inks)
    owner, stats, centres = blobs.owner, blobs.stats, blobs.centres
    for i, ink in enumerate(inks):
        binary = (ink > 0.45).astype(np.uint8)
        _, _, own_stats, own_centres = cv2.connectedComponentsWithStats(binary, connectivity=8)
        np.testing.assert_array_equal(stats[owner == i], own_stats[1:])
        np.testing.assert_array_equal(centres[owner == i], own_centres[1:])
