"""The LLM-judge backend against a real local HTTP server standing in for the endpoint."""

import json

import pytest

from cogevol.curate.axes import AXES
from cogevol.curate.judge import LLMJudge, decide, parse_verdicts
from cogevol.curate.pipeline import FilterStats, filter_records
from cogevol.llm.aclient import ChatClient
from cogevol.llm.client import EndpointConfig, EndpointError, parse_json_object
from tests.chat_server import ChatServer


def _reply(failed: dict[str, str]) -> str:
    return json.dumps({a: {"pass": a not in failed, "reason": failed.get(a, "")} for a in AXES})


class FakeEndpoint(ChatServer):
    """Answers per request text (the last user message); can fail the first N calls with `status`."""

    def __init__(self, answers: dict[str, str], fail_first: int = 0, status: int = 503):
        def reply(body: dict, n: int) -> tuple[int, str]:
            if n <= fail_first:
                return status, ""
            return 200, answers.get(body["messages"][-1]["content"], _reply({}))

        super().__init__(reply)

    @property
    def auth(self) -> list:
        return [h.get("Authorization") for h in self.headers]


@pytest.fixture
def endpoint():
    eps = []

    def make(*a, **k):
        eps.append(FakeEndpoint(*a, **k))
        return eps[-1]

    yield make
    for e in eps:
        e.close()


def _cfg(url, **k):
    return EndpointConfig(base_url=url, model="judge", backoff_s=0.01, timeout_s=5, **k)


def test_decision_rule_of_cookie_bench():
    from cogevol.curate.base import Verdict

    ok = [Verdict(a, True) for a in AXES]
    assert decide(ok) == "accept"
    assert decide([Verdict("intent_clarity", False, "vague")] + ok[1:]) == "route"
    assert decide([Verdict("logic", False, "x"), Verdict("intent_clarity", False, "y")]) == "reject"


def test_judge_backend_accepts_rejects_and_routes(endpoint, monkeypatch):
    monkeypatch.setenv("COGEVOL_JUDGE_API_KEY", "sk-test-not-logged")
    ep = endpoint({"phish": _reply({"safety": "credential theft"}), "vague": _reply({"intent_clarity": "no subject"})})
    recs = [{"id": r, "request": r, "category": "html"} for r in ("fine", "phish", "vague")]
    stats = FilterStats()
    cfg = {"method": "llm", "judge": {"base_url": ep.url, "model": "judge", "backoff_s": 0.01, "concurrency": 2,
                                       "cache_dir": None}}
    out = {rec["id"]: dest for dest, rec in filter_records(recs, cfg, stats)}
    assert out == {"fine": "kept", "phish": "dropped", "vague": "review"}
    assert stats.by_reason == {"safety.judge": 1, "intent_clarity.judge": 1}  # ids; the judge's words are the detail
    assert set(ep.auth) == {"Bearer sk-test-not-logged"}


def test_transient_failures_are_retried(endpoint):
    ep = endpoint({}, fail_first=2)
    with ChatClient(_cfg(ep.url, max_retries=3)) as c:
        assert json.loads(c.chat([{"role": "user", "content": "x"}]))["safety"]["pass"] is True
    assert ep.calls == 3


def test_unreachable_judge_routes_to_review_with_reason(endpoint):
    ep = endpoint({}, fail_first=100)
    judge = LLMJudge(_cfg(ep.url, max_retries=1), concurrency=1)
    d = judge.judge("a request")
    judge.close()
    assert d.decision == "route" and "no answer after 2 attempts; last: HTTP 503" in d.error
    with pytest.raises(EndpointError, match="connection|Connect"):
        ChatClient(_cfg("http://127.0.0.1:9/v1", max_retries=0)).chat([{"role": "user", "content": "x"}])


def test_client_errors_are_not_retried(endpoint):
    ep = endpoint({}, fail_first=100, status=401)
    with pytest.raises(EndpointError, match="HTTP 401"):
        ChatClient(_cfg(ep.url, max_retries=3)).chat([{"role": "user", "content": "x"}])
    assert ep.calls == 1


def test_reply_parsing():
    assert parse_json_object('Sure!\n```json\n{"a": {"b": 1}}\n```') == {"a": {"b": 1}}
    with pytest.raises(ValueError, match="lacks a boolean verdict for privacy"):
        parse_verdicts(json.dumps({"safety": {"pass": True}}))


def test_verdicts_are_cached_so_a_rerun_asks_nothing(endpoint, tmp_path):
    ep = endpoint({"phish": _reply({"safety": "credential theft"})})
    recs = [{"id": r, "request": r, "category": "html"} for r in ("fine", "phish")]
    cfg = {"method": "llm", "judge": {"base_url": ep.url, "model": "judge", "cache_dir": str(tmp_path / "cache")}}
    first = [(d, r["id"]) for d, r in filter_records(recs, cfg, FilterStats())]
    assert ep.calls == 2
    again = [(d, r["id"]) for d, r in filter_records(recs, cfg, FilterStats())]
    assert again == first == [("kept", "fine"), ("dropped", "phish")] and ep.calls == 2
