"""The reference row: the teacher answers distill admitted, scored like any system's.

They are the ceiling the students chase: each passed the same reward at distill time (HTML past
the gate at >= distill.html_min_reward, decks at >= distill.slide_min_reward), so their row says
what the rewards give work that is known to be good, and how far below it each checkpoint is.
They answer the distilled prompts, not the suites: the row's items are its own.
"""

from __future__ import annotations

from pathlib import Path

from cogevol.evaluate.suites import SuiteItem


def reference_answers(sft_dir: str | Path) -> tuple[list[SuiteItem], list[str]]:
    """(items, answers) from the distilled dataset (data/sft/train): one per admitted record."""
    from cogevol.train.data import load_sft

    items, answers, seen = [], [], set()
    for rec in load_sft(sft_dir):
        msgs = rec["messages"]
        user = next((m["content"] for m in msgs if m["role"] == "user"), "")
        answer = next((m["content"] for m in reversed(msgs) if m["role"] == "assistant"), "")
        pid = str(rec.get("prompt_id") or len(items))
        key = pid if pid not in seen else f"{pid}#{rec.get('candidate', len(items))}"
        seen.add(key)
        items.append(
            SuiteItem(
                key,
                rec["modality"],
                rec.get("category") or "",
                user,
                suite="distilled",
                lang=rec.get("lang") or "",
            )
        )
        answers.append(answer)
    return items, answers
