"""What `POST /score_group` reads and answers, in the formats of the trainers that call it.

A body is read by its keys:
- ours, `{"groups": [{"modality", "request", "texts", "checklist", "raw"}]}` ->
  `{"groups": [{"scores": [Score], "judge": {...}}]}` in order;
- OpenRLHF's remote reward body, `{"query", "prompts", "labels"}` (up to v0.9.0 a whole rollout
  batch, a prompt's samples adjacent; cogevol.scoring.openrlhf reads each item);
- slime's samples, `{"samples": [{"prompt", "response", "label"}]}`: what `--rm-type
  remote_rm` sends for one sample, and what our `--group-rm` function
  (cogevol.scoring.trainer_clients.slime_group_rm) sends for one prompt's group;
- verl's batch reward call, `{"data_sources", "solution_strs", "ground_truths", "extra_infos"}`
  (what cogevol.scoring.trainer_clients.verl_compute_score forwards).
Items of the flat formats are put into groups by their prompt (verl: `extra_info.uid` when
present, since verl reorders a batch by length before scoring it), and answered flat in their
order as OpenRLHF expects: `{"rewards", "scores", "extra_logs"}`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from cogevol.scoring import openrlhf
from cogevol.scoring.types import MODALITIES, GroupScores, Score, ScoreGroup, ScoreItem

FORMATS = ("groups", "openrlhf", "slime", "verl")


def body_format(body: dict) -> str:
    if not isinstance(body, dict):
        raise ValueError("the body must be a JSON object")
    for fmt, key in (("groups", "groups"), ("openrlhf", "query"), ("slime", "samples")):
        if key in body:
            return fmt
    if "solution_strs" in body:
        return "verl"
    raise ValueError(
        "expected one of: 'groups' (cogevol), 'query' (OpenRLHF), 'samples' (slime), "
        "'solution_strs' (verl)"
    )


def native_groups(body: dict) -> list[ScoreGroup]:
    groups = body.get("groups")
    if not isinstance(groups, list) or not groups:
        raise ValueError("'groups' must be a non-empty list")
    out = []
    for k, g in enumerate(groups):
        if not isinstance(g, dict):
            raise ValueError(f"groups[{k}] must be an object")
        texts = g.get("texts")
        if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
            raise ValueError(f"groups[{k}].texts must be a non-empty list of strings")
        if g.get("modality") not in MODALITIES:
            raise ValueError(f"groups[{k}].modality must be one of {MODALITIES}")
        out.append(
            ScoreGroup(
                g["modality"],
                str(g.get("request") or ""),
                tuple(texts),
                str(g.get("checklist") or ""),
                bool(g.get("raw", False)),
            )
        )
    return out


def _prompt_request(prompt) -> str:
    """The request inside a prompt: chat messages (the last user turn) or templated text."""
    if isinstance(prompt, list):
        users = [
            m.get("content") for m in prompt if isinstance(m, dict) and m.get("role") == "user"
        ]
        return str(users[-1] or "") if users else ""
    return openrlhf.user_request(str(prompt or ""))


def slime_items(body: dict) -> list[ScoreItem]:
    samples = body.get("samples")
    if not isinstance(samples, list) or not all(isinstance(s, dict) for s in samples):
        raise ValueError("'samples' must be a list of {prompt, response, label} objects")
    out = []
    for k, s in enumerate(samples):
        if not isinstance(s.get("response"), str):
            raise ValueError(f"samples[{k}].response must be a string")
        meta = openrlhf.label_fields(s.get("label"))
        prompt = s.get("prompt")
        flat = prompt if isinstance(prompt, str) else json.dumps(prompt, ensure_ascii=False)
        modality = meta.get("modality")
        if modality not in MODALITIES:
            modality = openrlhf.modality_of(flat, s["response"])
        out.append(
            ScoreItem(
                modality,
                s["response"],
                str(meta.get("request") or _prompt_request(prompt)),
                checklist=openrlhf.checklist_text(meta.get("checklist")),
            )
        )
    return out


def verl_items(body: dict) -> tuple[list[ScoreItem], list[str]]:
    """The items, and each one's group key (`extra_info.uid`, else its request)."""
    sols = body.get("solution_strs")
    if not isinstance(sols, list) or not all(isinstance(s, str) for s in sols):
        raise ValueError("'solution_strs' must be a list of strings")
    n = len(sols)
    infos = body.get("extra_infos") or [None] * n
    truths = body.get("ground_truths") or [None] * n
    if len(infos) != n or len(truths) != n:
        raise ValueError("'extra_infos' and 'ground_truths' must have one entry per solution")
    items, keys = [], []
    for sol, info, truth in zip(sols, infos, truths):
        meta = {**openrlhf.label_fields(truth), **(info if isinstance(info, dict) else {})}
        modality = meta.get("modality")
        if modality not in MODALITIES:
            modality = openrlhf.modality_of("", sol)
        item = ScoreItem(
            modality,
            sol,
            str(meta.get("request") or ""),
            checklist=openrlhf.checklist_text(meta.get("checklist")),
        )
        items.append(item)
        keys.append(str(meta.get("uid") or ""))
    return items, keys


def group_items(
    items: Sequence[ScoreItem], keys: Sequence[str] | None = None
) -> tuple[list[ScoreGroup], list[tuple[int, int]]]:
    """Items put into groups by (modality, request, checklist, key), in order of first
    appearance, and where each item went: (group, member)."""
    index: dict[tuple, int] = {}
    members: list[list[str]] = []
    firsts: list[ScoreItem] = []
    where = []
    for k, it in enumerate(items):
        key = (it.modality, it.request, it.checklist, keys[k] if keys else "")
        g = index.setdefault(key, len(index))
        if g == len(members):
            members.append([])
            firsts.append(it)
        where.append((g, len(members[g])))
        members[g].append(it.text)
    groups = [
        ScoreGroup(f.modality, f.request, tuple(texts), f.checklist)
        for f, texts in zip(firsts, members)
    ]
    return groups, where


def read(body: dict) -> tuple[str, list[ScoreGroup], list[tuple[int, int]] | None]:
    """(format, groups, where each flat item went; None for ours). ValueError names the
    malformed field."""
    fmt = body_format(body)
    if fmt == "groups":
        return fmt, native_groups(body), None
    if fmt == "openrlhf":
        items, keys = openrlhf.items_from_request(body), None
    elif fmt == "slime":
        items, keys = slime_items(body), None
    else:
        items, keys = verl_items(body)
    if not items:
        return fmt, [], []
    groups, where = group_items(items, keys)
    return fmt, groups, where


def reply(fmt: str, scored: list[GroupScores], where: list[tuple[int, int]] | None) -> dict:
    if where is None:
        return {"groups": [g.to_json() for g in scored]}
    flat: list[Score] = [scored[g].scores[m] for g, m in where]
    out = openrlhf.reply(flat)
    if fmt == "verl":  # verl keeps a dict's other keys as extra info; every sample the same keys
        out["results"] = [
            {
                "score": r,
                "gate_pass": float(s.passed),
                "no_verdict": float(s.reward is None),
            }
            for r, s in zip(out["rewards"], flat)
        ]
    return out
