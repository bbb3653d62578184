"""`cogevol serve` against real clients: the contracts of /score, /get_reward (OpenRLHF's
documented format), /health and /metrics; admission (429 + Retry-After), deadlines, limits,
auth; the HTTP backend's client; SIGTERM draining of the real CLI process."""

import asyncio
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from cogevol.probe import ProbeConfig
from cogevol.prompts import HTML_SYSTEM
from cogevol.scoring import ScoreItem, Scorers, ScoringSettings
from cogevol.scoring.fingerprint import FingerprintMismatch, fingerprint, fingerprint_parts
from cogevol.scoring.http_client import HttpScorers, ScoringServiceError
from cogevol.scoring.openrlhf import items_from_request, modality_of, response_of, user_request
from cogevol.scoring.service import ServeConfig, free_port, serve_in_background
from cogevol.scoring.transports import open_scorers
from tests.chromium import running_chromium

ROOT = Path(__file__).parents[2]
LIVE = (ROOT / "tests" / "probe" / "corpus" / "live_counter.html").read_text()
DEAD = (ROOT / "tests" / "probe" / "corpus" / "dead_static_shell.html").read_text()
DECK = (ROOT / "tests" / "slides" / "corpus" / "photosynthesis__clean.json").read_text()
ASK = "a click counter: a button that adds one"


def chatml(system: str, user: str) -> str:
    return f"<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


def test_openrlhf_queries_split_into_request_and_response():
    prompt = chatml(HTML_SYSTEM, ASK)
    query = prompt + f"```html\n{LIVE}\n```<|im_end|>"
    assert user_request(prompt) == ASK and response_of(query, prompt) == f"```html\n{LIVE}\n```"
    assert user_request("<|start_header_id|>user<|end_header_id|>\n\nmake slides<|eot_id|>") == "make slides"
    assert modality_of(chatml("You write slides ... cogevol-slides/1 ...", "x"), "{}") == "slide"
    assert modality_of("", DECK) == "slide" and modality_of("", LIVE) == "html"
    (item,) = items_from_request({"query": [query], "prompts": [prompt], "labels": [""]})
    assert item == ScoreItem("html", f"```html\n{LIVE}\n```", ASK)
    (labelled,) = items_from_request({"query": [DECK], "labels": ['{"modality": "slide", "request": "photosynthesis"}']})
    assert labelled == ScoreItem("slide", DECK, "photosynthesis")
    with pytest.raises(ValueError, match="'prompts' must be a list of strings, one per query"):
        items_from_request({"query": ["a", "b"], "prompts": ["a"]})


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_score_get_reward_health_and_metrics_over_http():
    with serve_in_background(Scorers(ScoringSettings(workers=2)), workers=2) as (url, _):
        with httpx.Client(base_url=url, timeout=120) as c:
            health = c.get("/health").json()
            assert health["status"] == "ok" and health["fingerprint"] == fingerprint(ScoringSettings(workers=2))
            assert set(health["fingerprint_parts"]) == {"settings", "cdn_lock", "code", "fingerprint"}
            r = c.post("/score", json={"items": [{"modality": "html", "text": f"```html\n{LIVE}\n```", "request": ASK},
                                                 {"modality": "html", "text": DEAD, "request": ASK},
                                                 {"modality": "slide", "text": DECK}, {"modality": "html", "text": "no page"}]})
            assert r.status_code == 200
            s = r.json()["scores"]
            assert [x["gate"] for x in s] == ["pass", "fail", "pass", "fail"] and s[0]["reward"] > 0.5 and s[2]["reward"] == 1.0
            assert [(x["hard_fail"], x["rendered_ok"]) for x in s] == [(False, True), (True, True), (False, True), (True, False)]
            assert s[0]["terms"] and s[0]["weights"] and s[0]["details"]["controls_live"] == 1 and s[0]["seconds"] > 0
            assert "no HTML document in the answer" in s[3]["reason"]
            assert {x["fingerprint"] for x in s} == {health["fingerprint"]}  # every score says what decided it
            # OpenRLHF: query = templated prompt + response; rewards are floats, never null
            prompt = chatml(HTML_SYSTEM, ASK)
            g = c.post("/get_reward", json={"query": [prompt + LIVE + "<|im_end|>", prompt + DEAD], "prompts": [prompt, prompt],
                                            "labels": ["", ""]}).json()
            assert g["rewards"][0] == s[0]["reward"] and g["rewards"][1] == 0.0 and g["scores"] == g["rewards"]
            assert g["extra_logs"]["gate_pass"] == [1.0, 0.0]
            m = c.get("/metrics").text
            assert 'cogevol_scoring_items_total{gate="pass",modality="html"} 2.0' in m
            assert "cogevol_scoring_pages_per_second" in m and 'cogevol_scoring_latency_seconds{quantile="0.95"}' in m
            assert "cogevol_scoring_queue_depth 0.0" in m and "cogevol_scoring_harness_errors_total 0.0" in m
            assert f'cogevol_scoring_fingerprint_info{{fingerprint="{health["fingerprint"]}"}} 1.0' in m
            assert c.post("/score", json={"items": [{"modality": "video", "text": "x"}]}).status_code == 422
            assert c.post("/score", content=b"{not json", headers={"content-type": "application/json"}).status_code == 422
            assert c.post("/get_reward", json={"query": "one string"}).status_code == 422


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_a_full_queue_answers_429_with_retry_after_and_limits_give_413():
    cfg = ServeConfig(max_queue=2, max_items=3, max_body_mb=0.05)
    with serve_in_background(Scorers(), cfg) as (url, app):
        async def go():
            async with httpx.AsyncClient(base_url=url, timeout=120) as c:
                first = asyncio.ensure_future(c.post("/score", json={"items": [{"modality": "html", "text": LIVE}] * 2}))
                while app.state.service.metrics.pending < 2:
                    await asyncio.sleep(0.01)
                busy = await c.post("/score", json={"items": [{"modality": "html", "text": LIVE}]})
                return await first, busy

        first, busy = asyncio.run(go())
        assert first.status_code == 200 and len(first.json()["scores"]) == 2
        assert busy.status_code == 429 and int(busy.headers["retry-after"]) >= 1
        with httpx.Client(base_url=url, timeout=60) as c:
            assert c.post("/score", json={"items": [{"modality": "html", "text": "x"}] * 4}).status_code == 413
            assert c.post("/score", json={"items": [{"modality": "html", "text": "x" * 60_000}]}).status_code == 413
            assert "cogevol_scoring_rejected_requests_total 1.0" in c.get("/metrics").text


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_deadline_auth_and_the_http_backend_client():
    cfg = ServeConfig(item_deadline_s=0.05)
    with serve_in_background(Scorers(), cfg, token="s3cret") as (url, _):
        assert httpx.post(f"{url}/score", json={"items": [{"modality": "html", "text": LIVE}]}).status_code == 401
        assert httpx.get(f"{url}/health").status_code == 200  # health needs no token (load balancers probe it)
        with pytest.raises(ScoringServiceError, match="HTTP 401"):
            asyncio.run(HttpScorers(url, token="wrong").score([ScoreItem("html", LIVE)]))
        (late,) = asyncio.run(HttpScorers(url, token="s3cret").score([ScoreItem("html", LIVE)]))
        assert late.reward is None and late.gate == "none" and late.reason.startswith("deadline: no verdict within")

    with serve_in_background(Scorers(ScoringSettings(workers=2)), ServeConfig(max_queue=2), workers=2) as (url, _):
        items = [ScoreItem("html", LIVE, ASK), ScoreItem("html", DEAD, ASK), ScoreItem("slide", DECK)] * 2

        async def go():
            async with HttpScorers(url, batch_items=2, backoff_s=0.1) as http:  # 3 requests of 2 on a queue of 2: 429s, retried
                remote = await http.score(items)
            async with Scorers(ScoringSettings(workers=2)) as local:
                return remote, await local.score(items)

        remote, local = asyncio.run(go())
        assert [(s.gate, s.reward) for s in remote] == [(s.gate, s.reward) for s in local]


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_an_experiment_over_http_with_another_probe_setting_is_refused_not_scored_silently():
    """`dvc exp run -S probe.harness.page_timeout_s=20` with scoring.transport: http against a service
    started with 10 s: the client refuses before it sends a page; with the service's own
    settings, it scores, and every score carries the agreed fingerprint."""
    from cogevol.core.config import load_params

    params = load_params()
    service = Scorers(ScoringSettings.from_params(params))
    with serve_in_background(service) as (url, _):
        scoring = {**params["scoring"], "transport": "http", "url": url}
        exp = {**params, "scoring": scoring,
               "probe": {**params["probe"], "harness": {**params["probe"]["harness"], "page_timeout_s": 20}}}
        with pytest.raises(FingerprintMismatch, match=r"the scoring settings \(probe, terms, weights, slides, judge"):
            asyncio.run(open_scorers(exp).score([ScoreItem("html", LIVE, ASK)]))
        assert "cogevol_scoring_items_total{" not in httpx.get(f"{url}/metrics").text  # no page was sent...
        (ok,) = asyncio.run(open_scorers({**params, "scoring": scoring}).score([ScoreItem("html", LIVE, ASK)]))
        assert ok.gate == "pass" and ok.fingerprint == fingerprint(ScoringSettings.from_params(params))  # ...the same ones score


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_sigterm_drains_in_flight_requests_then_closes_every_chromium(tmp_path):
    port = free_port()
    env = {**os.environ, "COGEVOL_SCORING_TOKEN": ""}
    proc = subprocess.Popen([sys.executable, "-m", "cogevol.cli", "serve", "--params", str(ROOT / "params.yaml"), "--port", str(port),
                             "--workers", "1"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read() if proc.poll() is not None else "no /health"
            time.sleep(0.3)

        async def go():
            async with httpx.AsyncClient(base_url=url, timeout=120) as c:
                inflight = asyncio.ensure_future(c.post("/score", json={"items": [{"modality": "html", "text": LIVE}] * 3}))
                # wait for the service to hold the items (events, not fixed times: a busy
                # machine takes longer to accept them)
                while (await c.get("/health")).json()["pending"] < 1:
                    assert not inflight.done(), "scored before SIGTERM could be sent"
                    await asyncio.sleep(0.05)
                proc.send_signal(signal.SIGTERM)
                late = 200
                while late == 200:  # until the listener drains: 503, or the port refuses
                    try:
                        late = (await c.get("/health")).status_code
                    except httpx.TransportError:
                        late = "refused"
                    await asyncio.sleep(0.05)
                return await inflight, late

        done, late = asyncio.run(go())
        assert done.status_code == 200 and [s["gate"] for s in done.json()["scores"]] == ["pass"] * 3
        assert late in (503, "refused")  # draining: no new work
        assert proc.wait(timeout=60) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal once it has drained
        assert "serve: scorers closed" in proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    time.sleep(0.5)
    assert running_chromium(proc.pid) == set()


def _doc_example(title: str) -> str:
    """The first python block after `title` in docs/scoring_service.md, with the host made local."""
    text = (ROOT / "docs" / "scoring_service.md").read_text()
    block = text[text.index(title):].split("```python\n", 1)[1].split("```", 1)[0]
    return block


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_the_documented_verl_and_trl_reward_functions_work_against_the_service():
    """The worked examples in docs/scoring_service.md, run as written against a live service: verl's
    async compute_score (float score, the same keys every time) and a standalone TRL reward."""
    with serve_in_background(Scorers()) as (url, _):
        ns: dict = {}
        exec(_doc_example("### verl").replace("http://scorer-1:8700", url), ns)  # noqa: S102 - our own docs
        live = asyncio.run(ns["compute_score"]("cogevol", f"```html\n{LIVE}\n```", "", {"modality": "html", "request": ASK}))
        dead = asyncio.run(ns["compute_score"]("cogevol", DEAD, "", {"modality": "html", "request": ASK}))
        assert live["score"] > 0.5 and live["gate_pass"] == 1.0 and dead == {"score": 0.0, "gate_pass": 0.0, "no_verdict": 0.0}
        trl_ns: dict = {"GRPOTrainer": object, "GRPOConfig": lambda *a, **k: None, "ds": None}
        code = _doc_example("### TRL").replace("http://scorer-1:8700", url).split("trainer = ")[0]
        exec(code, trl_ns)  # noqa: S102
        rewards = asyncio.run(trl_ns["page_reward"]([[{"role": "user", "content": ASK}]] * 2,
                                                    [[{"role": "assistant", "content": LIVE}], "no page"]))
        assert rewards[0] > 0.5 and rewards[1] == 0.0


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_the_probes_trace_comes_back_over_http():
    """With probe.harness.trace on (Action-Trace Credit), every page's verdict carries the trace
    of what its live inputs ran, over the service as in process."""
    settings = ScoringSettings(probe=replace(ProbeConfig(), trace=True))
    with serve_in_background(Scorers(settings)) as (url, _):
        async def go():
            async with HttpScorers(url, expect=fingerprint_parts(settings)) as http:
                remote = await http.score([ScoreItem("html", LIVE, ASK)])
            async with Scorers(settings) as local:
                return remote, await local.score([ScoreItem("html", LIVE, ASK)])

        (remote,), (local,) = asyncio.run(go())
    assert remote.details["trace"] and remote.details["trace"] == local.details["trace"]
    assert remote.details["trace_page"] == local.details["trace_page"]
