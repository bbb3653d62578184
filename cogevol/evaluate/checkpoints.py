"""What identifies a local checkpoint's answers: its weights and tokenizer, not its path.

Evaluation generates for every system on every run, and generation is most of its time (4
checkpoints x 29 requests on a CPU; hours per checkpoint on a GPU at 16k tokens). A checkpoint
whose generation-relevant files are byte-identical to one already evaluated with the same
prompts and settings gives the same answers, so they are cached under that content: a rerun after
a change in scoring, ratings or reports generates nothing, and a GRPO stage whose update left the
weights unchanged (every advantage 0) reuses its parent's answers.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

log = logging.getLogger(__name__)

# files that change no answer: trainer state and arguments, README, logs
_IGNORED = {"training_args.bin", "trainer_state.json", "README.md", "optimizer.pt", "scheduler.pt"}


def weights_digest(path: str | Path) -> str | None:
    """SHA-256 over the checkpoint's generation-relevant files (names and bytes), or None when
    `path` is not a local directory (a hub id: its files are not here to hash)."""
    root = Path(path)
    if not root.is_dir():
        return None
    h = hashlib.sha256()
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = f.relative_to(root)
        if f.name in _IGNORED or rel.parts[0].startswith("checkpoint-") or rel.parts[0] == "base":
            continue
        h.update(str(rel).encode() + b"\0")
        with f.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()


class GenerationCache:
    """Answers of a checkpoint keyed by (weights digest, prompts, generation settings)."""

    def __init__(self, cache_dir: str | Path | None):
        self.dir = Path(cache_dir) / "generations" if cache_dir else None

    def key(self, digest: str | None, prompts: list, settings: dict) -> str | None:
        if digest is None or self.dir is None:
            return None
        blob = json.dumps([digest, prompts, settings], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()

    def get(self, key: str | None) -> list[str] | None:
        if key is None:
            return None
        f = self.dir / f"{key}.json"
        try:
            return json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put(self, key: str | None, answers: list[str]) -> None:
        if key is None:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp = self.dir / f".{key}.tmp"
        tmp.write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")
        tmp.replace(self.dir / f"{key}.json")
