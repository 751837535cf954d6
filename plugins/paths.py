"""Which files of a project stand beside its code: tests, examples, documentation, benchmarks, scripts.

Said once for the modalities that put a project's own code first in their own rankings: structural's
definition prior (a definition in a test is rarely the one asked for) and the graph's implementations (a
test's stub of an interface after the types that ship). The coordinator's fusion has its own, finer
kinds (``coordinator/code_first.py``), which it leaves alone where a query asks for them.

    is_auxiliary("tests/test_client.py")     # True
    is_auxiliary("hooks/writer/writer.go")   # False
"""

from __future__ import annotations

import re

__all__ = ["is_auxiliary", "is_example"]

_AUXILIARY_DIR = re.compile(r"(^|/)(tests?|testing|examples?|docs?|benchmarks?|scripts|__tests__|spec|fixtures)/")
#: An example's directory (Go's ``_examples/``, which the go tool does not build, too).
_EXAMPLE_DIR = re.compile(r"(^|/)_?examples?/")
_AUXILIARY_FILE = re.compile(r"(^|/)(test_[^/]*|[^/]*_test\.\w+|[^/]*\.(test|spec)\.\w+|conftest\.py)$")


def is_auxiliary(path: str) -> bool:
    """Whether ``path`` is a test, an example, documentation, a benchmark or a script (any case)."""
    lower = path.lower()
    return bool(_AUXILIARY_DIR.search(lower) or _AUXILIARY_FILE.search(lower))


def is_example(path: str) -> bool:
    """Whether ``path`` is in an example's directory (``examples/``, ``example/``, Go's ``_examples/``; any case)."""
    return bool(_EXAMPLE_DIR.search(path.lower()))
