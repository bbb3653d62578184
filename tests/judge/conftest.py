import pytest

from tests.judge.server import FakeOpenAI


@pytest.fixture
def fake():
    """Factory for FakeOpenAI servers, all closed after the test."""
    made = []

    def make(**kw) -> FakeOpenAI:
        made.append(FakeOpenAI(**kw))
        return made[-1]

    yield make
    for s in made:
        s.close()
