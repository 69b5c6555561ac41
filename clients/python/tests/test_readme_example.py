"""The README's first example runs as it stands against the server, and prints what the README shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from .conftest import Server

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_prints_the_lines_it_shows(server: Server) -> None:
    text = README.read_text()
    example = re.search(r"```python\n(.*?)```", text, re.S)
    shown = re.search(r"prints .*?:\n\n```\n(.*?)```", text, re.S)
    assert example and shown
    env = {**os.environ, "ANALYST_BASE_URL": server.base_url, "ANALYST_API_KEY": server.key}
    run = subprocess.run(
        [sys.executable, "-c", example[1]], env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == shown[1]
