"""The standalone server the tests run against: built if need be, started once per session on a free
port with a temporary data dir and the demo team (about 60 posts, scored in the background)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from analyst_client import Analyst

REPO = Path(__file__).resolve().parents[3]
ENTRY = REPO / "dist" / "apps" / "standalone" / "src" / "main.js"
DEMO_KEY = "ak_pyclient1.python-client-secret-0123456789"
ADMIN_TOKEN = "python-client-admin-token-0123456789"
#: Posts the demo seeder adds (apps/standalone's seedDemoContent).
DEMO_POSTS = 60
#: Seconds the server may take to start and score the demo posts on a loaded machine.
START_TIMEOUT = 180.0


@dataclass(frozen=True)
class Server:
    base_url: str  # as `npm start` prints it, with /analyst/v1
    origin: str
    key: str

    def admin(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """A call to /admin/v1 with the admin token (teams, keys, limits)."""
        request = urllib.request.Request(
            f"{self.origin}/admin/v1{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"authorization": f"Bearer {ADMIN_TOKEN}", "content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _healthy(origin: str) -> bool:
    try:
        with urllib.request.urlopen(f"{origin}/readyz", timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    if not ENTRY.exists():
        subprocess.run(["npm", "run", "build", "--silent"], cwd=REPO, check=True)
    data_dir = tempfile.mkdtemp(prefix="analyst-python-client-")
    port = _free_port()
    origin = f"http://127.0.0.1:{port}"
    # A clean environment: variables of the caller's (a local stack's KAFKA_BROKERS, ANALYST_MODE)
    # must not reach the server.
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", data_dir),
        "ANALYST_DATA_DIR": data_dir,
        "ANALYST_DEMO": "1",
        "ANALYST_DEMO_KEY": DEMO_KEY,
        "ANALYST_ADMIN_TOKEN": ADMIN_TOKEN,
        "LOG_LEVEL": "warn",
        "LOG_FORMAT": "json",
        "PORT": str(port),
        "HOST": "127.0.0.1",
    }
    log = open(Path(data_dir) / "server.log", "wb")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(["node", str(ENTRY)], cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _healthy(origin):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"standalone did not start: {(Path(data_dir) / 'server.log').read_text()[-4000:]}"
                )
            time.sleep(0.25)
        with Analyst(f"{origin}/analyst/v1", DEMO_KEY) as analyst:
            while sum(1 for _ in analyst.posts()) < DEMO_POSTS:
                if time.monotonic() > deadline:
                    raise RuntimeError("the demo posts were not scored in time")
                time.sleep(0.25)
        yield Server(base_url=f"{origin}/analyst/v1", origin=origin, key=DEMO_KEY)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture()
def analyst(server: Server) -> Iterator[Analyst]:
    with Analyst(server.base_url, server.key) as client:
        yield client
