"""`python -m companion`: the command line (see `companion.cli`)."""

import sys

from .cli import main

sys.exit(main())
