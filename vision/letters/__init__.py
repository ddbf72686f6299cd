"""Each tile's letter and rotation: the third stage of a reading.

:mod:`~vision.letters.classify` reads a tile crop (a perceptron over hand-made features, with the
network of :mod:`~vision.letters.cnn` when one is trained); :mod:`~vision.letters.diacritics`
looks again at the mark above a national letter; :mod:`~vision.letters.tilecentre` finds where a
letter lies on its square, so a tile pushed off it is read whole or found at all;
:mod:`~vision.letters.blankfacing` turns a blank the way its neighbours face;
:mod:`~vision.letters.ocr` asks Tesseract about the doubtful ones. Every tuned number of the stage
is in :mod:`~vision.letters.tuning`. Import what the product uses from :mod:`vision`.
"""
