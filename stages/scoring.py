"""DVC stage `scoring`: what decides a score, declared once (issue 24).

Writes the scoring fingerprint (cogevol.scoring.fingerprint: the settings that decide a score,
the CDN lock, the scoring code) and the settings themselves to one small file. distill, both
GRPO stages and evaluate depend on that file instead of each repeating the probe, slides and
judge params: a change that moves a score changes the file and reruns them; one that does not
(the judge's URL, say) reruns this stage only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cogevol.pipeline.stage_io import start
from cogevol.scoring.fingerprint import fingerprint_parts, settings_part
from cogevol.scoring.local import ScoringSettings


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    _, params = start("probe")
    settings = ScoringSettings.from_params(params)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    record = {**fingerprint_parts(settings), "decided_by": settings_part(settings)}
    out.write_text(json.dumps(record, indent=2, sort_keys=True, default=str, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
