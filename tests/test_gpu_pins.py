"""The `gpu` extra's pins agree with what the packages themselves declare, checked offline.

infra/pins/gpu_declared_requirements.txt holds the Requires-Dist lines of the vLLM, TRL and
transformers wheels (read from their METADATA); a resolver given pins that contradict them
settles on some other vLLM, one nobody tried with our transformers."""

import re

import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.conftest import REPO

ENV = {"python_version": "3.11", "python_full_version": "3.11.9", "platform_machine": "x86_64",
       "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
       "implementation_name": "cpython", "platform_python_implementation": "CPython"}
TRL_EXTRAS = ("vllm", "deepspeed")  # what the GPU install takes of TRL


def declared() -> dict[tuple[str, Version], list[Requirement]]:
    out: dict[tuple[str, Version], list[Requirement]] = {}
    key = None
    for line in (REPO / "infra" / "pins" / "gpu_declared_requirements.txt").read_text().splitlines():
        if m := re.match(r"\[([A-Za-z0-9_.]+?)-(\d[^-]*)-", line):
            key = (canonicalize_name(m.group(1)), Version(m.group(2)))
            out[key] = []
        elif line.startswith("Requires-Dist: ") and key:
            out[key].append(Requirement(line.removeprefix("Requires-Dist: ")))
    return out


def project() -> list[Requirement]:
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in meta["dependencies"] + meta["optional-dependencies"]["gpu"]]


def cpu_torch() -> Version:
    return Version(re.search(r"TORCH_VERSION:-([\d.]+)", (REPO / "infra" / "setup.sh").read_text()).group(1))


def conflicts(chosen: dict[str, Version], decl: dict) -> list[str]:
    """Every declared requirement among the chosen versions that they break."""
    reqs = [("cogevol", r, ()) for r in project()]
    for name, extras in (("vllm", ()), ("trl", TRL_EXTRAS), ("transformers", ("torch",))):
        reqs += [(f"{name}=={chosen[name]}", r, extras) for r in decl[(name, chosen[name])]]
    bad = []
    for who, r, extras in reqs:
        name = canonicalize_name(r.name)
        if name not in chosen:
            continue
        if r.marker and not any(r.marker.evaluate(ENV | {"extra": e}) for e in ("", *extras)):
            continue
        if not r.specifier.contains(chosen[name], prereleases=True):
            bad.append(f"{who} needs {r}, not {chosen[name]}")
    return bad


def versions(decl: dict, name: str) -> list[Version]:
    return sorted(v for n, v in decl if n == name)


def admitted(name: str, vs: list[Version]) -> list[Version]:
    spec = next(r.specifier for r in project() if canonicalize_name(r.name) == name)
    return [v for v in vs if spec.contains(v)]


def test_every_vllm_the_gpu_extra_admits_agrees_with_our_pins_trl_and_the_cpu_torch():
    decl = declared()
    vllms = admitted("vllm", versions(decl, "vllm"))
    assert vllms, "the gpu extra admits no vLLM whose metadata is on record"
    for transformers in admitted("transformers", versions(decl, "transformers")):
        for vllm in vllms:
            chosen = {"vllm": vllm, "trl": admitted("trl", versions(decl, "trl"))[-1],
                      "transformers": transformers, "torch": cpu_torch()}
            assert not conflicts(chosen, decl), chosen


def test_the_check_sees_the_releases_that_cap_transformers_below_ours():
    """vLLM 0.31 and later cap transformers under 5.24 (and TRL 1.16 stops at 0.31): the old
    extra's upper end is caught, so the test above can fail."""
    decl = declared()
    chosen = {"vllm": Version("0.31.0"), "trl": Version("1.16.0"),
              "transformers": Version("5.25.0"), "torch": cpu_torch()}
    (bad,) = [c for c in conflicts(chosen, decl) if c.startswith("vllm")]
    assert "transformers" in bad and "5.18" in bad
    chosen["vllm"] = Version("0.33.0")
    assert any("torch" in c for c in conflicts(chosen, decl))
