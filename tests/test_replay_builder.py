"""scripts/build_replay_cache.py: the data files rebuild the committed replay cache byte for byte,
and plans select their prompts by what the prompts ask for (data/teachers/README.md).

The curated prompts are a DVC output a checkout may not have, so the prompts file here is made
from the cache itself (each answered request, its language recovered with the lexicon), with
decoys around it that the selection rule must pass over.
"""

import json
import subprocess
import sys

import pytest

from cogevol_samples import traffic_lexicon as LEX
from scripts.replay.prompts import select_plans
from tests.conftest import REPO

CACHE = REPO / "data/teachers/replay.jsonl"


def _lang(rec: dict) -> str:
    """The one language whose app (html) or topic (slide) phrase the request contains."""
    text = rec["request"].lower()
    phrases = [a for _, a in LEX.APPS] if rec["modality"] == "html" else LEX.TOPICS
    langs = [lang for lang in LEX.LANGS if any(p[lang].lower() in text for p in phrases)]
    assert len(langs) == 1, (rec["prompt_id"], langs)
    return langs[0]


def _answered_prompts() -> list[dict]:
    out = {}
    for line in CACHE.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        out.setdefault(r["prompt_id"], {"id": r["prompt_id"], "prompt": r["request"], "category": r["modality"],
                                        "subcategory": r["subcategory"], "lang": _lang(r)})
    return list(out.values())


def _write(path, recs: list[dict]):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    return path


def _decoy(rec: dict, pid: str, prompt: str | None = None) -> dict:
    return {**rec, "id": pid, "prompt": prompt or rec["prompt"]}


def test_the_data_files_rebuild_the_committed_cache_byte_for_byte(tmp_path):
    prompts = _answered_prompts()
    assert len(prompts) == 42
    first, last = prompts[0], prompts[-1]
    decoys = [_decoy(first, "r-decoy-redacted", "My name is <NAME>. " + first["prompt"]),  # skipped: redacted
              _decoy({**first, "lang": "ko" if first["lang"] != "ko" else "ja"}, "r-decoy-lang")]  # other language
    path = _write(tmp_path / "prompts.jsonl", decoys + prompts + [_decoy(last, "r-decoy-later")])  # later: not taken
    out = tmp_path / "replay.jsonl"
    run = subprocess.run([sys.executable, "scripts/build_replay_cache.py", "--prompts", str(path), "--out", str(out)],
                         cwd=REPO, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout)["records"] == 192
    assert out.read_bytes() == CACHE.read_bytes()


def test_a_plan_takes_the_first_matching_prompt_not_taken_by_an_earlier_plan(tmp_path):
    prompts = _answered_prompts()
    wanted = {p["id"] for p in prompts}
    early = _decoy(prompts[5], "r-decoy-early")  # the same request, earlier in the file: it is chosen
    chosen = {p.spec.pid for p in select_plans(_write(tmp_path / "p.jsonl", [early, *prompts]))}
    assert chosen == wanted - {prompts[5]["id"]} | {"r-decoy-early"}


def test_a_plan_without_a_matching_prompt_stops_the_build(tmp_path):
    prompts = [p for p in _answered_prompts() if p["category"] == "slide"]
    with pytest.raises(SystemExit, match="no prompt .* matches the html plan"):
        select_plans(_write(tmp_path / "p.jsonl", prompts))
