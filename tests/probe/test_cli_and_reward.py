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
            (static,) = await scorers.score([ScoreItem("html", dead, "a one-page summary of the water cycle")])
            return out, again, static
        finally:
            await scorers.aclose()

    out, again, static = asyncio.run(go())
    assert out[0] > 0.5 and out[1] == 0.0 and out[2] == 0.0 and out[3] is None and again[0] == out[0]
    assert logged["html/hard_fail_rate"] == pytest.approx(2 / 3) and logged["html/seconds_per_completion"] > 0
    assert static.reward > 0.0 and static.passed and static.details["expects"] == ["static"]  # a static request asks for no control
