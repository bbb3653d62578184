"""A request's scaffold set aside: what it says about the answer's form, not what the page shows.

Real traffic pastes prompt templates around the task: a role-play opening ("你是一个参加前端压测的
模型"), hard constraints (one file, at most 180 lines, no CDN), an output format (design notes
first, then one code block) and grading criteria. Read as content, every one of those words
becomes a thing the page must show, and a page that does exactly what was asked is priced as if
it were about something else. The words live in cogevol/core/lexicons/checklist.yaml
(`scaffold_*`, eight languages).
"""

from __future__ import annotations

import re

from cogevol.checklist.scripts import CJK_RUN, cue_rx
from cogevol.core.request_lexicon import normalise

# a section header on a line of its own: "## Output format", "**Constraints**", "Constraints:",
# "评分重点：" (a bracketed one, "[硬约束] ...", may have text after it: _BRACKET)
_HEADER = re.compile(
    r"^\s*(?:#{1,6}\s*([^#\n]{1,40}?)\s*:?|\*\*([^*\n]{1,40}?)\*\*\s*[:：]?|([^:：\n]{1,40}?)\s*[:：])\s*$"
)
_BRACKET = re.compile(r"^\s*[\[【]\s*([^\]】]{1,20})\s*[\]】]\s*(.*)$")
# a bold header with its section's first words after it: "**Your Role:** You are an agent."
_BOLD_LEAD = re.compile(
    r"^\s*\*\*([^*\n]{1,40}?)\s*[:：]\s*\*\*\s*(.+)$|^\s*\*\*([^*\n]{1,40}?)\*\*\s*[:：]\s*(.+)$"
)
_SENTENCE_END = re.compile(r"[.!?。！？\n]")


def _lead_in(line: str) -> bool:
    """A sentence that ends in a colon ("创建一个符合以下规格的HTML5 Canvas太阳系动画：") leads into
    the list after it: it states the task, it is not a section's title."""
    plain = line.strip()
    if plain.startswith(("#", "*", "[", "【")) or not plain.endswith((":", "：")):
        return False
    return sum(map(len, CJK_RUN.findall(plain))) >= 12 or len(re.findall(r"[^\W\d_]+", plain)) >= 5


class Scaffold:
    def __init__(self, data: dict):
        self.role = cue_rx(data["scaffold_role"])
        self.headers = cue_rx(data["scaffold_headers"])
        self.words = cue_rx(data["scaffold_words"])

    def _header(self, line: str) -> tuple[str | None, str]:
        """(the header's words, the rest of the line) when the line opens a section."""
        m = _BRACKET.match(line)
        if m:
            return m.group(1), m.group(2)
        m = _BOLD_LEAD.match(line)
        if m:
            return m.group(1) or m.group(3), m.group(2) or m.group(4)
        m = _HEADER.match(line)
        if m:
            return next(g for g in m.groups() if g is not None), ""
        return None, line

    def is_scaffold_header(self, header: str) -> bool:
        """A header naming a scaffold section, with at most one more word ("Evaluation
        Priority", "Essential Constraints"): a header, not a sentence that names one."""
        h = normalise(header).strip(" :：")
        m = self.headers.search(h)
        if not m:
            return False
        return len(h) <= len(m.group()) + 6 or len(h.split()) <= len(m.group().split()) + 1

    def content(self, request: str) -> str:
        """The request without its scaffold (the whole request when nothing is set aside, or
        when setting it aside would leave nothing)."""
        text = request.strip()
        lines = text.splitlines()
        first = normalise(text[:200])
        m = self.role.match(first.lstrip())
        out: list[str] = []
        if m:  # "You are a front-end engineer in a stress test." is not the task
            end = _SENTENCE_END.search(text)
            lines = (text[end.end() :] if end else "").splitlines()
        several = len([ln for ln in lines if ln.strip()]) >= 3
        skipping = False
        for line in lines:
            header, rest = self._header(line)
            if header is not None:
                skipping = self.is_scaffold_header(header)
                if not skipping and _lead_in(line):
                    out.append(header)  # "Create a solar system with the following specs:"
                    continue
                if skipping or not rest.strip():
                    continue
                line = rest
            if skipping:
                continue
            if several and self.words.search(normalise(line)):
                continue
            out.append(line)
        kept = "\n".join(out).strip()
        return kept or text
