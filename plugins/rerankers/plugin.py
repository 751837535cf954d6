"""Registers the built-in rerankers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fourfold.plugins.hookspecs import hookimpl
from fourfold.plugins.rerankers.voyage import VoyageReranker


@hookimpl
def fourfold_register_rerankers(register: Callable[[str, Callable[..., Any]], None]) -> None:
    register("voyage", VoyageReranker)
