"""`python -m ifforge ...`, the same as `ifforge ...`."""

import sys

from ifforge.cli import main

sys.exit(main())
