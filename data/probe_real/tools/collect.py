"""Copy the selected real pages out of the fetched source snapshots (bare git mirrors).

Run once by hand; records provenance in tools/selection.json for labels.jsonl.
Usage: python data/probe_real/tools/collect.py [--sources vibecodebench modeluiarena]

Each source is read at the commit pinned in SOURCES, so a rerun copies the same bytes.
Sources with ``"mode": "file"`` publish each page as its own .html file, copied byte-for-byte.
nuance-dev/rival (``"mode": "ts_content"``) publishes each model's page as the ``content:``
template literal of a TypeScript module; the page is that string's value, byte-for-byte
(JavaScript template-literal escapes resolved, nothing else changed). Only modules whose
literal is plain (no ``${...}``, not wrapped in the site's ``sanitizeModelResponseContent``)
are selected, so no evaluation or rewriting is needed.
"""

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIRROR = Path("/work/.mirror")

SOURCES = {
    "praisonaibench": {
        "repo": "MervinPraison/PraisonAIBench",
        "licence": "MIT",
        "licence_note": "declared in pyproject.toml (license = MIT, OSI classifier) and README 'MIT License'; the repo ships no LICENSE file",
        "commit": "2b7888eebdc432bed20425412c75eb2b34782600",
        "mode": "file",
    },
    "visualcodetest": {
        "repo": "electricazimuth/LocalLLM_VisualCodeTest",
        "licence": "MIT",
        "licence_note": "declared by the MIT licence badge in README.md; the repo ships no LICENSE file",
        "commit": "b1b9275232f2c5345b8d60bc4628481ee1aeb550",
        "mode": "file",
    },
    "llmhtmlgallery": {
        "repo": "Techdread/LLM-HTML-Gallery",
        "licence": "MIT",
        "licence_note": "LICENSE file (MIT, Copyright (c) 2025 Peter Edwards)",
        "commit": "01b1799975e33df7c160225d6c52e4dc3953eb09",
        "mode": "file",
    },
    "rival": {
        "repo": "nuance-dev/rival",
        "licence": "MIT",
        "licence_note": "LICENSE file (MIT, Copyright (c) 2025 nuanced); pages are the `content` string of src/lib/model-responses/<model>/<challenge>.ts",
        "commit": "322087c1c9a9cf38828cab983aa6395bf1ccc5ec",
        "mode": "ts_content",
    },
    "vibecodebench": {
        "repo": "ArjunDivecha/vibe-code-bench",
        "licence": "MIT",
        "licence_note": "declared in README.md ('## License' MIT) and pyproject.toml (license = MIT, OSI classifier); the repo ships no LICENSE file. Pages are from runs/ at b4c3614, the last commit before 'Clean up repo for public release' removed runs/",
        "commit": "b4c36146129c45fe5dc057d2d70b6a997080116a",
        "mode": "file",
    },
    "modeluiarena": {
        "repo": "cclank/model-ui-arena",
        "licence": "MIT",
        "licence_note": "LICENSE file (MIT, Copyright (c) 2026 cclank); Chinese prompts (prompts/full-prompts.md)",
        "commit": "02a76938fdd81de7f98fc4d045e8d5a19b985927",
        "mode": "file",
    },
}


def git(src, *args):
    repo = SOURCES[src]["repo"].replace("/", "+")
    return subprocess.run(
        ["git", f"--git-dir={MIRROR / repo / 'repo'}", *args], check=True, capture_output=True
    ).stdout


def head(src):
    return SOURCES[src]["commit"]


_ESC = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def ts_content(ts: bytes) -> bytes:
    """Value of the ``content: `...` `` template literal of a rival model-response module."""
    text = ts.decode("utf-8")
    m = re.search(r"\bcontent:\s*`", text)
    assert m, "no content template literal"
    out, i = [], m.end()
    while True:
        c = text[i]
        if c == "`":
            break
        if c == "$" and text[i + 1] == "{":
            raise ValueError("template literal has a ${...} substitution")
        if c == "\\":
            n = text[i + 1]
            if n in "\r\n":  # line continuation
                i += 3 if text[i + 1 : i + 3] == "\r\n" else 2
                continue
            if n == "u":
                if text[i + 2] == "{":
                    j = text.index("}", i)
                    out.append(chr(int(text[i + 3 : j], 16)))
                    i = j + 1
                else:
                    out.append(chr(int(text[i + 2 : i + 6], 16)))
                    i += 6
                continue
            if n == "x":
                out.append(chr(int(text[i + 2 : i + 4], 16)))
                i += 4
                continue
            out.append(_ESC.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out).encode("utf-8")


# (source, request_id, model, path)
P = "praisonaibench"
E = "visualcodetest"
T = "llmhtmlgallery"
SEL = []


def add(src, rid, items):
    for model, path in items:
        SEL.append((src, rid, model, path))


po = "output/"
add(
    P,
    "solar-system",
    [
        (
            "claude-sonnet-4-5",
            po + "anthropic/claude-sonnet-4-5-20250929/solar_system_simulation.html",
        ),
        ("gemini-3-pro", po + "gemini/gemini-3-pro-preview/solar_system_simulation.html"),
        ("gpt-4o", po + "gpt-4o/solar_system_simulation.html"),
        (
            "grok-4-fast-non-reasoning",
            po + "xai/grok-4-fast-non-reasoning/solar_system_simulation.html",
        ),
        ("qwen3-max", po + "openrouter/qwen/qwen3-max/solar_system_simulation.html"),
    ],
)
add(
    P,
    "rotating-cube",
    [
        ("gemini-2.0-flash-exp", po + "gemini/gemini-2.0-flash-exp/rotating_cube_simulation.html"),
        ("gpt-4o", po + "gpt-4o/rotating_cube_simulation.html"),
        ("gpt-4o-mini", po + "openai/gpt-4o-mini/rotating_cube_simulation.html"),
        (
            "claude-opus-4-1",
            po + "anthropic/claude-opus-4-1-20250805/rotating_cube_simulation.html",
        ),
        ("gemini-3-pro", po + "gemini/gemini-3-pro-preview/rotating_cube_simulation.html"),
    ],
)
add(
    P,
    "particle-system",
    [
        (
            "gemini-2.0-flash-exp",
            po + "gemini/gemini-2.0-flash-exp/particle_system_simulation.html",
        ),
        ("gpt-4o-mini", po + "openai/gpt-4o-mini/particle_system_simulation.html"),
        ("gpt-4o", po + "gpt-4o/particle_system_simulation.html"),
        (
            "claude-sonnet-4",
            po + "anthropic/claude-sonnet-4-20250514/particle_system_simulation.html",
        ),
        ("grok-4-fast-reasoning", po + "xai/grok-4-fast-reasoning/particle_system.html"),
    ],
)
add(
    P,
    "physics-playground",
    [
        ("gemini-2.0-flash-exp", po + "gemini/gemini-2.0-flash-exp/physics_playground.html"),
        ("gpt-4o-mini", po + "openai/gpt-4o-mini/physics_playground.html"),
        ("claude-sonnet-4-5", po + "anthropic/claude-sonnet-4-5-20250929/physics_playground.html"),
        ("gpt-5-1", po + "openai/gpt-5.1/physics_playground.html"),
    ],
)
add(
    P,
    "space-shooter",
    [
        ("gemini-2.0-flash-exp", po + "gemini/gemini-2.0-flash-exp/space_shooter_prototype.html"),
        ("gpt-4o-mini", po + "openai/gpt-4o-mini/space_shooter_prototype.html"),
        ("claude-opus-4-1", po + "anthropic/claude-opus-4-1-20250805/space_shooter.html"),
        ("grok-code-fast-1", po + "xai/grok-code-fast-1/space_shooter_prototype.html"),
    ],
)
add(
    P,
    "data-dashboard",
    [
        ("gemini-2.0-flash-exp", po + "gemini/gemini-2.0-flash-exp/data_driven_dashboard.html"),
        ("gpt-4o-mini", po + "openai/gpt-4o-mini/data_dashboard.html"),
        (
            "claude-sonnet-4-5",
            po + "anthropic/claude-sonnet-4-5-20250929/data_driven_dashboard.html",
        ),
        ("gemini-3-pro", po + "gemini/gemini-3-pro-preview/data_driven_dashboard.html"),
    ],
)

r0415 = "results/2025.04.15/html/"
r0804 = "results/2025.08.04/html/"
r0806 = "results/2025.08.06/html/"
r0126 = "results/2026.01.26/html/"
r0204 = "results/2026.02.04/html/"
add(
    E,
    "heptagon",
    [
        ("gemma-3-4b-it-q4_0", r0804 + "gemma-3-4b-it-q4_0_heptagon_20250804_135733.html"),
        ("gemma-3n-e4b-it", r0804 + "gemma-3n-E4B-it-UD-Q4_K_XL_heptagon_20250804_135942.html"),
        (
            "mistral-nemo-instruct-2407",
            r0804 + "Mistral-Nemo-Instruct-2407-Q4_K_L_heptagon_20250804_115705.html",
        ),
        (
            "qwen3-coder-30b-a3b",
            r0804 + "Qwen3-Coder-30B-A3B-Instruct-UD-Q6_K_XL_heptagon_20250804_132126.html",
        ),
        ("gpt-oss-120b", r0806 + "gpt-oss-120b-BF16_heptagon_20250807_102344.html"),
        ("glm-4.7-flash", r0126 + "GLM-4.7-Flash-UD-Q6_K_XL_heptagon_20260126_110431.html"),
    ],
)
add(
    E,
    "fireworks",
    [
        ("gemma-3-4b-it-q4_0", r0804 + "gemma-3-4b-it-q4_0_fireworks_20250804_135720.html"),
        (
            "mistral-nemo-instruct-2407",
            r0804 + "Mistral-Nemo-Instruct-2407-Q4_K_L_fireworks_20250804_115642.html",
        ),
        ("gpt-oss-20b", r0806 + "gpt-oss-20b-mxfp4_fireworks_20250806_093846.html"),
        (
            "qwen3-30b-a3b-instruct-2507",
            r0804 + "Qwen3-30B-A3B-Instruct-2507-UD-Q4_K_XL_fireworks_20250804_125937.html",
        ),
        ("nextcoder-32b", r0804 + "microsoft_NextCoder-32B-Q6_K_L_fireworks_20250804_141511.html"),
    ],
)
add(
    E,
    "aquarium",
    [
        (
            "mistral-nemo-instruct-2407",
            r0804 + "Mistral-Nemo-Instruct-2407-Q4_K_L_aquarium_20250804_115602.html",
        ),
        (
            "mistral-small-3.1-24b",
            r0804
            + "mistralai_Mistral-Small-3.1-24B-Instruct-2503-Q6_K_L_aquarium_20250804_142046.html",
        ),
        ("gemma-3-4b-it-q4_0", r0804 + "gemma-3-4b-it-q4_0_aquarium_20250804_135643.html"),
        ("uigen-x-32b", r0804 + "UIGEN-X-32B-0727.Q4_K_M_aquarium_20250804_132536.html"),
        (
            "qwen3-next-80b-a3b",
            r0204 + "Qwen3-Next-80B-A3B-Instruct-UD-Q3_K_XL_aquarium_20260204_102829.html",
        ),
    ],
)
add(
    E,
    "aiming",
    [
        ("gemma-3-1b-it", r0415 + "google_gemma-3-1b-it-Q8_0_aiming_20250410_192303.html"),
        ("yi-coder-9b-chat", r0415 + "Yi-Coder-9B-Chat-Q4_K_L_aiming_20250410_190219.html"),
        ("phi-3.5-mini-instruct", r0415 + "Phi-3.5-mini-instruct-Q8_0_aiming_20250410_185530.html"),
        (
            "qwen2.5-coder-32b",
            r0415 + "Qwen2.5-Coder-32B-Instruct-Q4_K_L_aiming_20250415_131622.html",
        ),
        ("gemma-3-27b-it-q4_0", r0415 + "gemma-3-27b-it-q4_0_aiming_20250411_122628.html"),
    ],
)
add(
    E,
    "keycontrols",
    [
        ("gemma-3-1b-it", r0415 + "google_gemma-3-1b-it-Q8_0_keycontrols_20250410_192334.html"),
        ("codestral-22b", r0415 + "Codestral-22B-v0.1-Q6_K_keycontrols_20250411_100333.html"),
        (
            "deepseek-coder-v2-lite",
            r0415 + "DeepSeek-Coder-V2-Lite-Instruct-Q4_K_L_keycontrols_20250410_183558.html",
        ),
        ("phi-4", r0415 + "phi-4-Q8_0_keycontrols_20250415_151959.html"),
        (
            "synthia-s1-27b",
            r0415 + "Tesslate_Synthia-S1-27b-Q4_K_L_keycontrols_20250411_115519.html",
        ),
    ],
)
op = "one-page/"
add(
    T,
    "dyson-sphere",
    [
        ("claude-3.7", op + "claude-3.7/dyson-sphere.html"),
        ("deepseek-r1-0528-qwen8b", op + "deepseek-r1-0528-qwen8b/dyson-sphere.html"),
        ("glm-4-32b", op + "glm-4-32b/dyson-sphere.html"),
        ("o4-mini-high", op + "gpt-04-mini-high/dyson-sphere.html"),
        ("llama3.1-nemotron-ultra-235b", op + "llama3.1-nemotron-ultra-235b/dyson-sphere.html"),
    ],
)
add(
    T,
    "gravity-sim",
    [
        ("deepseek-r1-0528-qwen8b", op + "deepseek-r1-0528-qwen8b/gravity-sim.html"),
        ("deepseek-r1", op + "deepseek-r1/gravity-sim.html"),
        ("gemini-2.5-pro", op + "gemini-pro-2.5/gravity-sim.html"),
        ("glm-4-32b", op + "glm-4-32b/gravity-sim.html"),
        ("gpt-4.1", op + "gpt-4.1/gravity-sim.html"),
    ],
)
add(
    T,
    "voxel-fire",
    [
        ("claude-3.7", op + "claude-3.7/voxel-fire-simulation.html"),
        ("deepseek-v3", op + "deepseek-v3/voxel-fire-simulation.html"),
        ("gemini-2.5-pro", op + "gemini-pro-2.5/voxel-fire-simulation.html"),
        ("o3-high", op + "gpt-o3-high/voxel-fire-simulation.html"),
        ("qwen3-coder-30b-a3b", op + "qwen-coder-30b-a3b/voxel-fire.html"),
    ],
)

R = "rival"
rv = "src/lib/model-responses/"


def rival(challenge, models):
    add(R, challenge, [(m, f"{rv}{m}/{challenge}.ts") for m in models])


rival(
    "minimalist-landing-page",
    ["claude-3-7-sonnet", "o1", "gpt-4-5", "llama-4-scout", "grok-3"],
)
rival(
    "dark-mode-dashboard",
    ["claude-3-5-sonnet", "deepseek-r1", "gemini-2-0-pro-exp", "gpt-4o", "o3-mini"],
)
rival(
    "linear-app-clone",
    ["gemini-2-0-pro-exp", "gpt-4o", "grok-3-mini-beta", "o1", "optimus-alpha"],
)
rival(
    "framer-style-animation",
    [
        "claude-3-5-sonnet",
        "deepseek-r1",
        "gemini-2-0-flash-thinking-exp",
        "gpt-4-5",
        "gpt-4o",
        "grok-3",
        "o1",
        "o3-mini",
    ],
)

# ArjunDivecha/vibe-code-bench: one file per model and case under runs/run<N>/<model>/<stamp>/<case>/<model id>/
# (removed from the tree by the next commit; read at the pinned b4c3614). Depth pages: the working half
# sits behind a start screen (quiz) or behind items the user must add first (notes, kanban).
V = "vibecodebench"
v1 = "runs/run1/"
v2 = "runs/run2/"
add(
    V,
    "quiz",
    [
        ("claude-opus-4.5", v1 + "opus-4.5/20260103_002104/case_02_quiz/claude-opus-4_5/quiz.html"),
        (
            "chatgpt-4o-latest",
            v1 + "chatgpt-4o/20260103_002104/case_02_quiz/openai_chatgpt-4o-latest/quiz_app.html",
        ),
        (
            "llama-3.1-8b-instruct",
            v1
            + "llama-3.1-8b/20260103_002104/case_02_quiz/meta-llama_llama-3_1-8b-instruct@Cerebras/quiz_app.html",
        ),
        ("qwen3-coder", v1 + "qwen3-coder/20260103_002104/case_02_quiz/qwen_qwen3-coder/quiz-app.html"),
        (
            "olmo-3.1-32b-think",
            v2 + "olmo-3.1/20260103_010123/case_02_quiz/allenai_olmo-3_1-32b-think:free/index.html",
        ),
    ],
)
add(
    V,
    "notes",
    [
        (
            "gemini-3-flash-preview",
            v1 + "gemini-3-flash/20260103_002104/case_04_notes/google_gemini-3-flash-preview/index.html",
        ),
        (
            "llama-3.1-8b-instruct",
            v1
            + "llama-3.1-8b/20260103_002104/case_04_notes/meta-llama_llama-3_1-8b-instruct@Cerebras/index.html",
        ),
        (
            "kimi-k2-0905",
            v1 + "kimi-k2/20260103_002104/case_04_notes/moonshotai_kimi-k2-0905@Groq/notes-app.html",
        ),
        (
            "olmo-3.1-32b-think",
            v2 + "olmo-3.1/20260103_010123/case_04_notes/allenai_olmo-3_1-32b-think:free/index.html",
        ),
    ],
)
add(
    V,
    "kanban",
    [
        ("claude-sonnet-4.5", v1 + "sonnet-4.5/20260103_002104/case_06_kanban/claude-sonnet-4_5/kanban.html"),
        (
            "llama-3.1-8b-instruct",
            v1
            + "llama-3.1-8b/20260103_002104/case_06_kanban/meta-llama_llama-3_1-8b-instruct@Cerebras/kanban.html",
        ),
        (
            "chatgpt-4o-latest",
            v1 + "chatgpt-4o/20260103_002104/case_06_kanban/openai_chatgpt-4o-latest/kanban.html",
        ),
        ("glm-4.7", v1 + "glm-4.7/20260103_091821/case_06_kanban/z-ai_glm-4_7/kanban-board.html"),
    ],
)

# cclank/model-ui-arena: Chinese prompts (base prompt + theme), one index.html per model under
# public/submissions/<theme>/<model>/. Only pages added by a single commit and never edited afterwards
# were chosen (some were later "repaired", "optimized" or "manually completed" in the repo; those are
# left out). Several of them answer the Chinese request with an English interface.
M = "modeluiarena"


def arena(theme, models):
    add(M, theme, [(m, f"public/submissions/{theme}/{m}/index.html") for m in models])


arena(
    "recorder",
    ["claude-opus-4-8", "gemini-3.0-flash", "kimi-k2.7", "hunter-alpha", "gemini-3.1-flash-lite-preview-high"],
)
arena(
    "click-fireworks",
    ["gpt-5.3-codex", "glm-5", "kimi-k2.7", "hunter-alpha", "gemini-3.1-flash-lite-preview-high"],
)
arena("neon-countdown", ["claude-opus-4-8", "kimi-k2.7", "grok-4.3", "gpt-5.6-sol"])


def safe(s):
    return re.sub(r"[^a-z0-9_.-]+", "-", s.lower()).strip("-")


def main():
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--sources",
        nargs="*",
        help="copy only these sources (keys of SOURCES); the other sources' pages and their "
        "selection.json entries are kept as they are (for adding a source without its "
        "neighbours' snapshots at hand)",
    )
    a = ap.parse_args()
    only = set(a.sources or SOURCES)
    assert only <= set(SOURCES), only - set(SOURCES)
    kept = {}
    if a.sources:
        kept = {o["id"]: o for o in json.loads((ROOT / "tools" / "selection.json").read_text())}
    out = []
    pages = ROOT / "pages"
    pages.mkdir(exist_ok=True)
    heads = {s: head(s) for s in SOURCES}
    for src, rid, model, path in SEL:
        if src not in only:
            fid = f"{src}__{safe(rid)}__{safe(model)}"
            out.append(kept[fid])
            assert kept[fid]["path"] == path and kept[fid]["commit"] == heads[src], fid
            continue
        data = git(src, "show", f"{heads[src]}:{path}")
        if SOURCES[src]["mode"] == "ts_content":
            data = ts_content(data)
        fname = f"{src}__{safe(rid)}__{safe(model)}.html"
        assert re.fullmatch(r"[a-z0-9_.-]+", fname), fname
        (pages / fname).write_bytes(data)
        repo = SOURCES[src]["repo"]
        out.append(
            {
                "id": fname[:-5],
                "file": f"pages/{fname}",
                "src": src,
                "request_id": f"{src}__{rid}",
                "model": model,
                "repo": repo,
                "path": path,
                "commit": heads[src],
                "url": f"https://github.com/{repo}/blob/{heads[src]}/{path}",
                "licence": SOURCES[src]["licence"],
                "licence_note": SOURCES[src]["licence_note"],
                "bytes": len(data),
            }
        )
    (ROOT / "tools" / "selection.json").write_text(json.dumps(out, indent=1))
    print(len(out), "pages;", max(o["bytes"] for o in out), "max bytes")


if __name__ == "__main__":
    main()
