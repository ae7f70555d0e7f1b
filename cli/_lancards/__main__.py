"""``python -m lancards``: the same entry point as the ``lancards`` console script."""

import sys

from lancards.cli.main import main

sys.exit(main())
