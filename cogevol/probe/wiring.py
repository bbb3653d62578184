"""Whether a page's own code wires up its controls: the page's evidence of what it means to do.

Why: the gate must not rest on the reading of the request alone. A page whose code attaches
handlers to its controls says, by itself, that those controls are meant to work; when none of
them responds it is broken under any reading ("a drawing app" read as static included). A
static page's plain markup button, with no code behind it, says nothing of the kind.

Two sources, either will do:
- the source: the page's own scripts register input handlers (addEventListener for an input
  event, an on<event> property or attribute, jQuery's .on / .click, a framework's onClick /
  @click / v-on). Read from the text, so a script that throws before it attaches its handlers
  still counts: that is the commonest way such a page breaks;
- the run: a driven control hears a click or press (a listener on it or an ancestor;
  cogevol.probe.config.Control.hears), whoever attached it.
"""

from __future__ import annotations

import re

# the events that operate a control (not load, resize or a timer's; nor the pointer merely
# moving over the page, which a parallax header hears as much as a drawing board does)
_INPUT_EVENTS = (
    r"click|dblclick|input|change|submit|keydown|keyup|keypress|mousedown|mouseup"
    r"|pointerdown|pointerup|touchstart|touchend"
)
_SOURCE = {
    "addEventListener": re.compile(rf"""addEventListener\(\s*['"`](?:{_INPUT_EVENTS})['"`]"""),
    "handler property": re.compile(rf"\.on(?:{_INPUT_EVENTS})\s*=(?!=)"),
    "handler attribute": re.compile(
        rf"""<[a-zA-Z][^<>]*\son(?:{_INPUT_EVENTS})\s*=\s*['"]?[^\s'">]"""
    ),
    "jQuery handler": re.compile(
        rf"""\.(?:on|one|bind|delegate)\(\s*['"`](?:{_INPUT_EVENTS})\b|\.(?:click|change|keydown|keyup|submit)\(\s*(?:function|\(|\w+\s*=>|\w+\s*\))"""
    ),
    "framework handler": re.compile(
        rf"\bon(?:Click|Change|Input|Submit|KeyDown|KeyUp|MouseDown|PointerDown)\s*=\s*\{{|\s(?:@|v-on:)(?:{_INPUT_EVENTS})\b"
    ),
}
_COMMENTS = re.compile(r"<!--.*?-->|/\*.*?\*/", re.S)


def source_wiring(html: str) -> list[str]:
    """What in the page's own text wires input handlers ([] when nothing does); comments
    aside."""
    text = _COMMENTS.sub(" ", html or "")
    return [name for name, rx in _SOURCE.items() if rx.search(text)]


def runtime_wiring(controls: list) -> list[str]:
    """The controls that hear a click or press when driven (cogevol.probe.config.Control)."""
    heard = [c for c in controls if c.status == "operable" and c.verdict and c.hears]
    return [f"listeners on {len(heard)} driven controls"] if heard else []
