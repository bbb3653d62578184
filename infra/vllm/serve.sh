#!/usr/bin/env bash
# OpenAI-compatible vLLM servers for the GPU profile (infra/profiles/gpu.yaml). vLLM is not part
# of the embedded profile: `pip install -e '.[gpu]'` on the GPU box first.
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
set -euo pipefail

role="${1:?usage: serve.sh teacher|judge|filter|rollout [MODEL]}"
GPUS="${GPUS:-0}"
TP="${TP:-$(awk -F, '{print NF}' <<<"$GPUS")}"
HOST="${HOST:-127.0.0.1}"
MEM="${MEM:-0.9}"
export CUDA_VISIBLE_DEVICES="$GPUS"

case "$role" in
  teacher) model="${2:-Qwen/Qwen3-32B}"; port="${PORT:-8001}"; max_len="${MAX_LEN:-32768}" ;;
  judge)   model="${2:-Qwen/Qwen2.5-VL-7B-Instruct}"; port="${PORT:-8002}"; max_len="${MAX_LEN:-16384}" ;;
  filter)  model="${2:-Qwen/Qwen3-8B}"; port="${PORT:-8000}"; max_len="${MAX_LEN:-8192}" ;;
  rollout) model="${2:-models/sft}"; port="${PORT:-8003}"; max_len="${MAX_LEN:-20480}" ;;
  *) echo "unknown role $role (teacher | judge | filter | rollout)" >&2; exit 2 ;;
esac

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
