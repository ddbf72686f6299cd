"""``python -m webui`` is the same as the ``tileref`` command."""

import sys

from webui.cli import main

sys.exit(main())
