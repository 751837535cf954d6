"""The path, under a Debian mirror, of a source package's ``.orig`` tarball, read from the archive's index.

    debian_orig.py SOURCES.xz PACKAGE    (prints e.g. pool/main/j/jsoup/jsoup_1.15.3.orig.tar.xz)

``SOURCES.xz`` is a release's ``main/source/Sources.xz``; the package's stanza names its ``Directory`` and, among
its ``Files``, the ``.orig`` tarball. Used by ``java_suites.sh`` and ``cs_suites.sh``.
"""

from __future__ import annotations

import lzma
import re
import sys


def orig_path(sources: str, package: str) -> str | None:
    """``Directory/…orig.tar.*`` of ``package``'s stanza in the ``Sources.xz`` file ``sources``; None without one."""
    with lzma.open(sources, "rt", encoding="utf-8") as index:
        stanzas = index.read().split("\n\n")
    for stanza in stanzas:
        if re.search(rf"^Package: {re.escape(package)}$", stanza, re.M):
            directory = re.search(r"^Directory: (\S+)$", stanza, re.M)
            files = re.search(r"^Files:\n((?: .*\n?)*)", stanza, re.M)
            if directory is None or files is None:
                return None
            tarballs = [f for f in files.group(1).split() if ".orig.tar." in f]
            return f"{directory.group(1)}/{tarballs[0]}" if tarballs else None
    return None


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    found = orig_path(argv[0], argv[1])
    if found is None:
        print(f"debian_orig: no .orig tarball for source package {argv[1]!r} in {argv[0]}", file=sys.stderr)
        return 1
    print(found)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
