"""The slide output contract (cogevol-slides/1): what a model must write to produce slides.

A deck is one JSON object: a version, an optional theme and a list of slides; each slide is a
list of typed elements placed on a fixed 1280x720 px canvas. The contract is strict on purpose
(seed 000: the model internalises the contract, external models fail it zero-shot): unknown
fields, wrong types and missing fields are errors with a JSON path, never a crash. Geometry that
parses but looks bad (a box outside the canvas, overlaps, tiny text) is not a contract error;
the rule engine scores it.

docs/slides.md documents the contract with examples; `normalise()` in normalise.py repairs near
misses for measuring external models and reports every repair.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from cogevol.core.errors import CogevolError
from cogevol.core.text import strip_thinking

VERSION = "cogevol-slides/1"
CANVAS_W, CANVAS_H = 1280, 720
MAX_SLIDES = 40
MAX_ELEMENTS = 40

COMMON = {"type", "x", "y", "w", "h"}
TEXT_STYLE = {"size", "color", "align", "bold"}
FIELDS: dict[str, tuple[set[str], set[str]]] = {  # type -> (required, optional) beyond COMMON
    "title": ({"text"}, TEXT_STYLE),
    "text": ({"text"}, TEXT_STYLE),
    "bullets": ({"items"}, TEXT_STYLE),
    "image": ({"alt"}, set()),
    "shape": ({"shape"}, {"fill", "stroke"}),
    "chart": ({"chart", "series"}, {"title", "categories", "size"}),
    "table": ({"header", "rows"}, {"size"}),
}
TEXT_TYPES = frozenset({"title", "text", "bullets", "table"})
SHAPES = frozenset({"rect", "ellipse", "line"})
CHARTS = frozenset({"bar", "line", "pie", "scatter"})
ALIGN = frozenset({"left", "center", "right"})
THEME_FIELDS = {"background", "text", "accent", "font"}
FONTS = frozenset({"sans", "serif", "mono"})
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n(.*?)```", re.S)


class ContractError(CogevolError, ValueError):
    """Model output that is not a cogevol-slides/1 deck; `errors` holds every problem found."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        more = f" (+{len(errors) - 3} more)" if len(errors) > 3 else ""
        super().__init__("; ".join(errors[:3]) + more)


@dataclass
class Element:
    type: str
    x: float
    y: float
    w: float
    h: float
    props: dict = field(default_factory=dict)  # the type's own fields (text, items, series, ...)
    slide: int = 0
    index: int = 0

    @property
    def label(self) -> str:
        """How violations name the element: slide, position, type and a text hint."""
        hint = self.props.get("text") or self.props.get("title") or self.props.get("alt") or ""
        if not hint and self.props.get("items"):
            hint = self.props["items"][0]
        hint = f" {str(hint)[:24]!r}" if hint else ""
        return f"slide {self.slide + 1} #{self.index + 1} {self.type}{hint}"

    @property
    def is_text(self) -> bool:
        return self.type in TEXT_TYPES


@dataclass
class Deck:
    slides: list[list[Element]]
    theme: dict = field(default_factory=dict)
    version: str = VERSION


def extract_json(text: str) -> object:
    """The JSON value in a model reply: the whole reply, a fenced block, or the outermost {...},
    after a reasoning model's thinking (a draft deck inside it is not the answer)."""
    text = strip_thinking(text).strip()
    if not text:
        raise ContractError(["empty output"])
    if "{" not in text and "[" not in text:
        raise ContractError([f"no JSON object found in the output ({text[:40]!r})"])
    candidates = [text, *_FENCE.findall(text)]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    last = ""
    for c in candidates:
        try:
            return json.loads(c)
        except json.JSONDecodeError as e:
            last = f"invalid JSON: {e.msg} at line {e.lineno} column {e.colno}"
    raise ContractError([last])


def parse(output: str | dict) -> Deck:
    """A validated Deck from model output (text or an already decoded object)."""
    obj = extract_json(output) if isinstance(output, str) else output
    errors = validate(obj)
    if errors:
        raise ContractError(errors)
    slides = [
        [
            Element(
                type=e["type"],
                x=float(e["x"]),
                y=float(e["y"]),
                w=float(e["w"]),
                h=float(e["h"]),
                props={k: v for k, v in e.items() if k not in COMMON},
                slide=s,
                index=k,
            )
            for k, e in enumerate(slide["elements"])
        ]
        for s, slide in enumerate(obj["slides"])
    ]
    return Deck(slides=slides, theme=dict(obj.get("theme") or {}), version=obj["version"])


def validate(obj: object) -> list[str]:
    """Every contract error in `obj`, each with its JSON path; empty when valid."""
    if not isinstance(obj, dict):
        return [f"$: expected a JSON object, got {_kind(obj)}"]
    errs: list[str] = []
    _unknown(obj, {"version", "theme", "slides"}, "$", errs)
    if obj.get("version") != VERSION:
        errs.append(f"$.version: expected {VERSION!r}, got {obj.get('version')!r}")
    theme = obj.get("theme", {})
    if not isinstance(theme, dict):
        errs.append(f"$.theme: expected an object, got {_kind(theme)}")
    else:
        _unknown(theme, THEME_FIELDS, "$.theme", errs)
        for k in ("background", "text", "accent"):
            if k in theme:
                _color(theme[k], f"$.theme.{k}", errs)
        if "font" in theme and theme["font"] not in FONTS:
            errs.append(f"$.theme.font: expected one of {sorted(FONTS)}, got {theme['font']!r}")
    slides = obj.get("slides")
    if not isinstance(slides, list) or not slides:
        errs.append(f"$.slides: expected a non-empty list of slides, got {_kind(slides)}")
        return errs
    if len(slides) > MAX_SLIDES:
        errs.append(f"$.slides: at most {MAX_SLIDES} slides, got {len(slides)}")
    for s, slide in enumerate(slides[:MAX_SLIDES]):
        path = f"$.slides[{s}]"
        if not isinstance(slide, dict) or not isinstance(slide.get("elements"), list):
            errs.append(f"{path}: expected an object with an 'elements' list")
            continue
        _unknown(slide, {"elements"}, path, errs)
        if len(slide["elements"]) > MAX_ELEMENTS:
            errs.append(
                f"{path}.elements: at most {MAX_ELEMENTS} elements, got {len(slide['elements'])}"
            )
        for k, el in enumerate(slide["elements"][:MAX_ELEMENTS]):
            _element(el, f"{path}.elements[{k}]", errs)
    return errs


def _element(el: object, path: str, errs: list[str]) -> None:
    if not isinstance(el, dict):
        errs.append(f"{path}: expected an element object, got {_kind(el)}")
        return
    kind = el.get("type")
    if kind not in FIELDS:
        errs.append(f"{path}.type: expected one of {sorted(FIELDS)}, got {kind!r}")
        return
    required, optional = FIELDS[kind]
    for k in sorted(COMMON - {"type"} | required):
        if k not in el:
            errs.append(f"{path}: {kind} needs '{k}'")
    _unknown(el, COMMON | required | optional, path, errs)
    for k in ("x", "y", "w", "h"):
        if k in el:
            _number(
                el[k], f"{path}.{k}", errs, low=0.0 if k in "wh" else None, strict_low=k in "wh"
            )
    if "size" in el:
        _number(el["size"], f"{path}.size", errs, low=4.0, high=200.0)
    for k in ("color", "fill", "stroke"):
        if k in el:
            _color(el[k], f"{path}.{k}", errs)
    if "align" in el and el["align"] not in ALIGN:
        errs.append(f"{path}.align: expected one of {sorted(ALIGN)}, got {el['align']!r}")
    if "bold" in el and not isinstance(el["bold"], bool):
        errs.append(f"{path}.bold: expected true or false, got {_kind(el['bold'])}")
    if kind in ("title", "text") and "text" in el:
        _string(el["text"], f"{path}.text", errs, nonempty=True)
    elif kind == "bullets" and "items" in el:
        _strings(el["items"], f"{path}.items", errs)
    elif kind == "image" and "alt" in el:
        _string(el["alt"], f"{path}.alt", errs)
    elif kind == "shape" and "shape" in el and el["shape"] not in SHAPES:
        errs.append(f"{path}.shape: expected one of {sorted(SHAPES)}, got {el['shape']!r}")
    elif kind == "table" and "header" in el and "rows" in el:
        _table(el, path, errs)
    elif kind == "chart" and "chart" in el and "series" in el:
        _chart(el, path, errs)


def _chart(el: dict, path: str, errs: list[str]) -> None:
    kind = el["chart"]
    if kind not in CHARTS:
        errs.append(f"{path}.chart: expected one of {sorted(CHARTS)}, got {kind!r}")
        return
    if "title" in el:
        _string(el["title"], f"{path}.title", errs)
    series = el["series"]
    if not isinstance(series, list):
        errs.append(f"{path}.series: expected a list of series, got {_kind(series)}")
        return
    cats = el.get("categories")
    if kind != "scatter":
        if cats is None:
            errs.append(f"{path}: a {kind} chart needs 'categories'")
        else:
            _strings(cats, f"{path}.categories", errs, allow_empty=True)
    for k, s in enumerate(series):
        sp = f"{path}.series[{k}]"
        if not isinstance(s, dict):
            errs.append(f"{sp}: expected an object, got {_kind(s)}")
            continue
        key = "points" if kind == "scatter" else "values"
        _unknown(s, {"name", key, "color"}, sp, errs)
        if "name" in s:
            _string(s["name"], f"{sp}.name", errs)
        if "color" in s:
            _color(s["color"], f"{sp}.color", errs)
        vals = s.get(key)
        if not isinstance(vals, list):
            errs.append(f"{sp}: a {kind} series needs '{key}' (a list), got {_kind(vals)}")
            continue
        for j, v in enumerate(vals):
            if kind == "scatter":
                if not (isinstance(v, list) and len(v) == 2):
                    errs.append(f"{sp}.points[{j}]: expected [x, y], got {_kind(v)}")
                    continue
                for c, u in zip("xy", v):
                    _number(u, f"{sp}.points[{j}].{c}", errs)
            else:
                _number(v, f"{sp}.values[{j}]", errs, low=0.0 if kind == "pie" else None)
        if kind != "scatter" and isinstance(cats, list) and len(vals) != len(cats):
            errs.append(f"{sp}.values: {len(vals)} values for {len(cats)} categories")


def _table(el: dict, path: str, errs: list[str]) -> None:
    header, rows = el["header"], el["rows"]
    _strings(header, f"{path}.header", errs)
    if not isinstance(rows, list):
        errs.append(f"{path}.rows: expected a list of rows, got {_kind(rows)}")
        return
    for k, row in enumerate(rows):
        if not isinstance(row, list) or not all(
            isinstance(c, (str, int, float)) and not isinstance(c, bool) for c in row
        ):
            errs.append(f"{path}.rows[{k}]: expected a list of strings or numbers")
        elif isinstance(header, list) and len(row) != len(header):
            errs.append(f"{path}.rows[{k}]: {len(row)} cells for {len(header)} columns")


def _unknown(obj: dict, allowed: set[str], path: str, errs: list[str]) -> None:
    for k in obj:
        if k not in allowed:
            errs.append(f"{path}.{k}: unknown field (allowed: {', '.join(sorted(allowed))})")


def _number(
    v: object,
    path: str,
    errs: list[str],
    low: float | None = None,
    high: float | None = None,
    strict_low: bool = False,
) -> None:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        errs.append(f"{path}: expected a number, got {_kind(v)}")
    elif low is not None and (v <= low if strict_low else v < low):
        errs.append(f"{path}: must be {'>' if strict_low else '>='} {low:g}, got {v:g}")
    elif high is not None and v > high:
        errs.append(f"{path}: must be <= {high:g}, got {v:g}")


def _string(v: object, path: str, errs: list[str], nonempty: bool = False) -> None:
    if not isinstance(v, str):
        errs.append(f"{path}: expected a string, got {_kind(v)}")
    elif nonempty and not v.strip():
        errs.append(f"{path}: must not be empty")


def _strings(v: object, path: str, errs: list[str], allow_empty: bool = False) -> None:
    if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
        errs.append(f"{path}: expected a list of strings, got {_kind(v)}")
    elif not v and not allow_empty:
        errs.append(f"{path}: must not be empty")


def _color(v: object, path: str, errs: list[str]) -> None:
    if not isinstance(v, str) or not _HEX.match(v):
        errs.append(f"{path}: expected a #rrggbb colour, got {v!r}")


def _kind(v: object) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return f"number {v!r}"
    if isinstance(v, str):
        return f"string {v[:30]!r}"
    return {"list": "a list", "dict": "an object"}.get(type(v).__name__, type(v).__name__)
