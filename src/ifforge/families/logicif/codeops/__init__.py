"""Pure operations on seed source code, one subpackage per purpose: `inputs` (candidate inputs read
from the code), `instrument` (the rewrites: anonymise, trackers, self-contained `f`), `describe` (code
told in English), `metrics` (complexity), and `common` (what more than one of them reads). Each
purpose imports only itself and `common`; `common` imports none of them (tests/test_layers.py)."""
