"""Leave one condition out: the tile model trained without a lettering style or a tile colour,
tested on the stress scenes that have it.

The committed tile model learnt from bold sans faces on four light tile colours; a new user's set
may be lettered in a serif or be black plastic. To tell what training on *other* styles buys
for one never seen, each trained condition (:data:`HELD_OUT`: the lettering styles of
:data:`lab.stress.FONT_FILES` and the tile colours) gets a tile perceptron trained on rendered
faces of every other style and colour plus the real tiles of the truth photos, and reads that
condition's stress scenes; the same model trained on every style and colour (``seen``) reads
them too, so a row says what holding the condition out costs, and the committed model's figure
(the plain stress run) what the wider training buys. The product reads with a tile network beside
the perceptron (:mod:`vision.letters.classify`), so each row is read twice more, by the pair: the
perceptron above with a network trained on the same faces and real tiles
(:func:`held_out_networks`; training it needs torch, the ``train`` extra, once: the networks
are cached too).

The faces are rendered once into a pool (:data:`PER_LETTER` a letter, spread evenly over the
styles and colours) and each model trained on the pool less the held-out condition's faces;
models are cached under ``~/.cache/tileref/heldout`` by a key of the code and settings, as
:func:`lab.train.loso_models` caches its leave-one-source-out models.

The occupancy model learns from the truth photos and from rendered boards of the three editions
of :data:`lab.render.BOARD_STYLES`; the stress scenes have three more it never sees (deluxe,
travel, vintage). So each of the three is held out in turn too (:func:`held_out_occupancy`: the
model trained without that edition's rendered boards reads its scenes, beside the model trained
on all three), and the three never learnt are read by the latter: a second table, one row per
edition, of cells wrong and tiles missed.

``python -m bench stress --held-out [--write]``
"""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypeVar

import numpy as np

from lab.render import BOARD_STYLES
from lab.stress.axes import axis_named
from lab.stress.scene import StressScene, cached_scene, scene_key
from lab.stress.score import SceneResult, score_reading, score_refusal
from lab.train import (
    ALL_SOURCES,
    CACHE_DIR,
    TILE_SEEDS,
    RealBoard,
    TrainingSettings,
    _real_letter_data,
    load_real_boards,
    loso_network,
    rendered_faces,
    train_occupancy,
    train_tiles,
    training_key,
)
from lab.truth import DEV_PHOTOS
from vision import DISPUTE_CONFIG, VisionError, read_board
from vision.cells.occupancy import OccupancyModel
from vision.letters import cnn as cnn_module
from vision.letters.classify import TileClassifier, gray_stack, tile_features_batch
from vision.letters.cnn import Cnn
from vision.perceptron import Mlp

Model = TypeVar("Model", Mlp, Cnn)

HELD_OUT = ("font", "tile colour")
"""The axes whose values the tile model learns from renders, held out one at a time."""
PER_LETTER = 240
"""Rendered faces of each letter in the pool (blanks half as many), spread over every style and
colour: the committed model's 480 a letter, halved so a dozen models train in minutes."""
POOL_SEED = 33
ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results" / "stress-heldout.csv"
EDITION_RESULTS = ROOT / "bench" / "results" / "stress-heldout-editions.csv"


@dataclass
class Pool:
    """Rendered training faces' features, grey pixels (what the network learns from), labels,
    and the style and colour each was drawn in."""

    x: np.ndarray
    gray: np.ndarray
    labels: list[str]
    styles: np.ndarray
    colours: np.ndarray

    def without(self, axis: str, value: str) -> np.ndarray:
        """Which faces a model held out of ``value`` of ``axis`` learns from ("all": every one)."""
        if axis == "font":
            return self.styles != value
        if axis == "tile colour":
            return self.colours != value
        return np.ones(len(self.labels), bool)

    def labels_where(self, keep: np.ndarray) -> list[str]:
        """The labels of the faces ``keep`` marks."""
        return [label for label, k in zip(self.labels, keep, strict=True) if k]


def face_pool(per_letter: int = PER_LETTER, seed: int = POOL_SEED, cell_px: int = 48) -> Pool:
    """Faces of every letter in every lettering style and tile colour (``lab.train``'s "every
    style" faces), one random rotation each."""
    crops, labels, styles, colours = rendered_faces(per_letter, seed, cell_px, "every style")
    return Pool(tile_features_batch(crops), gray_stack(crops).astype(np.uint8), labels,
                np.array(styles), np.array(colours))


@cache
def _pool() -> Pool:
    """:func:`face_pool` rendered once a process: the perceptrons and the networks learn from the
    same faces."""
    print("rendering the face pool (models are cached: next time they load) ...", file=sys.stderr,
          flush=True)
    return face_pool()


@cache
def _real_boards(photos: Path) -> list[RealBoard]:
    """The truth photos' boards (:func:`lab.train.load_real_boards`), cut once a process."""
    print("cutting the real tiles of the truth photos ...", file=sys.stderr, flush=True)
    return load_real_boards(photos)


@cache
def _real_features(photos: Path) -> tuple[np.ndarray, list[str], list[str]]:
    """The real tiles' four-rotation features, labels and sources, for the perceptrons."""
    return _real_letter_data(_real_boards(photos))


def _key(photos: Path) -> str:
    """A digest of the code and settings the held-out models depend on: the training's own
    (:func:`lab.train.training_key`), the scenes' renderer and this module."""
    digest = hashlib.sha256(f"heldout {PER_LETTER} {POOL_SEED} {TILE_SEEDS}".encode())
    digest.update(training_key(photos, TrainingSettings()).encode())
    digest.update(scene_key().encode())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:16]


def held_out_models(conditions: list[tuple[str, str]], photos: Path = DEV_PHOTOS,
                    cache_dir: Path = CACHE_DIR.parent / "heldout") -> dict[tuple[str, str], Mlp]:
    """For each (axis, value), a tile perceptron trained without that value's faces; the key
    ("all", "seen") is trained on every face. Trained once and cached."""
    def train(axis: str, value: str) -> Mlp:
        pool = _pool()
        real_x, real_labels, _ = _real_features(photos)
        keep = pool.without(axis, value)
        print(f"training without {axis} {value} ({keep.sum()} faces) ...", file=sys.stderr,
              flush=True)
        return train_tiles(pool.x[keep], pool.labels_where(keep), real_x, real_labels)

    return _trained_once(cache_dir / _key(photos), "tiles.npz", conditions, train, Mlp.load)


def held_out_networks(conditions: list[tuple[str, str]], photos: Path = DEV_PHOTOS,
                      cache_dir: Path = CACHE_DIR.parent / "heldout") -> dict[tuple[str, str], Cnn]:
    """For each (axis, value) and ("all", "seen"), the tile network (:mod:`vision.letters.cnn`)
    trained on the faces and real tiles its perceptron learns from (:func:`held_out_models`):
    when the product reads with a network, a condition is only held out if neither model saw it.
    Trained once with torch (the ``train`` extra, :mod:`lab.train_cnn`) and cached."""
    from lab.train_cnn import joined, real_crops, rendered_crops

    key = _key(photos)
    digest = hashlib.sha256(key.encode())
    for module in (ROOT / "lab" / "train_cnn.py", Path(cnn_module.__file__)):
        digest.update(module.read_bytes())

    def train(axis: str, value: str) -> Cnn:
        if importlib.util.find_spec("torch") is None:
            raise SystemExit("the held-out networks are not trained yet and need torch: "
                             "install the train extra (see lab/train_cnn.py)")
        from lab.train_cnn import train_cnn

        pool = _pool()
        keep = pool.without(axis, value)
        print(f"training the network without {axis} {value} ({keep.sum()} faces) ...",
              file=sys.stderr, flush=True)
        return train_cnn(joined(rendered_crops(pool.gray[keep], pool.labels_where(keep)),
                                real_crops(_real_boards(photos))))

    return _trained_once(cache_dir / f"{key}-cnn-{digest.hexdigest()[:8]}",
                         "tiles_cnn.npz", conditions, train, Cnn.load)


def held_out_occupancy(editions: list[str], photos: Path = DEV_PHOTOS,
                       cache_dir: Path = CACHE_DIR.parent / "heldout"
                       ) -> dict[tuple[str, str], Mlp]:
    """For each board edition (of :data:`lab.render.BOARD_STYLES`), the occupancy model
    trained on the truth photos and the rendered boards of every other edition; ("all",
    "seen") on those of every edition, as the committed model is. Trained once and cached."""
    def train(axis: str, value: str) -> Mlp:
        kept = [edition for edition in BOARD_STYLES if edition != value]
        print(f"training occupancy without {axis} {value} ...", file=sys.stderr, flush=True)
        return train_occupancy(_real_boards(photos), editions=kept)

    return _trained_once(cache_dir / _key(photos), "occupancy.npz",
                         [("edition", edition) for edition in editions], train, Mlp.load)


def _trained_once(folder: Path, suffix: str, conditions: list[tuple[str, str]],
                  train: Callable[[str, str], Mlp | Cnn], load: Callable[[Path], Model]
                  ) -> dict[tuple[str, str], Model]:
    """("all", "seen") and each condition's model, loaded from ``folder``; one not there yet
    is trained (``train(axis, value)``) and saved there first."""
    models = {}
    for axis, value in [("all", "seen"), *conditions]:
        path = folder / f"{axis}-{value}.{suffix}".replace(" ", "_")
        if not path.exists():
            model = train(axis, value)
            folder.mkdir(parents=True, exist_ok=True)
            model.save(path)
        models[(axis, value)] = load(path)
    return models


def _read(scene: StressScene, classifier: TileClassifier,
          occupancy: OccupancyModel | None = None) -> SceneResult:
    try:
        reading = read_board(scene.jpeg, config=DISPUTE_CONFIG, classifier=classifier,
                             occupancy=occupancy)
    except VisionError as error:
        return score_refusal(scene, error)
    return score_reading(scene, reading)


def _figures(results: list[SceneResult]) -> tuple[int, int, int, int, int, int, int]:
    found = [r for r in results if r.found]
    return (len(results), len(found), sum(r.letters - r.letters_wrong for r in found),
            sum(r.letters for r in found), sum(r.rotations - r.rotations_wrong for r in found),
            sum(r.rotations for r in found), sum(r.occupancy_wrong for r in found))


def _scenes_of(seeds: list[int], conditions: list[tuple[str, str]]
               ) -> dict[tuple[str, str], list[int]]:
    """The seeds of the scenes drawn with each (axis, value), each scene loaded once."""
    scenes_of: dict[tuple[str, str], list[int]] = {condition: [] for condition in conditions}
    for seed in seeds:
        scene = cached_scene(seed)
        for axis, value in conditions:
            if scene.conditions[axis] == value:
                scenes_of[(axis, value)].append(seed)
    return scenes_of


def held_out_table(seeds: Iterable[int], *, write: bool = False) -> int:
    """Train (or load) the held-out models, read each held-out condition's scenes with its own
    and with the model that saw every condition, print a row per condition."""
    seeds = list(seeds)
    conditions = [(axis, value) for axis in HELD_OUT for value in axis_named(axis).values]
    models = held_out_models(conditions)
    scenes_of = _scenes_of(seeds, conditions)
    variants = {"perceptron": lambda key: TileClassifier(models[key])}
    if loso_network(ALL_SOURCES) is not None:
        # The product reads with a network too: held out of both, as the product would meet a
        # condition neither saw.
        networks = held_out_networks(conditions)
        variants["with network"] = lambda key: TileClassifier(models[key], networks[key])
    rows = []
    for axis, value in conditions:
        chosen = scenes_of[(axis, value)]
        figures = {}
        for variant, classifier_of in variants.items():
            for trained in ("held out", "seen"):
                key = (axis, value) if trained == "held out" else ("all", "seen")
                print(f"\rreading {axis} {value} ({len(chosen)} scenes), {variant}, {trained}"
                      + " " * 10, end="", file=sys.stderr, flush=True)
                classifier = classifier_of(key)
                figures[(variant, trained)] = _figures([_read(cached_scene(seed), classifier)
                                                        for seed in chosen])
        rows.append((axis, value, figures))
    print(file=sys.stderr)
    print(f"held out one at a time: each condition's stress scenes (of {len(seeds)}) read with a "
          "tile model trained without it (held out) and with one trained on every condition "
          "(seen)\n")

    def pct(part: int, whole: int) -> str:
        return f"{part:5d}/{whole:<5d} {100 * part / whole:6.2f}%" if whole else "-"

    header = f"{'axis':12} {'value':14} {'scenes':>6} {'found':>5}"
    for variant in variants:
        header += f" {'letters ' + variant + ' held out':>26} {'seen':>19}"
    print(header + f" {'rotations held out':>22} {'occ. wrong':>10}")
    for axis, value, figures in rows:
        first = figures[("perceptron", "held out")]
        line = f"{axis:12} {value:14} {first[0]:6d} {first[1]:5d}"
        for variant in variants:
            held, seen = figures[(variant, "held out")], figures[(variant, "seen")]
            line += f" {pct(held[2], held[3]):>26} {pct(seen[2], seen[3]):>19}"
        print(line + f" {pct(first[4], first[5]):>22} {first[6]:10d}")
    if write:
        with RESULTS.open("w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(["axis", "value", "variant", "trained", "scenes", "found",
                             "letters_right", "letters", "rotations_right", "rotations",
                             "occupancy_wrong"])
            for axis, value, figures in rows:
                for (variant, trained), numbers in figures.items():
                    writer.writerow([axis, value, variant, trained, *numbers])
        print(f"written: {RESULTS.relative_to(ROOT)}")
    print()
    return held_out_editions_table(seeds, write=write)


def held_out_editions_table(seeds: Iterable[int], *, write: bool = False) -> int:
    """Read each board edition's scenes with the occupancy model held out of it (an edition it
    learns from) and with the one trained on every edition, print a row per edition: cells
    wrong, tiles read as tiles that are not, tiles missed and those missed with no warning."""
    seeds = list(seeds)
    models = held_out_occupancy(list(BOARD_STYLES))
    classifier = TileClassifier.load()
    print(f"held out one board edition at a time: each edition's stress scenes (of {len(seeds)}) "
          "read with an occupancy model trained without its rendered boards (held out) and "
          "with one trained on every edition it learns from (seen); the last three editions "
          "it never learns from\n")
    print(f"{'edition':10} {'scenes':>6} {'found':>5} {'cells':>6} "
          f"{'wrong held out (phantom, missed, silent)':>42} {'seen':>24}")

    def wrong(numbers: tuple[int, ...]) -> str:
        return (f"{numbers[3]:4d} {100 * (1 - numbers[3] / max(numbers[2], 1)):6.2f}% "
                f"({numbers[4]}, {numbers[5]}, {numbers[6]})")

    editions = axis_named("edition").values
    scenes_of = _scenes_of(seeds, [("edition", edition) for edition in editions])
    rows = []
    for edition in editions:
        chosen = scenes_of[("edition", edition)]
        trained = ("held out", "seen") if edition in BOARD_STYLES else ("seen",)
        figures = {}
        for variant in trained:
            print(f"\rreading edition {edition} ({len(chosen)} scenes), {variant}" + " " * 10,
                  end="", file=sys.stderr, flush=True)
            key = ("edition", edition) if variant == "held out" else ("all", "seen")
            found = [result for seed in chosen
                     if (result := _read(cached_scene(seed), classifier,
                                         OccupancyModel(models[key]))).found]
            figures[variant] = (len(chosen), len(found), sum(r.cells for r in found),
                                sum(r.occupancy_wrong for r in found),
                                sum(r.false_tiles for r in found),
                                sum(r.missed_tiles for r in found),
                                sum(r.missed_tiles - r.missed_named for r in found))
        print("\r" + " " * 70 + "\r", end="", file=sys.stderr)
        rows.append((edition, figures))
        seen = figures["seen"]
        held = wrong(figures["held out"]) if "held out" in figures else "never learnt"
        print(f"{edition:10} {seen[0]:6d} {seen[1]:5d} {seen[2]:6d} {held:>42} {wrong(seen):>24}")
    if write:
        with EDITION_RESULTS.open("w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(["edition", "trained", "scenes", "found", "cells", "occupancy_wrong",
                             "false_tiles", "missed", "missed_silent"])
            for edition, figures in rows:
                for variant, numbers in figures.items():
                    writer.writerow([edition, variant, *numbers])
        print(f"written: {EDITION_RESULTS.relative_to(ROOT)}")
    return 0


__all__ = ["HELD_OUT", "PER_LETTER", "Pool", "face_pool", "held_out_editions_table",
           "held_out_models", "held_out_networks", "held_out_occupancy", "held_out_table"]
