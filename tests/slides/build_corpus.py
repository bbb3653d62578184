"""Writes the labelled slide corpus in tests/slides/corpus (run: python tests/slides/build_corpus.py).

Ten lessons, each as a clean deck and defective twins of the same content, every twin broken
in exactly one way (the label says which, and which rule must see it). The defect transforms are
the mistakes models make under the contract: boxes placed on top of each other, text that does
not fit its box, tiny fonts, empty slides, charts with no data or too many labels for their
width, elements off the canvas, output that breaks the contract.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

OUT = Path(__file__).parent / "corpus"
V = "cogevol-slides/1"


def title(text: str, y: float = 40) -> dict:
    return {"type": "title", "text": text, "x": 60, "y": y, "w": 1160, "h": 70, "size": 40}


def bullets(items: list[str], x: float = 60, y: float = 140, w: float = 540, h: float = 320, size: float = 24) -> dict:
    return {"type": "bullets", "items": items, "x": x, "y": y, "w": w, "h": h, "size": size}


def chart(kind: str, title_: str, cats: list[str] | None, series: list[dict], x=660, y=140, w=560, h=400) -> dict:
    el = {"type": "chart", "chart": kind, "title": title_, "series": series, "x": x, "y": y, "w": w, "h": h}
    if cats is not None:
        el["categories"] = cats
    return el


def deck(*slides: list[dict], theme: dict | None = None) -> dict:
    d = {"version": V, "slides": [{"elements": s} for s in slides]}
    if theme:
        d["theme"] = theme
    return d


LESSONS = {
    "photosynthesis": deck([
        title("Photosynthesis"),
        bullets(["Light reactions make ATP", "The Calvin cycle fixes CO2", "Oxygen is a by-product"]),
        chart("bar", "Rate by light level", ["Low", "Mid", "High"], [{"name": "Rate", "values": [2, 5, 7]}]),
        {"type": "image", "alt": "A leaf in sunlight", "x": 60, "y": 480, "w": 540, "h": 190},
    ]),
    "water_cycle": deck([
        title("The water cycle"),
        {"type": "image", "alt": "Diagram: evaporation, condensation, precipitation", "x": 60, "y": 140, "w": 600, "h": 520},
        bullets(["Evaporation from oceans", "Condensation into clouds", "Precipitation as rain or snow",
                 "Collection in rivers and lakes"], x=700, w=520, h=400),
    ], [
        title("Where the water is"),
        chart("pie", "Earth's water", ["Oceans", "Ice", "Ground", "Lakes"],
              [{"name": "Share", "values": [96.5, 1.7, 1.7, 0.1]}], x=60, y=130, w=600, h=540),
        {"type": "text", "text": "Almost all water is salty: fresh water we can drink is under 1%.",
         "x": 700, "y": 160, "w": 520, "h": 160, "size": 26},
    ]),
    "fractions": deck([
        title("Adding fractions"),
        {"type": "text", "text": "To add fractions, first find a common denominator.", "x": 60, "y": 140,
         "w": 1160, "h": 50, "size": 28},
        {"type": "shape", "shape": "rect", "fill": "#dbeafe", "x": 60, "y": 220, "w": 540, "h": 300},
        {"type": "text", "text": "1/2 + 1/3\n= 3/6 + 2/6\n= 5/6", "x": 90, "y": 250, "w": 480, "h": 240, "size": 40},
        bullets(["Multiply denominators", "Scale each numerator", "Add the numerators", "Simplify"],
                x=660, y=220, w=560, h=300),
    ]),
    "ww1_timeline": deck([
        title("First World War: key dates"),
        {"type": "table", "header": ["Year", "Event"], "rows": [
            ["1914", "Assassination in Sarajevo"], ["1916", "Battle of the Somme"],
            ["1917", "United States enters the war"], ["1918", "Armistice on 11 November"]],
            "x": 60, "y": 140, "w": 760, "h": 300, "size": 22},
        {"type": "image", "alt": "Map of the Western Front", "x": 860, "y": 140, "w": 360, "h": 300},
        {"type": "text", "text": "About 17 million people died.", "x": 60, "y": 480, "w": 760, "h": 50, "size": 24},
    ]),
    "solar_system": deck([
        title("Planets by diameter"),
        chart("bar", "Diameter (thousand km)", ["Mercury", "Venus", "Earth", "Mars", "Jupiter"],
              [{"name": "Diameter", "values": [4.9, 12.1, 12.7, 6.8, 139.8]}], x=60, y=130, w=760, h=540),
        bullets(["Jupiter is 11 Earths wide", "Venus is Earth's twin in size", "Mars is about half of Earth"],
                x=860, y=150, w=360, h=400, size=22),
    ]),
    "french_verbs": deck([
        title("Le présent : verbes en -er"),
        bullets(["je parle", "tu parles", "il / elle parle"], x=60, y=150, w=540, h=260, size=28),
        bullets(["nous parlons", "vous parlez", "ils / elles parlent"], x=680, y=150, w=540, h=260, size=28),
        {"type": "text", "text": "Terminaisons : -e, -es, -e, -ons, -ez, -ent", "x": 60, "y": 480, "w": 1160,
         "h": 60, "size": 28, "align": "center"},
    ], theme={"background": "#fffbeb", "text": "#1f2937", "accent": "#b45309", "font": "serif"}),
    "population": deck([
        title("World population"),
        chart("line", "Billions of people", ["1950", "1970", "1990", "2010", "2020"],
              [{"name": "World", "values": [2.5, 3.7, 5.3, 6.9, 7.8]}], x=60, y=130, w=720, h=540),
        {"type": "text", "text": "Population tripled in seventy years, and growth is now slowing.",
         "x": 820, "y": 160, "w": 400, "h": 200, "size": 26},
    ]),
    "market_share": deck([
        title("Energy sources"),
        chart("pie", "Electricity by source", ["Coal", "Gas", "Hydro", "Nuclear", "Wind and solar"],
              [{"name": "Share", "values": [36, 23, 15, 10, 12]}], x=60, y=130, w=620, h=540),
        bullets(["Coal is still the largest source", "Wind and solar grow fastest"], x=720, y=160, w=500, h=240),
    ], [
        title("Change since 2010"),
        chart("bar", "Percentage points", ["Coal", "Gas", "Hydro", "Nuclear", "Wind and solar"],
              [{"name": "Change", "values": [-4, 1, -1, -3, 10]}], x=60, y=130, w=1160, h=540),
    ]),
    "pythagoras": deck([
        title("Pythagoras' theorem"),
        {"type": "shape", "shape": "ellipse", "fill": "#fde68a", "x": 80, "y": 150, "w": 420, "h": 420},
        {"type": "text", "text": "a² + b² = c²", "x": 150, "y": 320, "w": 280, "h": 70, "size": 44, "align": "center"},
        bullets(["c is the hypotenuse", "Works only for right triangles", "3, 4, 5 is the classic example"],
                x=600, y=180, w=620, h=300, size=26),
    ]),
    "climate_zh": deck([
        title("气温与海拔"),
        chart("scatter", "海拔 (km) 与气温 (°C)", None,
              [{"name": "测站", "points": [[0, 25], [0.5, 22], [1, 18], [1.5, 15], [2, 12], [3, 6]]}],
              x=60, y=130, w=700, h=540),
        {"type": "text", "text": "海拔每升高一千米，气温大约下降六摄氏度。", "x": 800, "y": 160, "w": 420, "h": 160, "size": 28},
    ]),
}


def _first(d: dict, kind: str) -> dict:
    return next(e for s in d["slides"] for e in s["elements"] if e["type"] == kind)


def overlap(d: dict) -> dict:
    """The second content element dropped onto the first body element."""
    els = [e for e in d["slides"][0]["elements"] if e["type"] not in ("title", "shape")]
    a, b = els[0], els[1]
    b["x"], b["y"] = a["x"] + 40, a["y"] + 30
    return d


def overflow(d: dict) -> dict:
    """A paragraph far too long for its box."""
    els = d["slides"][0]["elements"]
    target = next(e for e in els if e["type"] in ("bullets", "text"))
    text = " ".join(target.get("items", [target.get("text", "")])) * 6
    target.pop("items", None)
    target.update(type="text", text=text, h=min(target["h"], 120))
    return d


def tiny_font(d: dict) -> dict:
    for e in d["slides"][0]["elements"]:
        if e["type"] in ("bullets", "text", "table"):
            e["size"] = 9
    return d


def empty(d: dict) -> dict:
    d["slides"][-1]["elements"] = [e for e in d["slides"][-1]["elements"] if e["type"] == "shape"]
    return d


def broken_chart(d: dict) -> dict:
    """Chart with an all-zero series, squeezed to a sliver, with too many long labels."""
    c = _first(d, "chart")
    key = "points" if c["chart"] == "scatter" else "values"
    for s in c["series"]:
        s[key] = [[p[0], 0] for p in s[key]] if key == "points" else [0 for _ in s[key]]
    c["h"] = 110
    return d


def crowded_labels(d: dict) -> dict:
    c = _first(d, "chart")
    if c["chart"] in ("scatter", "pie"):
        c["chart"] = "bar"
        c.pop("series")
    cats = [f"Category number {k}" for k in range(16)]
    c["categories"] = cats
    c["series"] = [{"name": "Value", "values": [k + 1 for k in range(16)]}]
    return d


def off_canvas(d: dict) -> dict:
    e = d["slides"][0]["elements"][-1]
    e["x"] = 1280 - e["w"] * 0.4
    return d


def invalid_missing_box(d: dict) -> dict:
    d["slides"][0]["elements"][1].pop("w")
    return d


def invalid_unknown_type(d: dict) -> dict:
    d["slides"][0]["elements"][1]["type"] = "video"
    return d


def invalid_not_json(d: dict) -> str:
    return "Here is your deck:\n" + json.dumps(d)[:-40]


DEFECTS = {  # name -> (transform, rule that must report it, or "contract")
    "overlap": (overlap, "collisions"),
    "overflow": (overflow, "text_fit"),
    "tiny_font": (tiny_font, "legibility"),
    "empty": (empty, "canvas_use"),
    "broken_chart": (broken_chart, "chart_geometry"),
    "crowded_labels": (crowded_labels, "chart_geometry"),
    "off_canvas": (off_canvas, "canvas_use"),
    "invalid_missing_box": (invalid_missing_box, "contract"),
    "invalid_unknown_type": (invalid_unknown_type, "contract"),
    "invalid_not_json": (invalid_not_json, "contract"),
}
HAS_CHART = {"broken_chart", "crowded_labels"}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    labels = {}
    names = list(DEFECTS)
    for k, (lesson, clean) in enumerate(LESSONS.items()):
        (OUT / f"{lesson}__clean.json").write_text(json.dumps(clean, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        labels[f"{lesson}__clean.json"] = {"lesson": lesson, "clean": True, "defect": None, "rule": None}
        has_chart = any(e["type"] == "chart" for s in clean["slides"] for e in s["elements"])
        picked = [n for n in names[k % len(names):] + names[: k % len(names)] if has_chart or n not in HAS_CHART][:4]
        for name in picked:
            fn, rule = DEFECTS[name]
            out = fn(copy.deepcopy(clean))
            text = out if isinstance(out, str) else json.dumps(out, indent=1, ensure_ascii=False) + "\n"
            fname = f"{lesson}__{name}.json"
            (OUT / fname).write_text(text, encoding="utf-8")
            labels[fname] = {"lesson": lesson, "clean": False, "defect": name, "rule": rule}
    (OUT / "labels.json").write_text(json.dumps(labels, indent=1) + "\n", encoding="utf-8")
    print(f"{len(labels)} slides decks in {OUT}")


if __name__ == "__main__":
    main()
