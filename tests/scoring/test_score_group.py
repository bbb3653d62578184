"""Rewards called per group: `Scorers.score_groups` with group pick and the Visual Anchor on real
pages in Chromium, judged by a real local OpenAI-compatible server; `POST /score_group` called
the way our client, OpenRLHF, slime's --group-rm and verl's batch manager call it; TRL's reward
function sending each prompt's completions as one group."""

import asyncio
import base64
import json
from types import SimpleNamespace

import httpx
import pytest

from cogevol.judge.vlm import AnchorConfig, GroupPickConfig, JudgeConfig
from cogevol.rewards.html import DEFAULT_WEIGHTS
from cogevol.rewards.verdict import Defects, weigh
from cogevol.scoring import Scorers, ScoringSettings
from cogevol.scoring.group_formats import group_items, read
from cogevol.scoring.group_judging import recompose
from cogevol.scoring.http_client import HttpScorers
from cogevol.scoring.service import serve_in_background
from cogevol.scoring.trainer_clients import slime_group_rm, verl_compute_score
from cogevol.scoring.types import Score, ScoreGroup, ScoreItem
from cogevol.train.rewards import HTML_SPEC, ModalityReward

pytestmark = pytest.mark.browser

ASK = "a click counter: a button that adds one"


def page(colour: str, words: str) -> str:
    return (f"<!DOCTYPE html><html><body style='background:{colour}'><h1>Counter</h1><p>{words}</p>"
            "<button id=b>Add one</button><p id=out>0</p><script>let n = 0; b.onclick = () => "
            "{ document.getElementById('out').textContent = ++n; };</script></body></html>")


RICH = page("#fde", "A counter that adds one each time you press the button. " * 6)
PLAIN = page("#fff", "")
MID = page("#eef", "Press the button.")
DEAD = "<!DOCTYPE html><html><body><button>Add one</button><p>0</p></body></html>"
VERDICT = json.dumps({"visual": 3, "content": 3, "reasons": {"visual": "ok", "content": "ok"}})


def images(body: dict) -> list[bytes]:
    return [base64.b64decode(p["image_url"]["url"].split(",", 1)[1])
            for p in body["messages"][1]["content"] if p.get("type") == "image_url"]


def first_screens(body: dict) -> list[bytes]:
    """A group-pick call's first screenshot of each page, in display order."""
    out, new = [], False
    for part in body["messages"][1]["content"]:
        if part.get("type") == "text":
            new = part["text"].startswith("Page ")
        elif new:
            out.append(base64.b64decode(part["image_url"]["url"].split(",", 1)[1]))
            new = False
    return out


def judge_server(body: dict) -> str:
    """Group pick: the largest screenshot is clearly better, the smallest clearly worse (a
    property of the images, whatever their order); the anchor: 40 when the page's screenshot is
    smaller than the reference's; anything else: an absolute verdict."""
    system = body["messages"][0]["content"]
    imgs = images(body)
    if "clearly better than the rest" in system:
        sizes = [len(i) for i in first_screens(body)]
        return json.dumps({"reason": "by richness", "good": [sizes.index(max(sizes))],
                           "bad": [sizes.index(min(sizes))], "no_clear_difference": False})
    if "degradation" in system:
        return json.dumps({"degradation": 40 if len(imgs[1]) < len(imgs[0]) else 0, "summary": "s"})
    return VERDICT


def settings(url: str, tmp_path, **judge) -> ScoringSettings:
    cfg = JudgeConfig(enabled=True, base_url=url, model="vlm", backoff_s=0.01, cache_dir=None, **judge)
    return ScoringSettings(workers=2, judge=cfg)


def groups_of(scorers, groups):
    async def go():
        async with scorers:
            return await scorers.score_groups(groups)

    return asyncio.run(go())


@pytest.mark.timeout(300)
def test_group_pick_joins_the_reward_as_a_term_and_a_dead_page_costs_no_call(fake, tmp_path):
    server = fake(responder=judge_server)
    s = settings(server.url, tmp_path, group_pick=GroupPickConfig(enabled=True))
    (g,) = groups_of(Scorers(s), [ScoreGroup("html", ASK, (RICH, PLAIN, MID, DEAD, MID), raw=True)])
    rich, plain, mid, dead, mid2 = g.scores
    assert mid2.reward == mid.reward and mid2.terms == mid.terms  # identical pages, one reward
    picks = g.judge["pick"]
    # 3 pages passed the gate: 3 rounds of 3 (and one absolute call per page)
    assert len(picks["rounds"]) == 3 and picks["scores"][3] is None  # 3 distinct pages passed
    assert dead.hard_fail and dead.reward == 0 and "vlm_pick" not in dead.terms
    assert rich.terms["vlm_pick"] == 0.0 and plain.terms["vlm_pick"] == 1.0 and mid.terms["vlm_pick"] == 0.5
    assert rich.reward > mid.reward > plain.reward
    for sc in (rich, plain, mid):  # the reward is made again the way the scorer made it
        reward, _ = weigh(sc.terms, DEFAULT_WEIGHTS)
        assert sc.reward == pytest.approx(round(reward * sc.details.get("subject", 1.0), 4), abs=1e-4)
        assert sc.details["reward"] == sc.reward and "group pick" in sc.reason
    assert g.judge["lengths"] == [len(t) for t in (RICH, PLAIN, MID, DEAD, MID)]


def test_seed002_composes_pick_and_the_rollouts_own_reward():
    page = Score("html", 0.9, "pass", "ok", terms=Defects({"blank": 0.1}), details={"subject": 1.0})
    out = recompose(page, {"blank": 1.0, "vlm_pick": 0.3}, {}, seed002_pick=0.5)
    assert out.reward == pytest.approx((0.5 + 0.9 + 1) / 3, abs=1e-4) and out.details["reward"] == out.reward
    failed = Score("html", 0.0, "fail", "dead", hard_fail=True)
    assert recompose(failed, {"vlm_pick": 0.3}, {"vlm_pick": 0.0}, seed002_pick=1.0).reward == 0.0


@pytest.mark.timeout(300)
def test_the_visual_anchor_lowers_a_page_that_looks_worse_than_the_reference(fake, tmp_path):
    refs = tmp_path / "refs.jsonl"
    refs.write_text(json.dumps({"modality": "html", "messages": [
        {"role": "user", "content": ASK}, {"role": "assistant", "content": f"```html\n{RICH}\n```"}]}))
    server = fake(responder=judge_server)
    s = settings(server.url, tmp_path, anchor=AnchorConfig(enabled=True, references=str(refs), weight=0.5))
    g, other = groups_of(Scorers(s), [ScoreGroup("html", ASK, (PLAIN, RICH), raw=True),
                                      ScoreGroup("html", "a stopwatch", (PLAIN,), raw=True)])
    plain, rich = g.scores
    assert g.judge["anchor"][0]["degradation"] == 40 and g.judge["anchor"][1]["degradation"] == 0
    alone, _ = weigh(plain.terms, DEFAULT_WEIGHTS)  # the page's own reward, before the anchor
    assert plain.reward == pytest.approx(round(alone * plain.details["subject"] * 0.8, 4), abs=2e-4)
    assert "visual anchor" in plain.reason and "visual anchor" not in rich.reason
    assert other.judge["anchor"] == [None]  # a request with no reference page: no anchor term


@pytest.mark.timeout(300)
def test_no_judge_scores_a_group_item_by_item():
    items = [ScoreItem("html", RICH, ASK, raw=True), ScoreItem("html", DEAD, ASK, raw=True)]

    async def go():
        async with Scorers(ScoringSettings(workers=2)) as s:
            return await s.score(items), await s.score_groups([ScoreGroup("html", ASK, (RICH, DEAD), raw=True)])

    flat, (g,) = asyncio.run(go())
    assert [x.reward for x in g.scores] == [x.reward for x in flat] and g.judge == {}


def test_flat_bodies_are_grouped_by_prompt():
    items = [ScoreItem("html", t, r) for t, r in (("a", "p1"), ("b", "p2"), ("c", "p1"))]
    groups, where = group_items(items)
    assert [g.texts for g in groups] == [("a", "c"), ("b",)] and where == [(0, 0), (1, 0), (0, 1)]
    fmt, groups, where = read({"solution_strs": ["x", "y"], "extra_infos": [{"uid": "u1", "request": "r"},
                                                                            {"uid": "u2", "request": "r"}]})
    assert fmt == "verl" and len(groups) == 2  # same request, two prompts (uids): two groups
    with pytest.raises(ValueError, match="expected one of"):
        read({"items": []})


@pytest.mark.timeout(400)
def test_score_group_answers_ours_openrlhf_slime_and_verl(fake, tmp_path):
    server = fake(responder=judge_server)
    s = settings(server.url, tmp_path, group_pick=GroupPickConfig(enabled=True))
    with serve_in_background(Scorers(s), workers=2) as (url, _):
        with httpx.Client(base_url=url, timeout=300) as c:
            ours = c.post("/score_group", json={"groups": [
                {"modality": "html", "request": ASK, "texts": [RICH, PLAIN], "raw": True}]}).json()
            (g,) = ours["groups"]
            assert [len(g["scores"])] == [2] and g["judge"]["pick"]["scores"] == [1.0, -1.0]
            # OpenRLHF (v0.9.0 and earlier): a batch, each prompt's samples adjacent
            prompt = f"<|im_start|>user\n{ASK}<|im_end|>\n<|im_start|>assistant\n"
            o = c.post("/score_group", json={"query": [prompt + f"```html\n{t}\n```" for t in (RICH, PLAIN)],
                                             "prompts": [prompt, prompt], "labels": ["", ""]}).json()
            assert len(o["rewards"]) == 2 and o["rewards"][0] > o["rewards"][1]
            assert c.post("/score_group", json={"groups": []}).status_code == 422
            metrics = c.get("/metrics").text
            assert 'cogevol_scoring_group_judge_calls_total{judge="group_pick",outcome="model"}' in metrics
            assert 'cogevol_judge_counter{counter="calls"}' in metrics
        # slime --group-rm with our custom function; verl's batch manager with ours
        samples = [SimpleNamespace(prompt=[{"role": "user", "content": ASK}], response=f"```html\n{t}\n```",
                                   label=None) for t in (PLAIN, RICH)]
        rewards = asyncio.run(slime_group_rm(SimpleNamespace(rm_url=url + "/score_group"), samples))
        assert len(rewards) == 2 and rewards[1] > rewards[0]
        out = verl_compute_score(data_sources=["cogevol"] * 2, solution_strs=[f"```html\n{t}\n```" for t in (RICH, PLAIN)],
                                 ground_truths=["", ""], extra_infos=[{"uid": "p", "request": ASK, "modality": "html"}] * 2,
                                 url=url + "/score_group")
        assert [set(x) for x in out] == [{"score", "gate_pass", "no_verdict"}] * 2 and out[0]["score"] > out[1]["score"]
        # our HTTP backend
        async def http():
            async with HttpScorers(url, expect=Scorers(s).parts) as h:
                return await h.score_groups([ScoreGroup("html", ASK, (RICH, PLAIN), raw=True)])

        (hg,) = asyncio.run(http())
        assert hg.scores[0].reward > hg.scores[1].reward and hg.judge["pick"]["rounds"]


@pytest.mark.timeout(300)
def test_trl_reward_sends_each_prompts_completions_as_one_group_and_logs_the_judge(fake, tmp_path):
    server = fake(responder=judge_server)
    s = settings(server.url, tmp_path, group_pick=GroupPickConfig(enabled=True))
    scorers, logged = Scorers(s), {}
    fn = ModalityReward("html", scorers, HTML_SPEC)
    comps = [f"```html\n{t}\n```" for t in (RICH, PLAIN, MID, PLAIN)]

    async def go():
        try:
            return await fn(prompts=["p1", "p1", "p2", "p2"], completions=comps, prompt_id=["a", "a", "b", "b"],
                            log_metric=lambda k, v: logged.__setitem__(k, v))
        finally:
            await scorers.aclose()

    out = asyncio.run(go())
    # two groups of two: one call per round, two rounds each
    picks = [b for b in server.bodies if "clearly better" in b["messages"][0]["content"]]
    assert len(picks) == 4 and all(len(first_screens(b)) == 2 for b in picks)
    assert out[0] > out[1] and out[2] > out[3]
    assert logged["html/judge/pick_groups"] == 2 and "html/judge/round_agreement" in logged
    assert "html/judge/position_bias" in logged and "html/judge/no_clear_difference" in logged


def test_group_items_keep_members_of_different_prompts_apart():
    it = [ScoreItem("html", "x", "same request") for _ in range(2)]
    groups, _ = group_items(it, ["a", "b"])
    assert len(groups) == 2
