"""DVC deps correct by construction: every project module a stage script imports, directly or
through other project modules (imports inside functions included), is covered by that stage's
deps as declared in cogevol/dag.py (dvc.yaml is generated from it, tests/test_dag.py), so an edit
to any code a stage's results depend on reruns the stage.

Exempt: modules that only log, track or draw (their edits cannot change a result), and package
`__init__.py` files that hold no code.
"""

import ast
from pathlib import Path

import yaml

from cogevol.dag import OPERATIONAL, STAGES
from tests.conftest import REPO

LOGGING_ONLY = {"cogevol/core/logs.py", "cogevol/pipeline/tracking.py", "cogevol/core/progress.py", "cogevol/pipeline/plots.py",
                "cogevol/train/plots.py", "cogevol/train/callbacks.py", "cogevol/train/monitor.py"}


def module_file(name: str) -> Path | None:
    base = REPO / Path(*name.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.exists():
            return p
    return None


def imported_files(path: Path) -> set[Path]:
    """Project files `path` imports (cogevol.* modules, and sibling stage scripts)."""
    out: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name.startswith("cogevol"):
                parts = name.split(".")
                for k in range(1, len(parts) + 1):  # the packages on the way are imported too
                    f = module_file(".".join(parts[:k]))
                    if f is not None:
                        out.add(f)
            elif path.parent.name == "stages" and (path.parent / f"{name}.py").exists():
                out.add(path.parent / f"{name}.py")
    return out


def closure(script: Path) -> set[Path]:
    seen, todo = set(), [script]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo += sorted(imported_files(f) - seen)
    return seen


def no_code(f: Path) -> bool:
    """A package marker: a docstring and constants (`__version__`), nothing that runs."""
    body = ast.parse(f.read_text(encoding="utf-8")).body
    return f.name == "__init__.py" and all(isinstance(n, ast.Expr | ast.Assign) and isinstance(n.value, ast.Constant)
                                           for n in body)


def gaps() -> dict[str, list[str]]:
    out = {}
    for st in STAGES:
        name, deps = st.name, st.dep_paths()
        missing = []
        for f in sorted(closure(REPO / st.script)):
            rel = f.relative_to(REPO).as_posix()
            if rel in LOGGING_ONLY or no_code(f):
                continue
            if not any(rel == d or rel.startswith(d.rstrip("/") + "/") for d in deps):
                missing.append(rel)
        if missing:
            out[name] = missing
    return out


def test_every_imported_module_is_a_dep_of_its_stage():
    assert gaps() == {}


def test_the_walk_follows_imports_through_modules_and_functions():
    files = {f.relative_to(REPO).as_posix() for f in closure(REPO / "stages" / "grpo_html.py")}
    assert "stages/grpo.py" in files and "cogevol/train/grpo_stage.py" in files
    assert "cogevol/scoring/local.py" in files  # imported inside grpo_stage(), through open_scorers
    assert "cogevol/probe/core.py" in files  # ... and on through the HTML scorer


def leaf_keys(node: dict, prefix: str) -> set[str]:
    out = set()
    for k, v in node.items():
        out |= leaf_keys(v, f"{prefix}.{k}") if isinstance(v, dict) and f"{prefix}.{k}" in {o.rsplit(".", 1)[0] for o in OPERATIONAL} \
            else {f"{prefix}.{k}"}
    return out


def test_params_listed_key_by_key_cover_every_result_knob():
    """Operational knobs (cogevol.dag.OPERATIONAL) decide how fast or through what a stage runs,
    never its results: DVC does not track them, and tracks every other key of their groups."""
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    stages = {st.name: {"params": st.tracked(params)} for st in STAGES}
    problems = []
    for name, st in stages.items():
        listed = set(st.get("params") or [])
        for group in sorted({p.split(".")[0] for p in listed if "." in p} & {o.split(".")[0] for o in OPERATIONAL}):
            expected = leaf_keys(params[group], group) - OPERATIONAL
            covered = {k for k in expected if any(k == p or k.startswith(p + ".") for p in listed)}
            problems += [f"{name}: {k} is not tracked" for k in sorted(expected - covered)]
            problems += [f"{name}: {p} is operational" for p in sorted(listed & OPERATIONAL)]
    assert problems == []
    assert "probe.workers" not in stages["distill"]["params"] and "judge.concurrency" not in stages["grpo_slide"]["params"]
