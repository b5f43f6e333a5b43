"""``python -m taolong_lab.cli``: the ``taolong`` command."""

import sys

from .parser import main

sys.exit(main())
