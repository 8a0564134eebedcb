"""The Docker build context as a directory: the repository less what ``.dockerignore`` leaves out.

Tests that install the project the way the image does (``tests/e2e/test_packaging_docker.py``) or
into a virtual environment of their own (``tests/e2e/test_openenv_010.py``) build from such a copy,
so nothing is written into the checkout and nothing ignored (``.venv``, ``data``) is shipped.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from tests.servers import ROOT


def ignored(relative: str, patterns: list[str]) -> bool:
    """Docker's rule: the last matching pattern wins; a match on a directory covers its contents."""
    parts = relative.split("/")
    result = False
    for raw in patterns:
        negate = raw.startswith("!")
        pattern = raw[1:] if negate else raw
        regex = re.escape(pattern.strip("/")).replace(r"\*\*/", "(.*/)?").replace(r"\*\*", ".*")
        regex = regex.replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
        if any(re.fullmatch(regex, "/".join(parts[:n])) for n in range(1, len(parts) + 1)):
            result = not negate
    return result


def copy_context(target: Path) -> None:
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    for folder, dirs, files in os.walk(ROOT):
        base = Path(folder).relative_to(ROOT).as_posix()
        prefix = "" if base == "." else base + "/"
        dirs[:] = [d for d in dirs if not ignored(prefix + d, patterns)]  # never walk .venv-ci etc.
        for name in files:
            if not ignored(prefix + name, patterns):
                (target / prefix).mkdir(parents=True, exist_ok=True)
                # links stay links, as Docker's COPY keeps them (ticketledger/openenv.yaml is one)
                shutil.copy2(Path(folder) / name, target / prefix / name, follow_symlinks=False)
