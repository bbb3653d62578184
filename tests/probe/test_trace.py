"""Trace collection (Action-Trace Credit's evidence): on pages whose handler code is known, the
probe's trace is exactly the functions live inputs ran, as UTF-8 byte spans of the file with
their depth from the leaf. Real Chromium, tiny inline pages."""

import asyncio
import json
import subprocess
import sys
from dataclasses import replace

import pytest

from cogevol.probe import ProbeConfig
from cogevol.probe.trace import PageText, maximal
from cogevol.scoring import ScoringSettings
from cogevol.scoring.local import score_pages

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

# one function per line: its span is the line. Multi-byte text before the script moves byte
# offsets away from character offsets; the clock ticks on its own (autonomous: never traced);
# `nothing` is the dead button's handler (a dead input gives no credit); `unused` never runs.
COUNTER = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Zähler ✓</title></head><body>
<h1>Zähler 🎯 ünï</h1><button id="inc">Plus</button> <button id="dead">Nothing</button>
<p id="out">0</p><p id="clock">0</p>
<script>
function bump(n) { return n + 1; }
function show(v) { document.getElementById('out').textContent = 'Zähler: ' + v; }
function onInc() { const v = bump(Number(document.getElementById('out').dataset.n || 0)); document.getElementById('out').dataset.n = v; show(v); }
function nothing() { return 0; }
function unused() { return 42; }
function tick() { const c = document.getElementById('clock'); c.textContent = String(Number(c.textContent) + 1); }
document.getElementById('inc').addEventListener('click', onInc);
document.getElementById('dead').addEventListener('click', nothing);
setInterval(tick, 100);
</script></body></html>"""

# CRLF line ends (the parser hands V8 LF-only sources) and a handler made inside an init function
CRLF = (
    '<!DOCTYPE html>\r\n<html><body>\r\n<button id="b">Go</button><p id="o">a</p>\r\n<script>\r\n'
    'function go() { document.getElementById("o").textContent += "b"; }\r\n'
    'function init() { document.getElementById("b").onclick = () => go(); }\r\n'
    "init();\r\n</script></body></html>\r\n"
)


# more techniques: a key handler, a range input, a class method, a chain three deep, work deferred
# to a timer (it runs after the input without pausing at the input: coverage sees it, a leaf of
# its own), a module script
KINDS = """<!DOCTYPE html><html><body><input id="r" type="range" min="0" max="10" value="2"><p id="v">2</p>
<button id="deep">Deep</button><p id="d">-</p><button id="later">Later</button><p id="l">-</p><p id="k">no key</p>
<script>
function fmt(x) { return '[' + x + ']'; }
function middle(x) { return fmt(x * 2); }
function top3() { document.getElementById('d').textContent = middle(21); }
function finish() { document.getElementById('l').textContent = 'done'; }
function defer() { setTimeout(finish, 50); }
class Slider { constructor(el) { el.addEventListener('input', (e) => this.on(e)); } on(e) { document.getElementById('v').textContent = e.target.value; } }
new Slider(document.getElementById('r'));
document.getElementById('deep').addEventListener('click', top3);
document.getElementById('later').addEventListener('click', defer);
</script>
<script type="module">
function onKey(e) { if (e.key === 'r') document.getElementById('k').textContent = 'reset'; }
document.addEventListener('keydown', onKey);
</script></body></html>"""


def line_span(page: str, start: str) -> tuple[int, int]:
    """The UTF-8 byte span of the one-line function that starts with `start`."""
    data = page.encode("utf-8")
    at = data.index(start.encode("utf-8"))
    end = data.index(b"\n", at)
    return at, end if data[end - 1 : end] != b"\r" else end - 1


def spans(rec: dict) -> dict[tuple[int, int], int]:
    return {(t["start"], t["end"]): t["depth"] for t in rec["trace"]}


def probe(pages: dict[str, str], trace: bool = True) -> dict[str, dict]:
    settings = replace(ScoringSettings(), probe=replace(ProbeConfig(), trace=trace))
    rows = asyncio.run(score_pages(list(pages.items()), settings))
    return {r["path"]: r for r in rows}


@pytest.fixture(scope="module")
def traced():
    return probe({"counter": COUNTER, "crlf": CRLF, "kinds": KINDS})


def test_keys_ranges_methods_deep_chains_timers_and_modules_are_traced(traced):
    rec = traced["kinds"]
    assert rec["controls_live"] == rec["controls_operable"] == 4, rec["reason"]
    data = KINDS.encode()
    arrow = data.index(b"(e) => this.on(e)")
    method = data.index(b"on(e) { document")
    got = spans(rec)
    assert got == {
        line_span(KINDS, "function fmt"): 0, line_span(KINDS, "function middle"): 1, line_span(KINDS, "function top3"): 2,
        line_span(KINDS, "function defer"): 0, line_span(KINDS, "function finish"): 0,  # deferred: coverage, a leaf
        (method, data.index(b"} }", method) + 1): 0, (arrow, arrow + len(b"(e) => this.on(e)")): 1,
        line_span(KINDS, "function onKey"): 0,
    }, got


def test_the_trace_is_exactly_the_functions_live_inputs_ran_with_their_depths(traced):
    rec = traced["counter"]
    assert rec["controls_live"] == 1 and rec["controls_operable"] == 2, rec["reason"]
    assert spans(rec) == {
        line_span(COUNTER, "function bump"): 0,  # leaves
        line_span(COUNTER, "function show"): 0,
        line_span(COUNTER, "function onInc"): 1,  # their caller (its own entry is a suffix)
    }
    page = COUNTER.encode()
    assert rec["trace_page"]["bytes"] == len(page) and len(rec["trace_page"]["sha256"]) == 64


def test_crlf_pages_and_handlers_made_inside_functions_map_back_to_the_file(traced):
    rec = traced["crlf"]
    arrow = CRLF.encode().index(b"() => go()")
    assert spans(rec) == {line_span(CRLF, "function go"): 0, (arrow, arrow + len(b"() => go()")): 1}


def test_tracing_off_reports_no_trace_and_the_same_verdict(traced):
    plain = probe({"counter": COUNTER}, trace=False)["counter"]
    assert "trace" not in plain and "trace_page" not in plain
    assert plain["reward"] == traced["counter"]["reward"] and plain["controls_live"] == traced["counter"]["controls_live"]


def test_cli_trace_adds_byte_offsets_into_the_file(tmp_path):
    f = tmp_path / "crlf.html"
    f.write_bytes(CRLF.encode())
    out = subprocess.run([sys.executable, "-m", "cogevol.cli", "probe", "--trace", str(f)],
                         capture_output=True, text=True, timeout=240)
    rec = json.loads(out.stdout.splitlines()[0])
    data = f.read_bytes()
    assert [data[t["start"]:t["end"]] for t in rec["trace"]] == [
        b'function go() { document.getElementById("o").textContent += "b"; }', b"() => go()"]
    assert all(set(t) == {"start", "end", "depth"} for t in rec["trace"])


def test_page_text_maps_parser_offsets_to_file_bytes():
    t = PageText("a\r\nü\rb🎯c")
    assert t.text == "a\nü\nb🎯c"
    assert [t.byte(i) for i in range(len(t.text) + 1)] == [0, 1, 3, 5, 6, 7, 11, 12]


def test_duplicate_stacks_and_strict_suffixes_are_dropped():
    stacks = {("h",), ("a", "h"), ("b", "a", "h"), ("c", "h"), ("a", "h")}
    assert maximal(stacks) == [("b", "a", "h"), ("c", "h")]
