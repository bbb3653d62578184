"""Outside models are evaluated through any OpenAI-compatible endpoint (a real local server here)."""

import asyncio

from cogevol.evaluate.generate import SystemConfig, generate_openai, messages
from cogevol.evaluate.stage import BASE, resolve_path
from tests.judge.server import FakeOpenAI, last_user_text


def test_answers_come_back_in_order_and_a_dead_request_is_none_not_silence(tmp_path):
    def plan(n, body):
        return {"status": 400, "text": "bad"} if "third" in last_user_text(body) else None

    with FakeOpenAI(plan=plan, responder=lambda b: "answer to " + last_user_text(b)) as server:
        system = SystemConfig(name="outside", source="openai", base_url=server.url, model="m", concurrency=2)
        prompts = [messages("html", "first"), messages("slide", "second"), messages("html", "third")]
        out = asyncio.run(generate_openai(system, prompts, 64, cache_dir=str(tmp_path / "c")))
        assert out == ["answer to first", "answer to second", None]
        assert server.bodies[0]["messages"][0]["role"] == "system" and server.bodies[0]["max_tokens"] == 64
        calls = server.calls
        asyncio.run(generate_openai(system, prompts[:2], 64, cache_dir=str(tmp_path / "c")))
        assert server.calls == calls  # answered before: from the cache


def test_base_placeholder_follows_the_model_param():
    assert resolve_path(BASE, {"base": "tiny"}) == "models/sft/base"
    assert resolve_path(BASE, {"base": "Qwen/Qwen3-4B-Base"}) == "Qwen/Qwen3-4B-Base"
    assert resolve_path("models/sft", {"base": "tiny"}) == "models/sft"
