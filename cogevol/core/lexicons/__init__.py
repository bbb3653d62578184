"""The word lists requests and pages are matched against, in one place and one format (YAML),
one file per reader: `request` (request names and subcategories, cogevol.core.request_lexicon),
`checklist` (controls, keys, counts, purposes and scaffolds in the eight traffic languages,
cogevol.checklist.lexicon), `expects` (what a request expects a page to do,
cogevol.rewards.expects) and `traffic` (the synthetic traffic generator's topics and templates,
cogevol_samples.traffic_lexicon)."""

from __future__ import annotations

from pathlib import Path

import yaml

DIR = Path(__file__).resolve().parent


def path(name: str) -> Path:
    """The file of lexicon `name` (a DVC dependency of the stages that read it)."""
    return DIR / f"{name}.yaml"


def load(name: str) -> dict:
    """Lexicon `name`, parsed (a new dict each call: callers may build on it)."""
    return yaml.safe_load(path(name).read_text(encoding="utf-8"))
