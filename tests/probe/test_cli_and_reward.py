import json
import subprocess
import sys
from pathlib import Path

import pytest

from cogevol.rewards.trl import HtmlReward, extract_html

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
    reward = HtmlReward(workers=1)
    try:
        ask = "a click counter: a button that adds one"
        out = reward(prompts=[ask] * 3, completions=[f"```html\n{live}\n```", dead, "no page here"])
        again = reward(prompts=[ask], completions=[[{"role": "assistant", "content": live}]])  # the pool is reused
        static = reward(prompts=["a one-page summary of the water cycle"], completions=[dead])
    finally:
        reward.close()
    assert out[0] > 0.5 and out[1] == 0.0 and out[2] == 0.0 and again[0] == out[0]
    assert static[0] > 0.0  # a static request asks for no control
    assert reward.last_details[0]["expects"] == ["static"]
