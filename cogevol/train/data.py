"""Chat datasets for training: distilled SFT conversations and GRPO prompts.

SFT input contract (written by the distill stage): a `datasets.Dataset.save_to_disk` directory
with `messages` (system, user, assistant), `modality` (slide | html), `category`, `prompt_id`,
`teacher`, `candidate`, `score`. We hand TRL prompt/completion pairs (prompt = everything before
the last assistant turn) because TRL then masks the prompt out of the loss for any tokenizer,
with no need for `{% generation %}` markers in the hub model's chat template.

GRPO prompts are conversational `[system, user]` pairs with the same system prompt the SFT data
and the evaluation use (cogevol.prompts), so the policy is rewarded on the contract it learned.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path

import orjson
from datasets import Dataset, load_from_disk

from cogevol.core import shards
from cogevol.prompts import system_prompt
from cogevol.taxonomy.strata import stratified_order

log = logging.getLogger(__name__)

SFT_COLUMNS = ("messages", "modality", "category", "prompt_id", "teacher", "candidate", "score")
MODALITIES = ("slide", "html")


def load_sft(path: str | Path) -> Dataset:
    """The distilled dataset, checked against the input contract.

    Loaded into memory: `datasets` writes the cache files of every later .map() next to the data
    otherwise, which would modify the distill stage's DVC output and rerun the DAG forever.
    """
    ds = load_from_disk(str(path), keep_in_memory=True)
    missing = [c for c in ("messages", "modality") if c not in ds.column_names]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}; expected {SFT_COLUMNS}")
    return ds


def to_prompt_completion(ds: Dataset) -> Dataset:
    """messages -> prompt (all turns before the last) + completion (the last, assistant, turn)."""

    def split(ex: dict) -> dict:
        msgs = [{"role": m["role"], "content": m["content"]} for m in ex["messages"]]
        if not msgs or msgs[-1]["role"] != "assistant":
            raise ValueError(
                f"SFT record {ex.get('prompt_id')!r} does not end with an assistant turn"
            )
        return {"prompt": msgs[:-1], "completion": msgs[-1:]}

    return ds.map(split, remove_columns=ds.column_names)


def assistant_texts(ds: Dataset) -> list[str]:
    """The targets, in dataset order: they teach the tiny tokenizer what pages and decks look
    like."""
    return [m["content"] for msgs in ds["messages"] for m in msgs if m["role"] == "assistant"]


def read_prompts(path: str | Path) -> list[dict]:
    """The curated prompts: a file, or a directory of parts (the filter stage on the Ray engine)."""
    return list(shards.iter_jsonl(path))


def grpo_prompts(
    records: list[dict],
    modalities: list[str],
    num_prompts: int,
    seed: int,
    tokenizer=None,
    max_prompt_length: int | None = None,
    draw: str = "stratified",
) -> Dataset:
    """`num_prompts` seeded picks per modality, as conversational prompts with routing columns;
    `draw: stratified` keeps the pool's L1 x L2 x difficulty shape (cogevol.taxonomy.strata).

    Prompts whose chat-templated length exceeds `max_prompt_length` are dropped rather than cut:
    TRL no longer truncates prompts, and half a request is a different request."""
    if draw not in ("stratified", "random"):
        raise ValueError(f"grpo.draw must be stratified or random, not {draw!r}")
    rows: list[dict] = []
    rng = random.Random(seed)
    for modality in modalities:
        if modality not in MODALITIES:
            raise ValueError(f"unknown modality {modality!r} ({' | '.join(MODALITIES)})")
        pool = [r for r in records if r.get("category") == modality]
        picked, dropped = [], 0
        order = (
            stratified_order(pool, seed) if draw == "stratified" else rng.sample(pool, len(pool))
        )
        for r in order:
            if len(picked) == num_prompts:
                break
            prompt = [
                {"role": "system", "content": system_prompt(modality)},
                {"role": "user", "content": r["prompt"]},
            ]
            if (
                tokenizer is not None
                and max_prompt_length
                and _length(tokenizer, prompt) > max_prompt_length
            ):
                dropped += 1
                continue
            # the filter stage's checklist rides along as a column: TRL hands columns to the reward
            picked.append(
                {
                    "prompt": prompt,
                    "modality": modality,
                    "prompt_id": r["id"],
                    "subcategory": r.get("subcategory") or "",
                    "checklist": orjson.dumps(r["checklist"]).decode()
                    if r.get("checklist")
                    else "",
                }
            )
        if dropped:
            log.info(
                "grpo prompts: %d %s prompts over %d tokens dropped",
                dropped,
                modality,
                max_prompt_length,
            )
        if not picked:
            raise ValueError(f"no {modality} prompts available for GRPO")
        rows += picked
    return Dataset.from_list(rows)


def _length(tokenizer, prompt: list[dict]) -> int:
    text = tokenizer.apply_chat_template(prompt, tokenize=False, add_generation_prompt=True)
    return len(tokenizer(text, add_special_tokens=False)["input_ids"])
