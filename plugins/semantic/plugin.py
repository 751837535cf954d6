"""The semantic plugin: registers the ``semantic`` modality and the built-in embedders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fourfold.plugins import hookimpl
from fourfold.plugins.embedders import BUILTIN_EMBEDDERS
from fourfold.plugins.semantic.modality import SemanticModality


@hookimpl
def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
    register(SemanticModality())


@hookimpl
def fourfold_register_embedders(register: Callable[[str, Callable[..., Any]], None]) -> None:
    for name, factory in BUILTIN_EMBEDDERS.items():
        register(name, factory)
