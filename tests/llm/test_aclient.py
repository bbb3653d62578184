"""AsyncChatClient against a real local HTTP server: concurrency, rate, retries, cache, keys."""

import asyncio
import base64
import logging
import time

import pytest

from cogevol.llm.aclient import AsyncChatClient, image_part
from cogevol.llm.cache import DiskCache
from cogevol.llm.client import EndpointConfig, EndpointError

PNG_A = b"\x89PNG\r\n\x1a\n-image-A"
PNG_B = b"\x89PNG\r\n\x1a\n-image-B"


def cfg(url, **k):
    base = dict(base_url=url, model="judge", backoff_s=0.01, timeout_s=5, max_retries=4,
                api_key_env="COGEVOL_TEST_JUDGE_KEY")
    base.update(k)
    return EndpointConfig(**base)


def user(text, png=None):
    content = [{"type": "text", "text": text}] + ([image_part(png)] if png else [])
    return [{"role": "user", "content": content}]


async def ask_all(client, texts, **kw):
    return await asyncio.gather(*(client.chat(user(t), **kw) for t in texts))


def test_concurrency_reached_and_never_exceeded(fake):
    srv = fake(delay_s=0.15)

    async def main():
        async with AsyncChatClient(cfg(srv.url), concurrency=4) as c:
            t = time.monotonic()
            out = await ask_all(c, [f"q{i}" for i in range(12)])
            return out, time.monotonic() - t, c.stats

    out, wall, st = asyncio.run(main())
    assert out == [f"echo:q{i}" for i in range(12)]
    assert srv.max_in_flight == 4 and st.max_in_flight == 4
    assert srv.calls == st.calls == 12 and wall >= 3 * 0.15 * 0.9


def test_no_request_lost_under_429_500_and_garbage(fake):
    def plan(n, body):
        if n % 7 == 0:
            return {"status": 429, "headers": {"Retry-After": "0.02"}}
        if n % 11 == 0:
            return {"status": 500}
        if n % 13 == 0:
            return {"raw": b'{"choices": [{"message": '}
        return None

    srv = fake(delay_s=0.005, plan=plan)

    async def main():
        async with AsyncChatClient(cfg(srv.url), concurrency=8) as c:
            return await ask_all(c, [f"q{i}" for i in range(60)]), c.stats

    out, st = asyncio.run(main())
    assert out == [f"echo:q{i}" for i in range(60)]
    assert st.retries == srv.calls - 60 > 0 and st.failures == 0
    assert srv.statuses[429] and srv.statuses[500]


def test_rate_limit_spaces_attempts(fake):
    srv = fake()

    async def main():
        async with AsyncChatClient(cfg(srv.url), concurrency=8, rate_per_s=25) as c:
            return await ask_all(c, [f"q{i}" for i in range(8)])

    asyncio.run(main())
    # arrivals are stamped by server threads, late under load: 50 ms of slack. Unlimited, the
    # eight would arrive within a few ms; at twice the rate they would span 0.14 s.
    arr = sorted(srv.arrivals)
    assert arr[-1] - arr[0] >= 7 / 25 - 0.05
    for i in range(len(arr) - 3):  # no burst: any 4 consecutive arrivals span 3 periods
        assert arr[i + 3] - arr[i] >= 3 / 25 - 0.05


def test_429_honours_retry_after(fake):
    srv = fake(script=[{"status": 429, "headers": {"Retry-After": "0.3"}}])

    async def main():
        async with AsyncChatClient(cfg(srv.url)) as c:
            t = time.monotonic()
            return await c.chat(user("q")), time.monotonic() - t, c.stats

    out, wall, st = asyncio.run(main())
    assert out == "echo:q" and srv.calls == 2 and st.retries == 1
    assert wall >= 0.3  # backoff_s alone would have waited ~0.01 s


def test_retries_5xx_and_malformed_bodies(fake):
    srv = fake(script=[{"status": 500}, {"status": 503}, {"raw": b"<html>oops</html>"},
                       {"raw": b'{"choices": []}'}])

    async def main():
        async with AsyncChatClient(cfg(srv.url)) as c:
            return await c.chat(user("q")), c.stats

    out, st = asyncio.run(main())
    assert out == "echo:q" and srv.calls == 5 and st.retries == 4 and st.failures == 0


def test_400_raises_at_once(fake):
    srv = fake(script=[{"status": 400, "text": "unknown model judge"}])

    async def main():
        async with AsyncChatClient(cfg(srv.url)) as c:
            with pytest.raises(EndpointError, match=r"HTTP 400.*not retried.*unknown model"):
                await c.chat(user("q"))
            return c.stats

    st = asyncio.run(main())
    assert srv.calls == 1 and st.retries == 0 and st.failures == 1


def test_gives_up_after_max_retries_saying_why(fake):
    srv = fake(plan=lambda n, b: {"status": 503})

    async def main():
        async with AsyncChatClient(cfg(srv.url, max_retries=2)) as c:
            with pytest.raises(EndpointError, match=r"after 3 attempts.*HTTP 503"):
                await c.chat(user("q"))

    asyncio.run(main())
    assert srv.calls == 3


def test_timeouts_are_retried_then_reported(fake):
    srv = fake(script=[{"delay": 0.6}])

    async def main():
        async with AsyncChatClient(cfg(srv.url, timeout_s=0.2)) as c:
            ok = await c.chat(user("q"))
        srv.script[:] = [{"delay": 0.6}] * 2
        async with AsyncChatClient(cfg(srv.url, timeout_s=0.2, max_retries=1)) as c:
            with pytest.raises(EndpointError, match="timeout"):
                await c.chat(user("q"))
        return ok

    assert asyncio.run(main()) == "echo:q"


def test_key_header_only_from_the_named_env_var(fake, monkeypatch, caplog):
    srv = fake(script=[{"status": 500}])
    monkeypatch.setenv("COGEVOL_TEST_JUDGE_KEY", "sk-secret-123")

    async def main(c):
        async with c:
            await c.chat(user("q"))

    with caplog.at_level(logging.DEBUG):
        asyncio.run(main(AsyncChatClient(cfg(srv.url))))
    assert [h.get("Authorization") for h in srv.headers] == ["Bearer sk-secret-123"] * 2
    assert "sk-secret" not in caplog.text
    monkeypatch.delenv("COGEVOL_TEST_JUDGE_KEY")
    asyncio.run(main(AsyncChatClient(cfg(srv.url))))
    monkeypatch.setenv("COGEVOL_TEST_JUDGE_KEY", "sk-secret-123")
    asyncio.run(main(AsyncChatClient(cfg(srv.url, api_key_env=""))))
    assert "Authorization" not in srv.headers[2] and "Authorization" not in srv.headers[3]


def test_images_arrive_as_data_urls(fake):
    srv = fake()

    async def main():
        async with AsyncChatClient(cfg(srv.url)) as c:
            await c.chat(user("describe", PNG_A), json_mode=True,
                         extra_body={"chat_template_kwargs": {"enable_thinking": False}})

    asyncio.run(main())
    body = srv.bodies[0]
    part = body["messages"][0]["content"][1]
    assert part["type"] == "image_url"
    url = part["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == PNG_A
    assert body["response_format"] == {"type": "json_object"} and body["model"] == "judge"
    assert body["chat_template_kwargs"] == {"enable_thinking": False}


def test_cache_hits_coalescing_and_persistence(fake, tmp_path):
    srv = fake(delay_s=0.1)
    cache_dir = tmp_path / "cache"

    async def main():
        async with AsyncChatClient(cfg(srv.url), cache=DiskCache(cache_dir)) as c:
            a = await c.chat(user("q", PNG_A))
            assert srv.calls == 1
            assert await c.chat(user("q", PNG_A)) == a and srv.calls == 1  # hit: no HTTP
            same = await asyncio.gather(*(c.chat(user("r", PNG_A)) for _ in range(5)))
            assert same == ["echo:r"] * 5 and srv.calls == 2  # five at once, one call
            await c.chat(user("q", PNG_B))
            assert srv.calls == 3  # another image is another question
            await c.chat(user("q", PNG_A), cache_parts={"sample": 1})
            assert srv.calls == 4  # deliberate re-samples stay apart
            assert c.stats.cache_hits == 1 and c.stats.coalesced == 4
        # a new client, even behind another URL, answers from the same directory
        async with AsyncChatClient(cfg("http://127.0.0.1:9/v1"), cache=DiskCache(cache_dir)) as c:
            assert await c.chat(user("q", PNG_A)) == a
            assert c.stats.calls == 0 and c.stats.cache_hits == 1

    asyncio.run(main())


def test_corrupt_cache_entry_is_a_miss(fake, tmp_path):
    srv = fake()

    async def main():
        cache = DiskCache(tmp_path)
        async with AsyncChatClient(cfg(srv.url), cache=cache) as c:
            await c.chat(user("q"))
            cache.path(c.cache_key(user("q"))).write_text('{"content": "tru')
            assert await c.chat(user("q")) == "echo:q"
            assert srv.calls == 2 and cache.corrupt == 1
            assert await c.chat(user("q")) == "echo:q" and srv.calls == 2  # repaired entry

    asyncio.run(main())


def test_failed_request_is_not_cached(fake, tmp_path):
    srv = fake(script=[{"status": 400}])

    async def main():
        async with AsyncChatClient(cfg(srv.url), cache=DiskCache(tmp_path)) as c:
            with pytest.raises(EndpointError):
                await c.chat(user("q"))
            assert await c.chat(user("q")) == "echo:q"

    asyncio.run(main())
    assert srv.calls == 2


def test_unwritable_cache_still_answers(fake, tmp_path, caplog):
    srv = fake()
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")  # the cache root is a file: every write fails

    async def main():
        async with AsyncChatClient(cfg(srv.url), cache=DiskCache(blocker)) as c:
            return await c.chat(user("q"))

    with caplog.at_level(logging.WARNING):
        assert asyncio.run(main()) == "echo:q"
    assert "cache write" in caplog.text


def test_the_endpoints_extra_body_goes_with_every_request_and_into_the_cache_key(fake):
    srv = fake()
    c = cfg(srv.url)
    c.extra_body = {"chat_template_kwargs": {"enable_thinking": False}}

    async def main():
        async with AsyncChatClient(c) as client:
            await client.chat([{"role": "user", "content": "hi"}], extra_body={"seed": 3})
            return client

    client = asyncio.run(main())
    assert srv.bodies[0]["chat_template_kwargs"] == {"enable_thinking": False} and srv.bodies[0]["seed"] == 3
    plain = AsyncChatClient(cfg(srv.url))
    msgs = [{"role": "user", "content": "hi"}]
    assert client.cache_key(msgs) != plain.cache_key(msgs)  # thinking off is another answer
