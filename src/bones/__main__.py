"""``python -m bones``: the same as the ``bones`` command."""

import sys

from bones.cli import main

sys.exit(main())
