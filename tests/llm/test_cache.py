"""DiskCache and SingleFlight: keys, layout, atomic writes, corrupt entries, shared flights."""

import asyncio
import logging
import os

import pytest

from cogevol.llm.cache import DiskCache, SingleFlight


def test_key_is_canonical_and_hashes_bytes():
    k = DiskCache.key(model="m", messages=[{"a": 1, "b": [1, 2]}], png=b"\x89PNG-1")
    assert k == DiskCache.key(png=b"\x89PNG-1", messages=[{"b": [1, 2], "a": 1}], model="m")
    assert len(k) == 64 and all(c in "0123456789abcdef" for c in k)
    assert k != DiskCache.key(model="m", messages=[{"a": 1, "b": [1, 2]}], png=b"\x89PNG-2")
    assert k != DiskCache.key(model="m2", messages=[{"a": 1, "b": [1, 2]}], png=b"\x89PNG-1")
    with pytest.raises(TypeError):
        DiskCache.key(x=object())


def test_put_get_sharded_and_atomic(tmp_path):
    c = DiskCache(tmp_path / "c")
    k = DiskCache.key(q="volcanoes")
    assert c.get(k) is None and c.misses == 1
    c.put(k, {"content": "ok", "n": [1, 2]})
    assert c.get(k) == {"content": "ok", "n": [1, 2]}
    assert (tmp_path / "c" / k[:2] / f"{k}.json").is_file()
    assert k in c and len(c) == 1
    assert not list((tmp_path / "c").rglob("*.tmp"))  # no temporary file left behind
    with pytest.raises(ValueError):
        c.path("../../etc/passwd")


def test_failed_write_keeps_old_entry_and_no_temp(tmp_path, monkeypatch):
    c = DiskCache(tmp_path)
    k = DiskCache.key(q=1)
    c.put(k, {"v": "old"})

    def boom(*a):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        c.put(k, {"v": "new"})
    monkeypatch.undo()
    assert c.get(k) == {"v": "old"}
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize("junk", [b'{"content": "half', b"\xff\xfe", b"[1, 2]", b""])
def test_corrupt_entry_is_a_logged_miss(tmp_path, caplog, junk):
    c = DiskCache(tmp_path)
    k = DiskCache.key(q=2)
    c.put(k, {"v": 1})
    c.path(k).write_bytes(junk)
    with caplog.at_level(logging.WARNING):
        assert c.get(k) is None
    assert c.corrupt == 1 and "corrupt" in caplog.text
    c.put(k, {"v": 2})  # the next answer overwrites it
    assert c.get(k) == {"v": 2}


def test_single_flight_shares_one_run_and_its_errors():
    async def main():
        sf, runs = SingleFlight(), []

        async def work(x):
            runs.append(x)
            await asyncio.sleep(0.05)
            if x == "bad":
                raise RuntimeError("nope")
            return x * 2

        got = await asyncio.gather(*(sf.run("k", lambda: work("a")) for _ in range(5)))
        assert [g[0] for g in got] == ["aa"] * 5 and sum(g[1] for g in got) == 4
        bad = await asyncio.gather(*(sf.run("b", lambda: work("bad")) for _ in range(3)),
                                   return_exceptions=True)
        assert all(isinstance(b, RuntimeError) for b in bad)
        # a cancelled caller does not cancel the flight for the others
        t1 = asyncio.ensure_future(sf.run("c", lambda: work("c")))
        t2 = asyncio.ensure_future(sf.run("c", lambda: work("c")))
        await asyncio.sleep(0.01)
        t1.cancel()
        assert (await t2)[0] == "cc"
        assert runs == ["a", "bad", "c"] and len(sf) == 0

    asyncio.run(main())
