"""Reading the requests to classify from a JSONL file, line by line, so that a line that cannot
be used is reported in its place (with its line number and why) instead of failing the file."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from cogevol.core.errors import InputError


@dataclass(frozen=True)
class Item:
    line: int
    id: object
    text: str | None
    error: str | None = None


def read_items(path: str | Path, field: str) -> list[Item]:
    """Every non-blank line of a JSONL file (optionally .gz) as an Item: its `id` and the text in
    `field`, or the reason it cannot be classified."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    opener = gzip.open if p.suffix == ".gz" else open
    items: list[Item] = []
    try:
        with opener(p, "rt", encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    items.append(Item(n, None, None, f"not JSON ({e.msg})"))
                    continue
                if not isinstance(rec, dict):
                    items.append(Item(n, None, None, "not a JSON object"))
                    continue
                text = rec.get(field)
                if not isinstance(text, str) or not text.strip():
                    items.append(Item(n, rec.get("id"), None, f"no text in field {field!r}"))
                    continue
                items.append(Item(n, rec.get("id"), text))
    except (OSError, UnicodeDecodeError, EOFError) as e:
        raise InputError(f"{p}: cannot read ({e})") from e
    if not any(it.text for it in items):
        raise InputError(f"{p}: no record has text in field {field!r}")
    return items
