"""Where the client finds the API and the key: arguments first, then ANALYST_BASE_URL and ANALYST_API_KEY."""

from __future__ import annotations

import pytest

from analyst_client import Analyst


def test_the_environment_gives_the_address_and_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANALYST_BASE_URL", "http://analyst.test:9000/analyst/v1/")
    monkeypatch.setenv("ANALYST_API_KEY", "ak_env00000.env-secret")
    analyst = Analyst()
    # The printed address's /analyst/v1 is dropped: every route and Location carries it already.
    assert analyst.base_url == "http://analyst.test:9000"
    assert analyst._http.headers["authorization"] == "Bearer ak_env00000.env-secret"
    explicit = Analyst("https://api.example.com", "ak_arg00000.arg-secret")
    assert explicit.base_url == "https://api.example.com"
    assert explicit._http.headers["authorization"] == "Bearer ak_arg00000.arg-secret"


def test_no_key_anywhere_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANALYST_API_KEY", raising=False)
    monkeypatch.delenv("ANALYST_BASE_URL", raising=False)
    with pytest.raises(ValueError, match="ANALYST_API_KEY"):
        Analyst()
    assert Analyst(api_key="ak_x0000000.secret").base_url == "http://127.0.0.1:8080"
