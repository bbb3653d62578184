"""Training: the policy model (tiny CPU model or hub checkpoint), mixed SFT, and GRPO.

One module per concern: `config` (documented dataclasses read from params.yaml), `tokenizer`
and `model_factory` (the embedded tiny Qwen3 model), `distributed` (DeepSpeed in one process
or under a launcher), `data` (chat datasets), `sft`, `rewards` (routed, timed, itemised TRL
reward functions), `monitor` + `callbacks` (step timing, rollouts, MLflow), `plots`, `grpo`,
`stages` (the three DVC stages as functions) and `synthetic` (contract-shaped test inputs).
"""
