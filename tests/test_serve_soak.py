"""The short form of the soak test of ``gammon serve`` (``tools/serve_soak.py``): about 25 s of
good, hostile and rollout traffic against a server process of its own, which must answer every
request as expected, never with 5xx, keep answering ``/health`` and keep its memory flat.

The long form is ``python tools/serve_soak.py`` (5 minutes; see docs/reliability.md)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the server's memory from /proc")
def test_short_soak_of_gammon_serve(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # On sys.path rather than loaded from its file: the tool's client processes are spawned, and
    # each imports it (and serve_load) again by name.
    monkeypatch.syspath_prepend(str(TOOLS))
    serve_soak = importlib.import_module("serve_soak")
    code = serve_soak.main(["--seconds", "25", "--json"])
    out = capsys.readouterr().out
    summary = json.loads(out.strip().splitlines()[-1])
    assert code == 0, out
    assert summary["server_errors"] == 0 and not summary["unexpected"], out
    assert summary["health_checks"] > 0 and not summary["health_missed"], out
    assert summary["rss_mib"]["peak"] <= summary["rss_mib"]["bound"], out
    # Every kind of traffic was sent and answered.
    kinds = set(summary["by_kind"])
    assert {"GET /move", "POST /v1/best-play", "malformed", "oversized", "POST /v1/rollout"} <= kinds, out
    assert {
        "slow body",
        "foreign Host",
        "foreign Origin",
        "not JSON-typed",
        "long query",
        "huge head",
    } <= kinds, out
