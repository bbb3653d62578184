"""Small synthetic inputs with the exact shape of the real ones, for tests and benchmarks.

The training stages read the distill stage's SFT dataset and the filter stage's prompts; tests
and benchmarks/train_speed.py must not depend on those stages having run. These records follow
the same contracts (data.SFT_COLUMNS; prompts.jsonl's id / prompt / category / subcategory),
with a working HTML page (a live counter the probe accepts) and a valid cogevol-slides/1 deck.
"""

from __future__ import annotations

import json
import random

from datasets import Dataset

from cogevol.prompts import system_prompt

TOPICS = [
    "volcanoes",
    "photosynthesis",
    "fractions",
    "the water cycle",
    "gravity",
    "the solar system",
    "prime numbers",
    "the French revolution",
    "cells",
    "magnets",
    "rainforests",
    "electric circuits",
]
HTML_ASKS = [
    "Make an interactive page about {t} with a button that counts clicks",
    "Build a small HTML quiz about {t} with a score counter",
    "Create a web page on {t} where a button reveals the next fact",
]
SLIDE_ASKS = [
    "Make a 1-slide deck about {t} for 7th grade",
    "Create a title slide and key points on {t}",
    "Slides summarising {t} with three bullet points",
]


def html_page(topic: str) -> str:
    """A self-contained page whose button changes visible state (the probe calls it live)."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{topic.title()}</title>\n"
        "<style>\nbody { font-family: sans-serif; margin: 16px; }\n"
        "button { padding: 8px 16px; }\n</style>\n</head>\n<body>\n"
        f'<h1>{topic.title()}</h1>\n<p id="out">Clicks: 0</p>\n<button id="b">Next</button>\n'
        "<script>\nlet n = 0;\ndocument.getElementById('b').addEventListener('click', () => {\n"
        "  n += 1;\n  document.getElementById('out').textContent = 'Clicks: ' + n;\n"
        "});\n</script>\n"
        "</body>\n</html>"
    )


def slide_deck(topic: str) -> str:
    """A one-slide cogevol-slides/1 deck with a title and bullets that fit their boxes."""
    deck = {
        "version": "cogevol-slides/1",
        "theme": {"background": "#ffffff", "text": "#1f2937", "accent": "#2563eb", "font": "sans"},
        "slides": [
            {
                "elements": [
                    {
                        "type": "title",
                        "text": topic.title(),
                        "x": 80,
                        "y": 40,
                        "w": 1120,
                        "h": 100,
                        "size": 44,
                    },
                    {
                        "type": "bullets",
                        "items": [f"What {topic} are", f"Why {topic} matter", "One example"],
                        "x": 80,
                        "y": 180,
                        "w": 1120,
                        "h": 440,
                        "size": 28,
                    },
                ]
            }
        ],
    }
    return json.dumps(deck, ensure_ascii=False)


def prompt_records(n: int, seed: int = 0) -> list[dict]:
    """`n` records shaped like data/curated/prompts/prompts.jsonl, alternating slide / html."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        modality = "slide" if k % 2 == 0 else "html"
        topic = rng.choice(TOPICS)
        ask = rng.choice(SLIDE_ASKS if modality == "slide" else HTML_ASKS).format(t=topic)
        out.append(
            {
                "id": f"syn-{k:04d}",
                "prompt": ask,
                "category": modality,
                "subcategory": "deck" if modality == "slide" else "page",
            }
        )
    return out


def sft_dataset(n: int, seed: int = 0) -> Dataset:
    """`n` conversations in the distill stage's output contract."""
    rows = []
    for k, r in enumerate(prompt_records(n, seed)):
        topic = next((t for t in TOPICS if t in r["prompt"]), TOPICS[0])
        target = slide_deck(topic) if r["category"] == "slide" else html_page(topic)
        rows.append(
            {
                "messages": [
                    {"role": "system", "content": system_prompt(r["category"])},
                    {"role": "user", "content": r["prompt"]},
                    {"role": "assistant", "content": target},
                ],
                "modality": r["category"],
                "category": r["subcategory"],
                "prompt_id": r["id"],
                "teacher": "synthetic",
                "candidate": k % 3,
                "score": 1.0,
            }
        )
    return Dataset.from_list(rows)
