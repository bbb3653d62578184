"""Slide decks under the cogevol-slides/1 contract, from the lessons in data/teachers/lessons.yaml.

Each lesson: title / subtitle, an illustration, a key-points slide, a data slide (chart, table or
worked examples) and the extra the request asked for (quiz, discussion questions, timeline,
concept map, table). Good decks keep one title size and place, at most three body sizes, and
boxes sized from an estimate of the wrapped text; defective decks carry the mistakes models make.
"""

from __future__ import annotations

import json
import re

from .data import lessons, strings

TITLE_SIZE, TITLE_BOX = 40, (60, 36, 1160, 64)  # every slide's title: one size, one place
_CJK = r"\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
_WIDE = re.compile(f"[{_CJK}]")
_TOKENS = re.compile(f"[{_CJK}]|[^\\s{_CJK}]+\\s*|\\s+")


def _em(token: str) -> float:
    """Approximate advance width of a token in em (sans fonts)."""
    w = 0.0
    for ch in token:
        w += 1.0 if _WIDE.match(ch) else 0.28 if ch == " " else 0.62 if ch.isupper() else 0.55
    return w


def _lines(text: str, width_px: float, size: float) -> int:
    """Lines a paragraph wraps to: greedy over words (Latin) and single characters (CJK)."""
    n = 0
    for para in text.split("\n"):
        line, n = 0.0, n + 1
        for t in _TOKENS.findall(para):
            w = _em(t) * size
            if line and line + _em(t.rstrip()) * size > width_px:
                n += 1
                line = w
            else:
                line += w
    return n


def text_h(text: str, w: float, size: float) -> float:
    n = _lines(text, w, size)
    return (n + (n > 1)) * 1.25 * size + 8  # a spare line when it wraps: browsers break less greedily


def bullets_h(items: list[str], w: float, size: float) -> float:
    return sum(_lines(i, w - 1.3 * size, size) for i in items) * 1.25 * size + len(items) * 0.35 * size + 8


def table_h(rows: int, size: float) -> float:
    return (rows + 1) * (size * 1.25 + size * 0.6 + 1) + 6


def E(kind: str, x: float, y: float, w: float, h: float, **props) -> dict:
    """One element, keys in the order models write them: type, content, box."""
    return {"type": kind, **props, "x": round(x), "y": round(y), "w": round(w), "h": round(h)}


def _title(text: str) -> dict:
    return E("title", *TITLE_BOX, text=text, size=TITLE_SIZE)


def _tint(hex_colour: str) -> str:
    """The accent mixed 85% with white: a card background."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * 0.85):02x}" for c in (r, g, b))


def _cover(L: dict) -> list[dict]:
    accent = L["theme"]["accent"]
    return [_title(L["title"]), E("shape", 60, 116, 180, 8, shape="rect", fill=accent),
            E("text", 60, 140, 1160, 56, text=L["subtitle"], size=28, color=accent),
            E("image", 60, 220, 1160, 450, alt=L["cover"])]


def _agenda(L: dict) -> list[dict]:
    items = [L["points_title"], L["data_title"], L["extra"]["title"]]
    return [_title(L["title"]), E("text", 60, 130, 640, 56, text=L["subtitle"], size=28, color=L["theme"]["accent"]),
            E("shape", 60, 200, 640, 6, shape="line", stroke=L["theme"]["accent"]),
            E("bullets", 60, 230, 640, bullets_h(items, 640, 28), items=items, size=28),
            E("image", 760, 130, 460, 540, alt=L["cover"])]


def _points_a(L: dict, subtitle: bool = False) -> list[dict]:
    els = [_title(L["points_title"] if not subtitle else L["title"])]
    y = 130
    if subtitle:
        els.append(E("text", 60, y, 660, 50, text=L["subtitle"], size=28, color=L["theme"]["accent"]))
        y += 70
    size = 28
    h = bullets_h(L["points"], 660, size)
    els += [E("bullets", 60, y, 660, h, items=L["points"], size=size), E("image", 780, 130, 440, 420, alt=L["picture"])]
    return els


def _points_b(L: dict) -> list[dict]:
    """The key points as four cards."""
    els = [_title(L["points_title"])]
    tint = _tint(L["theme"]["accent"])
    for k, point in enumerate(L["points"]):
        x, y = 60 + (k % 2) * 600, 130 + (k // 2) * 280
        els += [E("shape", x, y, 560, 250, shape="rect", fill=tint),
                E("text", x + 30, y + 30, 500, text_h(point, 500, 28), text=point, size=28)]
    return els


def _data(L: dict, chart_right: bool) -> list[dict]:
    els = [_title(L["data_title"])]
    note_size = 24
    if "chart" in L:
        cx = 500 if chart_right else 60
        nx = 60 if chart_right else 860
        els.append(E("chart", cx, 130, 720, 520, **L["chart"]))
        els.append(E("text", nx, 160, 360, text_h(L["note"], 360, note_size), text=L["note"], size=note_size))
    elif "table" in L:
        t = L["table"]
        h = table_h(len(t["rows"]), 24)
        els.append(E("table", 60, 130, 1160, h, header=t["header"], rows=t["rows"], size=24))
        els.append(E("text", 60, 130 + h + 30, 1160, text_h(L["note"], 1160, 28), text=L["note"], size=28,
                     color=L["theme"]["accent"]))
    else:  # worked examples in boxes
        tint = _tint(L["theme"]["accent"])
        for k, ex in enumerate(L["examples"]):
            x = 60 + k * 600
            els += [E("shape", x, 140, 560, 300, shape="rect", fill=tint),
                    E("text", x + 40, 170, 480, text_h(ex, 480, 40), text=ex, size=40)]
        els.append(E("text", 60, 480, 1160, text_h(L["note"], 1160, 28), text=L["note"], size=28, color=L["theme"]["accent"]))
    return els


def _extra(L: dict, style: str) -> list[dict]:
    kind, content = L["extra"]["kind"], L["extra"]["content"]
    accent, tint = L["theme"]["accent"], _tint(L["theme"]["accent"])
    els = [_title(L["extra"]["title"])]
    if kind == "quiz":
        if style == "a":
            els.append(E("bullets", 60, 130, 1000, bullets_h(content, 1000, 28), items=content, size=28))
        else:  # one card per question, two columns
            for k, q in enumerate(content):
                x, y = 60 + (k % 2) * 600, 130 + (k // 2) * 270
                els += [E("shape", x, y, 560, 240, shape="rect", fill=tint),
                        E("text", x + 25, y + 25, 510, text_h(q, 510, 28), text=q, size=28)]
    elif kind == "discussion":
        for k, q in enumerate(content):
            x, y, w, h = (60, 140 + k * 270, 1160, 230) if style == "a" else (60 + k * 600, 140, 560, 500)
            els += [E("shape", x, y, w, h, shape="rect", fill=tint),
                    E("text", x + 30, y + 30, w - 60, text_h(q, w - 60, 28), text=q, size=28)]
    elif kind == "timeline":
        if style == "a":
            els.append(E("shape", 60, 300, 1160, 6, shape="line", stroke=accent))
            for k, (year, what) in enumerate(content):
                x = 60 + k * 295
                els += [E("shape", x, 288, 30, 30, shape="ellipse", fill=accent),
                        E("text", x, 214, 250, 48, text=year, size=28, bold=True, color=accent),
                        E("text", x, 340, 260, text_h(what, 260, 24), text=what, size=24)]
        else:
            rows = [[y, w] for y, w in content]
            els.append(E("table", 60, 140, 1160, table_h(len(rows), 26), header=L["extra"]["header"], rows=rows, size=26))
    elif kind == "concept":
        center, *leaves = content
        els += [E("shape", 470, 300, 340, 130, shape="ellipse", fill=accent),
                E("text", 500, 342, 280, 48, text=center, size=28, bold=True, color="#ffffff", align="center")]
        spots = [(60, 310, 330, 110), (890, 310, 330, 110), (475, 130, 330, 100), (475, 550, 330, 100)]
        links = [(390, 361, 80, 8), (810, 361, 80, 8), (639, 230, 2, 70), (639, 430, 2, 120)]
        for (x, y, w, h), line, leaf in zip(spots, links, leaves):
            els += [E("shape", *line, shape="line", stroke=accent), E("shape", x, y, w, h, shape="rect", fill=tint),
                    E("text", x + 15, y + (h - 44) / 2, w - 30, 44, text=leaf, size=24, align="center")]
    elif kind == "table":
        h = table_h(len(content["rows"]), 24)
        if style == "a":
            els.append(E("table", 60, 130, 1160, h, header=content["header"], rows=content["rows"], size=24))
        else:
            els += [E("table", 60, 130, 720, h, header=content["header"], rows=content["rows"], size=22),
                    E("image", 820, 130, 400, 400, alt=L["picture"])]
    return els


def deck(lesson: str, variant: str) -> dict:
    L = lessons()[lesson]
    if variant == "1":
        slides = [_cover(L), _points_a(L), _data(L, chart_right=False), _extra(L, "a")]
    elif variant == "2":
        slides = [_agenda(L), _points_b(L), _data(L, chart_right=True), _extra(L, "b")]
    else:  # a shorter deck: title on the first content slide
        slides = [_points_a(L, subtitle=True), _data(L, chart_right=True), _extra(L, "a")]
    theme = dict(L["theme"])
    if variant == "2":
        theme["font"] = "serif" if theme["font"] == "sans" else "sans"
    return {"version": "cogevol-slides/1", "theme": theme, "slides": [{"elements": s} for s in slides]}


# --- defective decks: the mistakes models make on this contract --------------------------------

def _boxes(d: dict, kinds: tuple[str, ...]):
    return (e for s in d["slides"] for e in s["elements"] if e["type"] in kinds)


def break_deck(d: dict, defect: str) -> dict:
    d = json.loads(json.dumps(d))  # a deep copy
    if defect == "overlap":  # everything after the title slides up onto the element before it
        for s in d["slides"]:
            body = [e for e in s["elements"] if e["type"] not in ("shape", "title")]
            for prev, e in zip(body, body[1:]):
                e["x"] = min(prev["x"] + prev["w"] // 4, 1270 - e["w"])
                e["y"] = min(prev["y"] + min(prev["h"], 200) // 3, 710 - e["h"])
            if body:
                body[0]["y"] = 70  # and the first block climbs under the title
    elif defect == "overflow":  # long text, boxes sized for a third of it
        for e in _boxes(d, ("bullets", "text", "table", "title")):
            if e["type"] == "title":
                e["w"], e["h"] = 520, 40
                continue
            e["h"] = max(24, e["h"] // 4)
            if e["type"] == "bullets":
                e["items"] = [i + " " + i for i in e["items"]]
    elif defect == "tiny_font":  # everything squeezed to fit: 9 px body, 14 px titles
        for e in _boxes(d, ("bullets", "text", "table", "title")):
            e["size"] = 14 if e["type"] == "title" else 9
    elif defect == "broken_chart":  # a flat strip of a chart with no data in it
        for e in _boxes(d, ("chart",)):
            e["h"], e["w"], e["y"] = 90, 1160, 560
            for s in e["series"]:
                s["values"] = [0 for _ in s["values"]]
    elif defect == "invalid_missing_field":  # boxes half written, a chart without categories
        for e in _boxes(d, ("bullets", "image", "table")):
            e.pop("h", None)
        for e in _boxes(d, ("chart",)):
            e.pop("categories", None)
    else:
        raise ValueError(f"unknown slide defect {defect!r}")
    return d


def slide_response(lang: str, lesson: str, intended: str, variant: str, n: int) -> str:
    d = deck(lesson, variant)
    if intended == "invalid_json_prose":  # chatty, with JSON5-isms (comments, trailing commas) a parser rejects
        intros = strings()["slide_intros"]
        before, after = intros.get(lang, intros["en"])
        body = json.dumps(d, ensure_ascii=False, indent=2)
        body = body.replace('"slides": [', '"slides": [ // 4 slides', 1).replace("}\n  ]\n}", "},\n  ]\n}")
        body = re.sub(r'("size": \d+)\n', r'\1,\n', body, count=3)
        return f"{before}\n\n{body}\n\n{after}"
    if intended != "good":
        d = break_deck(d, intended)
    if n % 2:
        return "```json\n" + json.dumps(d, ensure_ascii=False, indent=2) + "\n```"
    return json.dumps(d, ensure_ascii=False, indent=1)
