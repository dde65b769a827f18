"""A short run of the HTTP load tool, so that it keeps working: good and hostile traffic
against a server of its own, every answer as expected and the server healthy at the end.

The full figures come from ``python tools/serve_load.py`` (see docs/http.md)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def test_short_load_runs_clean(capsys, monkeypatch):
    # On sys.path rather than loaded from its file: the tool's client processes are spawned, and
    # each imports it again by name.
    monkeypatch.syspath_prepend(str(TOOLS))
    serve_load = importlib.import_module("serve_load")
    assert serve_load.main(["--clients", "2", "--requests", "120", "--seconds", "30", "--json"]) == 0
    out = capsys.readouterr().out
    summaries = json.loads(out.strip().splitlines()[-1])
    good, hostile = summaries
    assert good["statuses"] == {"200": good["requests"]}
    assert {"400", "413"} <= set(hostile["statuses"]) and hostile["healthy_after"]
