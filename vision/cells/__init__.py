"""Which of the 225 cells hold a tile: the second stage of a reading.

:mod:`~vision.cells.cellgrid` cuts the rectified board into its cells and knows which are the
same kind of square; :mod:`~vision.cells.occupancy` decides, cell by cell, from each cell's
colour and its letter evidence (:mod:`~vision.cells.letterevidence`), with the rules of
:mod:`~vision.cells.facecolour` beside its model (blanks and squares told by the colour of their
faces); :mod:`~vision.cells.cover` finds the cells something lies over (a hand, a sticky note).
Every tuned number of the stage is in :mod:`~vision.cells.tuning`. Import what the product uses
from :mod:`vision`.
"""
