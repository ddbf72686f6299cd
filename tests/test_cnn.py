"""The tile network: its numpy forward pass (against the plain definition; against torch,
``lab.train_cnn.check_against_torch`` checks every network it converts, where torch is), its
inputs, its storage, and how the classifier reads with one.

Most run on networks with seeded random weights: what is checked is the arithmetic and the
plumbing, which a trained network's figures rest on. The last ones check the committed network:
that the reader and ``tileref eval`` read with it, and that it mends letters of a stress scene's
slab and serif faces that the perceptron alone misreads (why it is committed, see
:mod:`vision.letters.classify`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lab.stress import cached_scene
from lab.stress.score import score_reading
from lab.tileface import available_fonts, render_tile_face
from lab.train import ALL_SOURCES, loso_network
from lab.truth import DEV_PHOTOS, photos_with_truth, read_truth
from referee.tiles import load_tile_set
from vision import DISPUTE_CONFIG, read_board
from vision.letters.classify import TileClassifier, ink_maps, letter_boxes, network_path
from vision.letters.cnn import CONVS, HIDDEN, INPUT_PX, Cnn, network_inputs
from vision.perceptron import MODELS, Mlp

ENGLISH = load_tile_set("english")
PERCEPTRON = Mlp.load(MODELS / "tiles.npz")


def _network(mode: str, seed: int = 0, scale: float = 1.0) -> Cnn:
    """A network of the product's shape with random weights (float16-exact, as stored)."""
    rng = np.random.default_rng(seed)

    def weights(*shape: int, factor: float = 1.0) -> np.ndarray:
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 10
        values = rng.normal(0, factor * scale * np.sqrt(2 / fan_in), shape)
        return values.astype(np.float16).astype(np.float32)

    convs, channels, side = [], 2 if mode == "both" else 1, INPUT_PX
    for kernel, stride, out in CONVS:
        convs.append((weights(out, channels, kernel, kernel), weights(out)))
        channels, side = out, (side + 2 * (kernel // 2) - kernel) // stride + 1
    classes = len(PERCEPTRON.labels)
    return Cnn(tuple(convs), tuple(stride for _, stride, _ in CONVS),
               weights(HIDDEN, channels * side * side), weights(HIDDEN),
               weights(classes, HIDDEN), weights(classes), PERCEPTRON.labels, mode)


def _crops(rotation: int, seed: int, shift: int = 0) -> list[np.ndarray]:
    """Every English letter rendered on a plain board square, turned ``rotation`` degrees and
    moved ``shift`` pixels right and down."""
    fonts = available_fonts()
    crops = []
    for i, letter in enumerate(ENGLISH.letters):
        face = render_tile_face(letter, value=ENGLISH.values[letter], size=56, rotation=rotation,
                                font=fonts[i % len(fonts)], rng=np.random.default_rng(seed + i))
        crop = np.full((62, 62, 3), (150, 170, 160), np.uint8)
        crop[3 + shift:59, 3 + shift:59] = face[:56 - shift, :56 - shift]
        crops.append(crop)
    return crops


def _inputs(crops: list[np.ndarray], mode: str) -> np.ndarray:
    inks = ink_maps(crops)
    return network_inputs(inks, letter_boxes(inks), mode)


def _reference_logits(cnn: Cnn, inputs: np.ndarray) -> np.ndarray:
    """The forward pass written out plainly: every output pixel's own dot product, in float64."""
    x = inputs.astype(np.float64)
    for (weight, bias), stride in zip(cnn.convs, cnn.strides, strict=True):
        k = weight.shape[2]
        pad = k // 2
        padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        side = (x.shape[2] + 2 * pad - k) // stride + 1
        out = np.empty((len(x), weight.shape[0], side, side))
        for i in range(side):
            for j in range(side):
                window = padded[:, :, i * stride:i * stride + k, j * stride:j * stride + k]
                out[:, :, i, j] = np.einsum("ncyx,ocyx->no", window, weight) + bias
        x = np.maximum(out, 0.0)
    hidden = np.maximum(x.reshape(len(x), -1) @ cnn.w1.T + cnn.b1, 0.0)
    return hidden @ cnn.w2.T + cnn.b2


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["crop", "both"])
def test_the_numpy_forward_pass_is_the_plain_convolution(mode: str) -> None:
    """Runs without torch: the batched patches-times-weights pass against the definition."""
    cnn = _network(mode, seed=3)
    inputs = _inputs(_crops(90, seed=5)[:6], mode)
    expected = _reference_logits(cnn, inputs)
    np.testing.assert_allclose(cnn.logits(inputs), expected, rtol=1e-4,
                               atol=1e-4 * np.abs(expected).max())


def test_turning_the_crop_turns_the_network_input() -> None:
    """The ink levels come from the crop's centre square and the 48 -> 32 area shrink is
    symmetric, so a turned crop's input is the turned input."""
    crops = _crops(0, seed=11)[:5]
    turned = [np.ascontiguousarray(np.rot90(crop, -1)) for crop in crops]
    a = network_inputs(ink_maps(crops), None, "crop")
    b = network_inputs(ink_maps(turned), None, "crop")
    assert a.shape == (5, 1, INPUT_PX, INPUT_PX)
    np.testing.assert_allclose(np.rot90(a, -1, axes=(2, 3)), b, atol=1e-5)


def test_the_letter_centred_input_does_not_move_with_the_tile() -> None:
    centred = _inputs(_crops(0, seed=13), "glyph")
    moved = _inputs(_crops(0, seed=13, shift=3), "glyph")
    assert centred.shape == (26, 1, INPUT_PX, INPUT_PX)
    # The ink's centre of mass, in input pixels: the letter is put in the middle either way.
    grid = np.arange(INPUT_PX)
    for inputs in (centred, moved):
        mass = inputs[:, 0].sum(axis=(1, 2))
        x = (inputs[:, 0].sum(axis=1) @ grid) / mass
        assert np.median(np.abs(x - INPUT_PX / 2)) < 2.5


def test_saving_and_loading_keep_the_weights(tmp_path: Path) -> None:
    cnn = _network("both", seed=6)
    cnn.save(tmp_path / "x_cnn.npz")
    again = Cnn.load(tmp_path / "x_cnn.npz")
    assert again.labels == cnn.labels and again.mode == cnn.mode
    assert again.strides == cnn.strides
    for (w, b), (w2, b2) in zip(cnn.convs, again.convs, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(cnn, name), getattr(again, name))


@pytest.mark.slow
def test_a_network_stored_beside_the_perceptron_is_read_with_it(tmp_path: Path) -> None:
    PERCEPTRON.save(tmp_path / "tiles.npz")
    assert TileClassifier.load(tmp_path / "tiles.npz").network is None
    _network("crop", seed=7).save(network_path(tmp_path / "tiles.npz"))
    assert (tmp_path / "tiles_cnn.npz").exists()
    # A fresh path (the loader caches per path).
    (tmp_path / "b").mkdir()
    PERCEPTRON.save(tmp_path / "b" / "tiles.npz")
    _network("crop", seed=7).save(tmp_path / "b" / "tiles_cnn.npz")
    network = TileClassifier.load(tmp_path / "b" / "tiles.npz").network
    assert network is not None and network.labels == PERCEPTRON.labels


@pytest.mark.slow
def test_a_network_that_knows_nothing_leaves_the_readings_as_they_were() -> None:
    """Equal scores for every class (all weights 0): averaging its log-probabilities with the
    perceptron's changes how sure a reading is, never which (letter, rotation) it is."""
    flat = _network("crop", scale=0.0)
    alone, paired = TileClassifier(PERCEPTRON), TileClassifier(PERCEPTRON, flat)
    crops = _crops(270, seed=15)
    a = alone.classify(crops, ENGLISH.letters)
    b = paired.classify(crops, ENGLISH.letters)
    assert [(g.letter, g.rotation) for g in a] == [(g.letter, g.rotation) for g in b]


@pytest.mark.slow
def test_a_network_that_disagrees_moves_the_readings() -> None:
    """The network does take part: one sure of another class for every crop outvotes a doubtful
    perceptron somewhere among 26 letters."""
    network = _network("crop", seed=8, scale=3.0)
    alone, paired = TileClassifier(PERCEPTRON), TileClassifier(PERCEPTRON, network)
    crops = _crops(0, seed=17)
    a = alone.tile_probabilities(crops, ENGLISH.letters)
    b = paired.tile_probabilities(crops, ENGLISH.letters)
    assert not np.allclose(a, b, atol=1e-3)


def test_a_network_must_name_the_perceptron_classes() -> None:
    short = Mlp(PERCEPTRON.mean, PERCEPTRON.scale, PERCEPTRON.w1, PERCEPTRON.b1,
                PERCEPTRON.w2[:, :-1], PERCEPTRON.b2[:-1], PERCEPTRON.labels[:-1])
    with pytest.raises(ValueError):
        TileClassifier(short, _network("crop"))


@pytest.mark.photos
def test_the_reader_and_tileref_eval_read_with_the_committed_network() -> None:
    committed = TileClassifier.load()
    assert committed.network is not None
    assert committed.network.labels == committed.model.labels
    # tileref eval reads each truth photo with a network trained without its source's photos
    # (a source whose photos have no truth corners was never trained on: the product's one).
    assert loso_network(ALL_SOURCES) is not None
    sources = {truth.source for truth in map(read_truth, photos_with_truth(DEV_PHOTOS))
               if truth.corners is not None}
    assert len(sources) >= 5
    for source in sources:
        network = loso_network(source)
        assert network is not None and network.labels == committed.model.labels


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "mended"), [
    (100190, ("D9 N>I", "H9 L>J")),  # a slab face at 1024 px
    (100133, ("L6 P>I", "L8 E>F")),  # a serif face, defocused, 45-60 degrees
])
def test_the_network_mends_letters_the_perceptron_alone_misreads(
        seed: int, mended: tuple[str, ...]) -> None:
    scene = cached_scene(seed)
    committed = TileClassifier.load()
    alone = score_reading(scene, read_board(scene.jpeg, config=DISPUTE_CONFIG,
                                            classifier=TileClassifier(committed.model)))
    paired = score_reading(scene, read_board(scene.jpeg, config=DISPUTE_CONFIG))
    assert set(mended) <= set(alone.mistakes)
    assert not set(mended) & set(paired.mistakes)
    assert paired.letters_wrong < alone.letters_wrong
