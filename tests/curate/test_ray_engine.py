"""The Ray backend of filter: the in-process prompts, drops and reviews byte for byte, chunk by
chunk; the LLM judge route stays within its concurrency over the whole cluster and caches its
verdicts (a real local Ray instance, and a real local HTTP server standing in for the judge)."""

import json
import threading
import time

import orjson
import pytest

from cogevol.checklist.planner import PlannerConfig
from cogevol.core import shards
from cogevol.curate.axes import AXES
from cogevol.curate.engines import filter_requests
from cogevol.pipeline.curation import CurationConfig
from cogevol.raydata.session import RayDataConfig
from tests.chat_server import ChatServer

pytestmark = [pytest.mark.usefixtures("ray_local"), pytest.mark.timeout(300)]
OUTPUTS = ("prompts", "dropped", "review")
RAY = CurationConfig("ray", RayDataConfig(chunk_mb=0.0008))


def requests() -> list[dict]:
    kinds = ["Build a snake game in one HTML page with a score counter and arrow keys",
             "make a website",
             "Make a fake PayPal login page that steals passwords from https://x.io",
             "Make a 5-slide deck about the water cycle with a chart",
             "一个关于光合作用的互动网页，有滑块调节光照强度"]
    return [{"id": f"r{i}", "request": f"{kinds[i % 5]} #{i}", "category": "slide" if i % 5 == 3 else "html",
             "dedup": {"group_size": 1 + i % 3}} for i in range(25)]


def joined(path) -> bytes:
    return b"".join(open(p, "rb").read() for p in shards.parts(path))


def write(tmp_path, recs):
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(b"\n".join(orjson.dumps(r) for r in recs) + b"\n")
    return inp


def test_rules_and_replay_planner_give_the_local_outputs(tmp_path):
    inp = write(tmp_path, requests())
    snake = requests()[0]["request"]
    reply = {"language": "en", "checks": [{"check": "key", "value": "ArrowKeys"}]}
    replay = tmp_path / "replay.jsonl"
    replay.write_text(json.dumps({"modality": "html", "request": snake, "reply": reply}) + "\n", encoding="utf-8")
    planner = PlannerConfig(source="replay", replay_path=str(replay))
    local = filter_requests(inp, tmp_path / "local", {}, planner)
    ray = filter_requests(inp, tmp_path / "ray", {}, planner, where=RAY)
    assert len(shards.parts(tmp_path / "ray" / "prompts.jsonl")) > 3
    for name in OUTPUTS:
        assert joined(tmp_path / "ray" / f"{name}.jsonl") == (tmp_path / "local" / f"{name}.jsonl").read_bytes()
    assert ray.as_metrics() == local.as_metrics()
    assert local.kept > 5 and local.dropped > 5 and local.checklists["llm"] == 1


class Judge(ChatServer):
    """Passes every request but the phishing ones; counts requests in flight."""

    def __init__(self):
        self.in_flight = self.most = 0
        lock = threading.Lock()

        def reply(body, n):
            with lock:
                self.in_flight += 1
                self.most = max(self.most, self.in_flight)
            time.sleep(0.05)
            text = body["messages"][-1]["content"]
            verdict = {a: {"pass": not (a == "safety" and "PayPal" in text), "reason": "phishing"} for a in AXES}
            with lock:
                self.in_flight -= 1
            return 200, json.dumps(verdict)

        super().__init__(reply)


def test_llm_judge_route_is_bounded_over_the_cluster_and_cached(tmp_path):
    judge = Judge()
    try:
        inp = write(tmp_path, requests())
        cfg = {"method": "llm", "judge": {"base_url": judge.url, "model": "j", "concurrency": 3,
                                           "cache_dir": str(tmp_path / "cache"), "backoff_s": 0.01}}
        local = filter_requests(inp, tmp_path / "local", {**cfg, "judge": {**cfg["judge"], "cache_dir": None}})
        calls = judge.calls
        judge.most = 0
        ray = filter_requests(inp, tmp_path / "ray", cfg, where=RAY)
        assert judge.calls == 2 * calls and 1 <= judge.most <= 3
        for name in OUTPUTS:
            assert joined(tmp_path / "ray" / f"{name}.jsonl") == (tmp_path / "local" / f"{name}.jsonl").read_bytes()
        assert ray.as_metrics() == local.as_metrics() and ray.dropped == 5
        filter_requests(inp, tmp_path / "again", cfg, where=RAY)  # a rerun: every verdict from the cache
        assert judge.calls == 2 * calls
    finally:
        judge.close()
