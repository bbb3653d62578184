"""Each part of the probe (page_load, discovery, driving, end_look) is a module of functions of
one ProbeState, so it can be run alone on a real page, without the steps around it."""

import asyncio
import contextlib
from collections import deque

import pytest

from cogevol.browser.pool import BrowserPool
from cogevol.probe import discovery, driving, end_look, page_load
from cogevol.probe.config import Control, ProbeConfig
from cogevol.probe.state import ProbeState

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

STILL = "<button id=b>Add</button><input id=t><p id=o>0</p><script>b.onclick=()=>o.textContent++</script>"
SPIN = ("<canvas id=c width=200 height=200></canvas><script>let a=0;const x=c.getContext('2d');"
        "(function f(){a+=0.1;x.clearRect(0,0,200,200);x.fillRect(100+80*Math.cos(a),100,20,20);"
        "requestAnimationFrame(f)})()</script>")


def on_page(html: str, part):
    """`part(state, session)` on a freshly loaded copy of `html`, and the state after it."""

    async def go():
        async with BrowserPool() as pool, contextlib.AsyncExitStack() as stack:
            state = ProbeState(pool, html, ProbeConfig())
            a = await state.open(stack)
            return await part(state, a), state

    return asyncio.run(go())


def test_page_load_alone_tells_a_still_page_from_a_moving_one():
    _, still = on_page(STILL, page_load.quiet)
    _, spin = on_page(SPIN, page_load.quiet)
    assert not still.result.animates and spin.result.animates


def test_discovery_alone_finds_the_controls_a_page_offers():
    n, state = on_page(STILL, discovery.discover)
    assert n == 2 and [(c.kind, c.label) for c in state.result.controls] == [("click", "Add"), ("text", "t")]


def test_end_look_alone_measures_the_layout_at_tablet_and_phone_sizes():
    sizes, _ = on_page(STILL, end_look.viewports)
    assert (sizes["tablet"]["width"], sizes["mobile"]["width"]) == (768, 375)
    assert sizes["mobile"]["overflow"] == 0 and sizes["mobile"]["textEls"] == 2


def test_driving_queues_a_dead_control_again_only_once_the_state_has_changed():
    state = ProbeState(None, STILL, ProbeConfig())
    state.result.controls = [Control(0, "click", "button", "Reset", "operable")]
    state.result.controls[0].verdict = "dead"
    queue, tried = deque(), set()
    assert not driving.queue_again(state, queue, {0: "s0"}, tried, "s0")  # nothing changed since
    assert driving.queue_again(state, queue, {0: "s0"}, tried, "s1") and list(queue) == [(0, 0, True)]
    assert not driving.queue_again(state, queue, {0: "s0"}, tried, "s2")  # one more try only
