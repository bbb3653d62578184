import os
import sys
from pathlib import Path

import orjson
import pytest

from cogevol.scoring.base import ScorersBase
from cogevol.scoring.types import Score, ScoreItem

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated_tracking(tmp_path, monkeypatch):
    """Every test gets its own MLflow store; nothing touches the repository's mlruns/."""
    uri = f"sqlite:///{tmp_path}/mlflow.db"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    monkeypatch.delenv("COGEVOL_PIPELINE_RUN_ID", raising=False)
    if "mlflow" in sys.modules:  # set_tracking_uri is process-global: a test before may have pointed it at its store
        sys.modules["mlflow"].set_tracking_uri(uri)


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


# A tiny Qwen3 model built once per session from synthetic data (training and evaluation tests).
def small_model_config():
    """Smaller than the committed default: tests check behaviour, not quality."""
    from cogevol.train.config import ModelConfig, TinyModelConfig

    return ModelConfig(seed=7, tiny=TinyModelConfig(vocab_size=768, hidden_size=64, intermediate_size=128,
                                                    num_hidden_layers=2, num_attention_heads=4,
                                                    num_key_value_heads=2, max_position_embeddings=2048))


@pytest.fixture(scope="session")
def sft_data():
    from cogevol.train.synthetic import sft_dataset

    return sft_dataset(24, seed=3)


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory, sft_data) -> Path:
    from cogevol.train.data import assistant_texts
    from cogevol.train.model_factory import build_tiny, corpus_texts

    out = tmp_path_factory.mktemp("tiny")
    return build_tiny(out, small_model_config(), corpus_texts(None, assistant_texts(sft_data)))


@pytest.fixture
def model_cfg():
    return small_model_config()


@pytest.fixture
def tracking(tmp_path):
    """The per-test MLflow store (tests/conftest.py) with its artifacts under tmp_path too:
    without an artifact location MLflow would write them to ./mlruns of the repository."""
    import mlflow

    from cogevol.pipeline.tracking import EXPERIMENT, tracking_uri

    mlflow.set_tracking_uri(tracking_uri())
    mlflow.MlflowClient().create_experiment(EXPERIMENT, artifact_location=(tmp_path / "artifacts").as_uri())


class Counting(ScorersBase):
    """A scoring transport that scores an item by its text and remembers what it was asked."""

    def __init__(self):
        self.asked: list[ScoreItem] = []

    async def open(self):
        pass

    async def aclose(self):
        pass

    async def _stream(self, items):
        self.asked += items
        for k in reversed(range(len(items))):  # out of order, as real transports finish
            yield k, Score(items[k].modality, len(items[k].text) / 10, "pass", items[k].text)


@pytest.fixture(scope="session")
def ray_local():
    """One local Ray instance (2 CPUs) for every test of the Ray curation engines: they reuse an
    initialised Ray instead of starting their own (cogevol.raydata.session.ray_data), so the
    8 s start is paid once."""
    import ray

    from cogevol.raydata.session import ray_data

    started = not ray.is_initialized()
    if started:
        os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # no token file written to ~/.ray
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
                 object_store_memory=512 * 2**20)
    with ray_data():  # the Data settings the engines run with (tests may call their steps directly)
        yield
    if started:
        ray.shutdown()
