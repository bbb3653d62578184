import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cogevol.scoring import ScoreItem, Scorers
from cogevol.scoring.extract import extract_html
from cogevol.train.rewards import HTML_SPEC, ModalityReward

CORPUS = Path(__file__).parent / "corpus"
FIELDS = {"path", "rendered_ok", "hard_fail", "reward", "interactivity", "controls_total", "controls_live", "reason", "seconds"}


def test_extract_html_from_completions():
    doc = "<!DOCTYPE html><html><body><button>x</button></body></html>"
    assert extract_html(f"Here you go:\n```html\n{doc}\n```\nEnjoy") == doc
    assert extract_html(f"Sure. {doc} Done.") == doc
    assert extract_html([{"role": "user", "content": "hi"}, {"role": "assistant", "content": f"```\n{doc}\n```"}]) == doc
    assert extract_html("I cannot do that.") is None


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_cli_contract(tmp_path):
    pages = [CORPUS / "live_counter.html", CORPUS / "dead_static_shell.html", CORPUS / "render_blank_error.html"]
    p = subprocess.run([sys.executable, "-m", "cogevol.cli", "probe", *map(str, pages), "--workers", "2"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = {Path(r["path"]).name: r for r in map(json.loads, p.stdout.splitlines())}
    assert set(rows) == {x.name for x in pages}
    for r in rows.values():
        assert FIELDS <= set(r) and 0.0 <= r["reward"] <= 1.0 and isinstance(r["reason"], str)
    assert rows["live_counter.html"]["reward"] > 0.5 and rows["live_counter.html"]["controls_live"] == 1
    assert rows["dead_static_shell.html"]["hard_fail"] and rows["dead_static_shell.html"]["reward"] == 0.0
    assert not rows["render_blank_error.html"]["rendered_ok"]
    bad = subprocess.run([sys.executable, "-m", "cogevol.cli", "probe", str(tmp_path / "missing.html")], capture_output=True, text=True)
    assert bad.returncode == 2 and "no such file" in bad.stderr


SOLAR = """<!doctype html><html><head><title>Solar system</title></head><body><h1>The solar system</h1>
<p>Planets orbit the sun. Speed:</p><input type=range id=s><button id=r>Reset</button><p id=o>day 0</p>
<script>let d=0;s.oninput=()=>o.textContent='day '+(++d);r.onclick=()=>{d=0;o.textContent='day 0 (reset)'}</script></body></html>"""
QUIZ = """<!doctype html><html><head><title>Quiz: 法国大革命</title></head><body><h1>法国大革命测验</h1>
<p>问题 1：巴士底狱是哪一年被攻占的？</p><button onclick="o.textContent='正确！'">1789</button><p id=o></p></body></html>"""
SOLAR_REQUEST = "A solar system page where the planets orbit the sun, with a slider for the speed and a 'Reset' button"


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_cli_lists_the_request_checklist_and_fails_an_answer_to_another_request(tmp_path):
    (tmp_path / "solar.html").write_text(SOLAR)
    (tmp_path / "quiz.html").write_text(QUIZ, encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "cogevol.cli", "probe", "--request", SOLAR_REQUEST, str(tmp_path / "solar.html"),
                        str(tmp_path / "quiz.html")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = {Path(r["path"]).name: r for r in map(json.loads, p.stdout.splitlines())}
    for r in rows.values():
        assert r["checks"] and all(set(c) == {"check", "value", "status", "reason"} for c in r["checks"])
        assert {c["status"] for c in r["checks"]} <= {"met", "unmet", "unverifiable"}
    solar, quiz = rows["solar.html"], rows["quiz.html"]
    assert not solar["hard_fail"] and all(c["status"] == "met" for c in solar["checks"]), solar["checks"]
    assert "fulfilment" in solar["terms"] and solar["terms"]["fulfilment"] == 0.0
    assert quiz["hard_fail"] and "answers another request" in quiz["reason"], quiz["reason"]
    lang = next(c for c in quiz["checks"] if c["check"] == "language")
    assert lang["status"] == "unmet" and "zh" in lang["reason"]
    stored = tmp_path / "checklist.json"  # a stored checklist is used as given
    stored.write_text(json.dumps({"version": 1, "source": "llm", "language": "zh", "checks": [
        {"check": "language", "value": "zh", "must": True}, {"check": "mentions", "value": "法国大革命", "must": True}]}))
    p = subprocess.run([sys.executable, "-m", "cogevol.cli", "probe", "--request", SOLAR_REQUEST, "--checklist", str(stored),
                        str(tmp_path / "quiz.html")], capture_output=True, text=True)
    (row,) = map(json.loads, p.stdout.splitlines())
    assert not row["hard_fail"] and [c["status"] for c in row["checks"]] == ["met", "met"]
    bad = subprocess.run([sys.executable, "-m", "cogevol.cli", "probe", "--checklist", str(tmp_path / "nope.json"),
                          str(tmp_path / "quiz.html")], capture_output=True, text=True)
    assert bad.returncode == 2 and "--checklist" in bad.stderr


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_trl_reward_function():
    live = (CORPUS / "live_counter.html").read_text()
    dead = (CORPUS / "dead_static_shell.html").read_text()
    ask = "a click counter: a button that adds one"
    logged = {}

    async def go():
        scorers = Scorers()
        reward = ModalityReward("html", scorers, HTML_SPEC)
        try:
            out = await reward(prompts=[ask] * 4, completions=[f"```html\n{live}\n```", dead, "no page here", live],
                               modality=["html", "html", "html", "slide"], log_metric=logged.__setitem__)
            pool = scorers._pool
            again = await reward(prompts=[ask], completions=[[{"role": "assistant", "content": live}]])
            assert scorers._pool is pool  # one browser pool across steps
            # a summary with dead buttons: a static request asks for no control (a bare shell would
            # be empty, cogevol.rewards.substance)
            summary = dead.replace("<p>Explore motion!</p>", "<p>Explore motion! We rolled a cart down a ramp, timed it"
                                   " with light gates and found its speed grows steadily with time.</p>")
            (static,) = await scorers.score([ScoreItem("html", summary, "a one-page summary of a physics lab about motion")])
            return out, again, static
        finally:
            await scorers.aclose()

    out, again, static = asyncio.run(go())
    assert out[0] > 0.5 and out[1] == 0.0 and out[2] == 0.0 and out[3] is None and again[0] == out[0]
    assert logged["html/hard_fail_rate"] == pytest.approx(2 / 3) and logged["html/seconds_per_completion"] > 0
    assert static.reward > 0.0 and static.passed and static.details["expects"] == ["static"]  # a static request asks for no control
