"""Action-Trace Credit: the token-advantage arithmetic on hand-made cases, and the alignment of a
page's traced byte spans to a completion's tokens (byte-level tokenizers, the tiny one and
SmolLM2's; a fast tokenizer through offsets), exact or refused."""

import asyncio
import hashlib
from dataclasses import replace

import pytest
import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast

from cogevol.probe import ProbeConfig
from cogevol.scoring import ScoringSettings
from cogevol.scoring.local import score_pages
from cogevol.train.atc import (
    DRIFT,
    NO_PAGE,
    TOKENS,
    AtcStats,
    align,
    credit,
    token_advantages,
    token_spans,
)
from cogevol.train.tokenizer import train_bpe, wrap
from tests.probe.test_trace import COUNTER, line_span

MASK = torch.tensor([[1, 1, 1, 1, 0], [1, 1, 1, 1, 0]])


def test_positive_advantage_pushes_traced_tokens_harder_and_the_mean_stays_a():
    adv = token_advantages(torch.tensor([1.0]), [[0, None, 1, None]], MASK[:1], beta=0.5, gamma=0.9)
    w = torch.tensor([1.5, 1.0, 1.45, 1.0, 1.0])  # 1 + 0.5 * 0.9**d; untraced 1
    expect = w / w[:4].mean()
    assert torch.allclose(adv[0], expect)
    assert adv[0, 0] > adv[0, 2] > adv[0, 1] and torch.isclose(adv[0, :4].mean(), torch.tensor(1.0))


def test_negative_advantage_pushes_traced_tokens_less():
    adv = token_advantages(torch.tensor([-2.0]), [[0, None, None, None]], MASK[:1], beta=0.5, gamma=0.9)
    assert -2.0 < adv[0, 0] < 0 and adv[0, 1] < -2.0  # traced: a weaker negative update
    assert torch.isclose(adv[0, :4].mean(), torch.tensor(-2.0))


def test_beta_zero_untraced_and_zero_advantages_are_exactly_plain_grpo():
    a = torch.tensor([0.7, -0.3])
    plain = a[:, None].expand(2, 5)
    assert torch.equal(token_advantages(a, [[0, 1, 2, 3], [0, 0, 0, 0]], MASK, beta=0.0, gamma=0.9), plain)
    assert torch.equal(token_advantages(a, [None, None], MASK, beta=0.5, gamma=0.9), plain)
    zero = token_advantages(torch.tensor([0.0, 0.0]), [[0, 0, 0, 0]] * 2, MASK, beta=0.5, gamma=0.9)
    assert torch.equal(zero, torch.zeros(2, 5))


def tiny_tokenizer():
    texts = ["<button onclick=\"go()\">Go</button> function bump(n) { return n + 1; } Zähler 🎯"] * 50
    return wrap(train_bpe(texts, 400, min_frequency=1), 4096)


def offsets_tokenizer():
    """A fast tokenizer that is not byte-level (SentencePiece-style Metaspace): mapped through
    its offsets."""
    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer, tok.decoder = pre_tokenizers.Metaspace(), decoders.Metaspace()
    tok.train_from_iterator([completion_with(COUNTER)] * 5, trainers.BpeTrainer(vocab_size=300, special_tokens=["[UNK]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]")


def completion_with(page: str) -> str:
    return f"Here is the page:\n```html\n{page}\n```\nEnjoy, Zähler 🎯!"


def expected(text: str, toks: list[tuple[int, int]], page_spans: dict[tuple[int, int], int]) -> list:
    """By brute force: a token is traced when all its bytes are in the page's traced spans."""
    base = text.encode().index(COUNTER.encode())
    out = []
    for s, e in toks:
        holding = [[d for (a, b), d in page_spans.items() if a <= x - base < b] for x in range(s, e)]
        out.append(max(min(h) for h in holding) if e > s and all(holding) else None)
    return out


PAGE_SPANS = {line_span(COUNTER, "function bump"): 0, line_span(COUNTER, "function show"): 0,
              line_span(COUNTER, "function onInc"): 1}
PAGE = {"sha256": hashlib.sha256(COUNTER.encode()).hexdigest(), "bytes": len(COUNTER.encode())}
TRACE = [{"start": s, "end": e, "depth": d} for (s, e), d in PAGE_SPANS.items()]


@pytest.mark.parametrize("make", [tiny_tokenizer, offsets_tokenizer])
def test_alignment_is_exact_on_known_spans(make):
    tok = make()
    text = completion_with(COUNTER)
    ids = tok(text, add_special_tokens=False).input_ids
    text = tok.decode(ids)
    assert text == completion_with(COUNTER)
    toks = token_spans(tok, ids, text)
    data = text.encode()
    assert toks is not None and all(a <= b for (_, a), (b, _) in zip(toks, toks[1:])) and toks[-1][1] == len(data)
    a = align(text, ids, TRACE, PAGE, tok)
    assert a.why == "" and a.depths == expected(text, toks, PAGE_SPANS) and a.traced > 10
    # every traced token lies inside one of the three functions, at its depth
    assert {d for d in a.depths if d is not None} == {0, 1}


def test_special_tokens_spell_nothing_and_an_unprovable_alignment_falls_back():
    tok = tiny_tokenizer()
    text = completion_with(COUNTER)
    ids = tok(text, add_special_tokens=False).input_ids + [tok.convert_tokens_to_ids("<|im_end|>")]
    assert align(text, ids, TRACE, PAGE, tok).why == ""
    assert align(text, ids, TRACE, {**PAGE, "sha256": "0" * 64}, tok).why == DRIFT
    assert align("no page here", ids, TRACE, PAGE, tok).why == NO_PAGE
    assert align(text + " extra", ids, TRACE, PAGE, tok).why == TOKENS  # ids no longer spell it
    stats = AtcStats()
    stats.add(align(text, ids, TRACE, PAGE, tok), len(ids))
    stats.add(align(text, ids, TRACE, {**PAGE, "bytes": 1}, tok), len(ids))
    m = stats.metrics()
    assert m["atc/aligned"] == 1 and m["atc/fallback"] == 1 and 0 < m["atc/traced_share"] < 0.5
    assert m["atc/fallback_drift"] == 1 and m["atc/fallback_tokens"] == 0
    assert 0 < m["atc/depth0_share"] < 1 and 0 < m["atc/mean_depth"] < 1


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_the_probes_trace_aligns_to_exactly_the_tokens_of_the_functions_that_ran():
    """End to end: the real probe's trace of a page inside a completion, on the tiny tokenizer."""
    text = completion_with(COUNTER)
    settings = replace(ScoringSettings(), probe=replace(ProbeConfig(), trace=True))
    rec = asyncio.run(score_pages([("counter", COUNTER)], settings))[0]
    tok = tiny_tokenizer()
    ids = tok(text, add_special_tokens=False).input_ids
    a = align(text, ids, rec["trace"], rec["trace_page"], tok)
    assert a.why == "" and a.depths == expected(text, token_spans(tok, ids, text), PAGE_SPANS)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_smollm2s_tokenizer_aligns_exactly():
    from transformers import AutoTokenizer

    from cogevol.train.packaged import gguf_path

    p = gguf_path("smollm2-135m")
    tok = AutoTokenizer.from_pretrained(str(p.parent), gguf_file=p.name)
    text = completion_with(COUNTER)
    ids = tok(text, add_special_tokens=False).input_ids
    a = align(tok.decode(ids, skip_special_tokens=True), ids, TRACE, PAGE, tok)
    assert a.why == "" and a.depths == expected(text, token_spans(tok, ids, text), PAGE_SPANS)


def test_credit_rewrites_a_grpo_batch_and_leaves_untraced_completions_plain():
    tok = tiny_tokenizer()
    text = completion_with(COUNTER)
    ids = tok(text, add_special_tokens=False).input_ids
    T = len(ids) + 2
    batch = {"completion_ids": torch.tensor([ids + [0, 0], ids + [0, 0]]),
             "completion_mask": torch.tensor([[1] * len(ids) + [0, 0]] * 2),
             "advantages": torch.tensor([0.5, -0.5])}
    stats = credit(batch, [(text, TRACE, PAGE), None], tok, beta=0.5, gamma=0.9)
    adv = batch["advantages"]
    assert adv.shape == (2, T) and torch.equal(adv[1], torch.full((T,), -0.5))
    assert torch.isclose(adv[0, : len(ids)].mean(), torch.tensor(0.5)) and adv[0].max() > 0.5
    assert stats.aligned == 1 and stats.traced > 0
