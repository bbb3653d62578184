"""Fixtures for training tests: a tiny Qwen3 model built once per session from synthetic data."""

from pathlib import Path

import pytest

from cogevol.train.config import ModelConfig, TinyModelConfig
from cogevol.train.data import assistant_texts
from cogevol.train.model_factory import build_tiny, corpus_texts
from cogevol.train.synthetic import sft_dataset

# Smaller than the committed default: tests check behaviour, not quality.
TEST_MODEL = ModelConfig(seed=7, tiny=TinyModelConfig(vocab_size=768, hidden_size=64, intermediate_size=128,
                                                      num_hidden_layers=2, num_attention_heads=4,
                                                      num_key_value_heads=2, max_position_embeddings=2048))


@pytest.fixture(scope="session")
def sft_data():
    return sft_dataset(24, seed=3)


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory, sft_data) -> Path:
    out = tmp_path_factory.mktemp("tiny")
    return build_tiny(out, TEST_MODEL, corpus_texts(None, assistant_texts(sft_data)))


@pytest.fixture
def model_cfg() -> ModelConfig:
    return TEST_MODEL


@pytest.fixture
def tracking(tmp_path):
    """The per-test MLflow store (tests/conftest.py) with its artifacts under tmp_path too:
    without an artifact location MLflow would write them to ./mlruns of the repository."""
    import mlflow

    from cogevol.tracking import EXPERIMENT, tracking_uri

    mlflow.set_tracking_uri(tracking_uri())
    mlflow.MlflowClient().create_experiment(EXPERIMENT, artifact_location=(tmp_path / "artifacts").as_uri())
