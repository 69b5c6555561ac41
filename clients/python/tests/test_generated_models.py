"""The committed models are what the generator makes of libs/client/openapi.json today.

libs/client's own test fails while openapi.json (or schema.ts) differs from what the server serves;
this one fails while models.py differs from openapi.json: together, either client drifting fails a test.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "generate.py"


def test_models_match_the_openapi_document(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("generate", SCRIPT)
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)

    fresh = tmp_path / "models.py"
    generate.generate(generate.DOCUMENT, fresh)
    committed = generate.MODELS.read_text()
    assert (
        committed == fresh.read_text()
    ), "clients/python/src/analyst_client/models.py is stale: run clients/python/scripts/generate.py"
    # The models cover the document's schemas, so a comparison of empty files cannot pass.
    assert "class Analysis(BaseModel):" in committed and "class ContentJob(BaseModel):" in committed
