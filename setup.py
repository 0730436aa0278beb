"""The engine compiled with mypyc when ``BONES_COMPILE=1`` is set at install time.

The same typed modules become C extensions and run about twice as fast (a move, its
views and their JSON: 100-123 µs against 185-248), and a server's move runs 12% fewer
instructions (``bench/RESULTS.md``). Off by default: an editable install would shadow
edited sources with stale extensions, so ``scripts/start`` builds a separate copy
(``scripts/native``) and the tests run the engine both ways.
"""

import os

from setuptools import setup

COMPILED = ["tiles", "moves", "layout", "scoring", "view", "round"]
"""Not ``rules``: its checks answer a mistyped option with a ``ValueError`` that names
the option, which compiled argument checks would turn into a ``TypeError``."""

if os.environ.get("BONES_COMPILE") == "1":
    from mypyc.build import mypycify

    setup(ext_modules=mypycify([f"src/bones/{name}.py" for name in COMPILED], opt_level="3"))
else:
    setup()
