"""One checkpoint's evaluation answers from vLLM's offline engine (GPU profile).

    python -m cogevol.evaluate.vllm_generate JOB.json ANSWERS.json

Run as a child of the evaluate stage (cogevol.evaluate.generate.generate_vllm), one process per
checkpoint: vLLM holds its GPU memory until its process exits. JOB.json: path, prompts (chat
messages), max_new_tokens, temperature, seed, options (vLLM engine arguments). The chat template
is the checkpoint's own; generation stops at its end of turn (generate.stop_token_ids).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def sampling_kwargs(job: dict, stops: list[int]) -> dict:
    """One request's sampling. No per-request seed: the engine's (LLM(seed=...)) makes the run
    reproducible, where one seed on every request would make the samples of a repeated prompt
    identical, and vLLM 0.30's CPU worker crashes on seeded requests whose prefill is chunked
    (`CPU Generator does not use offset`, vllm/v1/worker/gpu_model_runner.py _bookkeeping_sync)."""
    return {
        "temperature": job["temperature"],
        "max_tokens": job["max_new_tokens"],
        "stop_token_ids": stops,
        "skip_special_tokens": True,
    }


def use_every_core_on_cpu() -> None:
    """On a CPU, vLLM's engine process binds its threads to all cores but one, which it keeps
    for the front end (VLLM_CPU_NUM_OF_RESERVED_CPU, vllm/utils/ompmultiprocessing.py). Offline,
    the front end only waits for the batch, so on a 2-core machine that halves the engine for
    nothing: 32 answers of up to 416 tokens took 73.6 s on one core, 50.8 s on both. A value the
    caller set is kept."""
    import torch

    if not torch.cuda.is_available():
        os.environ.setdefault("VLLM_CPU_NUM_OF_RESERVED_CPU", "0")


def main(argv: list[str] | None = None) -> int:
    spec, out = (argv if argv is not None else sys.argv[1:])[:2]
    job = json.loads(Path(spec).read_text(encoding="utf-8"))
    use_every_core_on_cpu()
    from transformers import AutoTokenizer
    from vllm import LLM, SamplingParams

    from cogevol.evaluate.generate import stop_token_ids

    stops = stop_token_ids(AutoTokenizer.from_pretrained(job["path"]))
    llm = LLM(model=job["path"], seed=job["seed"], **job.get("options", {}))
    results = llm.chat(job["prompts"], SamplingParams(**sampling_kwargs(job, stops)))
    answers = [r.outputs[0].text for r in results]
    Path(out).write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
