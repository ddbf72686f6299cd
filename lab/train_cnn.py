"""Train (and evaluate leave-one-source-out) the tile network of :mod:`vision.letters.cnn` with
torch.

Needs the optional ``train`` extra; reading with the trained network does not. Install the CPU
build first (``.venv/bin/pip install torch==2.13.0``: its wheel lies on this machine's disk,
where an unpinned torch would fetch a CUDA build of several GB), then ``pip install -e
'.[train]'``. The data are the perceptron's (:mod:`lab.train`): rendered faces (bold sans, and
every lettering style and tile colour of the stress scenes, as :class:`lab.train.TrainingSettings`
says), tiles cut from rendered boards, real tiles cut from the truth photos at their truth
corners, the real ones weighing three times as much. Every epoch each crop is seen once, turned
by a random quarter turn (its class turning with it) and moved a little (shift, scale, a few
degrees, blur, light), since crops cut off centre are where the perceptron goes wrong.

Write the network the reader uses and the leave-one-source-out networks ``tileref eval`` reads
with (``vision/models/tiles_cnn.npz``, ``vision/models/loso/<source>_cnn.npz``; six networks,
about four minutes each on one core, the same bytes from the same seed on the same machine)::

    OPENBLAS_NUM_THREADS=1 .venv/bin/python -m lab.train_cnn --out vision/models

``--evaluate`` prints leave-one-source-out figures on the real tiles cut at their truth corners
(no second look): the perceptron of :func:`lab.train.loso_models`, the network alone, the two
combined, each with the board's rotations weighing in as in the product. Why the reader uses the
pair (the held-out lettering styles and tile colours of the stress scenes) is in
:mod:`vision.letters.classify` and docs/tuning.md ("The tile network, kept").
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from lab.train import (
    TrainingSettings,
    load_real_boards,
    loso_models,
    rendered_board_tiles,
    rendered_face_crops,
)
from lab.truth import DEV_PHOTOS
from referee.tiles import load_tile_set
from vision import DEFAULT_CONFIG
from vision.letters.classify import (
    BLANK,
    TileClassifier,
    class_label,
    gray_stack,
    ink_of_gray,
    letter_boxes,
    network_path,
    parse_label,
)
from vision.letters.cnn import CONVS, HIDDEN, INPUT_MODES, INPUT_PX, Cnn, network_inputs
from vision.perceptron import MODELS
from vision.tuning import WORK_PX

EPOCHS = 30
INPUT_MODE = "crop"
REAL_WEIGHT = 3.0
"""A real crop weighs this many rendered ones (as in the perceptron's training)."""


@dataclass
class CropData:
    """Grey work-size crops with their classes, the source each came from, and its weight."""

    gray: np.ndarray  # (N, WORK_PX, WORK_PX) uint8
    labels: list[str]
    sources: list[str]  # "" for rendered crops
    weights: np.ndarray  # (N,) float32


def _gray_bytes(crops: list[np.ndarray]) -> np.ndarray:
    return gray_stack(crops).astype(np.uint8)  # grey of byte crops: whole numbers already


def crop_data(photos: Path = DEV_PHOTOS, settings: TrainingSettings | None = None
              ) -> tuple[CropData, list]:
    """Every training crop of the perceptron, as pixels; and the real boards they came from."""
    settings = settings or TrainingSettings()
    cell_px = DEFAULT_CONFIG.cell_px
    faces, labels = rendered_face_crops(settings.per_letter, settings.seed, cell_px,
                                        settings.lettering)
    gray = [_gray_bytes(faces)]
    if settings.boards:
        crops, letters, rotations = rendered_board_tiles(settings.boards, settings.seed, cell_px)
        gray.append(_gray_bytes(crops))
        labels += [class_label(letter, rotation)
                   for letter, rotation in zip(letters, rotations, strict=True)]
    boards = load_real_boards(photos)
    return joined(rendered_crops(np.concatenate(gray), labels), real_crops(boards)), boards


def rendered_crops(gray: np.ndarray, labels: list[str]) -> CropData:
    """Rendered grey crops and their classes, each weighing one."""
    return CropData(gray, list(labels), [""] * len(labels), np.ones(len(labels), np.float32))


def real_crops(boards: list) -> CropData:
    """The readable tiles of the truth photos (:func:`lab.train.load_real_boards`), each
    weighing :data:`REAL_WEIGHT`."""
    gray, labels, sources = [], [], []
    for board in boards:
        keep = [i for i, letter in enumerate(board.letters) if letter]
        if not keep:
            continue
        gray.append(_gray_bytes([board.crops[i] for i in keep]))
        labels += [class_label(board.letters[i], board.rotations[i]) for i in keep]
        sources += [board.source] * len(keep)
    return CropData(np.concatenate(gray), labels, sources,
                    np.full(len(labels), REAL_WEIGHT, np.float32))


def joined(*parts: CropData) -> CropData:
    """The crops of every part, in order."""
    return CropData(np.concatenate([part.gray for part in parts]),
                    [label for part in parts for label in part.labels],
                    [source for part in parts for source in part.sources],
                    np.concatenate([part.weights for part in parts]))


def turn_label(label: str, turns: int) -> str:
    """The class a crop of class ``label`` shows once turned ``turns`` quarter turns clockwise."""
    letter, rotation = parse_label(label)
    return class_label(letter, (rotation + 90 * turns) % 360)


def augment(gray: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each (WORK_PX square, uint8) crop moved, scaled, tilted, blurred and relit a little.

    Moves up to a tenth of the crop each way: a tile lying off its square, or a grid found a
    little off, is what cuts letters at the crop's edge in real photos.
    """
    out = np.empty_like(gray)
    centre = (WORK_PX - 1) / 2
    for i, crop in enumerate(gray):
        matrix = np.array(cv2.getRotationMatrix2D((centre, centre), rng.uniform(-4, 4),
                                                  rng.uniform(0.9, 1.1)), np.float64)
        matrix[:, 2] += rng.uniform(-0.1, 0.1, 2) * WORK_PX
        moved = cv2.warpAffine(crop.astype(np.float32), matrix, (WORK_PX, WORK_PX),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.4:
            moved = cv2.GaussianBlur(moved, (0, 0), rng.uniform(0.3, 1.5))
        # Light: a gain and a gamma (the ink map divides the contrast out, not its curve).
        moved = 255 * (np.clip(moved * rng.uniform(0.7, 1.1), 0, 255) / 255) ** rng.uniform(0.7,
                                                                                         1.4)
        moved += rng.normal(0, rng.uniform(0, 4), moved.shape)
        out[i] = np.clip(np.round(moved), 0, 255).astype(np.uint8)
    return out


def _torch_network(classes: int, channels: int = 1):  # -> torch.nn.Module (lazy torch)
    import torch
    from torch import nn

    class Network(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            layers = []
            inputs, side = channels, INPUT_PX
            for kernel, stride, out in CONVS:
                layers.append(nn.Conv2d(inputs, out, kernel, stride, kernel // 2))
                inputs, side = out, (side + 2 * (kernel // 2) - kernel) // stride + 1
            self.convs = nn.ModuleList(layers)
            self.fc1 = nn.Linear(inputs * side * side, HIDDEN)
            self.drop = nn.Dropout(0.3)
            self.fc2 = nn.Linear(HIDDEN, classes)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            for conv in self.convs:
                x = torch.relu(conv(x))
            x = torch.relu(self.fc1(torch.flatten(x, 1)))
            return self.fc2(self.drop(x))

    return Network()


def to_cnn(network, labels: tuple[str, ...], mode: str) -> Cnn:
    """The trained torch network as :class:`Cnn` arrays, rounded to float16 as stored.

    Checked here, where torch is at hand, not in the test suite (which runs without the optional
    ``train`` extra): the numpy forward pass of what is stored must give torch's logits for the
    same weights, or nothing is written.
    """
    def array(tensor) -> np.ndarray:
        return tensor.detach().numpy().astype(np.float16).astype(np.float32)

    cnn = Cnn(tuple((array(conv.weight), array(conv.bias)) for conv in network.convs),
              tuple(stride for _, stride, _ in CONVS), array(network.fc1.weight),
              array(network.fc1.bias), array(network.fc2.weight), array(network.fc2.bias),
              labels, mode)
    check_against_torch(cnn)
    return cnn


def check_against_torch(cnn: Cnn, samples: int = 8, seed: int = 0) -> None:
    """Raise if ``cnn``'s numpy logits differ from a torch network holding its weights."""
    import torch

    shape = (samples, cnn.convs[0][0].shape[1], INPUT_PX, INPUT_PX)
    inputs = np.random.default_rng(seed).uniform(0, 1, shape).astype(np.float32)
    with torch.no_grad():
        expected = torch_network_of(cnn)(torch.from_numpy(inputs)).numpy()
    got = cnn.logits(inputs)
    if not np.allclose(got, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max()):
        raise AssertionError("the numpy forward pass does not reproduce torch's logits: "
                             f"largest difference {np.abs(got - expected).max():.3g}")


def torch_network_of(cnn: Cnn):
    """A torch network holding ``cnn``'s weights (to check the numpy forward pass against)."""
    import torch

    network = _torch_network(len(cnn.labels), cnn.convs[0][0].shape[1])
    with torch.no_grad():
        for conv, (weight, bias) in zip(network.convs, cnn.convs, strict=True):
            conv.weight.copy_(torch.from_numpy(weight))
            conv.bias.copy_(torch.from_numpy(bias))
        for layer, weight, bias in ((network.fc1, cnn.w1, cnn.b1), (network.fc2, cnn.w2, cnn.b2)):
            layer.weight.copy_(torch.from_numpy(weight))
            layer.bias.copy_(torch.from_numpy(bias))
    return network.eval()


def train_cnn(data: CropData, keep: np.ndarray | None = None, *, epochs: int = 30,
              seed: int = 0, mode: str = "crop", progress: bool = False) -> Cnn:
    """A network trained on the crops where ``keep`` (all when None), from seed ``seed``."""
    import torch

    torch.set_num_threads(1)  # the machine's cores are shared; one, as the reader uses
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    index = np.arange(len(data.labels)) if keep is None else np.flatnonzero(keep)
    names = tuple(sorted({turn_label(data.labels[i], k) for i in index for k in range(4)}))
    class_of = {name: i for i, name in enumerate(names)}
    # turned[i, k]: the class of crop i once turned k quarter turns clockwise.
    turned = np.array([[class_of[turn_label(data.labels[i], k)] for k in range(4)]
                       for i in index])
    network = _torch_network(len(names), 2 if mode == "both" else 1)
    optimiser = torch.optim.AdamW(network.parameters(), lr=3e-3, weight_decay=1e-4)
    batch = 128
    steps = epochs * ((len(index) + batch - 1) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps,
                                                   pct_start=0.15)
    loss_of = torch.nn.CrossEntropyLoss(reduction="none", label_smoothing=0.05)
    weights = torch.from_numpy(data.weights[index])
    started = time.perf_counter()
    for epoch in range(epochs):
        network.train()
        order = rng.permutation(len(index))
        turns = rng.integers(0, 4, len(index))
        moved = augment(data.gray[index[order]], rng)
        moved = np.stack([np.rot90(crop, -turn) for crop, turn in zip(moved, turns[order],
                                                                      strict=True)])
        inputs = torch.from_numpy(inputs_of_gray(moved, mode))
        targets = torch.from_numpy(turned[order, turns[order]])
        total = 0.0
        for start in range(0, len(order), batch):
            part = slice(start, start + batch)
            optimiser.zero_grad()
            loss = loss_of(network(inputs[part]), targets[part])
            w = weights[order[part]]
            loss = (loss * w).sum() / w.sum()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(targets[part])
        if progress:
            print(f"  epoch {epoch + 1}/{epochs} loss {total / len(order):.3f} "
                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    return to_cnn(network.eval(), names, mode)


def inputs_of_gray(gray: np.ndarray, mode: str) -> np.ndarray:
    """The network's inputs for (N, WORK_PX, WORK_PX) grey crops, made as the reader makes them."""
    inks = ink_of_gray(gray)[0]
    return network_inputs(inks, letter_boxes(inks) if mode != "crop" else None, mode)


def _main_evaluate(data: CropData, boards: list, epochs: int, seed: int, mode: str) -> None:
    """Leave-one-source-out: the perceptron, the network alone, the two combined."""
    sources = sorted({board.source for board in boards})
    mlps = loso_models(set(sources))
    variants = ("mlp", "cnn", "mlp+cnn")
    totals: dict[str, Counter] = {v: Counter() for v in variants}
    confusions: dict[str, Counter] = {v: Counter() for v in variants}
    print(f"{'source':36s} {'variant':9s} {'en':>9s} {'all':>9s} {'rot':>9s}")
    for source in sources:
        started = time.perf_counter()
        keep = np.array([s != source for s in data.sources])
        cnn = train_cnn(data, keep, epochs=epochs, seed=seed, mode=mode)
        trained = time.perf_counter() - started
        mlp = mlps[source][1]
        both = TileClassifier(mlp.model, cnn)
        counts: dict[str, Counter] = {v: Counter() for v in variants}
        for board in (b for b in boards if b.source == source):
            letters = load_tile_set(board.tiles).letters
            keep_tiles = [i for i, letter in enumerate(board.letters) if letter]
            if not keep_tiles:
                continue
            crops = [board.crops[i] for i in keep_tiles]
            truth = [(board.letters[i], board.rotations[i]) for i in keep_tiles]
            alone = cnn.probabilities(inputs_of_gray(_gray_bytes(crops), mode),
                                      mlp.allowed(letters))
            probs = {"mlp": mlp.tile_probabilities(crops, letters), "cnn": alone,
                     "mlp+cnn": both.tile_probabilities(crops, letters)}
            for variant, p in probs.items():
                guesses = mlp.guesses(mlp.on_board(p))
                for guess, (letter, rotation) in zip(guesses, truth, strict=True):
                    c = counts[variant]
                    c["all"] += 1
                    c["all_ok"] += guess.letter == letter
                    if board.tiles == "english":
                        c["en"] += 1
                        c["en_ok"] += guess.letter == letter
                    if letter != BLANK:
                        c["rot"] += 1
                        c["rot_ok"] += guess.rotation == rotation
                    if guess.letter != letter:
                        confusions[variant][(letter, guess.letter)] += 1
        for variant in variants:
            c = counts[variant]
            totals[variant].update(c)
            print(f"{source[:36]:36s} {variant:9s} {c['en_ok']:4d}/{c['en']:<4d} "
                  f"{c['all_ok']:4d}/{c['all']:<4d} {c['rot_ok']:4d}/{c['rot']:<4d}")
        print(f"  (network trained in {trained:.0f} s)", flush=True)
    for variant in variants:
        c = totals[variant]
        print(f"{'TOTAL':36s} {variant:9s} {c['en_ok']:4d}/{c['en']:<4d} "
              f"{c['all_ok']:4d}/{c['all']:<4d} {c['rot_ok']:4d}/{c['rot']:<4d}  "
              f"errors: {dict(confusions[variant].most_common(12))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.train_cnn",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=Path, default=DEV_PHOTOS)
    parser.add_argument("--out", type=Path, default=MODELS,
                        help="writes tiles_cnn.npz here and loso/<source>_cnn.npz below")
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--input", choices=INPUT_MODES, default=INPUT_MODE)
    parser.add_argument("--evaluate", action="store_true",
                        help="print leave-one-source-out figures instead of writing weights")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    data, boards = crop_data(args.photos)
    print(f"{len(data.labels)} crops ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    if args.evaluate:
        _main_evaluate(data, boards, args.epochs, args.seed, args.input)
        return 0
    (args.out / "loso").mkdir(parents=True, exist_ok=True)
    for source in [None, *sorted({board.source for board in boards})]:
        keep = None if source is None else np.array([s != source for s in data.sources])
        cnn = train_cnn(data, keep, epochs=args.epochs, seed=args.seed, mode=args.input)
        path = (network_path(args.out / "tiles.npz") if source is None
                else args.out / "loso" / f"{source}_cnn.npz")
        cnn.save(path)
        print(f"{path} ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
