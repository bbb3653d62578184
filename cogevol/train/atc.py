"""Action-Trace Credit (seed 001, section 3.3): token-level advantages from the probe's traces.

GRPO gives every token of a completion its completion's advantage A. The probe knows which of a
page's functions its live controls ran (cogevol.probe.trace: UTF-8 byte intervals of the page,
each with its call depth from the leaf). ATC maps those intervals to the completion's tokens and
scales each traced token's advantage by

    w = max(0, 1 + beta * sign(A) * gamma ** d)        (untraced tokens: w = 1, gamma ** inf = 0)
    A_k = A * w_k / mean(w over the completion's tokens)

so with A > 0 the tokens that made a control work get a stronger push, with A < 0 a weaker
one, and the mean token advantage stays A. beta = 0 is plain GRPO.

Alignment is proven or not used: the page is found in the completion where the scorer found it
(cogevol.scoring.extract), its SHA-256 and byte length must equal what the probe traced, and the
tokens' bytes must spell the completion exactly (byte-level BPE tokenizers from their vocabulary;
other fast tokenizers through offsets, when re-encoding gives the same ids). A token counts as
traced only when every one of its bytes lies in a traced function; its depth is the largest
depth over its bytes (each byte at the smallest depth of the functions holding it). Anything
unproven leaves that completion on plain GRPO, and the reason is counted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import torch

from cogevol.scoring.extract import extract_html_span

# why a completion with a trace stayed on plain GRPO
DRIFT = "page drifted"  # the page in the completion is not the page the probe traced
TOKENS = "tokens do not spell the completion"  # no exact token -> byte map for this tokenizer
NO_PAGE = "no page in the completion"
NO_TRACE = "the probe could not trace the page"
# each reason's per-step metric (atc/fallback_<name>)
REASONS = {DRIFT: "drift", TOKENS: "tokens", NO_PAGE: "no_page", NO_TRACE: "no_trace"}


@dataclass
class Alignment:
    """Per completion token: its traced depth, or None (untraced). `why`: the reason when the
    alignment could not be proven (then every depth is None)."""

    depths: list[int | None]
    why: str = ""

    @property
    def traced(self) -> int:
        return sum(d is not None for d in self.depths)


@lru_cache(maxsize=1)
def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level alphabet, character -> byte (the inverse of bytes_to_unicode)."""
    bs = list(range(ord("!"), ord("~") + 1))
    bs += list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs, n = list(bs), 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


def _is_byte_level(tokenizer: Any) -> bool:
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is not None:
        import json

        decoder = json.loads(backend.to_str()).get("decoder") or {}
        kinds = [decoder.get("type")] + [d.get("type") for d in decoder.get("decoders") or []]
        return "ByteLevel" in kinds
    return hasattr(tokenizer, "byte_decoder")


def token_spans(tokenizer: Any, ids: Sequence[int], text: str) -> list[tuple[int, int]] | None:
    """Each token's UTF-8 byte span in `text` (the completion decoded from `ids`, special tokens
    skipped: they span nothing), or None when no exact map can be proven. Byte-level BPE: from
    the vocabulary, the tokens' bytes spelling `text` exactly (added tokens spell their own
    text). Otherwise a fast tokenizer's offsets, when re-encoding `text` gives exactly `ids`;
    bytes between tokens (a space a decoder puts back) belong to none."""
    want = text.encode("utf-8")
    special = set(getattr(tokenizer, "all_special_ids", []) or [])
    if _is_byte_level(tokenizer):
        dec = _byte_decoder()
        added = {int(i) for i in getattr(tokenizer, "added_tokens_decoder", {}) or {}}
        out, pos = [], 0
        for tid, tok in zip(ids, tokenizer.convert_ids_to_tokens(list(ids))):
            if tid in special:
                piece = b""
            elif tid in added:
                piece = tok.encode("utf-8")
            elif tok is None or any(c not in dec for c in tok):
                return None
            else:
                piece = bytes(dec[c] for c in tok)
            if want[pos : pos + len(piece)] != piece:
                return None
            out.append((pos, pos + len(piece)))
            pos += len(piece)
        return out if pos == len(want) else None
    if not getattr(tokenizer, "is_fast", False):
        return None
    enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
    if list(enc["input_ids"]) != [i for i in ids if i not in special]:
        return None
    at = [0]  # character offset -> byte offset
    for c in text:
        at.append(at[-1] + len(c.encode("utf-8")))
    offsets = iter(enc["offset_mapping"])
    out, prev = [], 0
    for tid in ids:
        if tid in special:
            out.append((prev, prev))
            continue
        s, e = next(offsets)
        if at[s] < prev:  # overlapping tokens: no byte may belong to two
            return None
        out.append((at[s], at[e]))
        prev = at[e]
    return out


def align(
    text: str, ids: Sequence[int], trace: list[dict], page: dict | None, tokenizer: Any
) -> Alignment:
    """The traced depth of each token of a completion (`text`, decoded from `ids`), from the
    probe's `trace` over the page it found in `text` (`page`: its sha256 and bytes)."""
    none = [None] * len(ids)
    span = extract_html_span(text)
    if span is None:
        return Alignment(none, NO_PAGE)
    doc = text[span[0] : span[1]].encode("utf-8")
    if page is not None and page.get("error"):
        return Alignment(none, NO_TRACE)
    if (
        page is None
        or len(doc) != page.get("bytes")
        or hashlib.sha256(doc).hexdigest() != page.get("sha256")
    ):
        return Alignment(none, DRIFT)
    toks = token_spans(tokenizer, ids, text)
    if toks is None:
        return Alignment(none, TOKENS)
    base = len(text[: span[0]].encode("utf-8"))
    depth_at: list[int | None] = [None] * len(doc)  # each page byte: the smallest depth holding it
    for t in trace:
        for b in range(max(0, t["start"]), min(len(doc), t["end"])):
            if depth_at[b] is None or t["depth"] < depth_at[b]:
                depth_at[b] = t["depth"]
    depths: list[int | None] = []
    for s, e in toks:
        lo, hi = s - base, e - base
        if lo >= hi or lo < 0 or hi > len(doc):
            depths.append(None)
            continue
        ds = depth_at[lo:hi]
        depths.append(None if any(d is None for d in ds) else max(ds))
    return Alignment(depths)


def token_advantages(
    advantages: torch.Tensor,
    depths: Sequence[Sequence[int | None] | None],
    mask: torch.Tensor,
    beta: float,
    gamma: float,
) -> torch.Tensor:
    """(B, T) token advantages from (B,) completion advantages and each completion's per-token
    depths (None for a completion on plain GRPO; depths are over its first tokens, in order).
    Over each completion's tokens (`mask`), the mean token advantage is its A."""
    B, T = mask.shape
    w = torch.ones(B, T, dtype=advantages.dtype, device=advantages.device)
    for i, ds in enumerate(depths):
        if ds is None or beta == 0 or advantages[i] == 0:
            continue
        sign = 1.0 if advantages[i] > 0 else -1.0
        for k, d in enumerate(ds[:T]):
            if d is not None:
                w[i, k] = max(0.0, 1.0 + beta * sign * gamma**d)
    m = mask.to(w.dtype)
    mean_w = (w * m).sum(1) / m.sum(1).clamp(min=1)
    return advantages[:, None] * w / mean_w.clamp(min=1e-8)[:, None]


@dataclass
class AtcStats:
    """Per step: how much of the completions ATC could credit, and why not the rest."""

    tokens: int = 0
    traced: int = 0
    depth_sum: int = 0
    depth0: int = 0
    aligned: int = 0
    fallback: dict[str, int] = field(default_factory=dict)

    def add(self, a: Alignment, n_tokens: int) -> None:
        self.tokens += n_tokens
        if a.why:
            self.fallback[a.why] = self.fallback.get(a.why, 0) + 1
            return
        self.aligned += 1
        ds = [d for d in a.depths if d is not None]
        self.traced += len(ds)
        self.depth_sum += sum(ds)
        self.depth0 += sum(d == 0 for d in ds)

    @classmethod
    def merged(cls, parts: Sequence[AtcStats]) -> AtcStats:
        """The stats of several ranks' batches as one (counts add up, so rates stay exact)."""
        out = cls()
        for p in parts:
            for name in ("tokens", "traced", "depth_sum", "depth0", "aligned"):
                setattr(out, name, getattr(out, name) + getattr(p, name))
            for why, n in p.fallback.items():
                out.fallback[why] = out.fallback.get(why, 0) + n
        return out

    def metrics(self) -> dict[str, float]:
        out = {
            "atc/traced_share": self.traced / self.tokens if self.tokens else 0.0,
            "atc/aligned": float(self.aligned),
            "atc/fallback": float(sum(self.fallback.values())),
        }
        for why, name in REASONS.items():
            out[f"atc/fallback_{name}"] = float(self.fallback.get(why, 0))
        if self.traced:
            out["atc/mean_depth"] = self.depth_sum / self.traced
            out["atc/depth0_share"] = self.depth0 / self.traced
        return out


def credit(out: dict, traces: Sequence, tokenizer: Any, beta: float, gamma: float) -> AtcStats:
    """Turn a GRPO batch's (B,) advantages (`out["advantages"]`, TRL's batch dict) into (B, T)
    token advantages, from each completion's (text, trace, page) or None (`traces`, in batch
    order); the stats of what could be credited."""
    ids, mask = out["completion_ids"], out["completion_mask"]
    stats, depths = AtcStats(), []
    for i, t in enumerate(traces):
        if t is None:
            depths.append(None)
            continue
        n = int(mask[i].sum())
        a = align(t[0], ids[i, :n].tolist(), t[1], t[2], tokenizer)
        stats.add(a, n)
        depths.append(None if a.why else a.depths)
    out["advantages"] = token_advantages(out["advantages"], depths, mask, beta, gamma)
    return stats
