"""No import cycles inside cogevol, counting every import (inside functions and under
TYPE_CHECKING too): a cycle means two modules cannot be understood, tested or moved apart; and
no private name (`_x`) is imported from another package."""

import ast
from pathlib import Path

from tests.conftest import REPO

PKG = REPO / "cogevol"


def module_name(path: Path) -> str:
    rel = path.relative_to(REPO).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PKG.rglob("*.py")}


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) for every `import cogevol...` / `from cogevol... import ...` in `path`."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names if a.name.startswith("cogevol")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.startswith("cogevol"):
            out.append((node.module, [a.name for a in node.names]))
    return out


def graph() -> dict[str, set[str]]:
    g: dict[str, set[str]] = {m: set() for m in MODULES}
    for m, path in MODULES.items():
        for target, names in imports(path):
            # `from pkg import mod` imports the module pkg.mod; otherwise the module named
            hits = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES] or [target]
            g[m] |= {h for h in hits if h in MODULES and h != m and not MODULES[h].name == "__init__.py"}
    return g


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v: str) -> None:
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_private_name_is_imported_from_another_package():
    bad = []
    for m, path in MODULES.items():
        pkg = m.rsplit(".", 1)[0]
        for target, names in imports(path):
            if target.rsplit(".", 1)[0] != pkg:
                bad += [f"{m}: {target}.{n}" for n in names if n.startswith("_") and n != "__version__"]
    assert bad == []


def test_every_public_error_derives_from_one_base():
    """`except CogevolError` catches every error the project raises on purpose."""
    bases = {"Exception", "ValueError", "RuntimeError", "KeyError", "TypeError", "OSError"}
    stray = []
    for m, path in MODULES.items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_") and node.name != "CogevolError":
                names = {b.id for b in node.bases if isinstance(b, ast.Name)}
                if names & bases and "CogevolError" not in names:
                    stray.append(f"{m}.{node.name}")
    assert stray == [] or stray == ["cogevol.scoring.service.Overloaded"], stray


# each package's public names, pinned (httpx's test_exported_members): a name added to or dropped
# from a package's API is a decision, made here
PUBLIC = {
    "cogevol.browser": ["BrowserConfig", "BrowserPool", "PageHung", "find_chromium"],
    "cogevol.checklist": ["CHECKS", "MAX_MENTIONS", "VERSION", "Check", "CheckResult", "Checklist", "PageFacts",
                          "RequestFit", "checklist_for", "fulfilment", "latin_words", "lexicon",
                          "plan_rules", "request_fit", "run_check", "run_checklist"],
    "cogevol.probe": ["Control", "ProbeConfig", "ProbeResult", "probe_html"],
    "cogevol.scoring": ["Score", "ScoreItem", "Scorers", "ScoringConfig", "ScoringSettings", "open_scorers"],
}


def test_each_package_exports_its_pinned_names():
    import importlib

    for name, names in PUBLIC.items():
        mod = importlib.import_module(name)
        assert sorted(mod.__all__) == sorted(names), name
        assert all(hasattr(mod, n) for n in names), name


def test_a_module_lists_in_all_only_what_it_defines():
    """One import path per public name: a module's `__all__` holds its own names; re-exports are
    a package's (its `__init__`)."""
    stray = []
    for m, path in MODULES.items():
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
        defined |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        for n in tree.body:
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets):
                stray += [f"{m}.{v.value}" for v in n.value.elts if isinstance(v, ast.Constant) and v.value not in defined]
    assert stray == []


def test_the_reward_reads_requests_without_the_traffic_miner():
    """The reward, the checklist and the probe read request words from cogevol.core.request_lexicon,
    below both them and the miner: nothing they import, directly or not, is cogevol.traffic."""
    g = graph()
    for root in [m for m in MODULES if m.startswith(("cogevol.rewards", "cogevol.checklist", "cogevol.probe"))]:
        seen, todo = set(), [root]
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo += g[m]
        assert not [m for m in seen if m.startswith("cogevol.traffic")], root



def _load_time_imports(path: Path) -> list[str]:
    """Modules `path` imports when it loads: module-level imports, not those inside functions
    or under TYPE_CHECKING."""
    out: list[str] = []

    def visit(nodes):
        for node in nodes:
            if isinstance(node, ast.Import):
                out.extend(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                out.extend([node.module] + [f"{node.module}.{a.name}" for a in node.names])
            elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
                visit(node.body + node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return out


def test_the_training_code_imports_without_playwright():
    """The one-GPU smoke run goes where only torch, transformers, peft and accelerate (plus a
    wheelhouse) are installed: loading the training stages must not load Chromium's driver.
    Follows every cogevol module loaded at import time (package __init__ files included)."""
    todo = ["cogevol.train.sft", "cogevol.train.grpo", "cogevol.train.rewards"]
    seen: set[str] = set()
    while todo:
        m = todo.pop()
        parts = m.split(".")
        for k in range(1, len(parts) + 1):  # a module loads its packages first
            name = ".".join(parts[:k])
            if name in seen or name not in MODULES:
                continue
            seen.add(name)
            for target in _load_time_imports(MODULES[name]):
                assert target.split(".")[0] != "playwright", f"{name} loads playwright"
                if target.startswith("cogevol"):
                    todo.append(target)
    assert "cogevol.train.grpo" in seen and "cogevol.scoring.types" in seen


def test_the_bottom_layers_import_nothing_above_them():
    """core/ stands on nothing else of cogevol, and llm/ on core/ alone: either can be read, tested
    and reused without the stages, the rewards or the browser."""
    allowed = {"cogevol.core": ("cogevol.core",), "cogevol.llm": ("cogevol.core", "cogevol.llm")}
    bad = [
        f"{m} -> {target}"
        for m, path in MODULES.items()
        for layer, ok in allowed.items()
        if m == layer or m.startswith(layer + ".")
        for target, _ in imports(path)
        if target != "cogevol" and not target.startswith(tuple(o + "." for o in ok) + ok)
    ]
    assert bad == []


def test_the_root_holds_only_the_command_the_stage_list_and_the_prompts():
    """Everything else lives in a package that names its layer (README: Layout)."""
    assert sorted(p.name for p in PKG.glob("*.py")) == ["__init__.py", "cli.py", "dag.py", "prompts.py"]


# The packages bottom-up, one layer per line: a package imports only packages of layers below
# its own (README: Layout). The top reads every package: the command and the stage list.
LAYERS = [
    {"core"},
    {"llm"},
    {"browser", "raydata", "prompts"},
    {"pipeline"},
    {"taxonomy", "judge", "slides", "probe", "checklist"},
    {"rewards"},
    {"scoring", "traffic", "dedup"},
    {"curate", "distill", "train"},
    {"preflight", "evaluate"},
    {"cli", "dag"},
]


def package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_no_package_imports_one_above_it():
    """Package by package, imports only go down the layers: the helpers every stage uses
    (pipeline/) import no stage package, and no package reaches up to one that uses it."""
    level = {p: k for k, layer in enumerate(LAYERS) for p in layer}
    missing = {package(m) for m in MODULES if m != "cogevol"} - set(level)
    assert not missing, f"packages in no layer: {sorted(missing)} (add them to LAYERS)"
    up = sorted(
        f"{m} -> {t}"
        for m, targets in graph().items()
        if m != "cogevol"
        for t in targets
        if package(t) != package(m) and level[package(t)] >= level[package(m)]
    )
    assert up == []


def test_training_imports_nothing_of_the_planner_above_it():
    """preflight plans training runs; the trainer's own batch arithmetic (cogevol.train.batch)
    sits below it, so training never reads the planner."""
    bad = [f"{m} -> {t}" for m, path in MODULES.items() if m.startswith("cogevol.train")
           for t, _ in imports(path) if t.startswith("cogevol.preflight")]
    assert bad == []
