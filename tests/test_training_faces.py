"""The rendered faces the tile models learn from look like real tiles where it matters."""

from __future__ import annotations

import string
from statistics import median

import numpy as np
import pytest

from lab.train import all_letter_values, letter_heights, load_real_boards, render_crop
from lab.truth import DEV_PHOTOS

pytestmark = pytest.mark.slow

PLAIN = string.ascii_uppercase


def test_rendered_letters_are_as_tall_as_real_tiles_letters() -> None:
    # Letters drawn too big left the value digit no room (merged with the letter or lost on half
    # the faces), and a real Q small beside its 10 was read as R: see TRAINING_LETTER_SCALE.
    real: dict[str, list[np.ndarray]] = {}
    for board in load_real_boards(DEV_PHOTOS):
        real.setdefault(board.source, []).extend(
            crop for crop, letter, rotation in zip(board.crops, board.letters, board.rotations,
                                                   strict=True)
            if letter in PLAIN and letter and rotation == 0)
    real_medians = [float(np.median(letter_heights(crops))) for crops in real.values()]
    assert len(real_medians) >= 4  # repositories with truth corners

    rng = np.random.default_rng(0)
    values = all_letter_values()
    rendered = [render_crop(letter, values[letter][0], rng, 48)
                for letter in PLAIN for _ in range(20)]
    rendered_median = float(np.median(letter_heights(rendered)))

    # The real medians span 0.42-0.51 of a cell; the renderer's former 0.62 drew 0.63.
    assert min(real_medians) <= rendered_median <= max(real_medians) + 0.02, (
        rendered_median, sorted(real_medians), median(real_medians))


def test_the_committed_models_learn_bold_sans_faces_and_a_quarter_more_in_every_style() -> None:
    from lab.stress import FONT_FILES, axis_named
    from lab.train import EVERY_STYLE_SHARE, TrainingSettings, rendered_face_crops, rendered_faces

    assert TrainingSettings().lettering == "both"
    sans, sans_labels = rendered_face_crops(8, 1, 48, "bold sans")
    both, both_labels = rendered_face_crops(8, 1, 48, "both")
    styled, styled_labels, _, _ = rendered_faces(int(8 * EVERY_STYLE_SHARE), 2, 48,
                                                 "every style")
    assert both_labels == sans_labels + styled_labels
    assert all(np.array_equal(a, b) for a, b in zip(both, sans + styled, strict=True))
    # The committed share of per_letter draws every style on every colour, black plastic too.
    _, _, styles, colours = rendered_faces(int(TrainingSettings().per_letter * EVERY_STYLE_SHARE),
                                           2, 48, "every style")
    assert set(styles) == set(FONT_FILES)
    assert set(colours) == set(axis_named("tile colour").values) >= {"black plastic"}
    with pytest.raises(ValueError, match="lettering must be one of"):
        rendered_faces(8, 1, 48, "both")
