import os
from pathlib import Path

import orjson
import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated_tracking(tmp_path, monkeypatch):
    """Every test gets its own MLflow store; nothing touches the repository's mlruns/."""
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path}/mlflow.db")
    monkeypatch.delenv("COGEVOL_PIPELINE_RUN_ID", raising=False)


def conversation(cid: str = "c-1", request: str = "Make a 5-slide deck about volcanoes for 7th grade", **over) -> dict:
    rec = {
        "conversation_id": cid,
        "session_id": "s-1",
        "user_id": "u-1",
        "created_at": "2026-10-01T08:00:00Z",
        "locale": "en-US",
        "client": "web",
        "model": "m",
        "messages": [
            {"role": "user", "content": request, "ts": "2026-10-01T08:00:00Z"},
            {"role": "assistant", "content": "# Volcanoes\n## Slide 1", "ts": "2026-10-01T08:00:09Z"},
        ],
        "feedback": {"thumb": None, "regenerations": 0, "edit_count": 0, "render_error": None, "runtime_error": None},
    }
    rec.update(over)
    return rec


def write_jsonl(path: Path, items: list) -> Path:
    lines = [x if isinstance(x, bytes) else orjson.dumps(x) for x in items]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.fixture
def repo() -> Path:
    return REPO


def venv_bin() -> Path:
    return Path(os.sys.executable).parent


@pytest.fixture
def fake():
    """Factory for FakeOpenAI servers (tests/judge/server.py: a real local OpenAI-compatible
    endpoint), all closed after the test."""
    from tests.judge.server import FakeOpenAI

    made = []

    def make(**kw) -> FakeOpenAI:
        made.append(FakeOpenAI(**kw))
        return made[-1]

    yield make
    for s in made:
        s.close()
