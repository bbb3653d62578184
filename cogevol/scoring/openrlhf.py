"""OpenRLHF's remote reward format (`--remote_rm_url` / `--reward.remote_url`), read into
ScoreItems.

OpenRLHF POSTs `{"query": [...], "prompts": [...], "labels": [...]}`; each query is the
chat-templated prompt followed by the response, decoded with special tokens kept, so the
response is what follows the prompt. It expects `{"rewards": [float], "scores": [float],
"extra_logs": {...}}` and cannot take a null: an answer without a verdict scores 0 there, and
`extra_logs.no_verdict` says which ones. A label (the dataset column `--data.label_key` names)
may be a JSON object with `modality`, `request` and `checklist` (the stored one); they then win over
what the prompt suggests.
"""

from __future__ import annotations

import json
import re

from cogevol.prompts import SLIDE_SYSTEM
from cogevol.scoring.types import Score, ScoreItem

# the last user turn of the chat templates in common
# use: ChatML (Qwen, SmolLM), Llama 3, Gemma, Mistral
_USER_TURN = [
    re.compile(p, re.S)
    for p in (
        r"<\|im_start\|>user\s*(.*?)<\|im_end\|>",
        r"<\|start_header_id\|>user<\|end_header_id\|>\s*(.*?)<\|eot_id\|>",
        r"<start_of_turn>user\s*(.*?)<end_of_turn>",
        r"\[INST\]\s*(.*?)\[/INST\]",
    )
]
_END_TOKENS = re.compile(
    r"(<\|im_end\|>|<\|eot_id\|>|<end_of_turn>|<\|endoftext\|>|</s>|<eos>)\s*$"
)


def user_request(prompt: str) -> str:
    """The user's request inside a chat-templated prompt (its last user turn), else the prompt."""
    for rx in _USER_TURN:
        turns = rx.findall(prompt)
        if turns:
            return turns[-1].strip()
    return prompt.strip()


def response_of(query: str, prompt: str | None) -> str:
    """The response part of a query: what follows the prompt, end-of-turn tokens removed."""
    text = query[len(prompt) :] if prompt and query.startswith(prompt) else query
    while True:
        stripped = _END_TOKENS.sub("", text)
        if stripped == text:
            return text
        text = stripped


def modality_of(prompt: str, response: str) -> str:
    """slide when the prompt carries the slide contract or the answer is a cogevol-slides deck,
    else html."""
    if "cogevol-slides/1" in prompt or SLIDE_SYSTEM[:60] in prompt:
        return "slide"
    head = response.lstrip()[:400]
    return (
        "slide"
        if "cogevol-slides/1" in head or (head.startswith("{") and '"slides"' in response)
        else "html"
    )


def items_from_request(body: dict) -> list[ScoreItem]:
    """ScoreItems from OpenRLHF's body; a ValueError names what is malformed."""
    queries = body.get("query")
    if not isinstance(queries, list) or not all(isinstance(q, str) for q in queries):
        raise ValueError("'query' must be a list of strings")
    prompts = body.get("prompts")
    if prompts is None:
        prompts = [""] * len(queries)
    if (
        not isinstance(prompts, list)
        or len(prompts) != len(queries)
        or not all(isinstance(p, str) for p in prompts)
    ):
        raise ValueError("'prompts' must be a list of strings, one per query")
    labels = body.get("labels")
    labels = (
        labels
        if isinstance(labels, list) and len(labels) == len(queries)
        else [None] * len(queries)
    )
    out = []
    for q, p, label in zip(queries, prompts, labels):
        response = response_of(q, p)
        meta = label_fields(label)
        modality = (
            meta.get("modality")
            if meta.get("modality") in ("html", "slide")
            else modality_of(p, response)
        )
        checklist = checklist_text(meta.get("checklist"))
        out.append(
            ScoreItem(
                modality,
                response,
                str(meta.get("request") or (user_request(p) if p else "")),
                checklist=checklist,
            )
        )
    return out


def checklist_text(checklist) -> str:
    """A stored checklist as the JSON text a ScoreItem carries (an object is serialised)."""
    if isinstance(checklist, dict):
        return json.dumps(checklist, ensure_ascii=False)
    return str(checklist or "")


def label_fields(label) -> dict:
    """A label's {"modality", "request", "checklist"} when it is a JSON object (or a dict),
    else {}."""
    if isinstance(label, dict):
        return label
    if isinstance(label, str) and label.lstrip().startswith("{"):
        try:
            obj = json.loads(label)
        except json.JSONDecodeError:
            return {}
        return obj if isinstance(obj, dict) else {}
    return {}


def reply(scores: list[Score]) -> dict:
    rewards = [0.0 if s.reward is None else s.reward for s in scores]
    return {
        "rewards": rewards,
        "scores": rewards,
        "extra_logs": {
            "gate_pass": [float(s.passed) for s in scores],
            "no_verdict": [float(s.reward is None) for s in scores],
        },
    }
