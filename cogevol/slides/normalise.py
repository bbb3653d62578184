"""Schema normalisation: repair near-miss slide output, and say what was repaired.

Seed 000 measures external models "after schema normalisation": under the strict contract no
external model renders a single slide zero-shot, so evaluation also reports scores after the
mechanical repairs below. Only repairs whose intent is unambiguous are made (a synonym field
name, a number written as a string, fractional coordinates, a bare slide); anything else is
left for the validator to reject. Training rewards never normalise: the policy must learn the
contract itself.
"""

from __future__ import annotations

import copy
import re

from cogevol.slides.contract import CANVAS_H, CANVAS_W, CHARTS, FIELDS, VERSION, extract_json

_KEY_SYNONYMS = {
    "left": "x",
    "top": "y",
    "width": "w",
    "height": "h",
    "font_size": "size",
    "fontSize": "size",
    "fontsize": "size",
    "content": "text",
    "label": "text",
    "caption": "alt",
    "description": "alt",
    "points_list": "items",
    "bullets": "items",
    "list": "items",
    "chart_type": "chart",
    "chartType": "chart",
    "labels": "categories",
    "data": "values",
    "columns": "header",
    "headers": "header",
}
_TYPE_SYNONYMS = {
    "heading": "title",
    "header": "title",
    "subtitle": "text",
    "paragraph": "text",
    "body": "text",
    "textbox": "text",
    "list": "bullets",
    "bullet": "bullets",
    "bullet_list": "bullets",
    "picture": "image",
    "img": "image",
    "rectangle": "shape",
    "graph": "chart",
}
_CHART_SYNONYMS = {
    "column": "bar",
    "bars": "bar",
    "histogram": "bar",
    "lines": "line",
    "donut": "pie",
    "doughnut": "pie",
    "points": "scatter",
}
_NUM = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(px)?\s*$")
_COLOR_NAMES = {
    "white": "#ffffff",
    "black": "#000000",
    "red": "#dc2626",
    "blue": "#2563eb",
    "green": "#16a34a",
    "gray": "#6b7280",
    "grey": "#6b7280",
    "yellow": "#eab308",
    "orange": "#ea580c",
    "purple": "#9333ea",
}


def normalise(output: str | dict) -> tuple[dict, list[str]]:
    """The repaired deck object and one line per repair; raises ContractError when there is no
    JSON at all."""
    obj = extract_json(output) if isinstance(output, str) else copy.deepcopy(output)
    fixes: list[str] = []
    if isinstance(obj, list):  # a bare list of slides
        obj, _ = {"slides": obj}, fixes.append("wrapped a list of slides in a deck")
    if not isinstance(obj, dict):
        return obj, fixes
    if "slides" not in obj and "elements" in obj:
        obj = {"slides": [{"elements": obj.pop("elements")}], **obj}
        fixes.append("wrapped a single slide in a deck")
    if obj.get("version") != VERSION:
        fixes.append(f"set version to {VERSION} (was {obj.get('version')!r})")
        obj["version"] = VERSION
    if isinstance(obj.get("theme"), dict):
        for k in ("background", "text", "accent"):
            _fix_color(obj["theme"], k, "$.theme", fixes)
    slides = obj.get("slides")
    if isinstance(slides, list):
        for s, slide in enumerate(slides):
            if isinstance(slide, list):
                slides[s] = slide = {"elements": slide}
                fixes.append(f"$.slides[{s}]: wrapped an element list in a slide")
            if isinstance(slide, dict):
                for extra in [k for k in slide if k != "elements"]:
                    slide.pop(extra)
                    fixes.append(f"$.slides[{s}]: dropped unknown field {extra!r}")
                for k, el in enumerate(slide.get("elements") or []):
                    if isinstance(el, dict):
                        _fix_element(el, f"$.slides[{s}].elements[{k}]", fixes)
    return obj, fixes


def _fix_element(el: dict, path: str, fixes: list[str]) -> None:
    kind = str(el.get("type", "")).strip().lower()
    kind = _TYPE_SYNONYMS.get(kind, kind)
    if kind != el.get("type"):
        fixes.append(f"{path}.type: {el.get('type')!r} -> {kind!r}")
        el["type"] = kind
    if isinstance(el.get("position"), dict):  # {"position": {"x":..}, "size": {"w":..}} styles
        el.update(el.pop("position"))
        fixes.append(f"{path}: flattened 'position'")
    for old, new in _KEY_SYNONYMS.items():
        if old in el and new not in el and not (old == "bullets" and kind != "bullets"):
            if old == "data" and kind != "chart":
                continue
            el[new] = el.pop(old)
            fixes.append(f"{path}: renamed {old!r} to {new!r}")
    for k in ("x", "y", "w", "h", "size"):
        if isinstance(el.get(k), str) and _NUM.match(el[k]):
            el[k] = float(_NUM.match(el[k]).group(1))
            fixes.append(f"{path}.{k}: number written as a string")
    box = [el.get(k) for k in ("x", "y", "w", "h")]
    if (
        all(isinstance(v, (int, float)) for v in box)
        and all(0 <= v <= 1 for v in box)
        and sum(box) > 0
    ):
        el["x"], el["w"] = el["x"] * CANVAS_W, el["w"] * CANVAS_W
        el["y"], el["h"] = el["y"] * CANVAS_H, el["h"] * CANVAS_H
        fixes.append(f"{path}: fractional box scaled to the {CANVAS_W}x{CANVAS_H} canvas")
    for k in ("color", "fill", "stroke"):
        _fix_color(el, k, path, fixes)
    if kind == "bullets" and isinstance(el.get("items"), str):
        el["items"] = [
            line.strip(" -•*\t") for line in el["items"].splitlines() if line.strip(" -•*\t")
        ]
        fixes.append(f"{path}.items: split a string into lines")
    if kind == "chart":
        _fix_chart(el, path, fixes)
    if kind in FIELDS:
        allowed = {"type", "x", "y", "w", "h"} | FIELDS[kind][0] | FIELDS[kind][1]
        for extra in [k for k in el if k not in allowed]:
            el.pop(extra)
            fixes.append(f"{path}: dropped unknown field {extra!r}")


def _fix_chart(el: dict, path: str, fixes: list[str]) -> None:
    kind = str(el.get("chart", "")).lower()
    kind = _CHART_SYNONYMS.get(kind, kind)
    if kind != el.get("chart") and kind in CHARTS:
        fixes.append(f"{path}.chart: {el.get('chart')!r} -> {kind!r}")
        el["chart"] = kind
    if "values" in el and "series" not in el:  # a single unnamed series at the element level
        el["series"] = [{"name": "", "values": el.pop("values")}]
        fixes.append(f"{path}: wrapped 'values' in a series")
    for k, s in enumerate(el.get("series") or []):
        if not isinstance(s, dict):
            continue
        if "data" in s and "values" not in s and "points" not in s:
            s["points" if kind == "scatter" else "values"] = s.pop("data")
            fixes.append(f"{path}.series[{k}]: renamed 'data'")
        vals = s.get("values")
        if isinstance(vals, list) and any(isinstance(v, str) and _NUM.match(v) for v in vals):
            s["values"] = [
                float(_NUM.match(v).group(1)) if isinstance(v, str) and _NUM.match(v) else v
                for v in vals
            ]
            fixes.append(f"{path}.series[{k}].values: numbers written as strings")
        for extra in [key for key in s if key not in ("name", "values", "points", "color")]:
            s.pop(extra)
            fixes.append(f"{path}.series[{k}]: dropped unknown field {extra!r}")


def _fix_color(obj: dict, key: str, path: str, fixes: list[str]) -> None:
    v = obj.get(key)
    if not isinstance(v, str):
        return
    low = v.strip().lower()
    if low in _COLOR_NAMES:
        obj[key] = _COLOR_NAMES[low]
    elif re.fullmatch(r"#[0-9a-f]{3}", low):
        obj[key] = "#" + "".join(c * 2 for c in low[1:])
    else:
        return
    fixes.append(f"{path}.{key}: {v!r} -> {obj[key]!r}")
