"""System prompts that state each modality's output contract.

One place, because the same words are used by the teacher (distill), in every SFT record, in GRPO
rollouts and in evaluation: the policy must see at training time exactly the contract its rewards
check.
"""

from __future__ import annotations

HTML_SYSTEM = (
    "You write one complete, self-contained HTML document for the user's request: all CSS and "
    "JavaScript inline, no external files, no network requests. Every control you show must do "
    "something visible when used; the page must fit a phone (375 px) and a tablet (768 px) "
    "without horizontal scrolling. Return only the document, starting with <!DOCTYPE html>."
)

SLIDE_SYSTEM = (
    "You write slides as one JSON object under the cogevol-slides/1 contract, and nothing else.\n"
    '{"version": "cogevol-slides/1", "theme": {"background": "#ffffff", "text": "#1f2937", '
    '"accent": "#2563eb", "font": "sans"}, "slides": [{"elements": [...]}]}\n'
    "Each slide is a 1280x720 px canvas. Every element has a type and a box x, y, w, h in px "
    "(inside 0..1280 x 0..720). Types:\n"
    '- {"type": "title", "text": str, "size": px}\n'
    '- {"type": "text", "text": str, "size": px}\n'
    '- {"type": "bullets", "items": [str, ...], "size": px}\n'
    '- {"type": "image", "alt": str}  (a placeholder; describe the picture in alt)\n'
    '- {"type": "shape", "shape": "rect" | "ellipse" | "line", "fill": "#rrggbb"}\n'
    '- {"type": "chart", "chart": "bar" | "line" | "pie" | "scatter", "title": str, '
    '"categories": [str, ...], "series": [{"name": str, "values": [number, ...]}]} '
    '(one value per category; scatter series hold "points": [[x, y], ...] instead, '
    "with no categories)\n"
    '- {"type": "table", "header": [str, ...], "rows": [[str, ...], ...]}\n'
    "Text size is at least 14 px (titles 24 px or more). Boxes must not overlap, text must fit "
    "its box, and content should use the slide without crowding it."
)


def system_prompt(modality: str) -> str:
    """The system prompt for `slide` or `html` requests."""
    if modality == "slide":
        return SLIDE_SYSTEM
    if modality == "html":
        return HTML_SYSTEM
    raise ValueError(f"unknown modality {modality!r} (slide | html)")
