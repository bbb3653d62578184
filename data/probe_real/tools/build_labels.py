"""Assemble labels.jsonl from tools/selection.json (provenance, written by collect.py),
the request texts below, and tools/manual_labels.tsv (the person's verdicts).

Usage: python data/probe_real/tools/build_labels.py
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"


def prompt_file(name: str) -> str:
    return (TOOLS / "prompts" / f"{name}.md").read_text(encoding="utf-8").strip()


# request_id -> (request text, expects, exact?)  Exact prompts are copied verbatim from the source.
REQUESTS = {
    # PraisonAIBench: examples/threejs_simulation_suite.yaml and tests.yaml
    "praisonaibench__solar-system": (
        "Create a complete HTML file with Three.js that simulates a simple solar system. Include the sun (yellow sphere) at the center, Earth (blue sphere) orbiting around it, and the moon (gray sphere) orbiting around Earth. Add realistic orbital speeds and include stars in the background. The HTML should be self-contained with Three.js from CDN. Save the output as 'solar_system.html'.",
        ["animation"], True),
    "praisonaibench__rotating-cube": (
        "Create a complete HTML file with Three.js that displays a rotating 3D cube. The cube should have different colored faces, rotate continuously, and include proper lighting. The HTML file should be self-contained with Three.js loaded from CDN. Include camera controls for user interaction. Save the output as 'rotating_cube.html'.",
        ["animation"], True),
    "praisonaibench__particle-system": (
        "Create a complete HTML file with Three.js that displays an animated particle system. The particles should move in interesting patterns (like a fountain, explosion, or flowing stream), change colors over time, and respond to mouse movement. Include at least 1000 particles with realistic physics. The HTML should be self-contained with Three.js from CDN. Save the output as 'particle_system.html'.",
        ["animation"], True),
    "praisonaibench__physics-playground": (
        "Create a complete HTML file with Three.js integrated with a lightweight physics engine (cannon-es or similar) that includes stackable boxes, spheres, hinge joints, ragdoll, and interactive dragging with the mouse. Add reset button, gravity slider, and slow-motion toggle. The HTML file should be self-contained with Three.js and physics engine loaded from CDN. Save the output as 'physics_playground.html'.",
        ["interactive"], True),
    "praisonaibench__space-shooter": (
        "Create a complete HTML file with Three.js that builds a simple on-rails space shooter with starfield background, enemy waves (instanced meshes), laser projectiles, hit effects (GPU particles), health/score UI, and post-processing bloom. Provide difficulty scaling and mobile touch controls. The HTML file should be self-contained with Three.js loaded from CDN. Save the output as 'space_shooter.html'.",
        ["interactive"], True),
    "praisonaibench__data-dashboard": (
        "Create a complete HTML file with Three.js that creates a 3D analytics scene turning a random dataset into bars, scatter points, and ribbons on a 3D grid. Include axis helpers, tooltips on hover, camera tween to views, theme toggle (dark/light), and CSV export of generated data. The HTML file should be self-contained with Three.js loaded from CDN and include sample data generation. Save the output as 'data_dashboard.html'.",
        ["interactive"], True),
    # LocalLLM_VisualCodeTest: code_prompts/*.md (and prompts/*.md in its history)
    "visualcodetest__heptagon": (prompt_file("visualcodetest__heptagon"), ["animation"], True),
    "visualcodetest__fireworks": (prompt_file("visualcodetest__fireworks"), ["animation"], True),
    "visualcodetest__aquarium": (prompt_file("visualcodetest__aquarium"), ["animation"], True),
    "visualcodetest__aiming": (prompt_file("visualcodetest__aiming"), ["interactive"], True),
    "visualcodetest__keycontrols": (prompt_file("visualcodetest__keycontrols"), ["interactive"], True),
    # LLM-HTML-Gallery publishes no prompts: one-sentence requests written from file names and gallery metadata
    "llmhtmlgallery__dyson-sphere": (
        "Create a single-file HTML page with an animated, interactive 3D simulation (Three.js) of a Dyson sphere being constructed around a star, with controls for the construction.",
        ["animation", "interactive"], False),
    "llmhtmlgallery__gravity-sim": (
        "Create a single-file HTML page with an interactive 3D gravity simulation in which bodies or particles move under gravity, with controls to change the simulation.",
        ["animation", "interactive"], False),
    "llmhtmlgallery__voxel-fire": (
        "Create a single-file HTML page with an interactive 3D voxel fire simulation (Three.js) in which fire spreads through a block of voxels over time, with controls to ignite, reset or tune it.",
        ["animation", "interactive"], False),
    # nuance-dev/rival: the `prompt` field of each src/lib/model-responses/<model>/<challenge>.ts
    "rival__minimalist-landing-page": (
        "Generate a single-page landing page for a new AI startup that scans your face and tells you your most likely alternate career in another timeline. In a single-page self-contained HTML.",
        ["static"], True),
    "rival__dark-mode-dashboard": (
        "Design a sleek admin dashboard UI with light and dark mode toggle, featuring an AI analytics graph. In a single-page self-contained HTML.",
        ["static", "interactive"], True),
    "rival__linear-app-clone": (
        "Recreate the Linear App UI using Tailwind CSS, keeping the layout and animations as close as possible. In a single-page self-contained HTML.",
        ["static"], True),
    "rival__framer-style-animation": (
        "Generate a landing page with smooth Framer-like transitions between sections. In a single-page self-contained HTML.",
        ["static", "animation"], True),
    # ArjunDivecha/vibe-code-bench: eval_cases/<case>/spec.md, given verbatim to the model as its task
    "vibecodebench__quiz": (prompt_file("vibecodebench__quiz"), ["interactive"], True),
    "vibecodebench__notes": (prompt_file("vibecodebench__notes"), ["interactive"], True),
    "vibecodebench__kanban": (prompt_file("vibecodebench__kanban"), ["interactive"], True),
    # cclank/model-ui-arena: the complete prompt of each theme as published in prompts/full-prompts.md
    # (prompts/base.md with its placeholders filled + prompts/themes/<theme>.md), in Chinese. The
    # theme texts never changed; the only variant is the line limit: full-prompts.md says "<= 180",
    # while the site's /api/prompt route (added 2026-06-02) fills it as 220, so the kimi-k2.7,
    # grok-4.3 and gpt-5.6-sol pages (added later) may have been asked for <= 220 lines.
    "modeluiarena__recorder": (prompt_file("modeluiarena__recorder"), ["interactive"], True),
    "modeluiarena__click-fireworks": (prompt_file("modeluiarena__click-fireworks"), ["interactive", "animation"], True),
    "modeluiarena__neon-countdown": (prompt_file("modeluiarena__neon-countdown"), ["animation", "interactive"], True),
}

# Language of each request's text (ISO 639-1); requests not listed are English.
REQUEST_LANG: dict[str, str] = {
    "modeluiarena__recorder": "zh",
    "modeluiarena__click-fireworks": "zh",
    "modeluiarena__neon-countdown": "zh",
}

# Visible language of a page's interface where it differs from its request's (the labeller's reading of
# the page as rendered); every other page is written in its request's language.
PAGE_LANG: dict[str, str] = {
    "modeluiarena__recorder__gemini-3.0-flash": "en",
    "modeluiarena__recorder__kimi-k2.7": "en",
    "modeluiarena__recorder__gemini-3.1-flash-lite-preview-high": "en",
    "modeluiarena__click-fireworks__gpt-5.3-codex": "en",
    "modeluiarena__click-fireworks__kimi-k2.7": "en",
    "modeluiarena__click-fireworks__gemini-3.1-flash-lite-preview-high": "en",
    "modeluiarena__neon-countdown__kimi-k2.7": "en",
    "modeluiarena__neon-countdown__gpt-5.6-sol": "en",
}

# Techniques, detected from the page source by simple regexes (case-insensitive). A page can use
# several; the tally says what the corpus exercises, not what each page's visible result relies on.
_TIMER = r"(?:requestAnimationFrame|setInterval|setTimeout)\s*\("
TECHNIQUES = [
    ("canvas 2D", [r"getContext\(\s*['\"]2d['\"]"]),
    ("WebGL / three.js", [r"getContext\(\s*['\"](?:webgl2?|experimental-webgl)['\"]",
                          r"\bTHREE\.", r"from\s+['\"]three['\"/]", r"/three(?:@[^/]+)?/build/"]),
    ("CSS @keyframes", [r"@keyframes\b"]),
    ("CSS transitions", [r"\btransition(?:-property|-duration)?\s*:",
                         r"class(?:Name)?=[\"'][^\"']*\btransition(?:-all|-colors|-opacity|-transform)?\b"]),
    ("Web Animations API .animate(", [r"\.animate\(\s*[\[{]"]),
    ("inline style from timer/rAF", [(_TIMER, r"\.style\.(?:[a-zA-Z]+\s*=[^=]|setProperty\(|cssText\s*=)")]),
    ("SVG", [r"<svg\b", r"createElementNS\([^)]*svg"]),
    ("SMIL <animate>", [r"<animate(?:Transform|Motion)?\b"]),
    ("ticking text / clock", [(r"setInterval\s*\(", r"\.(?:textContent|innerText|innerHTML)\s*[+]?="),
                              r"\b(?:toLocaleTimeString|getSeconds)\s*\("]),
    ("video", [r"<video\b"]),
]


def techniques(html: str) -> list[str]:
    """Names from TECHNIQUES whose pattern matches; a tuple pattern needs all of its parts."""
    import re
    found = []
    for name, pats in TECHNIQUES:
        for p in pats:
            parts = p if isinstance(p, tuple) else (p,)
            if all(re.search(q, html, re.I) for q in parts):
                found.append(name)
                break
    return found


def main():
    sel = json.loads((TOOLS / "selection.json").read_text())
    manual = {}
    with open(TOOLS / "manual_labels.tsv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            manual[row["id"]] = row
    out, missing = [], []
    for s in sel:
        m = manual.get(s["id"])
        if m is None:
            missing.append(s["id"])
            continue
        req, expects, exact = REQUESTS[s["request_id"]]
        out.append({
            "id": s["id"], "file": s["file"], "request_id": s["request_id"], "request": req,
            "request_exact": exact, "expects": expects,
            "should_pass": m["should_pass"].strip().lower() == "true", "grade": int(m["grade"]),
            "notes": m["notes"].strip(),
            "request_lang": REQUEST_LANG.get(s["request_id"], "en"),
            "page_lang": PAGE_LANG.get(s["id"], REQUEST_LANG.get(s["request_id"], "en")),
            "techniques": techniques((ROOT / s["file"]).read_text(encoding="utf-8")),
            "source": {"repo": s["repo"], "path": s["path"], "commit": s["commit"], "url": s["url"],
                       "licence": s["licence"], "author_or_model": s["model"]},
        })
    with open(ROOT / "labels.jsonl", "w", encoding="utf-8") as f:
        for r in out:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(len(out), "labelled;", len(missing), "without a label:", missing)
    write_readme(out)


def write_readme(rows):
    from collections import Counter
    by_repo = Counter(r["source"]["repo"] for r in rows)
    lic = {r["source"]["repo"]: r["source"]["licence"] for r in rows}
    sel = {s["repo"]: s["licence_note"] for s in json.loads((TOOLS / "selection.json").read_text())}
    reqs = Counter(r["request_id"] for r in rows)
    kinds = Counter(k for r in rows for k in r["expects"])
    passes = Counter(r["should_pass"] for r in rows)
    grades = Counter(r["grade"] for r in rows)
    src_rows = "\n".join(
        f"| [{repo}](https://github.com/{repo}) | {lic[repo]} | {sel[repo]} | {n} |" for repo, n in by_repo.most_common())
    req_rows = []
    for rid, n in sorted(reqs.items()):
        rr = [r for r in rows if r["request_id"] == rid]
        req_rows.append(f"| `{rid}` | {', '.join(rr[0]['expects'])} | {'exact' if rr[0]['request_exact'] else 'written from repo'} | {n} | "
                        f"{sum(r['should_pass'] for r in rr)}/{n} | {', '.join(str(r['grade']) for r in rr)} |")
    tech_rows = []
    kind_names = ["interactive", "animation", "static"]
    for name, _ in TECHNIQUES:
        rr = [r for r in rows if name in r["techniques"]]
        per_kind = [sum(1 for r in rr if k in r["expects"]) for k in kind_names]
        tech_rows.append(f"| {name} | {len(rr)} | " + " | ".join(str(n) for n in per_kind)
                         + f" | {sum(r['should_pass'] for r in rr)}/{len(rr)} |")
    kind_tot = [sum(1 for r in rows if k in r["expects"]) for k in kind_names]
    tech_rows.append(f"| (pages in corpus) | {len(rows)} | " + " | ".join(str(n) for n in kind_tot)
                     + f" | {sum(r['should_pass'] for r in rows)}/{len(rows)} |")
    no_canvas_anim = sum(1 for r in rows if "animation" in r["expects"]
                         and not {"canvas 2D", "WebGL / three.js"} & set(r["techniques"]))
    langs = Counter(r["request_lang"] for r in rows)
    lang_diff = sum(1 for r in rows if r["page_lang"] != r["request_lang"])
    text = README.format(
        n=len(rows), nreq=len(reqs), n3=sum(1 for v in reqs.values() if v >= 3),
        k_int=kinds["interactive"], k_anim=kinds["animation"], k_static=kinds["static"],
        p_true=passes[True], p_false=passes[False],
        grades=", ".join(f"{g}: {grades[g]}" for g in range(1, 6)),
        src_rows=src_rows, req_rows="\n".join(req_rows), tech_rows="\n".join(tech_rows),
        no_canvas_anim=no_canvas_anim,
        langs=", ".join(f"{k} {v}" for k, v in langs.most_common()), lang_diff=lang_diff)
    (ROOT / "README.md").write_text(text, encoding="utf-8")


README = """# probe_real: real generated pages with one person's labels

{n} single-file HTML pages written by LLMs (not by us), answering {nreq} requests ({n3} of them with 3 or
more pages), taken from public repositories whose licence allows redistribution. Each page is labelled
with what its request asks for (`expects`), whether a person would say it does that at a basic level
(`should_pass`, the hard-fail gate label) and a 1-5 quality `grade`. The corpus exists to measure
agreement between the HTML reward (hard-fail gate of `cogevol/probe/` plus the defect terms) and
human judgement, mainly **within a request**: pages in a group answer the same prompt and differ in
quality, so every pair in a group is a preference test.

Files:

- `pages/<source>__<request>__<model>.html`: the pages, byte-for-byte as published (CDN `<script>`
  tags kept; nothing inlined or repaired). nuance-dev/rival publishes each page as the `content`
  template literal of a TypeScript module rather than as an .html file; its pages are that string's
  value (template-literal escapes resolved, nothing else changed; only plain literals were chosen,
  see `tools/collect.py`).
- `labels.jsonl`: one object per page: `id, file, request_id, request, request_exact, expects,
  should_pass, grade, notes, request_lang, page_lang, techniques, source{{repo, path, commit, url,
  licence, author_or_model}}`. `request_exact` is true when `request` is the prompt published with the
  page, verbatim; `request_lang` is the language of the request, `page_lang` that of the page's
  visible interface (they differ where a model answered a Chinese request in English);
  `techniques` is what the page source uses (see "Techniques").
- `licenses/<owner>__<repo>.txt`: licence text of each source repository.
- `tools/collect.py` (copies the pages out of the source snapshots and records provenance),
  `tools/label_helper.py` (operates each page in headless Chromium and writes screenshots),
  `tools/manual_labels.tsv` (the verdicts), `tools/build_labels.py` (writes `labels.jsonl` and this
  README), `tools/depth_ops.py` (operates the deeper screens of the quiz, notes, kanban, recorder,
  fireworks and countdown pages), `tools/prompts/` (the long published prompts of
  LocalLLM_VisualCodeTest, vibe-code-bench and model-ui-arena).

## How it was labelled

Labelled by a cogevol engineer after operating each page in headless Chromium with CDN libraries
served locally. `tools/label_helper.py` opens each page at 1280x800 (Debian `chromium`, SwiftShader
WebGL, no network), serves public-CDN library URLs (jsDelivr, unpkg, cdnjs, skypack, rawgit, the
Tailwind play CDN) from the matching npm package obtained with `npm pack NAME@VERSION` and blocks
everything else, screenshots the page at load and ~2 s later, then clicks the visible buttons and
sets sliders/selects/checkboxes, presses arrow/WASD/space keys, moves/clicks/drags the mouse over the
main canvas, and finally scrolls one screen down, with a screenshot after each phase, and logs
console errors and blocked URLs. A version-less CDN URL (`cdn.jsdelivr.net/npm/chart.js`) is served
from npm's `latest` release, as the CDN would serve it. The
labeller looked at the contact sheet of those screenshots and read the page's code, then wrote the
verdicts. For the rival pages, controls the helper does not find (a `div` used as a theme toggle,
nav pills) were clicked by hand in the same browser setup, and the "transitions between sections"
pages were also screenshotted 0.15 s and 1.35 s after load and 0.2 s and 1.5 s after each of two
scrolls, to see the transitions in motion. A CDN URL that does not exist on npm (a version never published, a file removed from the
package, such as `three/examples/js/*` after r147 or `cannon-es@1.0.1`) fails here exactly as it
would on the real CDN; pages broken that way are labelled broken. Remote images/APIs are blocked and
judged as they behave offline (noted where it matters). Tailwind's v3 play CDN is not on npm; the v4
`@tailwindcss/browser` build stood in for it.

The depth pages (vibe-code-bench's quiz, notes and kanban apps) and the model-ui-arena pages keep
their working half behind an input: a start screen, an empty list, a Start button, a click, the end
of a countdown. The helper's generic clicks rarely reach it, so `tools/depth_ops.py` also drove each
of them in the same browser setup, with a screenshot after every step: the quiz was started and all
its questions answered (varying the option, so some answers were wrong) up to the end screen and
Play Again; a note was created with a title and a body, saved, the page reloaded, searched for,
opened and deleted; a kanban card was added with urgent priority, dragged to "In Progress", opened,
renamed, the page reloaded and the card deleted; the recorder was started, paused, resumed and
stopped (confirm dialogs accepted); the fireworks page was clicked at five points, then 25 times in
quick succession; the countdown was watched to its end (12.5 s) and restarted. The notes and kanban
pages were driven with per-page selectors written after reading their markup (listed in the script);
where a step could not be done the labeller checked by hand in the same setup (the chatgpt-4o kanban
card's drag needed the column as drop target) and read the code to find why (each broken page's
note names the bug).

Gate rule used for `should_pass`: interactive = at least one control the request asks for visibly
responds; animation = something visibly moves on its own (CSS animation counts, and so do
entrance/scroll-reveal transitions of a page asked for "transitions between sections"; an FPS
counter over a still scene does not); static = readable content renders. A
request that lists several kinds needs each of them at a basic level. For the depth pages, whose
request is a flow (a quiz, a notes or kanban app, a recorder), the flow's main path has to work: a
quiz that ends after its first question, a notes app whose notes never appear or cannot be deleted,
a recorder that cannot be stopped fail the gate even though their first control responds. `expects` lists the kinds that
are the core of the request; secondary asks inside a mainly-animation prompt (the rotating cube's
"camera controls", the particle system's "respond to mouse movement") count toward `grade` only. `grade`: 5 excellent, 4 good
with small flaws, 3 OK with clear flaws, 2 poor (barely meets, or nearly meets, the request),
1 broken or empty. `should_pass: false` pages are graded 1-2.

**Caveat: one person's labels are a sample, not a study.** One labeller, one pass, screenshots from a
slow software-rendered browser (frame rates are far below a real GPU, so "moves slowly" may partly
be the renderer), and requests for the LLM-HTML-Gallery groups written by us from file names and
gallery metadata because no prompt was published. Remote photos (randomuser.me, unsplash,
pravatar) in the rival pages are blocked offline and show as broken images; they are not held
against a page unless the page depends on them.

## Counts

- pages: {n}; requests: {nreq} ({n3} with >= 3 pages)
- request kinds (a page counts once per kind its request lists): interactive {k_int}, animation
  {k_anim}, static {k_static}
- should_pass: true {p_true}, false {p_false}; grades: {grades}
- request languages: {langs}
- animation pages drawn without canvas or WebGL (CSS/DOM/SVG only): {no_canvas_anim}

Gaps:

- Non-English requests are all Chinese and all from one source (cclank/model-ui-arena, three
  requests, 2026 models); {lang_diff} of their pages answer in English. Their request text is
  `prompts/full-prompts.md` verbatim (line limit 180; pages added after 2026-06-02 may have been
  generated from the site's prompt route, which says 220, the only difference). No other traffic language
  is covered. Candidates seen and rejected: dltmdgh579/ai-design-html-benchmark (a `ko-prom/` folder
  of four models' pages for a Korean prompt, but no licence), itshen/XSCT_Bench_Dataset (Chinese
  web-generation prompts, but the repo publishes only the test cases), shumatsumonobu/one-prompt-games
  (Japanese, one model per game), xxxily/awesome-ai-hub (MIT, Chinese prompts, but at most two
  models per prompt), nagi-studio/nagi-bench, leason-wan/llm-coding-rank and xinrui-z/Coding-LLM
  (Chinese multi-model pages, no licence), and KCORES/kcores-llm-arena (Chinese prompts answered by
  dozens of models, but under the custom KCORES License 1.0, whose conditions go beyond attribution:
  every redistributed copy must be publicly hosted open source and software built with the work must
  show "KCORES" in its interface; left out pending a decision on those terms).
- Depth pages come from one source (ArjunDivecha/vibe-code-bench: quiz, notes, kanban). Its pages
  are read at commit b4c3614 because the next commit removed `runs/` from the tree; the pinned
  commit stays reachable in the repository's history. senko/vibesweeper-2025 (CC0, minesweeper by
  many models) was not added for lack of time.
- Static requests come from one source (nuance-dev/rival, 2025 models); no resume or long-document
  request was found with 3+ licensed single-file outputs. Earlier candidates for static pages had no
  licence (e.g. diegocp01/html_ai_battle) or published multi-file projects.

## Techniques

Detected from each page's source by the regexes in `tools/build_labels.py` (`TECHNIQUES`,
case-insensitive): canvas 2D = `getContext('2d')`; WebGL / three.js = a `webgl` context, `THREE.`,
an import from `three` or a `three/build/` URL; CSS @keyframes = `@keyframes`; CSS transitions = a
`transition:` declaration or a Tailwind `transition` class; Web Animations API = `.animate([` or
`.animate({{`; inline style from timer/rAF = a `.style.x =` / `setProperty` / `cssText` write in a page
that also uses `requestAnimationFrame`/`setInterval`/`setTimeout`; SVG = `<svg` or
`createElementNS(...svg`; SMIL = `<animate`, `<animateTransform`, `<animateMotion`; ticking text /
clock = a `setInterval` plus a `textContent`/`innerText`/`innerHTML` write, or
`toLocaleTimeString`/`getSeconds`; video = `<video`. A page counts once per technique it uses; the
kind columns count pages whose request lists that kind; hover-only transitions count as
transitions too, so this says what the corpus exercises, not what each page visibly relies on.

| technique | pages | interactive | animation | static | should_pass |
| --- | --- | --- | --- | --- | --- |
{tech_rows}

## Sources

| repository | licence | licence evidence | pages |
| --- | --- | --- | --- |
{src_rows}

## Requests

| request_id | expects | request text | pages | should_pass | grades |
| --- | --- | --- | --- | --- | --- |
{req_rows}
"""


if __name__ == "__main__":
    main()
