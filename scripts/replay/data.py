"""The builder's data files, and the `@@name@@` template scheme they use.

data/teachers/plans.yaml       which prompts are answered, and with which candidates
data/teachers/lessons.yaml     the slide lessons
data/teachers/templates/       page and app templates, interface strings (strings.yaml), and per
                               app strings and data tables (apps/<app>/app.yaml)

Templates: `.js` files and every file under templates/page/ are used verbatim. Every other
`.html` / `.css` file is a fragment that a page carries on one line: its lines are stripped and
joined with nothing, so write one element or rule per line and break lines only between tags.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
TEACHERS = ROOT / "data/teachers"
TEMPLATES = TEACHERS / "templates"


@cache
def load_yaml(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def plans() -> dict:
    return load_yaml(TEACHERS / "plans.yaml")


def lessons() -> dict:
    return load_yaml(TEACHERS / "lessons.yaml")


def strings() -> dict:
    return load_yaml(TEMPLATES / "strings.yaml")


def app_data(app: str) -> dict:
    """templates/apps/<app>/app.yaml: the app's strings (per key, per language) and data tables."""
    return load_yaml(TEMPLATES / "apps" / app / "app.yaml")


@cache
def template(name: str) -> str:
    """A template file's text, verbatim."""
    return (TEMPLATES / name).read_text(encoding="utf-8")


def fill(tpl: str, /, **kw: object) -> str:
    """`@@name@@` placeholders: JS and CSS keep their braces untouched."""
    for k, v in kw.items():
        tpl = tpl.replace(f"@@{k}@@", str(v))
    left = re.findall(r"@@\w+@@", tpl)
    if left:
        raise KeyError(f"unfilled placeholders {sorted(set(left))}")
    return tpl


def frag(name: str, T: dict | None = None, /, **kw: object) -> str:
    """A one-line fragment, filled from the interface strings `T` and `kw` (`kw` wins)."""
    text = "".join(line.strip() for line in template(name).splitlines())
    return fill(text, **{**(T or {}), **kw})


def script(name: str, /, **kw: object) -> str:
    """A script as the pages carry it: starting on a fresh line."""
    return "\n" + fill(template(name), **kw)


def js(v: object) -> str:
    """A Python value as a JS literal (strings kept readable, `</` escaped for inline scripts)."""
    return json.dumps(v, ensure_ascii=False).replace("</", "<\\/")


def jsbool(v: object) -> str:
    return "true" if v else "false"


def ui(lang: str, app: str | None = None) -> dict:
    """The interface strings for `lang`, plus the app's own (all but its title and subtitle);
    English is the fallback."""
    table = strings()["ui"]
    out = dict(table.get(lang, table["en"]))
    own = app_data(app)["strings"] if app else {}
    for key, per_lang in own.items():
        if key not in ("title", "sub"):
            out[key] = per_lang.get(lang, per_lang["en"])
    return out


def title_sub(app: str, lang: str) -> tuple[str, str]:
    """The app's page title and subtitle in `lang` (English when the app has none)."""
    s = app_data(app)["strings"]
    return s["title"].get(lang, s["title"]["en"]), s["sub"].get(lang, s["sub"]["en"])
