"""Packages: everything under ``fourfold/``.

The product's top-level folders (``coordinator/``, ``workers/``, ``plugins/``, ``index/`` and the
generated stubs in ``protos/fourfold/v1``) are linked into ``fourfold/`` as ``fourfold.coordinator``,
``fourfold.workers`` ... so every import is a plain path that a type checker, an editor or
``python -c`` resolves from a clean checkout, with no install-time remapping.
"""

from setuptools import find_namespace_packages, setup

setup(
    packages=find_namespace_packages(include=["fourfold", "fourfold.*"], exclude=["*.__pycache__"]),
    package_data={
        "": ["*.proto", "*.pyi", "*.scm", "*.json", "*.npz", "py.typed"],
        "fourfold.web": ["templates/*.html", "static/*"],
    },
)
