"""Generation for evaluation: local checkpoints with transformers or vLLM, or any
OpenAI-compatible model.

Every system answers the same messages (the modality's system prompt + the request), greedy by
default, so differences between checkpoints are the checkpoints'. Generation stops at the chat
template's end of turn as well as the tokenizer's end of text: a base model's tokenizer
(Qwen3-4B-Base) ends text with <|endoftext|>, and without <|im_end|> as a stop it writes past its
answer into invented turns until the token budget runs out. On the GPU profile
(`evaluate.generator: vllm`) each local checkpoint is loaded by vLLM's offline engine in a child
process (`python -m cogevol.evaluate.vllm_generate`), so its GPU memory is released before the
next checkpoint loads.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from pathlib import Path

from cogevol.core.progress import Progress
from cogevol.llm.client import EndpointConfig
from cogevol.prompts import system_prompt

log = logging.getLogger(__name__)


@dataclass(kw_only=True)
class SystemConfig(EndpointConfig):
    """One system under evaluation (params.yaml: evaluate.systems[]): a local checkpoint, or an
    OpenAI-compatible endpoint (the fields of cogevol.llm.client.EndpointConfig; temperature
    and max_tokens come from the evaluate group)."""

    name: str
    path: str = ""  # local checkpoint directory or hub id (source: local)
    source: str = "local"  # local | openai
    base_url: str = ""  # openai: OpenAI-compatible root
    model: str = ""  # openai: served model name
    api_key_env: str = "COGEVOL_EVAL_API_KEY"  # NAME of the env var holding the key


def messages(kind: str, prompt: str) -> list[dict]:
    return [{"role": "system", "content": system_prompt(kind)}, {"role": "user", "content": prompt}]


END_OF_TURN = ("<|im_end|>", "<|eot_id|>", "<end_of_turn>", "<|end|>")


def stop_token_ids(tok) -> list[int]:
    """The tokenizer's end of text and whichever end-of-turn token its chat template uses."""
    ids = [tok.eos_token_id] if tok.eos_token_id is not None else []
    vocab = tok.get_vocab()
    ids += [vocab[t] for t in END_OF_TURN if t in vocab]
    return sorted(set(ids))


def generate_local(
    path: str,
    prompts: list[list[dict]],
    max_new_tokens: int,
    temperature: float = 0.0,
    batch_size: int = 8,
    seed: int = 0,
) -> list[str]:
    """Completions of a local checkpoint, batched with left padding."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.manual_seed(seed)
    tok = AutoTokenizer.from_pretrained(path)
    tok.padding_side = "left"
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    device = "cuda" if torch.cuda.is_available() else "cpu"
    dtype = torch.bfloat16 if device == "cuda" else torch.float32
    model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype).to(device).eval()
    out: list[str] = []
    progress = Progress(f"generate {path}", total=len(prompts), unit="prompts")
    for start in range(0, len(prompts), batch_size):
        batch = prompts[start : start + batch_size]
        texts = [
            tok.apply_chat_template(m, tokenize=False, add_generation_prompt=True) for m in batch
        ]
        enc = tok(texts, return_tensors="pt", padding=True).to(device)
        kw = (
            {"do_sample": True, "temperature": temperature}
            if temperature > 0
            else {"do_sample": False}
        )
        with torch.no_grad():
            gen = model.generate(
                **enc,
                max_new_tokens=max_new_tokens,
                pad_token_id=tok.pad_token_id,
                eos_token_id=stop_token_ids(tok),
                **kw,
            )
        out += tok.batch_decode(gen[:, enc["input_ids"].shape[1] :], skip_special_tokens=True)
        progress.update(len(batch))
    progress.done()
    return out


def generate_vllm(
    path: str,
    prompts: list[list[dict]],
    max_new_tokens: int,
    temperature: float = 0.0,
    seed: int = 0,
    options: dict | None = None,
) -> list[str]:
    """Completions of a local checkpoint from vLLM's offline engine, in a child process (see the
    module docstring). `options`: vLLM engine arguments (tensor_parallel_size,
    gpu_memory_utilization, max_model_len)."""
    import json
    import subprocess
    import sys
    import tempfile

    job = {
        "path": path,
        "prompts": prompts,
        "max_new_tokens": max_new_tokens,
        "temperature": temperature,
        "seed": seed,
        "options": options or {},
    }
    with tempfile.TemporaryDirectory(prefix="cogevol-vllm-") as tmp:
        spec, out = Path(tmp) / "job.json", Path(tmp) / "answers.json"
        spec.write_text(json.dumps(job), encoding="utf-8")
        cmd = [sys.executable, "-m", "cogevol.evaluate.vllm_generate", str(spec), str(out)]
        log.info("evaluate: vLLM generates %d answers of %s", len(prompts), path)
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(
                f"evaluate: vLLM generation for {path} failed ({done.returncode}): "
                f"{done.stderr[-2000:]}"
            )
        return json.loads(out.read_text(encoding="utf-8"))


async def generate_openai(
    system: SystemConfig,
    prompts: list[list[dict]],
    max_new_tokens: int,
    temperature: float = 0.0,
    cache_dir: str | None = None,
) -> list[str | None]:
    """Completions from an OpenAI-compatible endpoint; None (with a warning) where the endpoint
    gave no answer after its retries, so the report can count it instead of scoring silence."""
    from cogevol.llm.aclient import AsyncChatClient
    from cogevol.llm.cache import DiskCache
    from cogevol.llm.client import EndpointError

    cfg = replace(system, temperature=temperature, max_tokens=max_new_tokens, timeout_s=600)
    async with AsyncChatClient(cfg, cache=DiskCache(cache_dir) if cache_dir else None) as client:

        async def one(m: list[dict]) -> str | None:
            try:
                return await client.chat(m)
            except EndpointError as e:
                log.warning("evaluate: %s gave no answer: %s", system.name, e)
                return None

        return list(await asyncio.gather(*(one(m) for m in prompts)))
