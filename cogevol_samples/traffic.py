"""Seeded generator of realistic production traffic (and of large or labelled query sets).

Why synthetic: real logs cannot be committed (PII, licences). The generator plants what the
curation stages must handle: a slide / interactive-HTML / off-scope mix in eight languages,
exact and near duplicates re-sent by the same user, PII, inadmissible asks, and failures worth
mining (negative feedback, regenerations, heavy edits, render and runtime errors).
The schema it writes is documented in docs/traffic_schema.md and validated by schema.py.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from collections.abc import Iterator

from cogevol_samples import traffic_lexicon as lx

CLIENTS = ("web", "web", "web", "ios", "android", "api", "wechat-miniprogram", "vscode-ext")
MODELS = ("cogevol-prod-2026.09", "cogevol-prod-2026.10")
RENDER_ERRORS = (
    "SyntaxError: Unexpected token '<' at line 41",
    "Uncaught ReferenceError: THREE is not defined",
    "slide renderer: text overflows box 'title' by 38px",
    "blank page: document.body has no visible content",
)
RUNTIME_ERRORS = (
    "TypeError: Cannot read properties of null (reading 'addEventListener')",
    "RangeError: Maximum call stack size exceeded",
    "Uncaught TypeError: ctx.fillRect is not a function",
)


# --------------------------------------------------------------------------- requests


def slide_slots(rng: random.Random, lang: str) -> dict:
    return {
        "kind": "slide",
        "lang": lang,
        "template": rng.randrange(len(lx.SLIDE_TEMPLATES[lang])),
        "topic": rng.randrange(len(lx.TOPICS)),
        "grade": rng.randrange(len(lx.GRADES[lang])),
        "n": rng.randint(5, 15),
        "extra": rng.randrange(len(lx.SLIDE_EXTRAS)),
    }


def html_slots(rng: random.Random, lang: str) -> dict:
    f1, f2 = rng.sample(range(len(lx.FEATURES)), 2)
    quiz_topic = rng.randrange(len(lx.TOPICS)) if rng.random() < 0.5 else None
    return {
        "kind": "html",
        "lang": lang,
        "template": rng.randrange(len(lx.HTML_TEMPLATES[lang])),
        "app": rng.randrange(len(lx.APPS)),
        "feature": f1,
        "feature2": f2,
        "color": rng.randrange(len(lx.COLORS[lang])),
        "quiz_topic": quiz_topic,
    }


def render(slots: dict) -> tuple[str, dict]:
    """Text and metadata of a request described by its slots (see slide_slots / html_slots)."""
    lang = slots["lang"]
    if slots["kind"] == "slide":
        text = lx.SLIDE_TEMPLATES[lang][slots["template"]].format(
            topic=lx.TOPICS[slots["topic"]][lang],
            grade=lx.GRADES[lang][slots["grade"]],
            n=slots["n"],
            extra=lx.SLIDE_EXTRAS[slots["extra"]][lang],
        )
        return text, {"kind": "slide", "subcategory": "lesson"}
    sub, app = lx.APPS[slots["app"]]
    text = lx.HTML_TEMPLATES[lang][slots["template"]].format(
        app=app[lang],
        feature=lx.FEATURES[slots["feature"]][lang],
        feature2=lx.FEATURES[slots["feature2"]][lang],
        color=lx.COLORS[lang][slots["color"]],
    )
    if sub == "quiz" and slots.get("quiz_topic") is not None:
        topic = lx.TOPICS[slots["quiz_topic"]][lang]
        text += {
            "zh": f"，题目关于{topic}",
            "ja": f"。テーマは{topic}",
            "ko": f". 주제는 {topic}",
        }.get(lang, f" ({topic})")
    return text, {"kind": "html", "subcategory": sub}


def sibling(rng: random.Random, slots: dict) -> dict:
    """A different request sharing all boilerplate: one slot (subject, feature, title, number,
    colour, audience) changed. These are the hard negatives of the dedup quality set."""
    sizes = (
        {
            "topic": len(lx.TOPICS),
            "grade": len(lx.GRADES[slots["lang"]]),
            "n": None,
            "extra": len(lx.SLIDE_EXTRAS),
        }
        if slots["kind"] == "slide"
        else {
            "app": len(lx.APPS),
            "feature": len(lx.FEATURES),
            "feature2": len(lx.FEATURES),
            "color": len(lx.COLORS[slots["lang"]]),
        }
    )
    text = render(slots)[0]
    while True:  # the changed slot must show in the text (not every template uses every slot)
        key = rng.choice([k for k, v in sizes.items() if v is None or v > 1])
        new = dict(slots)
        while new[key] == slots[key] or (
            key in ("feature", "feature2")
            and (
                new["feature"] == new["feature2"]
                or {new["feature"], new["feature2"]} == {slots["feature"], slots["feature2"]}
            )
        ):
            new[key] = rng.randint(5, 15) if sizes[key] is None else rng.randrange(sizes[key])
        if render(new)[0] != text:
            return new


def slide_request(rng: random.Random, lang: str) -> tuple[str, dict]:
    return render(slide_slots(rng, lang))


def html_request(rng: random.Random, lang: str) -> tuple[str, dict]:
    return render(html_slots(rng, lang))


def offscope_request(rng: random.Random, lang: str) -> tuple[str, dict]:
    sub = rng.choices(("backend", "chitchat", "unsafe"), (0.5, 0.35, 0.15))[0]
    pool = lx.OFF_SCOPE[sub]
    text = rng.choice(pool.get(lang) or pool["en"])
    return text, {"kind": "off_scope", "subcategory": sub}


def inadmissible_request(rng: random.Random, lang: str) -> tuple[str, dict]:
    axis = rng.choice(list(lx.INADMISSIBLE))
    pool = lx.INADMISSIBLE[axis]
    text = rng.choice(pool.get(lang) or pool["en"])
    kind = (
        "slide"
        if any(k in text.lower() for k in ("ppt", "slide", "课件", "スライド", "diapo", "folie"))
        else "html"
    )
    return text, {"kind": kind, "subcategory": "inadmissible", "inadmissible": axis}


# --------------------------------------------------------------------------- PII


def _phone(rng: random.Random, lang: str) -> str:
    if lang == "zh":
        return f"1{rng.choice('3456789')}{rng.randint(0, 9)}{rng.randint(10000000, 99999999)}"
    if lang == "en":
        return f"({rng.randint(200, 989)}) {rng.randint(200, 989)}-{rng.randint(1000, 9999)}"
    return (
        f"+{rng.choice(['34', '33', '49', '81', '55', '82'])} {rng.randint(600, 699)} "
        f"{rng.randint(100, 999)} {rng.randint(100, 999)}"
    )


def _email(rng: random.Random) -> str:
    user = "".join(rng.choices(string.ascii_lowercase, k=rng.randint(4, 9)))
    return (
        f"{user}{rng.randint(1, 99)}@"
        f"{rng.choice(['gmail.com', 'school.edu', 'qq.com', 'outlook.com', 'mail.de'])}"
    )


def add_pii(rng: random.Random, lang: str, text: str) -> tuple[str, list[str]]:
    """Plant a name, contact details or a student id the way users paste them into requests."""
    planted = []
    roll = rng.random()
    if roll < 0.4:
        text = lx.NAME_INTROS[lang].format(name=rng.choice(lx.NAMES[lang])) + text
        planted.append("name")
    if roll > 0.3:
        text += lx.CONTACT_INTROS[lang].format(email=_email(rng), phone=_phone(rng, lang))
        planted += ["email", "phone"]
    if rng.random() < 0.2:
        sid = (
            f"{rng.randint(110000, 659999)}{rng.randint(1970, 2012)}"
            f"{rng.randint(10, 12)}{rng.randint(10, 28)}{rng.randint(100, 999)}X"
            if lang == "zh"
            else f"{rng.randint(100, 899)}-{rng.randint(10, 99)}-{rng.randint(1000, 9999)}"
        )
        text += f" ID: {sid}"
        planted.append("national_id")
    return text, planted


# --------------------------------------------------------------------------- variants


def typo(rng: random.Random, text: str, lang: str) -> str:
    """One keyboard or homophone typo, the way a user retypes a request."""
    if lang == "zh":
        spots = [i for i, ch in enumerate(text) if ch in lx.ZH_TYPOS]
        if spots:
            i = rng.choice(spots)
            return text[:i] + lx.ZH_TYPOS[text[i]] + text[i + 1 :]
    words = [(i, w) for i, w in enumerate(text.split(" ")) if len(w) >= 5 and w.isalpha()]
    if not words:
        return text
    i, w = rng.choice(words)
    j = rng.randint(1, len(w) - 2)
    op = rng.choice(("swap", "drop", "double", "replace"))
    if op == "swap":
        w2 = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    elif op == "drop":
        w2 = w[:j] + w[j + 1 :]
    elif op == "double":
        w2 = w[:j] + w[j] + w[j:]
    else:
        w2 = w[:j] + rng.choice("aeiounrst") + w[j + 1 :]
    parts = text.split(" ")
    parts[i] = w2
    return " ".join(parts)


def reorder_clauses(rng: random.Random, text: str) -> str:
    for sep in ("，", ", ", "。", ". "):
        parts = [p for p in text.split(sep) if p.strip()]
        if len(parts) >= 2:
            i = rng.randrange(len(parts) - 1)
            parts[i], parts[i + 1] = parts[i + 1], parts[i]
            return sep.join(parts)
    return text


def near_variant(
    rng: random.Random, text: str, lang: str, ops: int | None = None
) -> tuple[str, list[str]]:
    """A re-sent request: same intent, different surface (case, punctuation, spacing, typos,
    clause order, prefixes). Returns the text and the operations applied."""
    choices = ["case", "punct", "space", "typo", "reorder", "prefix", "suffix", "width"]
    applied = rng.sample(choices, ops or rng.randint(1, 3))
    for op in applied:
        if op == "case":
            text = rng.choice((text.lower(), text.upper(), text.capitalize()))
        elif op == "punct":
            text = text.rstrip(".!?。！？") + rng.choice(("", "!!", "?", "...", "。"))
            text = text.replace(", ", ",", 1) if rng.random() < 0.5 else text.replace("，", ",")
        elif op == "space":
            text = (
                "  " + text.replace(" ", "  ", 2) + " "
                if " " in text
                else " ".join(text[:6]) + text[6:]
            )
        elif op == "typo":
            text = typo(rng, text, lang)
        elif op == "reorder":
            text = reorder_clauses(rng, text)
        elif op == "prefix":
            p = rng.choice(lx.PREFIXES[lang])
            text = p + (text[0].lower() + text[1:] if p.endswith(" ") and lang != "de" else text)
        elif op == "suffix":
            text = text.rstrip("。.!！") + rng.choice(lx.SUFFIXES[lang])
        elif op == "width":
            text = text.translate(_FULLWIDTH)
    return text, applied


_FULLWIDTH = str.maketrans(
    {c: chr(ord(c) + 0xFEE0) for c in string.ascii_letters + string.digits + ",.!?"}
)


# --------------------------------------------------------------------------- responses


def _response(rng: random.Random, meta: dict, text: str, broken: bool) -> str:
    if meta["kind"] == "slide":
        slides = "\n".join(f"## Slide {i + 1}\n- point {i + 1}" for i in range(rng.randint(3, 6)))
        body = f"# {text[:40]}\n{slides}"
        return body if not broken else body[: len(body) // 2]
    if meta["kind"] == "html":
        script = (
            "document.getElementById('go').addEventListener('click', "
            "() => { s += 1; out.textContent = s; });"
            if not broken
            else "document.getElementById('start').addEventListener('click', run);"
        )
        return (
            '```html\n<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>App</title>'
            '<style>body{font-family:sans-serif}</style></head>\n<body><button id="go">Go</button>'
            '<output id="out">0</output>\n'
            "<script>let s = 0; const out = document.getElementById('out');\n"
            f"{script}\n</script>"
            "</body></html>\n```"
        )
    if meta["subcategory"] == "unsafe":
        return "I can't help with that."
    return rng.choice(
        ("Sure! Here is how you can do it...", "好的，下面是实现方式……", "Hello! How can I help?")
    )


def _feedback(rng: random.Random, meta: dict) -> tuple[dict, bool]:
    failed = meta["kind"] != "off_scope" and rng.random() < 0.22
    fb: dict = {
        "thumb": None,
        "regenerations": 0,
        "edit_count": 0,
        "render_error": None,
        "runtime_error": None,
    }
    if failed:
        signal = rng.choice(("thumb", "regen", "edits", "render", "runtime", "mixed"))
        if signal in ("thumb", "mixed"):
            fb["thumb"] = "down"
        if signal in ("regen", "mixed"):
            fb["regenerations"] = rng.randint(2, 5)
        if signal == "edits":
            fb["edit_count"] = rng.randint(4, 12)
        if signal == "render":
            fb["render_error"] = rng.choice(RENDER_ERRORS)
        if signal == "runtime" and meta["kind"] == "html":
            fb["runtime_error"] = rng.choice(RUNTIME_ERRORS)
    else:
        fb["thumb"] = rng.choices((None, "up", "down"), (0.6, 0.37, 0.03))[0]
        fb["regenerations"] = rng.choices((0, 1), (0.9, 0.1))[0]
        fb["edit_count"] = rng.choices((0, 1, 2), (0.8, 0.15, 0.05))[0]
    return fb, failed


# --------------------------------------------------------------------------- records


def _iso(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def generate_traffic(n: int, seed: int = 0, start: str = "2026-10-01T00:00:00") -> Iterator[dict]:
    """Yield n conversation records in the documented schema, deterministically for a seed."""
    rng = random.Random(seed)
    t = dt.datetime.fromisoformat(start)
    recent: list[tuple[str, str, dict, str, str]] = []  # (lang, text, meta, session, user)
    for i in range(n):
        t += dt.timedelta(seconds=rng.expovariate(1 / 40))
        if recent and rng.random() < 0.12:
            # The same user re-sends a recent request: verbatim or as a near variant.
            lang, base, meta, session, user = rng.choice(recent[-50:])
            text = base if rng.random() < 0.4 else near_variant(rng, base, lang)[0]
            meta = {**meta, "planted": "duplicate"}
        else:
            lang = rng.choices(lx.LANGS, lx.LANG_WEIGHTS)[0]
            gen = rng.choices(
                (slide_request, html_request, offscope_request, inadmissible_request),
                (0.38, 0.42, 0.13, 0.07),
            )[0]
            text, meta = gen(rng, lang)
            if rng.random() < 0.1:
                text, planted = add_pii(rng, lang, text)
                meta = {**meta, "pii": planted}
            session = f"s-{rng.getrandbits(48):012x}"
            user = f"u-{rng.getrandbits(32):08x}"
            recent.append((lang, text, meta, session, user))
        fb, failed = _feedback(rng, meta)
        reply_at = t + dt.timedelta(seconds=rng.uniform(2, 45))
        messages = [
            {"role": "user", "content": text, "ts": _iso(t)},
            {
                "role": "assistant",
                "content": _response(rng, meta, text, failed),
                "ts": _iso(reply_at),
            },
        ]
        if meta["kind"] != "off_scope" and rng.random() < 0.08:
            follow = {
                "zh": "按钮没反应，能修一下吗？",
                "en": "The button doesn't work, can you fix it?",
            }.get(lang, "It doesn't work, fix it please.")
            messages.append(
                {"role": "user", "content": follow, "ts": _iso(reply_at + dt.timedelta(seconds=30))}
            )
        yield {
            "conversation_id": f"c-{seed:02d}-{i:07d}",
            "session_id": session,
            "user_id": user,
            "created_at": _iso(t),
            "locale": rng.choice(lx.LOCALES[lang]),
            "client": rng.choice(CLIENTS),
            "model": rng.choice(MODELS),
            "messages": messages,
            "feedback": fb,
        }


MALFORMED_LINES: list[tuple[bytes, str]] = [
    (
        b'{"conversation_id": "c-bad-1", "messages": [{"role": "user", "content": "make a quiz',
        "truncated JSON",
    ),
    (
        b'{"conversation_id": "c-bad-2", "created_at": "2026-10-02T10:00:00Z", "locale": "en-US", '
        b'"client": "web", "messages": "make me slides", "feedback": {}}',
        "messages is a string",
    ),
    (
        b'{"conversation_id": "c-bad-3", "created_at": "2026-10-02T10:00:00Z", "locale": "en-US", '
        b'"client": "web", "feedback": {}}',
        "missing messages",
    ),
    (
        b'{"conversation_id": "c-bad-4", "created_at": 1700000000, "locale": "zh-CN", '
        b'"client": "web", "messages": [{"role": "user", '
        b'"content": "\xd7\xf6\xd2\xbb\xb8\xf6\xd3\xce\xcf\xb7"}], "feedback": {}}',
        "GBK bytes, not UTF-8",
    ),
    (b"[1, 2, 3]", "not an object"),
    (
        b'{"conversation_id": "c-bad-6", "created_at": "yesterday", "locale": "en-US", '
        b'"client": "web", "messages": [{"role": "user", "content": "build a snake game"}], '
        b'"feedback": {"regenerations": "many"}}',
        "bad timestamp and feedback types",
    ),
    (
        b'{"conversation_id": "c-bad-7", "created_at": "2026-10-02T10:00:00Z", "locale": "en-US", '
        b'"client": "web", "messages": [{"role": "assistant", "content": "hello"}], '
        b'"feedback": {}}',
        "no user turn",
    ),
    (b"", "empty line"),
]


def write_sample(
    out_dir: str, n: int = 3000, seed: int = 0, malformed: bool = True
) -> dict[str, int]:
    """Write the committed sample: three shards in the three formats mining reads, with the
    malformed lines of MALFORMED_LINES spread through the plain JSONL shard."""
    import gzip
    from pathlib import Path

    import orjson
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    records = list(generate_traffic(n, seed))
    a, b = int(n * 0.4), int(n * 0.8)
    shards = {
        "part-000.jsonl": records[:a],
        "part-001.jsonl.gz": records[a:b],
        "part-002.parquet": records[b:],
    }
    bad = MALFORMED_LINES if malformed else []
    lines = [orjson.dumps(r) for r in shards["part-000.jsonl"]]
    step = max(1, len(lines) // (len(bad) + 1))
    for k, (raw, _why) in enumerate(bad, 1):
        lines.insert(k * step + k - 1, raw)
    (out / "part-000.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    with (
        open(out / "part-001.jsonl.gz", "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f,
    ):
        f.write(b"\n".join(orjson.dumps(r) for r in shards["part-001.jsonl.gz"]) + b"\n")
    pq.write_table(pa.Table.from_pylist(shards["part-002.parquet"]), out / "part-002.parquet")
    return {name: len(recs) for name, recs in shards.items()} | {"malformed": len(bad)}
