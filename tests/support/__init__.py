"""Helpers that more than one test module uses: rendered boards and scenes, stand-in models,
game specs and crafted uploads.

A test module takes its shared helpers from here, never from another test module: that would tie
two files together, and pytest would import the other module a second time under another name.
``tests/test_package_shape.py`` checks it. Fixtures stay in ``tests/conftest.py``.
"""
