"""Finding the 15x15 playing grid in a photo and rectifying it: the first stage of a reading.

:mod:`~vision.board.locate` finds the grid without markers (:mod:`~vision.board.roughgrids`
proposes rough grids from line segments, :mod:`~vision.board.refine` pulls them onto the grid
lines, :mod:`~vision.board.whole` judges whether a grid is a whole board on the photo,
:mod:`~vision.board.grid` is the geometry they share and :mod:`~vision.board.tuning` every
threshold); :mod:`~vision.board.rectify` turns four corners into a top-down image of the
grid, which the next stage (:mod:`vision.cells`) cuts into its 225 cells. Import what the
product uses from :mod:`vision`.
"""
