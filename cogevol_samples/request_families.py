"""Request families a small student can reach, instantiated over topics, labels, numbers and
languages, with a split that keeps held-out requests new: the held-out learning benchmark's data
(benchmarks/grpo_learning.py).

A request is a family's template sentence filled with a topic, labels and numbers, in one of five
languages. Eight families: a counter, a countdown timer, a chart of given data with a switch, an
arithmetic quiz, a random picker, a list to add to, a unit converter and flashcards. The split
rule, checked by tests/samples/test_request_families.py:

    a family in `HELD_FAMILIES` is never trained on: all its requests are held out (the far
    tier). In every other family each topic and each template sentence belongs to exactly one
    side, and a request is on a side only when both its topic and its template are (the near
    tier holds the trained families' last topics in their last templates),

so no held-out request shares its topic (nor any of the topic's words) or its template sentence
with a training request. Templates are split per family and language (the first ones train, the
last one is held out); topics are split per family (the last `HELD_TOPICS` of each list).

Each request carries the compact page a programmatic teacher writes for it (`reference`): the
SFT data of the training side, like the replay teachers of the CPU default (data/teachers). It is
no oracle for the held-out side: the benchmark never trains on held-out references, and scores
every answer with the probe and the rules-planned checklist, not against the reference.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass
from pathlib import Path

import yaml

DATA = yaml.safe_load((Path(__file__).with_suffix(".yaml")).read_text(encoding="utf-8"))
LANGS = tuple(DATA["ui"])
HELD_TOPICS: int = DATA["held_topics"]  # per family: the last topics of each list
HELD_FAMILIES: tuple[str, ...] = tuple(DATA["held_families"])  # never trained on: the far tier
UI: dict[str, dict[str, str]] = DATA["ui"]  # interface words per language
# family -> [(topic key, {lang: words})]
TOPICS = {f: [(t["key"], t["words"]) for t in ts] for f, ts in DATA["topics"].items()}
TEMPLATES: dict[str, dict[str, list[str]]] = DATA["templates"]  # family -> lang -> sentences
CHART_LABELS: dict[str, list[str]] = DATA["chart_labels"]  # chart topic -> data labels
PICKER_CHOICES: dict[str, list[str]] = DATA["picker_choices"]
CONVERTERS: dict[str, dict] = DATA["converter_factors"]
CARDS: dict[str, list[list[str]]] = DATA["flashcards"]
# quiz topic -> (question, answer) from two drawn numbers
QUIZ_OPS = {
    "add": lambda a, b: (f"{a} + {b}", a + b),
    "sub": lambda a, b: (f"{a} - {b}", a - b),
    "double": lambda a, b: (f"2 x {a}", 2 * a),
    "times3": lambda a, b: (f"3 x {a}", 3 * a),
    "square": lambda a, b: (f"{a} x {a}", a * a),
    "times7": lambda a, b: (f"7 x {a}", 7 * a),
}


@dataclass(frozen=True)
class Request:
    id: str
    family: str
    topic: str  # the topic's key: the split's unit
    template: str  # "family/lang/index": the split's other unit
    lang: str
    split: str  # train | held
    # near: a trained family's held topic and template | far: a family never trained on |
    # "" on the training side
    tier: str = ""
    prompt: str = ""
    reference: str = ""  # the programmatic teacher's compact page

    def as_record(self) -> dict:
        return asdict(self)


def topic_split(family: str, key: str) -> str:
    if family in HELD_FAMILIES:
        return "held"
    keys = [k for k, _ in TOPICS[family]]
    return "held" if keys.index(key) >= len(keys) - HELD_TOPICS else "train"


def template_split(family: str, lang: str, index: int) -> str:
    if family in HELD_FAMILIES:
        return "held"
    return "held" if index == len(TEMPLATES[family][lang]) - 1 else "train"


def _page(lang: str, title: str, body: str, script: str) -> str:
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{title}</title><style>body{{font-family:sans-serif;text-align:center}}</style></head>"
        f"<body><h1>{title}</h1>{body}<script>{script}</script></body></html>"
    )


def _fill(family: str, topic_key: str, rng: random.Random, lang: str) -> tuple[dict, dict]:
    """The template's slots (what the request says) and what the page needs beyond them."""
    ui = UI[lang]
    if family == "counter":
        return {"add": ui["add"], "reset": ui["reset"]}, {}
    if family == "timer":
        return {
            "n": rng.choice([10, 15, 20, 30, 45, 60]),
            "start": ui["start"],
            "reset": ui["reset"],
        }, {}
    if family == "quiz":
        n = rng.choice([3, 4, 5])
        return {"n": n, "check": ui["check"]}, {
            "pairs": [(rng.randint(2, 12), rng.randint(1, 9)) for _ in range(n)]
        }
    if family == "picker":
        return {"pick": ui["pick"]}, {"choices": PICKER_CHOICES[topic_key]}
    if family == "list":
        return {"put": ui["put"]}, {}
    if family == "converter":
        return {"convert": ui["convert"]}, CONVERTERS[topic_key]
    if family == "flashcards":
        return {"flip": ui["flip"], "next": ui["next"]}, {"cards": CARDS[topic_key]}
    labels = CHART_LABELS[topic_key]
    values = [rng.randint(2, 30) for _ in labels]
    data = ", ".join(f"{k} {v}" for k, v in zip(labels, values))
    return {"bars": ui["bars"], "line": ui["line"], "data": data}, {
        "labels": labels,
        "values": values,
    }


def reference_page(
    family: str, topic_key: str, topic: str, lang: str, slots: dict, extra: dict
) -> str:
    ui, title = UI[lang], topic[:1].upper() + topic[1:]
    if family == "counter":
        return _page(
            lang,
            title,
            f'<p id="n" style="font-size:48px">0</p><button id="a">{slots["add"]}</button>'
            f'<button id="r">{slots["reset"]}</button>',
            "let n=0;const o=document.getElementById('n');"
            "a.onclick=()=>{n++;o.textContent=n};r.onclick=()=>{n=0;o.textContent=n};",
        )
    if family == "timer":
        return _page(
            lang,
            title,
            f'<p id="t" style="font-size:48px">{slots["n"]}</p>'
            f'<button id="s">{slots["start"]}</button>'
            f'<button id="r">{slots["reset"]}</button>',
            f"const N={slots['n']};let t=N,h=null;const o=document.getElementById('t');"
            "s.onclick=()=>{if(!h)h=setInterval(()=>{if(t>0)t--;o.textContent=t},1000)};"
            "r.onclick=()=>{clearInterval(h);h=null;t=N;o.textContent=t};",
        )
    if family == "quiz":
        data = json.dumps([QUIZ_OPS[topic_key](a, b) for a, b in extra["pairs"]])
        return _page(
            lang,
            title,
            f'<div id="q"></div><button id="c">{slots["check"]}</button><p id="s"></p>',
            f"const Q={data};const d=document.getElementById('q');"
            "Q.forEach((x,i)=>{d.innerHTML+=`<p>${x[0]} = <input id=i${i} size=4></p>`});"
            "c.onclick=()=>{let k=0;"
            "Q.forEach((x,i)=>{if(+document.getElementById('i'+i).value===x[1])k++});"
            f"document.getElementById('s').textContent='{ui['score']}: '+k+'/'+Q.length}};",
        )
    if family == "picker":
        return _page(
            lang,
            title,
            f'<p id="o" style="font-size:48px">?</p><button id="p">{slots["pick"]}</button>',
            f"const C={json.dumps(extra['choices'])};const o=document.getElementById('o');"
            "p.onclick=()=>{o.textContent=C[Math.floor(Math.random()*C.length)]};",
        )
    if family == "list":
        return _page(
            lang,
            title,
            f'<input id="i"><button id="a">{slots["put"]}</button><ul id="u"></ul>',
            "const i=document.getElementById('i'),u=document.getElementById('u');"
            "a.onclick=()=>{if(!i.value.trim())return;const l=document.createElement('li');"
            "l.textContent=i.value;u.appendChild(l);i.value=''};",
        )
    if family == "converter":
        off = extra.get("offset", 0)
        return _page(
            lang,
            title,
            f'<input id="i" type="number" value="1"> {extra["from"]} '
            f'<button id="c">{slots["convert"]}</button><p id="o"></p>',
            "const i=document.getElementById('i'),o=document.getElementById('o');"
            f"c.onclick=()=>{{o.textContent=(+i.value*{extra['factor']}+{off}).toFixed(2)"
            f"+' {extra['to']}'}};",
        )
    if family == "flashcards":
        return _page(
            lang,
            title,
            '<p id="q" style="font-size:36px"></p><p id="a"></p>'
            f'<button id="f">{slots["flip"]}</button><button id="n">{slots["next"]}</button>',
            f"const K={json.dumps(extra['cards'])};let k=0;const q=document.getElementById('q'),"
            "a=document.getElementById('a');function show(){q.textContent=K[k][0];a.textContent=''}"
            "f.onclick=()=>{a.textContent=K[k][1]};n.onclick=()=>{k=(k+1)%K.length;show()};show();",
        )
    labels, values = extra["labels"], extra["values"]
    return _page(
        lang,
        title,
        '<canvas id="g" width="320" height="200"></canvas><br>'
        f'<button id="b">{slots["bars"]}</button>'
        f'<button id="l">{slots["line"]}</button>',
        f"const L={json.dumps(labels)},V={json.dumps(values)};"
        "const c=document.getElementById('g').getContext('2d');"
        "function draw(m){c.clearRect(0,0,320,200);"
        "const w=300/V.length,k=160/Math.max(...V);c.beginPath();"
        "V.forEach((v,i)=>{const x=10+i*w,y=180-v*k;"
        "if(m)c.fillRect(x+4,y,w-8,v*k);else i?c.lineTo(x+w/2,y):c.moveTo(x+w/2,y);"
        "c.fillText(L[i],x+4,195)});if(!m)c.stroke()}"
        "b.onclick=()=>draw(1);l.onclick=()=>draw(0);draw(1);",
    )


def instantiate(family: str, topic_key: str, lang: str, index: int, rng: random.Random) -> Request:
    topic = dict(TOPICS[family])[topic_key][lang]
    slots, extra = _fill(family, topic_key, rng, lang)
    prompt = TEMPLATES[family][lang][index].format(topic=topic, **slots)
    t, w = topic_split(family, topic_key), template_split(family, lang, index)
    split = t if t == w else "mixed"
    tier = "" if split != "held" else "far" if family in HELD_FAMILIES else "near"
    rid = f"{family}-{topic_key}-{lang}-{index}-{rng.randrange(16**6):06x}"
    return Request(
        rid,
        family,
        topic_key,
        f"{family}/{lang}/{index}",
        lang,
        split,
        tier,
        prompt,
        reference_page(family, topic_key, topic, lang, slots, extra),
    )


def held_out(seed: int = 0, far_topics: int = 2, langs: tuple[str, ...] = LANGS) -> list[Request]:
    """Every distinct held-out request of the two tiers, each once: near, every trained family's
    held topics in every language (its held template); far, `far_topics` topics of each family
    never trained on in every language, the template turning with the topic."""
    rng, out = random.Random(seed), []
    for family in TOPICS:
        keys = [k for k, _ in TOPICS[family] if topic_split(family, k) == "held"]
        far = family in HELD_FAMILIES
        for lang in langs:
            n_templates = len(TEMPLATES[family][lang])
            turn = langs.index(lang)
            picked = [keys[(turn + j) % len(keys)] for j in range(far_topics)] if far else keys
            for j, key in enumerate(picked):
                index = (turn + j) % n_templates if far else n_templates - 1
                out.append(instantiate(family, key, lang, index, rng))
    return out


def build(
    n_train: int, n_held: int, seed: int = 0, langs: tuple[str, ...] = LANGS
) -> dict[str, list[Request]]:
    """`n_train` training and `n_held` held-out requests, balanced over families, round-robin over
    languages, each drawn from its side's topics and templates only (mixed pairs are never made);
    families never trained on (`HELD_FAMILIES`) are drawn for the held-out side only."""
    rng = random.Random(seed)
    out: dict[str, list[Request]] = {"train": [], "held": []}
    for split, n in (("train", n_train), ("held", n_held)):
        families = [f for f in TOPICS if split == "held" or f not in HELD_FAMILIES]
        for i in range(n):
            family, lang = families[i % len(families)], langs[(i // len(families)) % len(langs)]
            topics = [k for k, _ in TOPICS[family] if topic_split(family, k) == split]
            indices = [
                j
                for j in range(len(TEMPLATES[family][lang]))
                if template_split(family, lang, j) == split
            ]
            out[split].append(
                instantiate(family, rng.choice(topics), lang, rng.choice(indices), rng)
            )
    return out


def leaks(train: list[Request], held: list[Request]) -> list[str]:
    """What a held-out request shares with the training side (empty: the split holds): a topic
    key, a template, or a topic's words appearing in a training request's text."""
    found = []
    train_topics = {(r.family, r.topic) for r in train}
    train_templates = {r.template for r in train}
    train_text = " ".join(r.prompt.lower() for r in train)
    for r in held:
        if (r.family, r.topic) in train_topics:
            found.append(f"{r.id}: topic {r.topic} is trained on")
        if r.template in train_templates:
            found.append(f"{r.id}: template {r.template} is trained on")
        words = dict(TOPICS[r.family])[r.topic][r.lang].lower()
        if words in train_text:
            found.append(f"{r.id}: topic words {words!r} appear in a training request")
    return found
