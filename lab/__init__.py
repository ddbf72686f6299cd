"""The offline tools behind the reader: rendering boards, training its models, scoring it.

Nothing here runs when a board is read: :mod:`vision` never imports this package, and the
product's one use of it is ``tileref eval``, which imports it inside the command.

- :mod:`lab.render` draws photos of boards from known positions (truth for free);
  :mod:`lab.tileface` draws one tile face, the atom of every render and of the training tiles.
- :mod:`lab.train` trains (and evaluates leave-one-source-out) the occupancy and tile models
  committed in ``vision/models`` (``python -m lab.train``); :mod:`lab.train_cnn` the tile network
  (``python -m lab.train_cnn``, needs the optional ``train`` extra).
- :mod:`lab.truth` reads the truth files beside the development photos, and the errata found in
  them (``lab/data/truth_errata.csv``, ``lab/data/corner_errata.csv``).
- :mod:`lab.eval_reading` and :mod:`lab.eval_corners` score the reader and the board finder
  against that truth (``tileref eval``).
- :mod:`lab.video` writes frames as a video file Chromium plays as a fake camera (browser tests);
  :mod:`lab.playerboard` prints what a photo of a First Draft player's board reads as.
"""
