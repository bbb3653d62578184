"""Copy the public small-model pages of the floor corpus out of a bare snapshot of
electricazimuth/LocalLLM_VisualCodeTest (MIT), byte-for-byte, and record provenance.

    .venv/bin/python data/probe_floor/tools/collect_public.py /path/to/LocalLLM_VisualCodeTest.git

Writes answers/pub-<model>-<task>.html and tools/public_sources.json (id, file, request = the
prompt file the run used, at the commit that published the results, model, repo, path, commit,
url, licence). Pages already in data/probe_real/pages/ (same repo + path, or the same blob under
another results date) are not taken.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
REPO = "electricazimuth/LocalLLM_VisualCodeTest"
COMMIT = "b1b9275232f2c5345b8d60bc4628481ee1aeb550"  # snapshot the pages are read from
R0415, R0804 = "results/2025.04.15/html/", "results/2025.08.04/html/"
# prompts/<task>.md as of the commit that published each results folder
PROMPT_AT = {R0415: "d6ca87a", R0804: "37a8629"}

# (model, file) -- small models (1B-8B) only
PAGES = [
    ("gemma-3-1b-it-Q8_0", R0415 + "google_gemma-3-1b-it-Q8_0_ball_bound_20250410_192322.html"),
    ("gemma-3-1b-it-Q8_0", R0415 + "google_gemma-3-1b-it-Q8_0_particles_20250410_192341.html"),
    ("gemma-3-4b-it-Q8_0", R0415 + "google_gemma-3-4b-it-Q8_0_aiming_20250410_192428.html"),
    ("gemma-3-4b-it-Q8_0", R0415 + "google_gemma-3-4b-it-Q8_0_ball_bound_20250410_192458.html"),
    ("gemma-3-4b-it-Q8_0", R0415 + "google_gemma-3-4b-it-Q8_0_keycontrols_20250410_192521.html"),
    ("gemma-3-4b-it-Q8_0", R0415 + "google_gemma-3-4b-it-Q8_0_particles_20250410_192548.html"),
    (
        "phi-3.5-mini-instruct-Q8_0",
        R0415 + "Phi-3.5-mini-instruct-Q8_0_ball_bound_20250410_185618.html",
    ),
    (
        "phi-3.5-mini-instruct-Q8_0",
        R0415 + "Phi-3.5-mini-instruct-Q8_0_keycontrols_20250410_185650.html",
    ),
    (
        "phi-3.5-mini-instruct-Q8_0",
        R0415 + "Phi-3.5-mini-instruct-Q8_0_particles_20250410_185716.html",
    ),
    (
        "qwen2.5-coder-7b-instruct-Q4_K_L",
        R0415 + "Qwen2.5-Coder-7B-Instruct-Q4_K_L_aiming_20250415_132302.html",
    ),
    (
        "qwen2.5-coder-7b-instruct-Q4_K_L",
        R0415 + "Qwen2.5-Coder-7B-Instruct-Q4_K_L_ball_bound_20250415_132338.html",
    ),
    (
        "qwen2.5-coder-7b-instruct-Q4_K_L",
        R0415 + "Qwen2.5-Coder-7B-Instruct-Q4_K_L_keycontrols_20250415_132405.html",
    ),
    (
        "qwen2.5-coder-7b-instruct-Q4_K_L",
        R0415 + "Qwen2.5-Coder-7B-Instruct-Q4_K_L_particles_20250415_132428.html",
    ),
    ("gemma-3-4b-it-q4_0", R0804 + "gemma-3-4b-it-q4_0_ball_bound_20250804_135657.html"),
    ("gemma-3-4b-it-q4_0", R0804 + "gemma-3-4b-it-q4_0_chicken_20250804_135707.html"),
    ("gemma-3-4b-it-q4_0", R0804 + "gemma-3-4b-it-q4_0_lightshow_20250804_135747.html"),
    ("gemma-3-4b-it-q4_0", R0804 + "gemma-3-4b-it-q4_0_vehicles_20250804_135802.html"),
    (
        "gemma-3n-E4B-it-UD-Q4_K_XL",
        R0804 + "gemma-3n-E4B-it-UD-Q4_K_XL_aquarium_20250804_135838.html",
    ),
    (
        "gemma-3n-E4B-it-UD-Q4_K_XL",
        R0804 + "gemma-3n-E4B-it-UD-Q4_K_XL_ball_bound_20250804_135852.html",
    ),
    (
        "gemma-3n-E4B-it-UD-Q4_K_XL",
        R0804 + "gemma-3n-E4B-it-UD-Q4_K_XL_chicken_20250804_135906.html",
    ),
    (
        "gemma-3n-E4B-it-UD-Q4_K_XL",
        R0804 + "gemma-3n-E4B-it-UD-Q4_K_XL_fireworks_20250804_135926.html",
    ),
    (
        "gemma-3n-E4B-it-UD-Q4_K_XL",
        R0804 + "gemma-3n-E4B-it-UD-Q4_K_XL_lightshow_20250804_140008.html",
    ),
    (
        "gemma-3n-E4B-it-UD-Q4_K_XL",
        R0804 + "gemma-3n-E4B-it-UD-Q4_K_XL_vehicles_20250804_140030.html",
    ),
]
TASKS = [
    "aiming",
    "ball_bound",
    "keycontrols",
    "particles",
    "aquarium",
    "chicken",
    "fireworks",
    "lightshow",
    "vehicles",
    "heptagon",
]


def git(gd: str, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", gd, *args], check=True, capture_output=True).stdout


def main() -> None:
    gd = sys.argv[1]
    real = {
        json.loads(line)["source"]["path"]
        for line in (ROOT / "data/probe_real/labels.jsonl").read_text().splitlines()
        if json.loads(line)["source"]["repo"] == REPO
    }
    real_blobs = {git(gd, "rev-parse", f"{COMMIT}:{p}").strip() for p in real}
    out, rows = HERE.parent / "answers", []
    for model, path in PAGES:
        assert path not in real, path
        blob = git(gd, "rev-parse", f"{COMMIT}:{path}").strip()
        assert blob not in real_blobs, path
        name = path.rsplit("/", 1)[1]
        task = next(t for t in TASKS if f"_{t}_" in name)
        folder = path[: path.rindex("/") + 1]
        prompt = git(gd, "show", f"{PROMPT_AT[folder]}:prompts/{task}.md").decode()
        pid = f"pub-{model.lower().replace('_', '-').replace('.', '')}-{task.replace('_', '-')}"
        (out / f"{pid}.html").write_bytes(git(gd, "show", f"{COMMIT}:{path}"))
        rows.append(
            {
                "id": pid,
                "file": f"answers/{pid}.html",
                "request": prompt,
                "request_source": f"prompts/{task}.md at {PROMPT_AT[folder]}",
                "model": model,
                "repo": REPO,
                "path": path,
                "commit": COMMIT,
                "url": f"https://github.com/{REPO}/blob/{COMMIT}/{path}",
                "licence": "MIT",
            }
        )
    (HERE / "public_sources.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    print(len(rows), "pages")


if __name__ == "__main__":
    main()
