"""Reward functions for trainers that score a whole group in one call, over `POST /score_group`
(docs/scoring_service.md). They import nothing heavy: copy this file next to a trainer that does
not have cogevol installed, or import it.

- slime, `--group-rm --custom-rm-path cogevol.scoring.trainer_clients.slime_group_rm
  --rm-url http://scorer:8700/score_group`: slime calls `await slime_group_rm(args, samples)`
  with one prompt's samples and takes one float per sample, in order.
- verl's batch reward manager (`reward_model.reward_manager=batch`,
  `custom_reward_function.path=.../trainer_clients.py custom_reward_function.name=
  verl_compute_score`, the service's URL in `custom_reward_function.reward_kwargs.url`): verl
  calls `verl_compute_score(data_sources=..., solution_strs=..., ground_truths=...,
  extra_infos=...)` on a batch and takes a dict per sample with its `score`. Put `modality`,
  `request` and `uid` (the prompt's id) in each row's `extra_info`: verl reorders a batch by
  length before scoring it, so the service groups by `uid`.
- OpenRLHF needs no function: `--remote_rm_url http://scorer:8700/score_group` (its body is read
  as is, each prompt's samples put into one group).
The bearer token, when the service wants one, comes from $COGEVOL_SCORING_TOKEN.
"""

from __future__ import annotations

import json
import os

import httpx

TOKEN_ENV = "COGEVOL_SCORING_TOKEN"
TIMEOUT_S = 900.0


def _headers() -> dict[str, str]:
    token = os.environ.get(TOKEN_ENV)
    return {"Authorization": f"Bearer {token}"} if token else {}


def _sample_json(s) -> dict:
    """A slime Sample (or a dict) as the per-sample body slime's remote_rm sends."""
    get = s.get if isinstance(s, dict) else lambda k: getattr(s, k, None)
    return {"prompt": get("prompt"), "response": get("response") or "", "label": get("label")}


async def slime_group_rm(args, samples: list) -> list[float]:
    """slime's group reward function: one prompt's samples scored together."""
    body = {"samples": [_sample_json(s) for s in samples]}
    async with httpx.AsyncClient(timeout=TIMEOUT_S, headers=_headers()) as c:
        r = await c.post(args.rm_url, json=body)
        r.raise_for_status()
        return list(r.json()["rewards"])


def _info(e) -> dict:
    """The keys of a row's extra_info the service reads, as JSON can carry them."""
    e = e if isinstance(e, dict) else {}
    out = {k: str(e[k]) for k in ("modality", "request", "uid") if e.get(k) is not None}
    if isinstance(e.get("checklist"), dict):
        out["checklist"] = json.dumps(e["checklist"], ensure_ascii=False)
    elif e.get("checklist"):
        out["checklist"] = str(e["checklist"])
    return out


def verl_compute_score(
    data_sources: list | None = None,
    solution_strs: list[str] | None = None,
    ground_truths: list | None = None,
    extra_infos: list | None = None,
    url: str | None = None,
    **kwargs,
) -> list[dict]:
    """verl's batch compute_score: a dict per sample, `score` first (verl keeps the other keys as
    extra info, so every sample has the same ones)."""
    url = url or os.environ.get("COGEVOL_SCORING_URL", "http://127.0.0.1:8700") + "/score_group"
    n = len(solution_strs or [])
    body = {
        "data_sources": [str(d) for d in data_sources or []],
        "solution_strs": [str(s) for s in solution_strs or []],
        "ground_truths": [None if g is None else str(g) for g in ground_truths or [None] * n],
        # only what the service reads: verl's extra_info may hold arrays that JSON cannot carry
        "extra_infos": [_info(e) for e in extra_infos or [None] * n],
    }
    with httpx.Client(timeout=TIMEOUT_S, headers=_headers()) as c:
        r = c.post(url, json=body)
        r.raise_for_status()
        return list(r.json()["results"])
