"""os: `fspath`, the one function of os (beside os.path, told in paths.py) that is plain text work."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.vocab.lib_copy import of_one_argument

LIBRARY = "os"

fspath = of_one_argument("os.fspath", "{} itself (it must be text or bytes, or an object that stands for a file path, "
                                      "which gives its path)")

WORDS = {"fspath": fspath}
