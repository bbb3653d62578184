"""Labelled near-duplicate sets for measuring dedup quality (pairwise precision and recall).

A group is one request and its re-sent variants (case, width, punctuation, spacing, typos,
clause order, polite prefixes and suffixes); hard negatives are separate groups that share all
boilerplate with another group but change one thing (subject, feature, title, number, colour,
audience). Bases come from three sources: the multilingual templates of the traffic generator,
short zh/en queries over a Zipfian vocabulary (wordfreq, when installed), and real WebGen-Bench
instructions (when a path is given).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import orjson

from cogevol_samples import traffic_lexicon as lx
from cogevol_samples.traffic import html_slots, near_variant, render, sibling, slide_slots

Base = tuple[str, str, Callable[[random.Random], str]]  # (text, lang, make a hard negative)


def _templated(rng: random.Random) -> Base:
    lang = rng.choices(lx.LANGS, lx.LANG_WEIGHTS)[0]
    slots = (slide_slots if rng.random() < 0.5 else html_slots)(rng, lang)
    return render(slots)[0], lang, lambda r: render(sibling(r, slots))[0]


class ShortQueries:
    """Short zh/en requests whose subjects follow real word frequencies (wordfreq lists)."""

    EN = [
        "{v} {a} about {w1} {w2}",
        "{a} on {w1} and {w2} for {aud}",
        "{v} {a} showing {w1} {w2} with {f}",
        "{w1} {w2} {a}",
        "need {a} explaining {w1} to {aud}",
        "{v} {a} for {w1} {w2}",
    ]
    ZH = [
        "{v}{a}，关于{w1}和{w2}",
        "做一个{w1}{w2}的{a}",
        "{w1}{a}，要有{f}",
        "给{aud}讲{w1}{w2}的{a}",
        "{v}一个展示{w1}与{w2}的{a}",
        "关于{w1}的{a}，{f}",
    ]
    VERBS = {
        "en": ["make", "create", "build", "generate", "design"],
        "zh": ["做", "生成", "制作", "设计", "写"],
    }
    ARTIFACTS = {
        "en": [
            "slides",
            "a slide deck",
            "a quiz page",
            "a web game",
            "an interactive chart",
            "a simulation",
            "a lesson ppt",
            "a flashcard page",
            "a timeline page",
        ],
        "zh": [
            "课件",
            "幻灯片",
            "测验网页",
            "小游戏",
            "交互图表",
            "模拟演示",
            "PPT",
            "单词卡网页",
            "时间轴页面",
        ],
    }
    AUDIENCE = {
        "en": ["kids", "7th graders", "beginners", "high school", "my class", "college students"],
        "zh": ["小学生", "初中生", "高中生", "新手", "大学生", "孩子们"],
    }

    def __init__(self, vocab_size: int = 20000):
        import wordfreq

        self.words = {
            "en": [
                w
                for w in wordfreq.top_n_list("en", vocab_size)
                if w.isalpha() and w.isascii() and len(w) >= 4
            ][300:],
            "zh": [
                w
                for w in wordfreq.top_n_list("zh", vocab_size)
                if len(w) >= 2 and all("\u4e00" <= c <= "\u9fff" for c in w)
            ][200:],
        }
        self.cum_weights = {
            k: list(itertools.accumulate(1 / (i + 50) for i in range(len(v))))
            for k, v in self.words.items()
        }

    def _word(self, rng: random.Random, lang: str) -> str:
        return rng.choices(self.words[lang], cum_weights=self.cum_weights[lang])[0]

    def slots(self, rng: random.Random, lang: str) -> dict:
        return {
            "lang": lang,
            "t": rng.randrange(6),
            "v": rng.choice(self.VERBS[lang]),
            "a": rng.choice(self.ARTIFACTS[lang]),
            "w1": self._word(rng, lang),
            "w2": self._word(rng, lang),
            "aud": rng.choice(self.AUDIENCE[lang]),
            "f": rng.choice(lx.FEATURES)[lang],
        }

    def render(self, s: dict) -> str:
        tpl = (self.EN if s["lang"] == "en" else self.ZH)[s["t"]]
        return tpl.format(**{k: v for k, v in s.items() if k not in ("lang", "t")})

    def query(self, rng: random.Random, lang: str | None = None) -> str:
        return self.render(self.slots(rng, lang or rng.choice(("zh", "en"))))

    def base(self, rng: random.Random) -> Base:
        s = self.slots(rng, rng.choice(("zh", "en")))
        text = self.render(s)

        def neg(r: random.Random) -> str:
            # change the subject, audience or feature (not the artifact: its options are synonyms),
            # and never to a word one typo away from the old one
            while True:
                new = dict(s)
                key = r.choice(("w1", "w2", "aud", "f"))
                new[key] = (
                    self._word(r, s["lang"])
                    if key in ("w1", "w2")
                    else self.slots(r, s["lang"])[key]
                )
                if self.render(new) != text and not _close(new[key], s[key]):
                    return self.render(new)

        return text, s["lang"], neg


def _close(a: str, b: str) -> bool:
    return a[:4] == b[:4] or a in b or b in a


def webgen_bases(path: str | Path) -> list[str]:
    return [
        orjson.loads(line)["instruction"]
        for line in Path(path).read_bytes().splitlines()
        if line.strip()
    ]


_WEBGEN_EXTRAS = [
    " The page should also include a dark mode toggle.",
    " Add a search box that filters the list.",
    " Users should also be able to export the results as CSV.",
    " Include a help section for first-time users.",
]
_COLOR_SWAPS = [
    ("white", "ivory"),
    ("navy", "teal"),
    ("blue", "green"),
    ("black", "charcoal"),
    ("red", "orange"),
    ("gray", "beige"),
]


def _webgen(rng: random.Random, text: str) -> Base:
    def neg(r: random.Random) -> str:
        for a, b in r.sample(_COLOR_SWAPS, len(_COLOR_SWAPS)):
            if f" {a}" in text:
                return text.replace(f" {a}", f" {b}", 1)
        return text.rstrip() + r.choice(_WEBGEN_EXTRAS)

    return text, "en", neg


def labelled_set(
    n_groups: int,
    seed: int = 0,
    webgen: str | Path | None = None,
    short_queries: bool = True,
    negative_rate: float = 0.35,
    max_variants: int = 3,
) -> list[dict]:
    """Records {id, text, group, kind} with kind in base / variant / negative."""
    rng = random.Random(seed)
    short = None
    if short_queries:
        try:
            short = ShortQueries()
        except ImportError:
            short = None
    webgen_texts = webgen_bases(webgen) if webgen else []
    rng.shuffle(webgen_texts)
    records: list[dict] = []
    used: set[str] = set()

    def add_group(text: str, lang: str, kind: str) -> None:
        g = len({r["group"] for r in records})
        gid = f"g{g:05d}"
        records.append({"id": f"{gid}-0", "text": text, "group": gid, "kind": kind})
        for k in range(rng.randint(0, max_variants)):
            records.append(
                {
                    "id": f"{gid}-{k + 1}",
                    "text": near_variant(rng, text, lang, rng.randint(1, 2))[0],
                    "group": gid,
                    "kind": "variant",
                }
            )

    groups = 0
    while groups < n_groups:
        roll = rng.random()
        if webgen_texts and roll < 0.15:
            text, lang, neg = _webgen(rng, webgen_texts.pop())
        elif short is not None and roll < 0.55:
            text, lang, neg = short.base(rng)
        else:
            text, lang, neg = _templated(rng)
        if text in used:
            continue
        used.add(text)
        add_group(text, lang, "base")
        groups += 1
        if rng.random() < negative_rate and groups < n_groups:
            other = neg(rng)
            if other not in used:
                used.add(other)
                add_group(other, lang, "negative")
                groups += 1
    return records


def pairwise_scores(truth: list[str], predicted: list[str]) -> dict:
    """Pairwise precision / recall / F1 of a clustering against true groups."""

    def pairs(c: Counter) -> int:
        return sum(v * (v - 1) // 2 for v in c.values())

    tp = pairs(Counter(zip(truth, predicted)))
    pred, true = pairs(Counter(predicted)), pairs(Counter(truth))
    precision = tp / pred if pred else 1.0
    recall = tp / true if true else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "true_pairs": true,
        "predicted_pairs": pred,
        "true_positive_pairs": tp,
    }
