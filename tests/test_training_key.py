"""The cache key of the leave-one-source-out models covers everything they are trained on."""

from __future__ import annotations

from pathlib import Path

import pytest

import lab.train as train


def test_an_edited_erratum_retrains_the_cached_models(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # The errata correct occupancy labels (load_real_boards), so a corrected cell must not be
    # scored with models trained before the correction.
    errata = tmp_path / "truth_errata.csv"
    photos = tmp_path / "photos"
    photos.mkdir()
    monkeypatch.setattr(train, "ERRATA", errata)
    errata.write_text("photo,cell,truth,seen,reason\n")
    before = train.training_key(photos, train.TrainingSettings())
    errata.write_text("photo,cell,truth,seen,reason\nx.jpg,O10,.,blank,a blank\n")
    assert train.training_key(photos, train.TrainingSettings()) != before


def test_models_trained_from_another_seed_are_cached_apart(tmp_path: Path) -> None:
    # tileref eval --training-seed N must never score the seed-1 models under seed N's name.
    photos = tmp_path / "photos"
    photos.mkdir()
    keys = {train.training_key(photos, train.TrainingSettings(seed=seed)) for seed in (1, 2, 3)}
    assert len(keys) == 3
    assert train.training_key(photos, train.TrainingSettings()) == train.training_key(
        photos, train.TrainingSettings(seed=1))
