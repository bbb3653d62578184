"""Generation for evaluation: local checkpoints with transformers, or any OpenAI-compatible model.

Every system answers the same messages (the modality's system prompt + the request), greedy by
default, so differences between checkpoints are the checkpoints'. For large models on GPUs, serve
each checkpoint with vLLM (infra/vllm/serve.sh) and list it as an `openai` system: that is the
same code path as an outside model.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace

from cogevol.judge.client import EndpointConfig
from cogevol.progress import Progress
from cogevol.prompts import system_prompt

log = logging.getLogger(__name__)


@dataclass(kw_only=True)
class SystemConfig(EndpointConfig):
    """One system under evaluation (params.yaml: evaluate.systems[]): a local checkpoint, or an
    OpenAI-compatible endpoint (the fields of cogevol.judge.client.EndpointConfig; temperature
    and max_tokens come from the evaluate group)."""

    name: str
    path: str = ""  # local checkpoint directory or hub id (backend: local)
    backend: str = "local"  # local | openai
    base_url: str = ""  # openai: OpenAI-compatible root
    model: str = ""  # openai: served model name
    api_key_env: str = "COGEVOL_EVAL_API_KEY"  # NAME of the env var holding the key


def messages(kind: str, prompt: str) -> list[dict]:
    return [{"role": "system", "content": system_prompt(kind)}, {"role": "user", "content": prompt}]


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
                **enc, max_new_tokens=max_new_tokens, pad_token_id=tok.pad_token_id, **kw
            )
        out += tok.batch_decode(gen[:, enc["input_ids"].shape[1] :], skip_special_tokens=True)
        progress.update(len(batch))
    progress.done()
    return out


async def generate_openai(
    system: SystemConfig,
    prompts: list[list[dict]],
    max_new_tokens: int,
    temperature: float = 0.0,
    cache_dir: str | None = None,
) -> list[str | None]:
    """Completions from an OpenAI-compatible endpoint; None (with a warning) where the endpoint
    gave no answer after its retries, so the report can count it instead of scoring silence."""
    from cogevol.judge.aclient import AsyncChatClient
    from cogevol.judge.cache import DiskCache
    from cogevol.judge.client import EndpointError

    cfg = replace(system, temperature=temperature, max_tokens=max_new_tokens, timeout_s=600)
    async with AsyncChatClient(cfg, cache=DiskCache(cache_dir) if cache_dir else None) as client:

        async def one(m: list[dict]) -> str | None:
            try:
                return await client.chat(m)
            except EndpointError as e:
                log.warning("evaluate: %s gave no answer: %s", system.name, e)
                return None

        return list(await asyncio.gather(*(one(m) for m in prompts)))
