"""`cogevol` command line: the library's jobs without DVC or Prefect.

Exit codes: 0 on success (whatever the data held: bad records are quarantined, not fatal),
2 for usage errors and inputs that cannot be used at all.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from cogevol.core.logs import setup_logging
from cogevol.dedup.pipeline import DedupConfig
from cogevol.traffic.mine import MineConfig


def _where(a: argparse.Namespace):
    """Where a curation command runs: --engine / --ray-address over params.yaml `curation`."""
    from cogevol.pipeline.curation import CurationConfig

    return CurationConfig.from_params(
        _all_params(getattr(a, "params", None)), a.engine, a.ray_address
    )


def _cmd_dedup(a: argparse.Namespace) -> int:
    from cogevol.dedup.engines import dedup
    from cogevol.dedup.records import RecordError

    cfg = DedupConfig(
        simhash_ngram=a.simhash_ngram,
        simhash_max_distance=a.simhash_distance,
        tfidf_threshold=a.tfidf_threshold,
        verify=not a.no_verify,
    )
    try:
        summary, _ = dedup(a.input, a.field, a.out, cfg, a.id_field, a.survivors, where=_where(a))
    except RecordError as e:
        print(f"cogevol dedup: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary, ensure_ascii=False))
    return 0


def _add_dedup(sub) -> None:
    d = sub.add_parser("dedup", help="near-duplicate removal with audit CSVs (Cookie-Bench A.1)")
    d.add_argument("--input", required=True, help="JSONL (optionally .gz) or CSV with an id column")
    d.add_argument("--field", required=True, help="text field to deduplicate")
    d.add_argument("--out", required=True, help="output directory for the CSVs")
    d.add_argument("--id-field", default="id")
    _knob_option(d, "--simhash-ngram", int, DedupConfig.simhash_ngram, "dedup.simhash_ngram")
    _knob_option(
        d, "--simhash-distance", int, DedupConfig.simhash_max_distance, "dedup.simhash_max_distance"
    )
    _knob_option(
        d, "--tfidf-threshold", float, DedupConfig.tfidf_threshold, "dedup.tfidf_threshold"
    )
    d.add_argument(
        "--no-verify", action="store_true", help="link on similarity alone (Cookie-Bench behaviour)"
    )
    d.add_argument(
        "--survivors",
        action="store_true",
        help="also write deduped.jsonl with the surviving records",
    )
    _engine_options(d)
    d.set_defaults(fn=_cmd_dedup)


def _cmd_mine(a: argparse.Namespace) -> int:
    from cogevol.traffic.engines import mine
    from cogevol.traffic.readers import InputError

    try:
        stats = mine(
            a.input,
            a.out,
            MineConfig(
                regen_threshold=a.regen_threshold,
                edit_threshold=a.edit_threshold,
                keep_off_scope=a.keep_off_scope,
            ),
            where=_where(a),
        )
    except InputError as e:
        print(f"cogevol mine: {e}", file=sys.stderr)
        return 2
    print(json.dumps(stats.as_metrics(), ensure_ascii=False))
    return 0


def _add_mine(sub) -> None:
    m = sub.add_parser("mine", help="parse, validate, scrub and classify production traffic")
    m.add_argument(
        "--input",
        required=True,
        nargs="+",
        help="files or directories: .jsonl, .jsonl.gz, .parquet, datasets paths",
    )
    m.add_argument("--out", required=True)
    _knob_option(m, "--regen-threshold", int, MineConfig.regen_threshold, "mine.regen_threshold")
    _knob_option(m, "--edit-threshold", int, MineConfig.edit_threshold, "mine.edit_threshold")
    m.add_argument("--keep-off-scope", action="store_true")
    _engine_options(m)
    m.set_defaults(fn=_cmd_mine)


def _cmd_filter(a: argparse.Namespace) -> int:
    from cogevol.core import shards
    from cogevol.curate.engines import filter_requests

    cfg = _all_params(a.params).get("filter", {})
    if a.method:
        cfg = {**cfg, "method": a.method}
    if not shards.exists(a.input):
        print(f"cogevol filter: {a.input}: no such file", file=sys.stderr)
        return 2
    stats = filter_requests(a.input, a.out, cfg, where=_where(a))
    print(json.dumps(stats.as_metrics(), ensure_ascii=False))
    return 0


def _add_filter(sub) -> None:
    f = sub.add_parser("filter", help="admissibility filter on the seven axes")
    f.add_argument("--input", required=True, help="JSONL of records with a 'request' field")
    f.add_argument("--out", required=True)
    f.add_argument("--params", default=None, help="params.yaml to read the filter group from")
    f.add_argument("--method", choices=("rules", "llm"), default=None, help=_knob("filter.method"))
    _renamed_flag(f, "--judge", "--method")
    _engine_options(f)
    f.set_defaults(fn=_cmd_filter)


def _read_files(command: str, paths: list[str]) -> list[tuple[str, str]] | None:
    """(path, text) per file, or None after printing which one is missing (a usage error). The
    text is the file's bytes decoded as they are (line ends kept), so offsets into it (the
    probe's --trace) are offsets into the file."""
    items = []
    for p in paths:
        path = Path(p)
        if not path.is_file():
            print(f"cogevol {command}: {p}: no such file", file=sys.stderr)
            return None
        items.append((p, path.read_bytes().decode("utf-8", errors="replace")))
    return items


def _all_params(path: str | None) -> dict:
    """params.yaml (or --params) when there is one: the CLI runs anywhere, params or not."""
    if path or Path("params.yaml").exists():
        from cogevol.core.config import load_params

        return load_params(path)
    return {}


def _with_judge(params: dict, url: str | None, model: str | None) -> dict:
    """params with the judge group enabled by --judge-url (else judge.enabled decides)."""
    if not url:
        return params
    judge = {
        **(params.get("judge") or {}),
        "enabled": True,
        "base_url": url,
        **({"model": model} if model else {}),
    }
    return {**params, "judge": judge}


def _score_files(
    items: list[tuple[str, str]],
    modality: str,
    params: dict,
    request: str,
    on_score,
    workers: int | None = None,
    in_order: bool = False,
    screenshots: bool = False,
    probe_overrides: dict | None = None,
    checklist: str = "",
) -> None:
    """Score files in process and hand each (path, Score) to `on_score`: as each finishes, or in
    input order. `probe_overrides` replace probe.harness settings (the CLI's --counterfactual,
    --page-timeout)."""
    import asyncio
    from dataclasses import replace

    from cogevol.scoring import ScoreItem, Scorers, ScoringSettings

    settings = ScoringSettings.from_params(params, workers)
    settings = replace(
        settings, screenshots=screenshots, probe=replace(settings.probe, **(probe_overrides or {}))
    )
    batch = [ScoreItem(modality, text, request, raw=True, checklist=checklist) for _, text in items]

    async def run() -> None:
        async with Scorers(settings) as scorers:
            if in_order:
                for (path, _), score in zip(items, await scorers.score(batch)):
                    on_score(path, score)
                return
            async for k, score in scorers.stream(batch):
                on_score(items[k][0], score)

    asyncio.run(run())


def _cmd_probe(a: argparse.Namespace) -> int:
    items = _read_files("probe", a.paths)
    if items is None:
        return 2
    params = _with_judge(_all_params(a.params), a.judge_url, a.judge_model)
    overrides = {
        **({"counterfactual": a.counterfactual} if a.counterfactual else {}),
        **({"page_timeout_s": a.page_timeout} if a.page_timeout else {}),
        **({"trace": True} if a.trace else {}),
    }

    def show(path: str, score) -> None:
        rec = {"path": path, **score.line()}
        if not a.details:  # per-control verdicts and layout measures: --details
            rec.pop("controls", None)
            rec.pop("viewport", None)
        print(json.dumps(rec, ensure_ascii=False), flush=True)

    checklist = ""
    if a.checklist:
        from cogevol.checklist import Checklist

        try:
            checklist = json.dumps(
                Checklist.from_json(
                    json.loads(Path(a.checklist).read_text(encoding="utf-8"))
                ).to_json()
            )
        except (OSError, ValueError) as e:
            print(f"probe: --checklist {a.checklist}: {e}", file=sys.stderr)
            return 2
    elif a.request:
        # a stored (frozen LLM) plan of this request when the replay holds one, else the rules
        from cogevol.checklist.planner import planner_from_params, stored_plan

        plan = stored_plan(planner_from_params(params), a.request, "html")
        checklist = json.dumps(plan.to_json(), ensure_ascii=False) if plan else ""
    _score_files(
        items,
        "html",
        params,
        a.request or "",
        show,
        a.workers,
        probe_overrides=overrides,
        checklist=checklist,
    )
    return 0


def _add_probe(sub) -> None:
    pr = sub.add_parser(
        "probe", help="run pages in Chromium, drive their controls, print one JSON verdict per page"
    )
    pr.add_argument("paths", nargs="+", help="HTML files")
    pr.add_argument(
        "--workers",
        type=int,
        default=None,
        help=_knob("probe.workers"),
    )
    pr.add_argument(
        "--counterfactual",
        choices=("twin", "baseline"),
        default=None,
        help=_knob("probe.harness.counterfactual"),
    )
    pr.add_argument(
        "--page-timeout",
        type=float,
        default=None,
        help=_knob("probe.harness.page_timeout_s"),
    )
    pr.add_argument(
        "--trace",
        action="store_true",
        help="add 'trace': [{start, end, depth}], the page's functions that live inputs ran, "
        "as UTF-8 byte offsets into the file with their call depth from the leaf "
        "(probe.harness.trace)",
    )
    pr.add_argument("--params", default=None, help="params.yaml to read the probe group from")
    pr.add_argument(
        "--details", action="store_true", help="include per-control verdicts and evidence"
    )
    pr.add_argument(
        "--judge-url",
        default=None,
        help=(
            "OpenAI-compatible root of a vision judge: adds the vlm_* terms "
            "(key: $COGEVOL_JUDGE_API_KEY)"
        ),
    )
    pr.add_argument("--judge-model", default=None)
    pr.add_argument(
        "--request",
        default=None,
        help=(
            "the request the pages answer: the gate follows it, its checklist is run, "
            "the judge sees it"
        ),
    )
    pr.add_argument(
        "--checklist",
        default=None,
        help=(
            "a stored checklist (JSON file, docs/checklist.md) for --request; default: the "
            "replay's plan of that request (checklist.replay_path), else the rules plan one"
        ),
    )
    pr.set_defaults(fn=_cmd_probe)


def _cmd_slide_score(a: argparse.Namespace) -> int:
    items = _read_files("slide-score", a.paths)
    if items is None:
        return 2
    params = _with_judge(_all_params(a.params), a.judge_url, a.judge_model)
    png_dir = Path(a.png_dir) if a.png_dir else None
    if png_dir:
        png_dir.mkdir(parents=True, exist_ok=True)
    slides = dict(params.get("slides") or {}, **({"normalise": True} if a.normalise else {}))
    params = {**params, "slides": slides}

    def show(path: str, score) -> None:
        rec = {"path": path, **score.line()}
        for k, png in enumerate(score.images if png_dir else []):
            (png_dir / f"{Path(path).stem}.slide{k + 1}.png").write_bytes(png)
        print(json.dumps(rec, ensure_ascii=False), flush=True)

    _score_files(
        items,
        "slide",
        params,
        a.request or "",
        show,
        1,
        in_order=True,
        screenshots=png_dir is not None,
    )
    return 0


def _add_slide_score(sub) -> None:
    ss = sub.add_parser(
        "slide-score",
        help="render slide outputs, score them (rules [+ judge]), print one JSON line each",
    )
    ss.add_argument(
        "paths", nargs="+", help="files holding model output under the cogevol-slides/1 contract"
    )
    ss.add_argument(
        "--params", default=None, help="params.yaml to read the slides and judge groups from"
    )
    ss.add_argument(
        "--normalise",
        action="store_true",
        help="repair near-miss output first (reported in 'fixes')",
    )
    ss.add_argument("--png-dir", default=None, help="write each slide's screenshot here")
    ss.add_argument(
        "--judge-url",
        default=None,
        help="OpenAI-compatible root of a vision judge (key: $COGEVOL_JUDGE_API_KEY)",
    )
    ss.add_argument("--judge-model", default=None)
    ss.add_argument(
        "--request", default=None, help="the request the slides answer (shown to the judge)"
    )
    ss.set_defaults(fn=_cmd_slide_score)


def _cmd_agreement(a: argparse.Namespace) -> int:
    from cogevol.evaluate.ratings import RatingsError, run_agreement, scatter_figure

    try:
        params = _all_params(a.params)
        if a.workers:
            params = {**params, "probe": {**params.get("probe", {}), "workers": a.workers}}
        report, scores, points = run_agreement(
            a.ratings, a.scores, resamples=a.resamples, params=params
        )
    except RatingsError as e:
        print(f"cogevol agreement: {e}", file=sys.stderr)
        return 2
    if a.out:
        from cogevol.evaluate.agreement import Correlation

        out = Path(a.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "agreement.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        for c in report["correlations"]:
            corr = Correlation.from_record(c)
            scatter_figure(c["name"], points[c["name"]], corr).savefig(
                out / f"{c['name']}.png", dpi=110
            )
    print(json.dumps(report, ensure_ascii=False))
    return 0


def _add_agreement(sub) -> None:
    ag = sub.add_parser(
        "agreement",
        help="Spearman / Kendall of the rewards against human ratings, with bootstrap CIs",
    )
    ag.add_argument(
        "ratings", help="JSONL or CSV: artifact, human_score, rater[, kind] (docs/evaluation.md)"
    )
    ag.add_argument(
        "--scores",
        default=None,
        help="JSONL of precomputed rewards per artifact (else the artifacts are scored)",
    )
    ag.add_argument(
        "--out", default=None, help="write agreement.json and one scatter plot per component here"
    )
    ag.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples")
    ag.add_argument(
        "--workers",
        type=int,
        default=None,
        help=_knob("probe.workers"),
    )
    ag.add_argument(
        "--params",
        default=None,
        help="params.yaml whose probe and slides groups configure the rewards",
    )
    ag.set_defaults(fn=_cmd_agreement)


def _cmd_serve(a: argparse.Namespace) -> int:
    from cogevol.scoring.service import serve

    try:
        serve(_all_params(a.params), a.host, a.port, a.workers)
    except (KeyError, ValueError) as e:  # a bad scoring group in params
        print(f"cogevol serve: {e}", file=sys.stderr)
        return 2
    return 0


def _add_serve(sub) -> None:
    sv = sub.add_parser(
        "serve",
        help="the rewards as an HTTP service: /score, /get_reward (OpenRLHF), /health, /metrics",
    )
    sv.add_argument(
        "--params",
        default=None,
        help="params.yaml whose probe, slides, judge and scoring groups configure it",
    )
    sv.add_argument("--host", default=None, help=_knob("scoring.serve.host"))
    sv.add_argument("--port", type=int, default=None, help=_knob("scoring.serve.port"))
    sv.add_argument("--workers", type=int, default=None, help=_knob("probe.workers"))
    sv.set_defaults(fn=_cmd_serve)


def _cmd_traffic(a: argparse.Namespace) -> int:
    from cogevol_samples.traffic import write_sample

    print(json.dumps(write_sample(a.out, a.n, a.seed, malformed=not a.clean)))
    return 0


def _add_traffic(sub) -> None:
    t = sub.add_parser("traffic", help="write the seeded sample of production traffic")
    t.add_argument("--out", required=True)
    t.add_argument("--n", type=int, default=3000)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--clean", action="store_true", help="omit the planted malformed lines")
    t.set_defaults(fn=_cmd_traffic)


def _knob(key: str) -> str:
    """An option's help: its params.yaml comment, the one place the knob is explained, and the
    key it overrides."""
    from cogevol.core.config import knob_help

    text = knob_help(key)
    return f"{text} (default: params.yaml {key})".replace("%", "%%").lstrip()


def _knob_option(p: argparse.ArgumentParser, flag: str, kind: type, default, key: str) -> None:
    """An option that overrides a params.yaml knob, its help read from params.yaml."""
    p.add_argument(flag, type=kind, default=default, help=_knob(key))


def _cmd_classify(a: argparse.Namespace) -> int:
    """One JSON object per input line, in order; exit 2 when the input cannot be used, or when
    some of its lines could not (each reported in its place with the reason)."""
    from dataclasses import replace

    from cogevol.core.config import from_dict
    from cogevol.taxonomy.classify import TaxonomyConfig, classify
    from cogevol.taxonomy.records import InputError, read_items

    try:
        cfg = from_dict(TaxonomyConfig, _all_params(a.params).get("taxonomy"))
        if a.source:
            cfg = replace(cfg, source=a.source)
        items = read_items(a.input, a.field)
    except (InputError, ValueError, KeyError, TypeError) as e:
        print(f"cogevol classify: {e}", file=sys.stderr)
        return 2
    usable = [it for it in items if it.text]
    labels, counts = classify([it.text for it in usable], cfg)
    by_line = {it.line: lab for it, lab in zip(usable, labels)}
    for it in items:
        out = (
            {"id": it.id, **by_line[it.line].to_json()}
            if it.text
            else {"id": it.id, "line": it.line, "error": it.error}
        )
        print(json.dumps(out, ensure_ascii=False))
    bad = len(items) - len(usable)
    print(json.dumps({"classified": len(usable), "unusable": bad, "by": counts}), file=sys.stderr)
    return 2 if bad else 0


def _add_classify(sub) -> None:
    c = sub.add_parser(
        "classify",
        help="task type (seed 004's L1/L2/L3), difficulty, amplifiers and language per request",
    )
    c.add_argument("--input", required=True, help="JSONL (optionally .gz), one record per line")
    c.add_argument("--field", required=True, help="the field holding the request")
    c.add_argument("--params", default=None, help="params.yaml to read the taxonomy group from")
    c.add_argument(
        "--source",
        choices=("rules", "replay", "openai"),
        default=None,
        help=_knob("taxonomy.source"),
    )
    _renamed_flag(c, "--classifier", "--source")
    c.set_defaults(fn=_cmd_classify)


def _engine_options(p: argparse.ArgumentParser) -> None:
    """--engine and --ray-address of the curation commands (params.yaml `curation`)."""
    engines = ("local", "ray")
    p.add_argument("--engine", choices=engines, default=None, help=_knob("curation.engine"))
    _renamed_flag(p, "--backend", "--engine")
    p.add_argument("--ray-address", default=None, help=_knob("curation.ray.address"))


def _renamed_flag(p: argparse.ArgumentParser, old: str, new: str) -> None:
    """`old`, hidden from the help, refused with the flag that replaced it (a script written
    before the rename fails with the fix, not with argparse's bare 'unrecognized arguments')."""

    class Renamed(argparse.Action):
        def __call__(self, parser, namespace, values, option_string=None):
            parser.error(f"{old} is now {new} (the values are the same)")

    p.add_argument(old, action=Renamed, help=argparse.SUPPRESS)


def _cmd_smoke(a: argparse.Namespace) -> int:
    """Exit 0 when every check passed, 1 when one failed (each printed in `problems`)."""
    import tempfile

    if a.device == "cpu":
        os.environ["CUDA_VISIBLE_DEVICES"] = ""  # read when CUDA first initialises
    from cogevol.train.smoke import run_smoke

    work = a.work or tempfile.mkdtemp(prefix="cogevol-smoke-")
    report = run_smoke(work, a.device, a.steps, a.reward, deepspeed=not a.no_deepspeed)
    print(json.dumps({**report.to_json(), "work": str(work)}, indent=1, default=str))
    return 0 if report.ok else 1


def _add_smoke(sub) -> None:
    sm = sub.add_parser(
        "smoke",
        help="the real SFT and GRPO code for a few steps on a model built here (DeepSpeed ZeRO-2, "
        "bf16 on CUDA): checks device, engine, finite losses, a checkpoint that reloads",
    )
    sm.add_argument("--device", choices=("auto", "cuda", "cpu"), default="auto")
    sm.add_argument("--steps", type=int, default=3, help="optimizer steps per stage")
    sm.add_argument(
        "--reward",
        choices=("auto", "executable", "stand-in"),
        default="auto",
        help="auto: the executable reward where Chromium and Playwright are installed, else a "
        "stand-in in Python (the report says which ran)",
    )
    sm.add_argument("--work", default=None, help="where the models go (default: a new temp dir)")
    sm.add_argument("--no-deepspeed", action="store_true", help="plain torch instead of ZeRO-2")
    sm.set_defaults(fn=_cmd_smoke)


def build_parser() -> argparse.ArgumentParser:
    """The `cogevol` parser: each command's options are added beside its handler (_add_*)."""
    p = argparse.ArgumentParser(prog="cogevol", description=__doc__.splitlines()[0])
    p.add_argument("--log-level", default=None, help="DEBUG, INFO (default), WARNING")
    sub = p.add_subparsers(dest="command", required=True)
    for add in (
        _add_dedup,
        _add_mine,
        _add_filter,
        _add_classify,
        _add_probe,
        _add_slide_score,
        _add_agreement,
        _add_serve,
        _add_preflight,
        _add_traffic,
        _add_smoke,
    ):
        add(sub)
    return p


def _cmd_preflight(a) -> int:
    """Exit 0: the run can go as planned; 2: it cannot (every problem printed with its knob)."""
    import yaml

    from cogevol.core.config import load_profile, with_overrides
    from cogevol.preflight import environment as env
    from cogevol.preflight.plan import plan

    try:
        params = with_overrides(load_profile(a.profile, a.params), a.overrides)
    except (OSError, KeyError, ValueError, yaml.YAMLError) as e:
        print(f"preflight: cannot read the profile {a.profile!r}: {e}", file=sys.stderr)
        return 2
    if a.gpus is not None:
        if a.gpus < 0 or a.nodes < 1 or a.gpu_memory_gb <= 0:
            print("preflight: --gpus >= 0, --nodes >= 1 and --gpu-memory-gb > 0", file=sys.stderr)
            return 2
        hw = env.Hardware(a.gpus, a.nodes, a.gpu_memory_gb, "declared", declared=True)
    else:
        hw = env.detect_hardware(a.nodes)
    try:
        result = plan(
            params,
            hw,
            check_env=a.check_endpoints or not hw.declared,
            launch_line=os.environ.get(env.LAUNCH_VAR),
            tflops=a.gpu_tflops,
        )
    except (KeyError, ValueError, TypeError) as e:  # a params value the plan cannot read
        print(f"preflight: {a.params}: {e!r}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_dict(), indent=1) if a.json else result.render())
    return 0 if result.ok else 2


def _add_preflight(sub) -> None:
    pf = sub.add_parser(
        "preflight",
        help="plan a training run on the hardware found or declared: ranks, batch, placement, "
        "memory, versions, endpoints; exit 2 with every problem and its knob",
    )
    pf.add_argument(
        "--profile",
        default="embedded",
        help="embedded (params.yaml as is), gpu, cpu-small, or an overlay YAML (infra/profiles/)",
    )
    pf.add_argument("--params", default="params.yaml")
    pf.add_argument(
        "-S",
        "--set-param",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one value after the profile, as `dvc exp run -S` does (repeatable)",
    )
    pf.add_argument(
        "--gpus",
        type=int,
        default=None,
        help="GPUs per node to plan for (declared: no GPU needs to be present)",
    )
    pf.add_argument("--nodes", type=int, default=1)
    pf.add_argument(
        "--gpu-memory-gb",
        type=float,
        default=80.0,
        help="memory of each declared GPU (GiB, as the card is sold: 80, 141)",
    )
    pf.add_argument(
        "--gpu-tflops",
        type=float,
        default=None,
        help="bf16 dense TFLOPS of one GPU for the time estimate (default: by its memory, "
        "cogevol/preflight/timing.py)",
    )
    pf.add_argument(
        "--check-endpoints",
        action="store_true",
        help="with declared hardware, still check the launcher, GPU-only libraries and the "
        "endpoints as problems (they are always checked on found hardware)",
    )
    pf.add_argument("--json", action="store_true", help="one JSON object on stdout")
    pf.set_defaults(fn=_cmd_preflight)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    setup_logging(args.log_level)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
