"""Maps the top-level folders of the design card onto the ``fourfold`` package namespace.

protos/fourfold/v1 -> fourfold.v1, plugins/ -> fourfold.plugins, workers/ -> fourfold.workers,
coordinator/ -> fourfold.coordinator. Everything else is declared in pyproject.toml.
"""

from setuptools import find_packages, setup

ROOTS = {
    "fourfold": "fourfold",
    "fourfold.v1": "protos/fourfold/v1",
    "fourfold.plugins": "plugins",
    "fourfold.workers": "workers",
    "fourfold.coordinator": "coordinator",
}

packages: list[str] = []
for package, folder in ROOTS.items():
    packages.append(package)
    packages.extend(f"{package}.{sub}" for sub in find_packages(folder))

setup(
    packages=packages,
    package_dir=ROOTS,
    package_data={"": ["*.proto", "*.pyi", "*.scm", "*.json", "py.typed"]},
)
