"""VisionJudge against the local server: rubric request, verdict parsing, repair, verdict cache."""

import asyncio
import base64
import json

import pytest

from cogevol.judge import vlm
from cogevol.judge.vlm import (
    PAGE_RUBRIC,
    SLIDE_RUBRIC,
    JudgeConfig,
    JudgeError,
    VisionJudge,
    from_params,
    parse_verdict,
)
from cogevol.llm.cache import DiskCache
from cogevol.llm.client import EndpointConfig

PNG = b"\x89PNG\r\n\x1a\n-slide-1"
PNG2 = b"\x89PNG\r\n\x1a\n-slide-2"
GOOD = json.dumps({"visual": 4, "content": 3,
                   "reasons": {"visual": "Clean layout.", "content": "Misses one fact."}})


def jcfg(url, tmp_path=None, **k):
    base = dict(base_url=url, model="vlm", backoff_s=0.01, timeout_s=5,
                cache_dir=str(tmp_path / "judge") if tmp_path else None)
    base.update(k)
    return JudgeConfig(**base)


def score(cfg, *calls):
    async def main():
        async with VisionJudge(cfg) as j:
            return [await j.score(*c) for c in calls], j.stats

    return asyncio.run(main())


def test_slide_verdict_and_request_shape(fake):
    srv = fake(responder=lambda b: GOOD)
    (v,), st = score(jcfg(srv.url), ("slide", PNG, "Volcanoes for grade 7"))
    assert (v.visual, v.content, v.cached, v.attempts) == (4.0, 3.0, False, 1)
    assert v.reasons == {"visual": "Clean layout.", "content": "Misses one fact."}
    body = srv.bodies[0]
    assert body["messages"][0] == {"role": "system", "content": SLIDE_RUBRIC}
    text, img = body["messages"][1]["content"]
    assert "Volcanoes for grade 7" in text["text"]
    assert base64.b64decode(img["image_url"]["url"].split(",", 1)[1]) == PNG
    assert body["response_format"] == {"type": "json_object"} and body["temperature"] == 0.0
    score(jcfg(srv.url), ("page", PNG, "A pendulum simulator"))
    assert srv.bodies[1]["messages"][0]["content"] == PAGE_RUBRIC


@pytest.mark.parametrize("reply, want", [
    ('{"visual": "4", "content": "3/5", "reasons": {}}', (4.0, 3.0)),
    ('Here: ```json\n{"visual": 4.5, "content": "8/10", "reasons": {}}\n```', (4.5, 4.0)),
    ('{"visual": {"score": 2, "reason": "cramped"}, "content": {"score": 5}}', (2.0, 5.0)),
    ('<think>maybe {"visual": 1}</think>{"visual": 0, "content": 5, "reasons": {}}', (0.0, 5.0)),
])
def test_lenient_parsing(reply, want):
    visual, content, reasons = parse_verdict(reply)
    assert (visual, content) == want and set(reasons) == {"visual", "content"}


@pytest.mark.parametrize("reply, err", [
    ("The slide looks great!", "no JSON object"),
    ('{"visual": 4}', '"content" is missing'),
    ('{"visual": 4, "content": "good"}', "not a number"),
    ('{"visual": 9, "content": 4}', "outside 0..5"),
    ('{"visual": true, "content": 4}', "not a number"),
])
def test_malformed_verdicts_say_why(reply, err):
    with pytest.raises(ValueError, match=err):
        parse_verdict(reply)


def test_repair_turn_quotes_the_error(fake, tmp_path):
    srv = fake(script=[{"content": "Sure! It looks great."},
                       {"content": '{"visual": 7, "content": 2}'}], responder=lambda b: GOOD)
    (v,), st = score(jcfg(srv.url, tmp_path), ("slide", PNG, "req"))
    assert (v.visual, v.content, v.attempts) == (4.0, 3.0, 3) and st.repairs == 2
    second = srv.bodies[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": "Sure! It looks great."}
    assert "no JSON object" in second[-1]["content"] and '"visual"' in second[-1]["content"]
    assert "outside 0..5" in srv.bodies[2]["messages"][-1]["content"]
    assert len(DiskCache(tmp_path / "judge")) == 1


def test_out_of_range_is_clamped_once_repairs_are_spent(fake):
    srv = fake(responder=lambda b: '{"visual": 6, "content": -1, "reasons": {}}')
    (v,), _ = score(jcfg(srv.url, json_repair_attempts=1), ("slide", PNG, "req"))
    assert (v.visual, v.content, v.attempts) == (5.0, 0.0, 2) and srv.calls == 2


def test_exhausted_repairs_raise_judge_error_and_cache_nothing(fake, tmp_path):
    srv = fake(responder=lambda b: "I cannot judge images.")
    cfg = jcfg(srv.url, tmp_path, json_repair_attempts=2)

    async def main():
        async with VisionJudge(cfg) as j:
            with pytest.raises(JudgeError, match="after 3 replies.*no JSON object"):
                await j.score("slide", PNG, "req")
            return j.stats

    st = asyncio.run(main())
    assert srv.calls == 3 and st.errors == 1 and len(DiskCache(tmp_path / "judge")) == 0


def test_endpoint_failure_is_a_judge_error(fake):
    srv = fake(script=[{"status": 401, "text": "bad key"}])

    async def main():
        async with VisionJudge(jcfg(srv.url)) as j:
            with pytest.raises(JudgeError, match="401"):
                await j.score("page", PNG, "req")
            out = await j.score_many([("page", PNG, "a"), ("slide", PNG, "b")])
            return out

    out = asyncio.run(main())
    assert all(isinstance(o, JudgeError) for o in out)  # later replies are echoes: no JSON


def test_verdict_cache(fake, tmp_path):
    srv = fake(delay_s=0.1, responder=lambda b: GOOD)
    cfg = jcfg(srv.url, tmp_path)

    async def main():
        async with VisionJudge(cfg) as j:
            first = await j.score("slide", PNG, "req")
            again = await j.score("slide", PNG, "req")
            assert srv.calls == 1 and again.cached and again.attempts == 0
            assert (again.visual, again.content) == (first.visual, first.content)
            assert again.reasons == first.reasons
            together = await asyncio.gather(*(j.score("slide", PNG, "other") for _ in range(4)))
            assert srv.calls == 2 and all(t.visual == 4.0 for t in together)
            assert j.stats.coalesced == 3
            await j.score("slide", PNG2, "req")
            assert srv.calls == 3  # another image
            await j.score("page", PNG, "req")
            assert srv.calls == 4  # another rubric
        async with VisionJudge(cfg) as j:  # a fresh judge, same directory
            v = await j.score("slide", PNG2, "req")
            assert v.cached and j.client.stats.calls == 0

    asyncio.run(main())


def test_bad_cached_verdict_is_a_miss(fake, tmp_path):
    srv = fake(responder=lambda b: GOOD)
    cfg = jcfg(srv.url, tmp_path)

    async def main():
        async with VisionJudge(cfg) as j:
            await j.score("slide", PNG, "req")
            key = j.cache_key("slide", PNG, "req")
            j.cache.put(key, {"visual": 40, "content": 3, "reasons": {}})
            assert not (await j.score("slide", PNG, "req")).cached
            j.cache.path(key).write_bytes(b"\x00garbage")
            assert not (await j.score("slide", PNG, "req")).cached
            assert (await j.score("slide", PNG, "req")).cached

    asyncio.run(main())
    assert srv.calls == 3


def test_rubric_version_is_in_the_key(monkeypatch):
    j = VisionJudge(JudgeConfig(cache_dir=None))
    k = j.cache_key("slide", PNG, "req")
    monkeypatch.setattr(vlm, "RUBRIC_VERSION", "next")
    assert j.cache_key("slide", PNG, "req") != k
    asyncio.run(j.aclose())


def test_from_params_is_strict_and_normalises():
    with pytest.raises(KeyError, match="unknown key"):
        from_params({"base_url": "http://x/v1", "weights": {"a": 1}})  # a misspelt or foreign key is an error
    c = from_params({"base_url": "http://x/v1", "model": "m", "concurrency": 3, "rate_per_s": 0, "extra_body": None})
    assert (c.base_url, c.model, c.concurrency, c.rate_per_s) == ("http://x/v1", "m", 3, None)
    assert c.cache_dir == "data/cache/judge" and c.json_repair_attempts == 2
    assert isinstance(c, EndpointConfig) and (c.model, c.api_key_env) == ("m", "COGEVOL_JUDGE_API_KEY")
