"""Definition extractors: what a plugin registers through ``fourfold_register_extractors``.

Segmentation is the host's (``fourfold.index.ingest.segment``): it cuts a file into one segment
per definition and line windows elsewhere. Which lines are definitions is what a plugin refines,
by registering an extractor ``extract(source: bytes, language: str) -> Extraction``.

A registration is a *reference* to that function (``"package.module:function"``), not the function
itself: ingestion segments in a pool of worker processes, and a worker imports just the module the
reference names (:func:`load_extractor`) instead of building the plugin registry, which would load
every modality (numpy, FAISS, ONNX) in every worker. The version is part of the segment cache key:
bump it whenever the definitions the extractor finds in a file may change, and cached files are cut
again.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from fourfold.errors import PluginError
from fourfold.plugins.types import Extraction

__all__ = ["ExtractFn", "ExtractorSpec", "load_extractor", "parse_reference"]

#: ``extract(source, language)``: the definitions of one file; must not raise on bad input.
ExtractFn = Callable[[bytes, str], Extraction]

_MODULE = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
_REFERENCE = re.compile(rf"^({_MODULE}):({_MODULE})$")


@dataclass(frozen=True, slots=True)
class ExtractorSpec:
    """A registered definition extractor: cheap to pickle, resolved where it runs."""

    name: str
    version: str  # part of the per-file segment cache key
    reference: str  # "package.module:function"
    plugin: str  # the plugin that registered it


def parse_reference(reference: str) -> tuple[str, str]:
    """``"pkg.mod:func"`` -> ``("pkg.mod", "func")``; a malformed reference is a ``PluginError``."""
    match = _REFERENCE.match(reference) if isinstance(reference, str) else None
    if match is None:
        raise PluginError(f"extractor reference {reference!r} is malformed; write it as 'package.module:function'")
    return match.group(1), match.group(2)


@functools.cache
def load_extractor(reference: str) -> ExtractFn:
    """Import the function ``reference`` names (once per process); ``PluginError`` when it cannot be."""
    module_name, attr = parse_reference(reference)
    try:
        target: object = importlib.import_module(module_name)
        for part in attr.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as exc:
        raise PluginError(
            f"extractor reference {reference!r} cannot be imported: {type(exc).__name__}: {exc}"
        ) from None
    if not callable(target):
        raise PluginError(f"extractor reference {reference!r} names {target!r}, which is not callable")
    return cast(ExtractFn, target)  # checked callable; the signature is the hook's contract
