"""The sandbox around untrusted pages, with the real Chromium."""

import asyncio
import os

import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout

from cogevol.browser.pool import PAGE_URL, BrowserConfig, BrowserPool
from tests.chromium import running_chromium

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def _chromium_pids() -> set[int]:
    """This test process's running Chromium processes."""
    return running_chromium(os.getpid())


async def _load(pool, html, wait_ms=300):
    async with pool.page(html) as page:
        await page.goto(PAGE_URL, timeout=3000)
        await page.wait_for_timeout(wait_ms)
        return await page.evaluate("() => [document.title, location.href, document.body.innerText]"), len(page.context.pages)


def test_network_files_popups_and_dialogs_are_contained():
    html = """<title>t</title><body>x<img src='http://example.com/a.png'><script>
    let log=[];
    fetch('http://example.com/data').then(()=>log.push('net-ok')).catch(()=>log.push('net-blocked'));
    fetch('file:///etc/passwd').then(()=>log.push('file-ok')).catch(()=>log.push('file-blocked'));
    window.open('http://example.com'); alert('hi'); confirm('sure?');
    setTimeout(()=>{document.title=log.sort().join(',')},200);
    </script></body>"""

    async def run():
        async with BrowserPool() as pool:
            return await _load(pool, html)

    (title, url, _), pages = asyncio.run(run())
    assert title == "file-blocked,net-blocked" and url == PAGE_URL and pages == 1


def test_navigation_away_keeps_the_page():
    html = "<title>stay</title><p>x</p><script>setTimeout(()=>{location.href='http://example.com/elsewhere'},50)</script>"

    async def run():
        async with BrowserPool() as pool:
            return await _load(pool, html)

    (title, url, text), _ = asyncio.run(run())
    assert (title, url, text) == ("stay", PAGE_URL, "x")


def test_hung_page_is_recovered_and_nothing_is_left_behind():
    before = _chromium_pids()

    async def run():
        async with BrowserPool(BrowserConfig(load_timeout_ms=1000)) as pool:
            with pytest.raises(PlaywrightTimeout):
                async with pool.page("<script>while(true){}</script>") as page:
                    await page.goto(PAGE_URL, timeout=1000)
            # the pool still serves pages afterwards
            return await _load(pool, "<title>ok</title><p>fine</p>")

    (title, _, _), _ = asyncio.run(run())
    assert title == "ok"
    for _ in range(30):
        if _chromium_pids() <= before:
            break
        asyncio.run(asyncio.sleep(0.1))
    assert _chromium_pids() <= before


def test_a_confirm_is_answered_as_the_person_who_asked_for_it_and_a_loop_of_them_ends():
    html = """<title>t</title><body><script>
    const a = confirm('stop recording?'), p = prompt('name?', 'Ada');
    let n = 0; while (confirm('again?')) n++;
    document.title = [a, p, n].join(',');
    </script></body>"""

    async def run():
        async with BrowserPool() as pool:
            return await _load(pool, html)

    (title, _, _), _ = asyncio.run(run())
    assert title == "true,Ada,6"  # 8 answered: the first confirm, the prompt, then 6 of the loop
