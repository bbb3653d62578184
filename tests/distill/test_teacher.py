"""Teacher backends against a real local OpenAI-compatible server and a replay file."""

import asyncio
import json
import subprocess
import sys
import time
from collections import Counter

from cogevol.distill.teacher import OpenAITeacher, ReplayTeacher, TeacherConfig
from tests.judge.server import FakeOpenAI, last_user_text

PROMPTS = [(f"p{k:02d}", [{"role": "system", "content": "s"}, {"role": "user", "content": f"make page {k}"}])
           for k in range(12)]


def cfg(url: str, tmp_path, **kw) -> TeacherConfig:
    return TeacherConfig(name="t", source="openai", base_url=url, model="m", k=3, concurrency=6, backoff_s=0.01,
                         max_retries=2, timeout_s=5, cache_dir=str(tmp_path / "cache"), **kw)


def answer(body: dict) -> str:
    return f"{last_user_text(body)} #{body['seed']}"


def run_teacher(teacher, prompts=PROMPTS):
    async def go():
        try:
            return await asyncio.gather(*(teacher.candidates(pid, msgs) for pid, msgs in prompts))
        finally:
            await teacher.aclose()

    return asyncio.run(go())


def test_k_candidates_per_prompt_at_full_concurrency_and_cached(tmp_path):
    with FakeOpenAI(delay_s=0.05, responder=answer) as server:
        got = run_teacher(OpenAITeacher(cfg(server.url, tmp_path)))
        assert server.calls == 36 and server.max_in_flight == 6  # holds its concurrency, never more
        assert [c.response for c in got[3]] == ["make page 3 #0", "make page 3 #1", "make page 3 #2"]
        again = run_teacher(OpenAITeacher(cfg(server.url, tmp_path)))  # a rerun: all from the cache
        assert server.calls == 36 and [[c.response for c in cs] for cs in again] == [[c.response for c in cs] for cs in got]


def test_a_failed_call_costs_one_candidate_with_a_reason(tmp_path):
    def plan(n, body):
        return {"status": 400, "text": "context too long"} if "page 1" in last_user_text(body) and body["seed"] == 2 else None

    with FakeOpenAI(plan=plan, responder=answer) as server:
        got = run_teacher(OpenAITeacher(cfg(server.url, tmp_path)), PROMPTS[1:2])
    assert [c.response is not None for c in got[0]] == [True, True, False]
    assert "teacher endpoint: HTTP 400" in got[0][2].error and "context too long" in got[0][2].error


KILLED = """
import asyncio, sys
from cogevol.distill.teacher import OpenAITeacher, TeacherConfig
cfg = TeacherConfig(name="t", source="openai", base_url=sys.argv[1], model="m", k=3, concurrency=4,
                    cache_dir=sys.argv[2], backoff_s=0.01)
t = OpenAITeacher(cfg)
prompts = [[{"role": "system", "content": "s"}, {"role": "user", "content": f"make page {k}"}] for k in range(12)]
async def go():
    await asyncio.gather(*(t.candidates(f"p{k:02d}", m) for k, m in enumerate(prompts)))
asyncio.run(go())
"""


def test_a_run_killed_midway_resumes_without_repeating_or_losing_a_request(tmp_path):
    cache = tmp_path / "cache"
    with FakeOpenAI(delay_s=0.2, responder=answer) as server:
        child = subprocess.Popen([sys.executable, "-c", KILLED, server.url, str(cache)])
        deadline = time.time() + 120  # a loaded machine imports slowly
        while len(list(cache.rglob("*.json"))) < 10 and time.time() < deadline:
            time.sleep(0.02)
        child.kill()
        child.wait()
        cached_before = len(list(cache.rglob("*.json")))
        assert 10 <= cached_before < 36, (cached_before, server.calls)
        bodies_before = len(server.bodies)
        got = run_teacher(OpenAITeacher(cfg(server.url, tmp_path)))
    assert all(c.response == f"make page {int(pid[1:])} #{c.index}" for (pid, _), cs in zip(PROMPTS, got) for c in cs)
    asked = Counter((last_user_text(b), b["seed"]) for b in server.bodies)
    repeated = [k for k, n in asked.items() if n > 1]
    # only what was in flight at the kill (at most the concurrency, 4) is asked again; nothing cached is
    assert len(repeated) <= 4 and len(server.bodies) == 36 + len(repeated), (repeated, len(server.bodies))
    assert len(server.bodies) - bodies_before == 36 - cached_before


def test_replay_teacher_reads_its_own_answers_and_reports_missing_ones(tmp_path):
    path = tmp_path / "replay.jsonl"
    rows = [{"teacher": "a", "prompt_id": "p1", "candidate": 0, "response": "x"},
            {"teacher": "b", "prompt_id": "p1", "candidate": 0, "response": "y"},
            {"teacher": "a", "prompt_id": "p2", "candidate": 1, "response": "z"}]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\nnot json\n")
    t = ReplayTeacher(TeacherConfig(name="a", replay_path=str(path), k=2))
    assert t.available() == {"p1", "p2"}
    got = asyncio.run(t.candidates("p2", []))
    assert [(c.response, c.error) for c in got] == [(None, "not in the replay file"), ("z", "")]
